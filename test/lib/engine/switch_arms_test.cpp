// Unit tests of lib/engine/SwitchArms.h: which arms of a switch SwitchArms
// collects, and what each arm knows when entered through its labels (with
// arraydevice's answers: a count of one, a platform, a sharding kind), where
// arms meet again, and switches over a local of constants; read from the
// flow analysis alone at the sinks.

#include "lib/engine/SwitchArms.h"

#include "arraydevice/array_device_snippets.h"
#include "snippet_annotations.h"
#include "syntax_vs_flow.h"

#include "clang/AST/ASTContext.h"
#include "clang/Analysis/CFG.h"

#include "gtest/gtest.h"

#include <memory>
#include <string>
#include <vector>

using namespace clang;
using namespace clang::interop;
using interop_test::proofName;

namespace {

using Sinks = std::vector<std::string>;

std::string single(const SinkFact &F) { return proofName(F.SingleDevice); }
std::string tpu(const SinkFact &F) { return proofName(F.Tpu); }

const char *const Counts = R"cpp(#include "interop/interop.h"
using namespace interop;
void count(const Array &a) {
  switch (a.num_devices()) {
  case 1:
    (void)to_dlpack(a);
    break;
  case 2:
    (void)to_dlpack(a);
    break;
  default:
    (void)to_dlpack(a);
  }
  (void)to_dlpack(a);
}
void one_not_listed(const Array &a) {
  switch (a.num_devices()) {
  case 2:
    (void)to_dlpack(a);
    break;
  default:
    (void)to_dlpack(a);
  }
}
void grouped(const Array &a) {
  switch (a.num_devices()) {
  case 2:
  case 3:
    (void)to_dlpack(a);
    break;
  case 4:
  case 1:
    (void)to_dlpack(a);
    break;
  }
}
void sharding_count(const Array &a) {
  switch (a.sharding().num_devices()) {
  case 1:
    (void)to_dlpack(a);
    break;
  }
}
void fallthrough(const Array &a, int &log) {
  switch (a.num_devices()) {
  case 2:
    ++log;
    [[fallthrough]];
  case 1:
    (void)to_dlpack(a);
    break;
  }
}
void entered_by_goto(const Array &a, bool again) {
  if (again)
    goto inside;
  switch (a.num_devices()) {
  case 1:
  inside:
    (void)to_dlpack(a);
    break;
  }
}
void loop_in_arm(const Array &a, int n) {
  switch (a.num_devices()) {
  case 1:
    for (int i = 0; i < n; ++i)
      (void)to_dlpack(a);
    break;
  }
}
void other_value(const Array &a, int k) {
  switch (k) {
  case 1:
    (void)to_dlpack(a);
    break;
  }
}
)cpp";

TEST(SwitchArms, CountArms) {
  auto AST = interop_test::parseInteropCode(Counts);
  ASSERT_TRUE(AST);
  ASSERT_FALSE(AST->getASTContext().getDiagnostics().hasErrorOccurred());
  // `case 1` proves one device, another count refutes it, and `default`
  // refutes it when `case 1` is listed; after the switch nothing is known.
  EXPECT_EQ(interop_test::flowAtSinks(AST, "count", single),
            (Sinks{"holds", "refuted", "refuted", "unknown"}));
  EXPECT_EQ(interop_test::flowAtSinks(AST, "one_not_listed", single),
            (Sinks{"refuted", "unknown"}));
  // Grouped labels: the disjunction of what each proves.
  EXPECT_EQ(interop_test::flowAtSinks(AST, "grouped", single),
            (Sinks{"refuted", "unknown"}));
  EXPECT_EQ(interop_test::flowAtSinks(AST, "sharding_count", single),
            (Sinks{"holds"}));
  // A loop inside the arm keeps what the arm was entered with.
  EXPECT_EQ(interop_test::flowAtSinks(AST, "loop_in_arm", single),
            (Sinks{"holds"}));
}

