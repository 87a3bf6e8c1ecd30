//===--- CDCLSolver.h - the SAT solver of every flow run --------*- C++ -*-===//
//
// The framework's WatchedLiteralsSolver is DPLL without learning. The flow
// conditions that joins build defeat it: each join of a boolean adds a fresh
// atom chosen by the two predecessors' flow condition tokens, so a function
// with a few branches over a record of a dozen booleans gives queries of a
// hundred atoms that take it millions of steps, and real import functions
// of 150 lines were dropped at the solver bound. This solver learns a clause
// from each conflict (first unique implication point), jumps back to where
// that clause propagates, decides the most recently conflicting atoms first,
// keeps each atom's last polarity and restarts on the Luby sequence; the
// same queries take it a few hundred steps.
//
// Same interface and answers as the framework's solver (every family's flow
// run asks it through FlowRunner's BoundedSolver). Its work limit, like the
// framework's, spans every query of one run: a step is one clause visited
// during propagation or one decision.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_ENGINE_CDCLSOLVER_H
#define INTEROP_LIB_ENGINE_CDCLSOLVER_H

#include "clang/Analysis/FlowSensitive/Formula.h"
#include "clang/Analysis/FlowSensitive/Solver.h"
#include "llvm/ADT/ArrayRef.h"

#include <cstdint>

namespace clang::interop {

class CDCLSolver : public dataflow::Solver {
public:
  /// WorkLimit: steps for every query together; past it, every query times
  /// out.
  explicit CDCLSolver(std::int64_t WorkLimit) : WorkLeft(WorkLimit) {}

  /// Satisfiable with a value for every atom of Vals, Unsatisfiable, or
  /// TimedOut once the work limit is spent.
  Result solve(llvm::ArrayRef<const dataflow::Formula *> Vals) override;

  bool reachedLimit() const override { return WorkLeft <= 0; }

private:
  std::int64_t WorkLeft;
};

} // namespace clang::interop

#endif // INTEROP_LIB_ENGINE_CDCLSOLVER_H
