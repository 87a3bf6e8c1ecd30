// Unit tests of the summaries of same-TU helpers
// (lib/arraydevice/ArrayDeviceSummaries.h): what a summary holds, that it is
// made once per helper, its bounds, and that the syntactic fast path (which
// reads no summary) never proves what the flow analysis with summaries does
// not.

#include "lib/arraydevice/ArrayDeviceSummaries.h"

#include "lib/arraydevice/ArrayDeviceState.h"

#include "arraydevice/array_device_snippets.h"

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Frontend/ASTUnit.h"

#include "gtest/gtest.h"

#include <memory>
#include <string>

using namespace clang;
using namespace clang::interop;
using namespace clang::interop::arraydevice;
using namespace clang::ast_matchers;

namespace {

const char *const Helpers = R"cpp(#include "interop/interop.h"
using namespace interop;
[[noreturn]] void fail();
bool exportable(const Array &a) {
  return a.is_single_device() && a.is_fully_addressable();
}
bool many(const Array &a) { return a.num_devices() > 1; }
bool forced(const Array &a, bool f) {
  if (a.is_single_device())
    return true;
  return f;
}
Status check(const Array &a) {
  if (a.num_devices() != 1)
    return Status(StatusCode::kBufferError, "sharded");
  return ok_status();
}
const Array &require(const Array &a) {
  if (!a.is_single_device())
    fail();
  return a;
}
Device pick(int i) { return devices()[i]; }
bool loop(const Array &a, int n) { return n ? loop(a, n - 1) : a.is_single_device(); }
bool no_body(const Array &a);

void uses(const Array &a, bool f) {
  bool b = exportable(a) || many(a) || forced(a, f) || loop(a, 2) ||
           no_body(a);
  Status s = check(a);
  auto t = to_dlpack(require(a));
  Device d = pick(0);
}
void again(const Array &a) { bool b = exportable(a); }
)cpp";

/// The call of `Callee` in function `In`.
const CallExpr *callOf(ASTContext &Ctx, llvm::StringRef In,
                       llvm::StringRef Callee) {
  auto Found =
      match(callExpr(callee(functionDecl(hasName(Callee))),
                     hasAncestor(functionDecl(hasName(In), isDefinition())))
                .bind("c"),
            Ctx);
  return Found.empty() ? nullptr : Found[0].getNodeAs<CallExpr>("c");
}

bool hasFact(const HelperSummary &S, llvm::StringRef Field,
             HelperSummary::When W, bool Holds) {
  for (const HelperSummary::Fact &F : S.Facts)
    if (F.Field == Field && F.Cond == W && F.Holds == Holds)
      return true;
  return false;
}

TEST(HelperSummaries, WhatEachHelperProves) {
  auto AST = interop_test::parseInteropCode(Helpers);
  ASTContext &Ctx = AST->getASTContext();
  ApiModel M{ApiModelOptions()};
  HelperSummaries Sums(FlowBounds(), AllFacts);
  auto Of = [&](llvm::StringRef Callee) {
    const CallExpr *CE = callOf(Ctx, "uses", Callee);
    EXPECT_NE(CE, nullptr) << Callee.str();
    return CE ? Sums.of(*CE, M, Ctx, 0) : nullptr;
  };
  const HelperSummary *E = Of("exportable");
  ASSERT_NE(E, nullptr);
  EXPECT_TRUE(hasFact(*E, kSingle, HelperSummary::When::IfTrue, true));
  // Nothing is known when it returns false (either conjunct may fail).
  EXPECT_FALSE(hasFact(*E, kSingle, HelperSummary::When::IfFalse, false));

  const HelperSummary *Many = Of("many");
  ASSERT_NE(Many, nullptr);
  EXPECT_TRUE(hasFact(*Many, kSingle, HelperSummary::When::IfTrue, false));
  EXPECT_TRUE(hasFact(*Many, kSingle, HelperSummary::When::IfFalse, true));

  // The fact holds on one return, not under "true" on every return.
  const HelperSummary *Forced = Of("forced");
  EXPECT_TRUE(!Forced ||
              !hasFact(*Forced, kSingle, HelperSummary::When::IfTrue, true));

  const HelperSummary *Check = Of("check");
  ASSERT_NE(Check, nullptr);
  EXPECT_TRUE(hasFact(*Check, kSingle, HelperSummary::When::IfOk, true));
  EXPECT_FALSE(hasFact(*Check, kSingle, HelperSummary::When::After, true));

  const HelperSummary *Require = Of("require");
  ASSERT_NE(Require, nullptr);
  EXPECT_TRUE(hasFact(*Require, kSingle, HelperSummary::When::After, true));
  ASSERT_TRUE(Require->ReturnsParam.has_value());
  EXPECT_EQ(*Require->ReturnsParam, 0u);

  const HelperSummary *Pick = Of("pick");
  ASSERT_NE(Pick, nullptr);
  EXPECT_TRUE(Pick->ReturnsModelled);
  EXPECT_EQ(Pick->ResultOrigin.K, Origin::GlobalDevices);

  // Recursion and declarations without a body: no summary.
  EXPECT_EQ(Of("loop"), nullptr);
  EXPECT_EQ(Of("no_body"), nullptr);
}

