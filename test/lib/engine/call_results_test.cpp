// Unit tests of lib/engine/CallResults.h: the result of a call the
// framework does not model gets a value, an accessor called again on the
// same object gives the value it gave the first time while a scope lives,
// and any other call gives a fresh one.

#include "lib/engine/CallResults.h"

#include "ast_search.h"
#include "snippet_annotations.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Analysis/FlowSensitive/DataflowAnalysisContext.h"
#include "clang/Analysis/FlowSensitive/DataflowEnvironment.h"
#include "clang/Analysis/FlowSensitive/WatchedLiteralsSolver.h"

#include "gtest/gtest.h"

#include <memory>
#include <vector>

using namespace clang;
using namespace clang::interop;
using namespace clang::dataflow;
using namespace interop_test;

namespace {

const char *const Calls = R"cpp(
struct T { int x; };
struct H {
  const T *operator->() const;
  const T *get() const;
  const T *at(int) const;
  const T *next();
};
const T *make(int);
int count();
void f(const H &h, const H &g, H &m) {
  (void)h.operator->();
  (void)h.operator->();
  (void)h.get();
  (void)h.get();
  (void)g.operator->();
  (void)make(1);
  (void)make(1);
  (void)count();
  (void)h.at(0);
  (void)h.at(0);
  (void)m.next();
  (void)m.next();
}
)cpp";

/// The calls of f, in order, in an environment where each read of a
/// parameter has the parameter's object (as the framework's transfer of the
/// read leaves it).
struct Fixture {
  std::unique_ptr<ASTUnit> AST = parseWithInputs(Calls);
  DataflowAnalysisContext DACtx{std::make_unique<WatchedLiteralsSolver>()};
  const FunctionDecl *F = functionNamed(AST->getASTContext(), "f");
  Environment Env{DACtx, *F};
  std::vector<const CallExpr *> Ops;

  Fixture() {
    Env.initialize();
    for (const Stmt *S : cast<CompoundStmt>(F->getBody())->body()) {
      const auto *Cast = cast<CStyleCastExpr>(S);
      const auto *Call = cast<CallExpr>(Cast->getSubExpr()->IgnoreParens());
      Ops.push_back(Call);
      if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call)) {
        const auto *Obj =
            cast<DeclRefExpr>(MC->getImplicitObjectArgument()->IgnoreParens());
        Env.setStorageLocation(*Obj, *Env.getStorageLocation(*Obj->getDecl()));
      }
    }
  }

  /// Gives each call its value; the values in order.
  std::vector<const Value *> values() {
    std::vector<const Value *> Out;
    for (const CallExpr *Call : Ops) {
      if (lacksCallResult(*Call, Env))
        makeCallResult(*Call, Env);
      Out.push_back(Env.getValue(*Call));
    }
    return Out;
  }
};

TEST(CallResults, PointersToRecordsWithoutAValueLackOne) {
  Fixture F;
  ASSERT_EQ(F.Ops.size(), 12u);
  // An int is no pointer to a record: the framework's business.
  EXPECT_FALSE(lacksCallResult(*F.Ops[7], F.Env));
  EXPECT_TRUE(lacksCallResult(*F.Ops[5], F.Env));
  makeCallResult(*F.Ops[5], F.Env);
  // Once given, it has one.
  EXPECT_FALSE(lacksCallResult(*F.Ops[5], F.Env));
  EXPECT_NE(F.Env.getValue(*F.Ops[5]), nullptr);
}

TEST(CallResults, AnAccessorGivesOneValuePerObjectWhileTheScopeLives) {
  Fixture F;
  ASSERT_EQ(F.Ops.size(), 12u);
  CallResultScope Scope;
  std::vector<const Value *> V = F.values();
  for (const Value *Each : V)
    if (Each != V[7])
      EXPECT_NE(Each, nullptr);
  EXPECT_EQ(V[0], V[1]);   // h.operator->() twice
  EXPECT_EQ(V[2], V[3]);   // h.get() twice
  EXPECT_NE(V[0], V[2]);   // another accessor
  EXPECT_NE(V[0], V[4]);   // another object
  EXPECT_NE(V[5], V[6]);   // a free function: a new tensor each call
  EXPECT_NE(V[8], V[9]);   // an accessor that takes an argument is none
  EXPECT_NE(V[10], V[11]); // nor is a method that is not const
}

TEST(CallResults, WithoutAScopeEveryCallIsFresh) {
  Fixture F;
  ASSERT_EQ(F.Ops.size(), 12u);
  std::vector<const Value *> V = F.values();
  EXPECT_NE(V[0], nullptr);
  EXPECT_NE(V[0], V[1]);
}

TEST(CallResults, ANestedScopeKeepsItsOwn) {
  Fixture F;
  ASSERT_EQ(F.Ops.size(), 12u);
  CallResultScope Outer;
  makeCallResult(*F.Ops[0], F.Env);
  const Value *First = F.Env.getValue(*F.Ops[0]);
  {
    CallResultScope Inner;
    EXPECT_EQ(CallResultScope::current(), &Inner);
    makeCallResult(*F.Ops[1], F.Env);
    EXPECT_NE(F.Env.getValue(*F.Ops[1]), First);
  }
  EXPECT_EQ(CallResultScope::current(), &Outer);
  makeCallResult(*F.Ops[1], F.Env);
  EXPECT_EQ(F.Env.getValue(*F.Ops[1]), First);
}

} // namespace

