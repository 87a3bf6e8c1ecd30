// Unit tests of lib/engine/QuickSolver.h: every answer it gives must be the CNF
// solver's, and every model it returns must satisfy the formulas.

#include "lib/engine/QuickSolver.h"

#include "random_formulas.h"

#include "clang/Analysis/FlowSensitive/Arena.h"
#include "clang/Analysis/FlowSensitive/WatchedLiteralsSolver.h"

#include "gtest/gtest.h"

#include <random>

using namespace clang;
using namespace clang::dataflow;
using clang::interop::quickSolve;

namespace {

using interop_test::evaluate;
using interop_test::freshAtoms;
using interop_test::randomFormulas;

TEST(QuickSolver, AgreesWithTheCNFSolverOnRandomFormulas) {
  std::mt19937 Rng(20261130);
  unsigned Decided = 0, Sat = 0;
  for (unsigned Round = 0; Round < 3000; ++Round) {
    Arena A;
    auto Atoms = freshAtoms(A, 2 + Rng() % 6);
    auto Vals = randomFormulas(A, Rng, Atoms, 1 + Rng() % 5, 4);
    WatchedLiteralsSolver Reference;
    Solver::Result Want = Reference.solve(Vals);
    std::optional<Solver::Result> Got = quickSolve(Vals);
    if (!Got)
      continue;
    ++Decided;
    ASSERT_EQ(Got->getStatus(), Want.getStatus()) << "round " << Round;
    if (Got->getStatus() == Solver::Result::Status::Satisfiable) {
      ++Sat;
      for (const Formula *F : Vals)
        EXPECT_TRUE(evaluate(*F, *Got->getSolution())) << "round " << Round;
    }
  }
  // It must decide most queries of this size, both ways, or it is no help.
  EXPECT_GT(Decided, 2500u);
  EXPECT_GT(Sat, 500u);
  EXPECT_GT(Decided - Sat, 500u);
}

TEST(QuickSolver, FlowConditionShapes) {
  // The shape of "does the flow condition imply the guard?": a token defined
  // by its predecessor and the branch condition, joined at a merge point.
  Arena A;
  const Formula &G = A.makeAtomRef(A.makeAtom());
  const Formula &T0 = A.makeAtomRef(A.makeAtom());
  const Formula &T1 = A.makeAtomRef(A.makeAtom());
  const Formula &T2 = A.makeAtomRef(A.makeAtom());
  const Formula &T3 = A.makeAtomRef(A.makeAtom());
  const Formula &X = A.makeAtomRef(A.makeAtom());
  llvm::SmallVector<const Formula *> Implied = {
      &T3, &A.makeEquals(T1, A.makeAnd(T0, G)),
      &A.makeEquals(T2, A.makeAnd(T1, X)),
      &A.makeEquals(T3, A.makeOr(T2, A.makeAnd(T1, A.makeNot(X)))),
      &A.makeNot(G)};
  std::optional<Solver::Result> R = quickSolve(Implied);
  ASSERT_TRUE(R);
  EXPECT_EQ(R->getStatus(), Solver::Result::Status::Unsatisfiable);
  // Without the guard on the path it is not implied.
  llvm::SmallVector<const Formula *> NotImplied = {
      &T3, &A.makeEquals(T3, A.makeOr(T0, T1)), &A.makeEquals(T1, G),
      &A.makeNot(G)};
  R = quickSolve(NotImplied);
  ASSERT_TRUE(R);
  EXPECT_EQ(R->getStatus(), Solver::Result::Status::Satisfiable);
}

TEST(QuickSolver, GivesUpPastItsBudget) {
  // A pigeonhole-like formula needs more decisions than the budget allows.
  Arena A;
  llvm::SmallVector<const Formula *> P;
  for (unsigned I = 0; I < 12; ++I)
    P.push_back(&A.makeAtomRef(A.makeAtom()));
  llvm::SmallVector<const Formula *> Vals;
  for (unsigned I = 0; I + 1 < P.size(); I += 2)
    Vals.push_back(&A.makeOr(*P[I], *P[I + 1]));
  for (unsigned I = 0; I < P.size(); ++I)
    for (unsigned J = I + 2; J < P.size(); J += 3)
      Vals.push_back(&A.makeNot(A.makeAnd(*P[I], *P[J])));
  EXPECT_FALSE(quickSolve(Vals, {/*MaxVisits=*/100, /*MaxDecisions=*/2}));
}

} // namespace
