//===--- FlowRunner.cpp - the bounded flow analysis -----------------------===//

#include "lib/engine/FlowRunner.h"

#include "lib/engine/QuickSolver.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

#include "clang/Analysis/CFG.h"
#include "clang/Analysis/FlowSensitive/AdornedCFG.h"

namespace clang::interop {

std::string FlowBounds::key() const {
  std::string Key;
  forEachOption([&](llvm::StringRef, const auto &Bound) {
    Key += std::to_string(Bound);
    Key += '/';
  });
  return Key;
}

namespace detail {

BoundedSolver::BoundedSolver(std::int64_t MaxIterations,
                             std::int64_t MaxMilliseconds)
    : Inner(MaxIterations),
      Deadline(std::chrono::steady_clock::now() +
               std::chrono::milliseconds(MaxMilliseconds)),
      HasDeadline(MaxMilliseconds > 0) {}

dataflow::Solver::Result
BoundedSolver::solve(llvm::ArrayRef<const dataflow::Formula *> Vals) {
  if (OutOfTime)
    return Result::TimedOut();
  // Queries are frequent (every join and widening of a boolean), so checking
  // before each one bounds a run closely.
  if (HasDeadline && std::chrono::steady_clock::now() > Deadline) {
    OutOfTime = true;
    return Result::TimedOut();
  }
  // Most queries are decided by propagation alone; only the rest pay for
  // the CNF conversion.
  if (std::optional<Result> Quick = quickSolve(Vals))
    return std::move(*Quick);
  return Inner.solve(Vals);
}

SkipReason classifyFrameworkError(llvm::Error E, std::string &Detail) {
  Detail = llvm::toString(std::move(E));
  // The framework reports both exhausted block visits and an exhausted SAT
  // budget as errors after the fixpoint started; anything else means the CFG
  // or the environment could not be set up.
  if (Detail.find("maximum number of") != std::string::npos ||
      Detail.find("iterations") != std::string::npos ||
      Detail.find("timed out") != std::string::npos ||
      Detail.find("SAT") != std::string::npos)
    return SkipReason::BoundExceeded;
  return SkipReason::BuildFailed;
}

} // namespace detail
} // namespace clang::interop
