// Unit tests of lib/engine/CDCLSolver.h: the same answers as the framework's
// solver, models that satisfy the formulas, few steps on the joins that
// defeat DPLL, and a work limit that spans every query.

#include "lib/engine/CDCLSolver.h"

#include "random_formulas.h"

#include "clang/Analysis/FlowSensitive/Arena.h"
#include "clang/Analysis/FlowSensitive/WatchedLiteralsSolver.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <random>

using namespace clang;
using namespace clang::dataflow;
using clang::interop::CDCLSolver;

namespace {

using interop_test::evaluate;
using interop_test::freshAtoms;
using interop_test::randomFormulas;

void expectModel(const Solver::Result &R,
                 llvm::ArrayRef<const Formula *> Vals) {
  ASSERT_EQ(R.getStatus(), Solver::Result::Status::Satisfiable);
  for (const Formula *F : Vals)
    EXPECT_TRUE(evaluate(*F, *R.getSolution()));
}

/// Solves Vals with CDCLSolver (WorkLimit steps) and with the framework's
/// solver: the same answer, and a model that satisfies every formula.
/// Whether they are satisfiable.
bool solvedAsTheFrameworkDoes(llvm::ArrayRef<const Formula *> Vals,
                              std::int64_t WorkLimit) {
  WatchedLiteralsSolver Reference;
  Solver::Result Want = Reference.solve(Vals);
  CDCLSolver S(WorkLimit);
  Solver::Result Got = S.solve(Vals);
  EXPECT_EQ(Got.getStatus(), Want.getStatus());
  bool Sat = Got.getStatus() == Solver::Result::Status::Satisfiable;
  if (Sat)
    expectModel(Got, Vals);
  return Sat;
}

TEST(CDCLSolver, AgreesWithTheFrameworkOnRandomFormulas) {
  std::mt19937 Rng(20261206);
  unsigned Sat = 0, Unsat = 0;
  for (unsigned Round = 0; Round < 3000; ++Round) {
    Arena A;
    auto Atoms = freshAtoms(A, 2 + Rng() % 10);
    auto Vals = randomFormulas(A, Rng, Atoms, 1 + Rng() % 8, 5);
    SCOPED_TRACE(Round);
    ++(solvedAsTheFrameworkDoes(Vals, 1'000'000) ? Sat : Unsat);
  }
  EXPECT_GT(Sat, 500u);
  EXPECT_GT(Unsat, 500u);
}

TEST(CDCLSolver, RandomThreeSatNearTheThreshold) {
  // 60 atoms, 256 clauses of three literals: both answers occur, and both
  // need real search.
  std::mt19937 Rng(42);
  unsigned Sat = 0, Unsat = 0;
  for (unsigned Round = 0; Round < 40; ++Round) {
    Arena A;
    auto Atoms = freshAtoms(A, 60);
    auto Literal = [&]() -> const Formula & {
      const Formula &X = *Atoms[Rng() % Atoms.size()];
      return Rng() % 2 ? A.makeNot(X) : X;
    };
    llvm::SmallVector<const Formula *> Vals;
    for (unsigned I = 0; I < 256; ++I)
      Vals.push_back(&A.makeOr(A.makeOr(Literal(), Literal()), Literal()));
    SCOPED_TRACE(Round);
    ++(solvedAsTheFrameworkDoes(Vals, 10'000'000) ? Sat : Unsat);
  }
  EXPECT_GT(Sat, 5u);
  EXPECT_GT(Unsat, 5u);
}

TEST(CDCLSolver, PigeonholeIsUnsatisfiable) {
  // Six pigeons, five holes.
  Arena A;
  const unsigned Pigeons = 6, Holes = 5;
  std::vector<std::vector<const Formula *>> In(Pigeons);
  for (auto &Row : In)
    for (unsigned H = 0; H < Holes; ++H)
      Row.push_back(&A.makeAtomRef(A.makeAtom()));
  llvm::SmallVector<const Formula *> Vals;
  for (auto &Row : In) {
    const Formula *Any = Row[0];
    for (unsigned H = 1; H < Holes; ++H)
      Any = &A.makeOr(*Any, *Row[H]);
    Vals.push_back(Any);
  }
  for (unsigned H = 0; H < Holes; ++H)
    for (unsigned P = 0; P < Pigeons; ++P)
      for (unsigned Q = P + 1; Q < Pigeons; ++Q)
        Vals.push_back(&A.makeNot(A.makeAnd(*In[P][H], *In[Q][H])));
  CDCLSolver S(10'000'000);
  EXPECT_EQ(S.solve(Vals).getStatus(), Solver::Result::Status::Unsatisfiable);
  EXPECT_FALSE(S.reachedLimit());
}

/// The flow condition of Joins joins in a row over a record of Fields
/// booleans, each join choosing every field from one of two branches (the
/// framework's join of a boolean: (P & X = old) | (Q & !X)), as a function
/// with a few ifs over an owner record builds it; then the question whether
/// the last token allows the first field true and the second false.
llvm::SmallVector<const Formula *> joinChain(Arena &A, unsigned Joins,
                                             unsigned Fields) {
  llvm::SmallVector<const Formula *> Vals;
  const Formula *Token = &A.makeAtomRef(A.makeAtom());
  Vals.push_back(Token);
  llvm::SmallVector<const Formula *> Field;
  for (unsigned F = 0; F < Fields; ++F)
    Field.push_back(&A.makeAtomRef(A.makeAtom()));
  for (unsigned J = 0; J < Joins; ++J) {
    const Formula &Cond = A.makeAtomRef(A.makeAtom());
    const Formula &P = A.makeAtomRef(A.makeAtom());
    const Formula &Q = A.makeAtomRef(A.makeAtom());
    Vals.push_back(&A.makeEquals(P, A.makeAnd(*Token, Cond)));
    Vals.push_back(&A.makeEquals(Q, A.makeAnd(*Token, A.makeNot(Cond))));
    const Formula &Next = A.makeAtomRef(A.makeAtom());
    const Formula *Chosen = &A.makeOr(P, Q);
    llvm::SmallVector<const Formula *> NewField;
    for (unsigned F = 0; F < Fields; ++F) {
      const Formula &X = A.makeAtomRef(A.makeAtom());
      Chosen = &A.makeAnd(
          *Chosen, A.makeOr(A.makeAnd(P, A.makeEquals(X, *Field[F])),
                            A.makeAnd(Q, (F + J) % 3 ? A.makeNot(X)
                                                     : A.makeEquals(X, Cond))));
      NewField.push_back(&X);
    }
    Vals.push_back(&A.makeEquals(Next, *Chosen));
    Token = &Next;
    Field = NewField;
  }
  Vals.push_back(Token);
  Vals.push_back(Field[0]);
  Vals.push_back(&A.makeNot(*Field[1]));
  return Vals;
}

TEST(CDCLSolver, JoinsOfManyBooleansTakeFewSteps) {
  Arena A;
  llvm::SmallVector<const Formula *> Vals = joinChain(A, 8, 12);
  CDCLSolver S(20'000);
  Solver::Result R = S.solve(Vals);
  expectModel(R, Vals);
  EXPECT_FALSE(S.reachedLimit());
}

TEST(CDCLSolver, TheWorkLimitSpansEveryQuery) {
  Arena A;
  llvm::SmallVector<const Formula *> Vals = joinChain(A, 8, 12);
  CDCLSolver S(50);
  EXPECT_EQ(S.solve(Vals).getStatus(), Solver::Result::Status::TimedOut);
  EXPECT_TRUE(S.reachedLimit());
  // Spent: even a trivial query times out now.
  const Formula &X = A.makeAtomRef(A.makeAtom());
  llvm::SmallVector<const Formula *> Trivial = {&X};
  EXPECT_EQ(S.solve(Trivial).getStatus(), Solver::Result::Status::TimedOut);
}

TEST(CDCLSolver, LiteralsAndNoFormulas) {
  Arena A;
  CDCLSolver S(1000);
  EXPECT_EQ(S.solve({}).getStatus(), Solver::Result::Status::Satisfiable);
  llvm::SmallVector<const Formula *> False = {&A.makeLiteral(false)};
  EXPECT_EQ(S.solve(False).getStatus(), Solver::Result::Status::Unsatisfiable);
  const Formula &X = A.makeAtomRef(A.makeAtom());
  llvm::SmallVector<const Formula *> Both = {&X, &A.makeNot(X)};
  EXPECT_EQ(S.solve(Both).getStatus(), Solver::Result::Status::Unsatisfiable);
  llvm::SmallVector<const Formula *> True = {&A.makeLiteral(true), &X};
  expectModel(S.solve(True), True);
}

} // namespace