TEST(SwitchArms, ArmsEnteredOtherwiseKnowNothing) {
  auto AST = interop_test::parseInteropCode(Counts);
  ASSERT_TRUE(AST);
  // Also entered from `case 2`'s statement, or by a goto.
  EXPECT_EQ(interop_test::flowAtSinks(AST, "fallthrough", single),
            (Sinks{"unknown"}));
  EXPECT_EQ(interop_test::flowAtSinks(AST, "entered_by_goto", single),
            (Sinks{"unknown"}));
  // A switch over a value that encodes no fact.
  EXPECT_EQ(interop_test::flowAtSinks(AST, "other_value", single),
            (Sinks{"unknown"}));
}

TEST(SwitchArms, EnumeratorArms) {
  auto AST = interop_test::parseInteropCode(R"cpp(#include "interop/interop.h"
using namespace interop;
void platform(const Array &a) {
  switch (a.platform()) {
  case Platform::kTpu:
    (void)to_dlpack(a);
    break;
  case Platform::kCpu:
  case Platform::kCuda:
    (void)to_dlpack(a);
    break;
  }
}
void kind(const Array &a) {
  switch (a.sharding().kind()) {
  case Sharding::Kind::kSingleDevice:
    (void)to_dlpack(a);
    break;
  case Sharding::Kind::kSplit:
    (void)to_dlpack(a);
    break;
  default:
    (void)to_dlpack(a);
  }
}
)cpp");
  ASSERT_TRUE(AST);
  ASSERT_FALSE(AST->getASTContext().getDiagnostics().hasErrorOccurred());
  // Only "on TPU" is ever proven (the sinks never need "not on TPU").
  EXPECT_EQ(interop_test::flowAtSinks(AST, "platform", tpu),
            (Sinks{"holds", "unknown"}));
  // `default` with every single-device kind listed refutes it.
  EXPECT_EQ(interop_test::flowAtSinks(AST, "kind", single),
            (Sinks{"holds", "refuted", "refuted"}));
}

TEST(SwitchArms, WhereArmsMeet) {
  auto AST = interop_test::parseInteropCode(R"cpp(#include "interop/interop.h"
using namespace interop;
void implicit_default(const Array &a) {
  switch (a.num_devices()) {
  case 1:
    return;
  }
  (void)to_dlpack(a);
}
void empty_arm_meets_another(const Array &a, int &k) {
  switch (a.num_devices()) {
  case 2:
    break;
  case 3:
    ++k;
    break;
  default:
    return;
  }
  (void)to_dlpack(a);
}
void one_way_proves_nothing(const Array &a, int &k) {
  switch (a.num_devices()) {
  case 1:
    break;
  case 2:
    ++k;
    break;
  }
  (void)to_dlpack(a);
}
)cpp");
  ASSERT_TRUE(AST);
  ASSERT_FALSE(AST->getASTContext().getDiagnostics().hasErrorOccurred());
  // Past a switch without `default:` that leaves on `case 1`, the count is
  // not one.
  EXPECT_EQ(interop_test::flowAtSinks(AST, "implicit_default", single),
            (Sinks{"refuted"}));
  // An empty arm and an arm with a statement meet: two or three devices.
  EXPECT_EQ(interop_test::flowAtSinks(AST, "empty_arm_meets_another", single),
            (Sinks{"refuted"}));
  // One device, two, or any other count (the implicit default).
  EXPECT_EQ(interop_test::flowAtSinks(AST, "one_way_proves_nothing", single),
            (Sinks{"unknown"}));
}