namespace {

TEST(CallResults, ACopyReturnsWhatTheOriginalDid) {
  Fixture F;
  ASSERT_EQ(F.Ops.size(), 12u);
  CallResultScope Scope;
  const auto *Get = cast<CXXMemberCallExpr>(F.Ops[2]);
  const StorageLocation *H = getImplicitObjectLocation(*Get, F.Env);
  const auto *OnG = cast<CXXMemberCallExpr>(F.Ops[4]);
  const StorageLocation *G = getImplicitObjectLocation(*OnG, F.Env);
  ASSERT_TRUE(H && G);
  makeCallResult(*Get, F.Env);
  EXPECT_TRUE(Scope.has(*H));
  EXPECT_FALSE(Scope.has(*G));
  Scope.copy(*H, *G);
  EXPECT_EQ(Scope.slot(*G, *Get->getMethodDecl()->getCanonicalDecl()),
            F.Env.getValue(*Get));
}

} // namespace

TEST(CallResults, AnAccessorAskedBeforeItsFirstCall) {
  Fixture F;
  ASSERT_EQ(F.Ops.size(), 12u);
  const auto *Arrow = cast<CXXMemberCallExpr>(F.Ops[0]);
  const StorageLocation *H = getImplicitObjectLocation(*Arrow, F.Env);
  ASSERT_TRUE(H);
  // Outside an analysis there is nothing to keep it in.
  EXPECT_EQ(accessorResult(*H, *Arrow->getMethodDecl(), F.Env), nullptr);
  CallResultScope Scope;
  Value *Asked = accessorResult(*H, *Arrow->getMethodDecl(), F.Env);
  ASSERT_NE(Asked, nullptr);
  EXPECT_EQ(accessorResult(*H, *Arrow->getMethodDecl(), F.Env), Asked);
  // The call made afterwards returns what was asked.
  std::vector<const Value *> V = F.values();
  EXPECT_EQ(V[0], Asked);
  EXPECT_EQ(V[1], Asked);
}

TEST(CallResults, AFactoryMadeSmartPointerHoldsANewObject) {
  // std::make_unique<Box>() and std::make_shared<Box>(): the accessors of
  // the smart pointer (of its base too) return one pointer to a new Box.
  auto AST = parseWithInputs(R"cpp(
namespace std {
template <class T> struct unique_ptr {
  T *operator->() const;
  T *get() const;
};
template <class T> struct shared_access { T *operator->() const; };
template <class T> struct shared_ptr : shared_access<T> { T *get() const; };
template <class T, class... A> unique_ptr<T> make_unique(A &&...);
template <class T, class... A> shared_ptr<T> make_shared(A &&...);
}
struct Box { int x; };
int make_unique_of_int();
void f() {
  auto u = std::make_unique<Box>();
  auto s = std::make_shared<Box>();
  (void)make_unique_of_int();
}
)cpp");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  const FunctionDecl *F = functionNamed(Ctx, "f");
  DataflowAnalysisContext DACtx{std::make_unique<WatchedLiteralsSolver>()};
  Environment Env{DACtx, *F};
  Env.initialize();
  std::vector<const CallExpr *> Calls;
  for (const Stmt *S : cast<CompoundStmt>(F->getBody())->body())
    Calls.push_back(firstNode<CallExpr>(S));
  ASSERT_EQ(Calls.size(), 3u);
  // Outside an analysis nothing is kept.
  EXPECT_EQ(smartPointerMade(*Calls[0], Env), nullptr);
  CallResultScope Scope;
  for (unsigned I = 0; I < 2; ++I) {
    RecordStorageLocation *Box = smartPointerMade(*Calls[I], Env);
    ASSERT_NE(Box, nullptr);
    EXPECT_EQ(Box->getType()->getAsRecordDecl()->getName(), "Box");
    const auto *Smart = Calls[I]->getType()->getAsCXXRecordDecl();
    const StorageLocation &Made = Env.getResultObjectLocation(*Calls[I]);
    unsigned Accessors = 0;
    auto Check = [&](const CXXRecordDecl *RD) -> bool {
      for (const CXXMethodDecl *M : RD->methods()) {
        if (M->getOverloadedOperator() != OO_Arrow &&
            !(M->getIdentifier() && M->getName() == "get"))
          continue;
        auto *P = dyn_cast_or_null<PointerValue>(accessorResult(Made, *M, Env));
        EXPECT_NE(P, nullptr);
        if (P)
          EXPECT_EQ(&P->getPointeeLoc(), Box);
        ++Accessors;
      }
      return true;
    };
    Check(Smart);
    Smart->forallBases(Check);
    EXPECT_EQ(Accessors, 2u);
  }
  EXPECT_EQ(smartPointerMade(*Calls[2], Env), nullptr);
}
