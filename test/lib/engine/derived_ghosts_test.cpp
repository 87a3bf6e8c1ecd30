// Unit tests of lib/engine/DerivedGhosts.h: a derived ghost holds the
// conjunction of its parts (some negated) once a transfer sets one of them,
// stays unset while a part has no value, and is left alone when no part
// changed (so that a widened derived ghost is not rebuilt from widened parts);
// setGhostWhen() changes a ghost only where its condition holds.

#include "lib/engine/DerivedGhosts.h"

#include "ast_search.h"

#include "clang/AST/ASTContext.h"
#include "clang/Analysis/FlowSensitive/Arena.h"
#include "clang/Analysis/FlowSensitive/DataflowAnalysisContext.h"
#include "clang/Analysis/FlowSensitive/WatchedLiteralsSolver.h"

#include "gtest/gtest.h"

#include <memory>

using namespace clang;
using namespace clang::interop;
using namespace clang::dataflow;

namespace {

struct Fixture {
  std::unique_ptr<ASTUnit> AST = interop_test::parseWithInputs("int unused;");
  DataflowAnalysisContext DACtx{std::make_unique<WatchedLiteralsSolver>()};
  Environment Env{DACtx};
  Arena &A = DACtx.arena();

  StorageLocation &ghost() {
    return A.create<ScalarStorageLocation>(AST->getASTContext().BoolTy);
  }
  BoolValue &atom() { return Env.makeAtomicBoolValue(); }
  /// Whether Env's flow condition makes Target's value equal to F.
  bool holds(StorageLocation &Target, const Formula &F) {
    auto *V = Env.get<BoolValue>(Target);
    return V && !Env.allows(A.makeNot(A.makeEquals(V->formula(), F)));
  }
};

TEST(DerivedGhosts, TheConjunctionOnceAPartIsSet) {
  Fixture F;
  StorageLocation &Live = F.ghost(), &Failed = F.ghost(), &Leak = F.ghost();
  DerivedGhosts G;
  G.add(Leak, {&Live}, {&Failed});
  BoolValue &L = F.atom(), &X = F.atom();
  F.Env.setValue(Failed, X);
  DerivedGhosts::Snapshot Before = G.snapshot(F.Env);
  F.Env.setValue(Live, L);
  G.update(Before, F.Env);
  EXPECT_TRUE(
      F.holds(Leak, F.A.makeAnd(L.formula(), F.A.makeNot(X.formula()))));
  EXPECT_FALSE(F.holds(Leak, L.formula()));
}

TEST(DerivedGhosts, UnsetWhileAPartHasNoValue) {
  Fixture F;
  StorageLocation &Live = F.ghost(), &Failed = F.ghost(), &Leak = F.ghost();
  DerivedGhosts G;
  G.add(Leak, {&Live}, {&Failed});
  DerivedGhosts::Snapshot Before = G.snapshot(F.Env);
  F.Env.setValue(Live, F.atom());
  G.update(Before, F.Env);
  EXPECT_EQ(F.Env.getValue(Leak), nullptr);
}

TEST(DerivedGhosts, OnlyTheGhostsWhosePartsChanged) {
  Fixture F;
  StorageLocation &P = F.ghost(), &Q = F.ghost(), &R = F.ghost();
  StorageLocation &FromP = F.ghost(), &FromQR = F.ghost();
  DerivedGhosts G;
  G.add(FromP, {&P}, {});
  G.add(FromQR, {&Q, &R}, {});
  BoolValue &VP = F.atom(), &VQ = F.atom(), &VR = F.atom();
  F.Env.setValue(P, VP);
  F.Env.setValue(Q, VQ);
  F.Env.setValue(R, VR);
  G.update(DerivedGhosts::Snapshot(), F.Env);
  ASSERT_TRUE(F.holds(FromP, VP.formula()));
  ASSERT_TRUE(
      F.holds(FromQR, F.A.makeAnd(VQ.formula(), VR.formula())));

  // A widened derived ghost (here: any other value) is kept while its parts
  // stay the same values.
  BoolValue &Widened = F.atom();
  F.Env.setValue(FromP, Widened);
  DerivedGhosts::Snapshot Before = G.snapshot(F.Env);
  BoolValue &NewR = F.atom();
  F.Env.setValue(R, NewR);
  G.update(Before, F.Env);
  EXPECT_EQ(F.Env.getValue(FromP), &Widened);
  EXPECT_TRUE(
      F.holds(FromQR, F.A.makeAnd(VQ.formula(), NewR.formula())));
}

} // namespace

TEST(DerivedGhosts, AGhostSetWhereAConditionHolds) {
  Fixture F;
  StorageLocation &Deleted = F.ghost();
  setGhost(F.Env, &Deleted, false);
  BoolValue &When = F.atom();
  // Deleted on the paths where When holds, as it was on the others.
  setGhostWhen(F.Env, &Deleted, true, &When.formula());
  EXPECT_TRUE(F.holds(Deleted, When.formula()));
  // Without a condition: on every path.
  setGhostWhen(F.Env, &Deleted, F.A.makeLiteral(false), nullptr);
  EXPECT_TRUE(F.holds(Deleted, F.A.makeLiteral(false)));
}