TEST(SwitchArms, LocalOfConstants) {
  auto AST = interop_test::parseInteropCode(R"cpp(#include "interop/interop.h"
using namespace interop;
void mapped(const Array &a) {
  int kind;
  switch (a.num_devices()) {
  case 1:
    kind = 0;
    break;
  default:
    kind = 1;
    break;
  }
  switch (kind) {
  case 0:
    (void)to_dlpack(a);
    break;
  default:
    (void)to_dlpack(a);
  }
}
void mapped_by_if(const Array &a) {
  int kind = 1;
  if (a.num_devices() == 1)
    kind = 0;
  switch (kind) {
  case 0:
    (void)to_dlpack(a);
    break;
  case 1:
    (void)to_dlpack(a);
    break;
  }
}
void initial_value(const Array &a) {
  int kind = 0;
  if (a.num_devices() != 1)
    kind = 2;
  switch (kind) {
  case 0:
    (void)to_dlpack(a);
    break;
  }
}
void not_only_constants(const Array &a, int n) {
  int kind = n;
  if (a.num_devices() == 1)
    kind = 0;
  switch (kind) {
  case 0:
    (void)to_dlpack(a);
    break;
  }
}
void changed_otherwise(const Array &a) {
  int kind = 1;
  if (a.num_devices() == 1)
    kind = 0;
  ++kind;
  switch (kind) {
  case 1:
    (void)to_dlpack(a);
    break;
  }
}
)cpp");
  ASSERT_TRUE(AST);
  ASSERT_FALSE(AST->getASTContext().getDiagnostics().hasErrorOccurred());
  // `case 0:` is reached only through the store of 0, made where the count
  // was one; the default arm knows nothing.
  EXPECT_EQ(interop_test::flowAtSinks(AST, "mapped", single),
            (Sinks{"holds", "unknown"}));
  EXPECT_EQ(interop_test::flowAtSinks(AST, "mapped_by_if", single),
            (Sinks{"holds", "unknown"}));
  // The initial 0 was stored before anything was known.
  EXPECT_EQ(interop_test::flowAtSinks(AST, "initial_value", single),
            (Sinks{"unknown"}));
  // A store that is not a constant, a change no store says.
  EXPECT_EQ(interop_test::flowAtSinks(AST, "not_only_constants", single),
            (Sinks{"unknown"}));
  EXPECT_EQ(interop_test::flowAtSinks(AST, "changed_otherwise", single),
            (Sinks{"unknown"}));
}

/// Whether SwitchArms collects an arm in the function Name.
bool collectsArms(ASTContext &Ctx, llvm::StringRef Name) {
  const FunctionDecl *FD = interop_test::functionNamed(Ctx, Name);
  if (!FD)
    return false;
  std::unique_ptr<CFG> G =
      CFG::buildCFG(FD, FD->getBody(), &Ctx, CFG::BuildOptions());
  EXPECT_TRUE(G);
  SwitchArms Arms;
  if (G)
    Arms.collect(*G, *FD, Ctx);
  return !Arms.empty();
}

TEST(SwitchArms, CollectedArms) {
  auto AST = interop_test::parseInteropCode(R"cpp(#include "interop/interop.h"
using namespace interop;
void no_switch(const Array &a) { (void)to_dlpack(a); }
void empty_arms(const Array &a) {
  switch (a.num_devices()) {
  case 1:
    break;
  default:
    break;
  }
  (void)to_dlpack(a);
}
void empty_arm_alone(const Array &a) {
  switch (a.num_devices()) {
  case 1:
    break;
  }
}
void one_arm(int k) {
  switch (k) {
  case 1:
    ++k;
    break;
  }
}
)cpp");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  EXPECT_FALSE(collectsArms(Ctx, "no_switch"));
  // Arms without a statement of their own: what they prove is assumed
  // where they meet again, if anything follows.
  EXPECT_TRUE(collectsArms(Ctx, "empty_arms"));
  EXPECT_FALSE(collectsArms(Ctx, "empty_arm_alone"));
  // Arms are collected whatever the condition; what it encodes is asked
  // only when the arm is entered.
  EXPECT_TRUE(collectsArms(Ctx, "one_arm"));
}

} // namespace