TEST(HelperSummaries, ConstMembersOfAModelledClassSpeakOfTheirObject) {
  auto AST = interop_test::parseInteropCode(R"cpp(
namespace mine {
class Tensor {
public:
  int device_count() const;
  bool spans_devices() const { return device_count() > 1; }
  bool spans_and_bumps() { ++bumps; return device_count() > 1; }
  int bumps = 0;
};
} // namespace mine
void uses(mine::Tensor &t) {
  bool a = t.spans_devices();
  bool b = t.spans_and_bumps();
}
)cpp");
  ASTContext &Ctx = AST->getASTContext();
  ApiModelOptions Opts;
  Opts.ArrayTypes = "::mine::Tensor";
  Opts.DeviceCountFunctions = "::mine::Tensor::device_count";
  ApiModel M{Opts};
  HelperSummaries Sums(FlowBounds(), AllFacts);
  const CallExpr *Spans = callOf(Ctx, "uses", "spans_devices");
  ASSERT_NE(Spans, nullptr);
  const HelperSummary *S = Sums.of(*Spans, M, Ctx, 0);
  ASSERT_NE(S, nullptr);
  ASSERT_EQ(S->Subjects.size(), 1u);
  EXPECT_EQ(S->Subjects[0].Param, HelperSummary::Subject::kThis);
  EXPECT_TRUE(hasFact(*S, kSingle, HelperSummary::When::IfTrue, false));
  EXPECT_TRUE(hasFact(*S, kSingle, HelperSummary::When::IfFalse, true));
  // A member that may change its object is no helper.
  const CallExpr *Bumps = callOf(Ctx, "uses", "spans_and_bumps");
  ASSERT_NE(Bumps, nullptr);
  EXPECT_EQ(Sums.of(*Bumps, M, Ctx, 0), nullptr);
}

TEST(HelperSummaries, MadeOncePerHelperWithinTheDepthBound) {
  auto AST = interop_test::parseInteropCode(Helpers);
  ASTContext &Ctx = AST->getASTContext();
  ApiModel M{ApiModelOptions()};
  HelperSummaries Sums(FlowBounds(), AllFacts);
  const CallExpr *First = callOf(Ctx, "uses", "exportable");
  const CallExpr *Second = callOf(Ctx, "again", "exportable");
  ASSERT_TRUE(First && Second);
  const HelperSummary *A = Sums.of(*First, M, Ctx, 0);
  const HelperSummary *B = Sums.of(*Second, M, Ctx, 0);
  EXPECT_EQ(A, B);
  EXPECT_EQ(Sums.runs(), 1u);
  // A helper reached MaxSummaryDepth helpers deep is not summarised, and
  // the depth is the option's, not a constant.
  EXPECT_EQ(Sums.of(*First, M, Ctx, FlowBounds().MaxSummaryDepth), nullptr);
  EXPECT_EQ(Sums.runs(), 1u);
  FlowBounds Deeper;
  Deeper.MaxSummaryDepth = 5;
  HelperSummaries DeepSums(Deeper, AllFacts);
  EXPECT_NE(DeepSums.of(*First, M, Ctx, 4), nullptr);
  EXPECT_EQ(DeepSums.of(*First, M, Ctx, 5), nullptr);
  // A helper whose CFG is over MaxSummaryBlocks gets no summary.
  FlowBounds Small;
  Small.MaxSummaryBlocks = 1;
  HelperSummaries SmallSums(Small, AllFacts);
  EXPECT_EQ(SmallSums.of(*First, M, Ctx, 0), nullptr);
}

