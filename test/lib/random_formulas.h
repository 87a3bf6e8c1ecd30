// Random formulas and a model checker, shared by the solver tests
// (quick_solver_test.cpp, cdcl_solver_test.cpp): every answer a solver of
// lib/engine gives must be the framework's, and every model it returns must
// satisfy the formulas.

#ifndef INTEROP_TEST_LIB_RANDOM_FORMULAS_H
#define INTEROP_TEST_LIB_RANDOM_FORMULAS_H

#include "clang/Analysis/FlowSensitive/Arena.h"
#include "clang/Analysis/FlowSensitive/Solver.h"
#include "llvm/ADT/DenseMap.h"

#include "gtest/gtest.h"

#include <functional>
#include <random>

namespace interop_test {

using clang::dataflow::Arena;
using clang::dataflow::Atom;
using clang::dataflow::Formula;
using clang::dataflow::Solver;

inline bool
evaluate(const Formula &F,
         const llvm::DenseMap<Atom, Solver::Result::Assignment> &M) {
  auto Op = [&](unsigned I) { return evaluate(*F.operands()[I], M); };
  switch (F.kind()) {
  case Formula::AtomRef: {
    auto It = M.find(F.getAtom());
    EXPECT_NE(It, M.end()) << "the model leaves an atom out";
    return It != M.end() &&
           It->second == Solver::Result::Assignment::AssignedTrue;
  }
  case Formula::Literal:
    return F.literal();
  case Formula::Not:
    return !Op(0);
  case Formula::And:
    return Op(0) && Op(1);
  case Formula::Or:
    return Op(0) || Op(1);
  case Formula::Implies:
    return !Op(0) || Op(1);
  case Formula::Equal:
    return Op(0) == Op(1);
  }
  return false;
}

inline const Formula &randomFormula(Arena &A, std::mt19937 &Rng,
                                    llvm::ArrayRef<const Formula *> Atoms,
                                    unsigned Depth) {
  unsigned Pick = Rng() % (Depth == 0 ? 2 : 8);
  if (Pick == 0)
    return *Atoms[Rng() % Atoms.size()];
  if (Pick == 1)
    return Rng() % 8 ? *Atoms[Rng() % Atoms.size()] : A.makeLiteral(Rng() % 2);
  auto Sub = [&] { return std::cref(randomFormula(A, Rng, Atoms, Depth - 1)); };
  switch (Pick) {
  case 2:
    return A.makeNot(Sub());
  case 3:
  case 4:
    return A.makeAnd(Sub(), Sub());
  case 5:
    return A.makeOr(Sub(), Sub());
  case 6:
    return A.makeImplies(Sub(), Sub());
  default:
    return A.makeEquals(Sub(), Sub());
  }
}

/// N fresh atoms of A.
inline llvm::SmallVector<const Formula *> freshAtoms(Arena &A, unsigned N) {
  llvm::SmallVector<const Formula *> Atoms;
  for (unsigned I = 0; I < N; ++I)
    Atoms.push_back(&A.makeAtomRef(A.makeAtom()));
  return Atoms;
}

/// N random formulas over Atoms, each at most 1 + Rng() % MaxDepth deep.
inline llvm::SmallVector<const Formula *>
randomFormulas(Arena &A, std::mt19937 &Rng,
               llvm::ArrayRef<const Formula *> Atoms, unsigned N,
               unsigned MaxDepth) {
  llvm::SmallVector<const Formula *> Vals;
  for (unsigned I = 0; I < N; ++I)
    Vals.push_back(&randomFormula(A, Rng, Atoms, 1 + Rng() % MaxDepth));
  return Vals;
}

} // namespace interop_test

#endif // INTEROP_TEST_LIB_RANDOM_FORMULAS_H
