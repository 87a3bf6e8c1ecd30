//===--- QuickSolver.h - small SAT queries without a CNF --------*- C++ -*-===//
//
// The flow models ask the SAT solver one question per judged event ("does
// the flow condition imply that byte_offset was added?"), and the
// framework's solver answers each by converting the whole flow condition to
// CNF first, which costs tens of thousands of instructions even when unit
// propagation alone decides the query. This decides such queries directly on
// the formulas: unit propagation over the formula trees, then a few DPLL
// decisions. It returns "don't know" (nullopt) past a small budget, and the
// caller then asks the real solver, so it changes the cost of a query, never
// its answer.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_ENGINE_QUICKSOLVER_H
#define INTEROP_LIB_ENGINE_QUICKSOLVER_H

#include "clang/Analysis/FlowSensitive/Formula.h"
#include "clang/Analysis/FlowSensitive/Solver.h"
#include "llvm/ADT/ArrayRef.h"

#include <optional>

namespace clang::interop {

/// Limits of quickSolve(): node visits (each a few instructions) and nested
/// decisions. The defaults keep one call well under the cost of building the
/// CNF for the same query.
struct QuickSolveBudget {
  unsigned MaxVisits = 4000;
  unsigned MaxDecisions = 6;
};

/// Satisfiable (with a model of the atoms it assigned) or Unsatisfiable when
/// the budget suffices to decide the conjunction of `Vals`; nullopt
/// otherwise.
std::optional<dataflow::Solver::Result>
quickSolve(llvm::ArrayRef<const dataflow::Formula *> Vals,
           QuickSolveBudget Budget = {});

} // namespace clang::interop

#endif // INTEROP_LIB_ENGINE_QUICKSOLVER_H