TEST(HelperSummaries, CapturesCarryTheEnclosingFunctionsFacts) {
  auto AST = interop_test::parseInteropCode(R"cpp(#include "interop/interop.h"
using namespace interop;
void f(const Array &a, Array b) {
  if (!a.is_single_device() || !b.is_single_device())
    return;
  auto g = [&a, &b, c = 0] { auto t = to_dlpack(a); auto u = to_dlpack(b); };
  g();
}
)cpp");
  ASTContext &Ctx = AST->getASTContext();
  auto Found = match(
      cxxMethodDecl(hasName("operator()"), ofClass(isLambda())).bind("op"),
      Ctx);
  ASSERT_EQ(Found.size(), 1u);
  ApiModel M{ApiModelOptions()};
  HelperSummaries Sums(FlowBounds(), AllFacts);
  const CaptureFacts *C =
      Sums.capturesOf(*Found[0].getNodeAs<CXXMethodDecl>("op"), M, Ctx);
  ASSERT_NE(C, nullptr);
  // `a` is a reference to const: carried; `b` is a non-const variable
  // captured by reference: it could change before the call, so not.
  bool A = false, B = false;
  for (const CaptureFacts::Seed &S : C->Facts) {
    A |= S.Var->getName() == "a" && S.Field == kSingle && S.Holds;
    B |= S.Var->getName() == "b";
  }
  EXPECT_TRUE(A);
  EXPECT_FALSE(B);
}

// The fast path reads no summary: wherever it proves a function, the flow
// analysis (with summaries) proves the same sinks.
TEST(HelperSummaries, SyntacticProofAgreesWithFlow) {
  const char *Code = R"cpp(#include "interop/interop.h"
using namespace interop;
bool exportable(const Array &a) { return a.is_single_device(); }
void by_helper(const Array &a) {
  if (!exportable(a))
    return;
  auto t = to_dlpack(a);
}
void by_guard(const Array &a) {
  if (!a.is_single_device())
    return;
  auto t = to_dlpack(a);
}
void by_both(const Array &a) {
  if (!exportable(a) || !a.is_single_device())
    return;
  auto t = to_dlpack(a);
}
)cpp";
  for (const char *Fn : {"by_helper", "by_guard", "by_both"}) {
    auto AST = interop_test::parseInteropCode(Code);
    ArrayDeviceConfig Syntax, Flow;
    Flow.SyntacticProofs = false;
    ArrayDeviceQuery QS{Syntax}, QF{Flow};
    const ArrayDeviceFacts &S = interop_test::analyzeOnly(AST, QS, Fn);
    const ArrayDeviceFacts &F = interop_test::analyzeOnly(AST, QF, Fn);
    ASSERT_EQ(S.Events.size(), 1u) << Fn;
    ASSERT_EQ(F.Events.size(), 1u) << Fn;
    EXPECT_EQ(F.Events[0].SingleDevice, Proof::Holds) << Fn;
    EXPECT_EQ(S.Events[0].SingleDevice, F.Events[0].SingleDevice) << Fn;
    if (std::string(Fn) == "by_helper")
      EXPECT_FALSE(S.BySyntax) << "the fast path must leave helpers to the "
                                  "flow analysis";
  }
  resetFactCache();
}

} // namespace
