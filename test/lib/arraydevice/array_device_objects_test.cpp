// Unit tests of lib/arraydevice/ArrayDeviceObjects.h: how a comparison of a
// device count relates to "one device", which enumerators name a fact, when
// a fact of every element holds, and (through the flow analysis) what an
// element of a range and an accessor's result get.

#include "lib/arraydevice/ArrayDeviceObjects.h"

#include "arraydevice/array_device_snippets.h"
#include "ast_search.h"
#include "snippet_annotations.h"
#include "syntax_vs_flow.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Analysis/FlowSensitive/DataflowAnalysisContext.h"
#include "clang/Analysis/FlowSensitive/WatchedLiteralsSolver.h"

#include "gtest/gtest.h"

#include <memory>
#include <string>
#include <vector>

using namespace clang;
using namespace clang::interop;
using namespace clang::interop::arraydevice;
using namespace clang::dataflow;
using interop_test::proofName;

namespace {

/// A fresh environment and the atom "exactly one device".
struct CountFixture {
  DataflowAnalysisContext DACtx{std::make_unique<WatchedLiteralsSolver>()};
  Environment Env{DACtx};
  const Formula &One = Env.arena().makeAtomRef(Env.arena().makeAtom());

  /// What `count Op K` says of One: "one", "not one", "true", "false",
  /// "implied by one", "implies not one... " (a one-way relation) or
  /// "other".
  std::string relation(BinaryOperatorKind Op, int64_t K) {
    llvm::APSInt V(llvm::APInt(64, K, /*isSigned=*/true), /*isUnsigned=*/false);
    const Formula &R = countRelation(Op, V, One, Env);
    Arena &A = Env.arena();
    if (R.isLiteral(true))
      return "true";
    if (R.isLiteral(false))
      return "false";
    if (Env.proves(A.makeEquals(R, One)))
      return "one";
    if (Env.proves(A.makeEquals(R, A.makeNot(One))))
      return "not one";
    // Only one direction: one device makes the comparison true (false).
    if (Env.proves(A.makeImplies(One, R)))
      return "true at one";
    if (Env.proves(A.makeImplies(One, A.makeNot(R))))
      return "false at one";
    return "other";
  }
};

TEST(ArrayDeviceObjects, CountComparisonsAndOneDevice) {
  CountFixture F;
  EXPECT_EQ(F.relation(BO_EQ, 1), "one");
  EXPECT_EQ(F.relation(BO_NE, 1), "not one");
  EXPECT_EQ(F.relation(BO_GT, 1), "not one");
  EXPECT_EQ(F.relation(BO_GE, 2), "not one");
  // Counts are at least one.
  EXPECT_EQ(F.relation(BO_LE, 1), "one");
  EXPECT_EQ(F.relation(BO_LT, 2), "one");
  EXPECT_EQ(F.relation(BO_GE, 1), "true");
  EXPECT_EQ(F.relation(BO_GT, 0), "true");
  EXPECT_EQ(F.relation(BO_EQ, 0), "false");
  EXPECT_EQ(F.relation(BO_LT, 1), "false");
  EXPECT_EQ(F.relation(BO_EQ, -3), "false");
  // Mixed above one: only one direction is known.
  EXPECT_EQ(F.relation(BO_LT, 3), "true at one");
  EXPECT_EQ(F.relation(BO_EQ, 2), "false at one");
  EXPECT_EQ(F.relation(BO_GT, 4), "false at one");
}

TEST(ArrayDeviceObjects, FactOfEveryElement) {
  CountFixture F;
  Environment &Env = F.Env;
  EXPECT_TRUE(provenForEveryElement(Env.getBoolLiteralValue(true), Env));
  EXPECT_FALSE(provenForEveryElement(Env.getBoolLiteralValue(false), Env));
  BoolValue &All = Env.makeAtomicBoolValue();
  EXPECT_FALSE(provenForEveryElement(All, Env));
  // What the path proves (after `if (!all_of(...)) return;`).
  Env.assume(All.formula());
  EXPECT_TRUE(provenForEveryElement(All, Env));
}

/// The enumerator named Name (qualified) in Ctx.
const EnumConstantDecl *enumerator(ASTContext &Ctx, llvm::StringRef Name) {
  using namespace clang::ast_matchers;
  auto Found = match(enumConstantDecl(hasName(Name)).bind("e"), Ctx);
  EXPECT_EQ(Found.size(), 1u) << Name.str();
  return Found.empty() ? nullptr : Found[0].getNodeAs<EnumConstantDecl>("e");
}

TEST(ArrayDeviceObjects, EnumeratorsThatNameAFact) {
  auto AST = interop_test::parseInteropCode(R"cpp(#include "interop/interop.h"
)cpp");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  ApiModel M{ApiModelOptions()};
  auto Matches = [&](llvm::StringRef Property, llvm::StringRef Enumerator) {
    return enumeratorMatches(M, Property, enumerator(Ctx, Enumerator));
  };
  EXPECT_TRUE(Matches(kIsTpu, "::interop::Platform::kTpu"));
  EXPECT_FALSE(Matches(kIsTpu, "::interop::Platform::kCpu"));
  EXPECT_TRUE(Matches(kIsPinned, "::interop::MemoryKind::kPinnedHost"));
  EXPECT_FALSE(Matches(kIsPinned, "::interop::MemoryKind::kDevice"));
  EXPECT_TRUE(
      Matches(kIsSingleKind, "::interop::Sharding::Kind::kSingleDevice"));
  EXPECT_FALSE(Matches(kIsSingleKind, "::interop::Sharding::Kind::kSplit"));
  // The property decides which list is asked.
  EXPECT_FALSE(Matches(kIsPinned, "::interop::Platform::kTpu"));
  EXPECT_FALSE(Matches(kCountIsOne, "::interop::Platform::kTpu"));
  // The lists are options, not names.
  ApiModelOptions NoTpu;
  NoTpu.TpuPlatforms = "";
  ApiModel WithoutTpu{NoTpu};
  EXPECT_FALSE(enumeratorMatches(WithoutTpu, kIsTpu,
                                 enumerator(Ctx, "::interop::Platform::kTpu")));
}

TEST(ArrayDeviceObjects, SameRecord) {
  auto AST = interop_test::parseInteropCode(R"cpp(
struct A {};
struct B {};
typedef A Alias;
void f(A a, B b, Alias c, A *p) {}
)cpp");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  const FunctionDecl *F = interop_test::functionNamed(Ctx, "f");
  ASSERT_NE(F, nullptr);
  const CXXRecordDecl *A = F->getParamDecl(0)->getType()->getAsCXXRecordDecl();
  ASSERT_NE(A, nullptr);
  EXPECT_TRUE(sameRecord(F->getParamDecl(0)->getType(), A));
  EXPECT_FALSE(sameRecord(F->getParamDecl(1)->getType(), A));
  EXPECT_TRUE(sameRecord(F->getParamDecl(2)->getType(), A));
  // A pointer is not the record.
  EXPECT_FALSE(sameRecord(F->getParamDecl(3)->getType(), A));
  EXPECT_FALSE(sameRecord(F->getParamDecl(0)->getType(), nullptr));
}

std::string addressable(const SinkFact &F) { return proofName(F.Addressable); }

std::string origin(const SinkFact &F) {
  return interop_test::originName(F.From.K);
}

TEST(ArrayDeviceObjects, ElementsGetWhatHoldsOfEveryElement) {
  auto AST = interop_test::parseInteropCode(R"cpp(#include "interop/interop.h"
using namespace interop;
void subscripts(DLManagedTensor *t) {
  (void)from_dlpack(t, local_devices()[0]);
  (void)from_dlpack(t, devices()[0]);
}
void loops(DLManagedTensor *t) {
  for (const Device &d : local_devices())
    (void)from_dlpack(t, d);
  for (const Device &d : devices())
    (void)from_dlpack(t, d);
}
struct Slot {
  const Device &device() const;
};
void getter(DLManagedTensor *t, const Slot &s, const Slot &other) {
  if (s.device().is_addressable()) {
    (void)from_dlpack(t, s.device());
    (void)from_dlpack(t, other.device());
  }
}
)cpp");
  ASSERT_TRUE(AST);
  ASSERT_FALSE(AST->getASTContext().getDiagnostics().hasErrorOccurred());
  EXPECT_EQ(interop_test::flowAtSinks(AST, "subscripts", addressable),
            (std::vector<std::string>{"holds", "unknown"}));
  // The range's provenance: a device of every process.
  EXPECT_EQ(interop_test::flowAtSinks(AST, "subscripts", origin),
            (std::vector<std::string>{"none", "global"}));
  EXPECT_EQ(interop_test::flowAtSinks(AST, "loops", addressable),
            (std::vector<std::string>{"holds", "unknown"}));
  // An accessor's result is cached per object: the guard on one call
  // covers the next call on the same object, not on another.
  EXPECT_EQ(interop_test::flowAtSinks(AST, "getter", addressable),
            (std::vector<std::string>{"holds", "unknown"}));
}

} // namespace
