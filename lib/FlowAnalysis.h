//===--- FlowAnalysis.h - the one flow-sensitive engine of lib/ -*- C++ -*-===//
//
// Every flow-sensitive interop check runs its model through this header, so
// that all of them share one engine (clang's dataflow framework), one set of
// bounds, one cheap "should this function be analysed at all" step, and one
// way of reporting a give-up. Models live beside it in lib/ (one per family of
// facts); checks only call runFlowAnalysis() and turn results into
// diagnostics.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_FLOWANALYSIS_H
#define INTEROP_LIB_FLOWANALYSIS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Analysis/FlowSensitive/DataflowAnalysis.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>

namespace clang::interop {

/// Bounds that keep one function's analysis from hanging clang-tidy or
/// blowing up its memory. A function over a bound is skipped, never analysed
/// partially.
struct FlowBounds {
  /// SAT solver iterations for the whole function (the framework's default is
  /// 10^9, which can take minutes on pathological code).
  std::int64_t MaxSATIterations = 200'000;
  /// Basic-block visits before the fixpoint is abandoned.
  std::int32_t MaxBlockVisits = 20'000;
  /// Functions whose CFG has more blocks than this are not analysed at all.
  unsigned MaxCFGBlocks = 2'000;
};

/// Why a function was not (fully) analysed.
enum class SkipReason {
  None,          ///< Analysed.
  NoBody,        ///< A declaration without a body.
  Dependent,     ///< An uninstantiated template: analysed per instance.
  InvalidCode,   ///< The function failed to compile.
  TooLarge,      ///< Over FlowBounds::MaxCFGBlocks.
  BuildFailed,   ///< The CFG could not be built.
  BoundExceeded, ///< Over MaxBlockVisits or MaxSATIterations.
};

/// A one-line, lowercase description of a skip reason, for diagnostics.
const char *describeSkip(SkipReason R);

/// The cheap step: false (and why) for functions no model should analyse.
/// Does not build the CFG.
bool isAnalyzable(const FunctionDecl &FD, SkipReason &Why);

/// Counts the blocks of FD's CFG the way the framework builds it; used to
/// enforce MaxCFGBlocks before the expensive fixpoint.
template <typename Diag> struct FlowResult {
  SkipReason Skipped = SkipReason::None;
  /// The framework's own message when Skipped is BuildFailed/BoundExceeded.
  std::string Detail;
  llvm::SmallVector<Diag> Diagnostics;
};

namespace detail {
/// Maps an error from the framework to a skip reason and its message,
/// consuming it.
SkipReason classifyFrameworkError(llvm::Error E, std::string &Detail);
/// Number of blocks in FD's CFG, or std::nullopt when it cannot be built.
std::optional<unsigned> countCFGBlocks(const FunctionDecl &FD, ASTContext &Ctx);
} // namespace detail

/// Runs `AnalysisT` (a dataflow::DataflowAnalysis subclass constructible from
/// (ASTContext&, Environment&) or (ASTContext&)) over FD within `Bounds`, and
/// collects what `Diagnoser` reports. Never crashes on a give-up: the result
/// says why it skipped instead.
template <typename AnalysisT, typename Diag>
FlowResult<Diag>
runFlowAnalysis(const FunctionDecl &FD, ASTContext &Ctx,
                dataflow::DiagnosisCallbacks<AnalysisT, Diag> Diagnoser,
                const FlowBounds &Bounds = {}) {
  FlowResult<Diag> Result;
  if (!isAnalyzable(FD, Result.Skipped))
    return Result;
  std::optional<unsigned> Blocks = detail::countCFGBlocks(FD, Ctx);
  if (!Blocks) {
    Result.Skipped = SkipReason::BuildFailed;
    return Result;
  }
  if (*Blocks > Bounds.MaxCFGBlocks) {
    Result.Skipped = SkipReason::TooLarge;
    Result.Detail = std::to_string(*Blocks) + " CFG blocks";
    return Result;
  }
  llvm::Expected<llvm::SmallVector<Diag>> Diags =
      dataflow::diagnoseFunction<AnalysisT, Diag>(FD, Ctx, std::move(Diagnoser),
                                                  Bounds.MaxSATIterations,
                                                  Bounds.MaxBlockVisits);
  if (!Diags) {
    Result.Skipped =
        detail::classifyFrameworkError(Diags.takeError(), Result.Detail);
    return Result;
  }
  Result.Diagnostics = std::move(*Diags);
  return Result;
}

/// Convenience overload for a diagnoser that only runs after each element.
template <typename AnalysisT, typename Diag>
FlowResult<Diag>
runFlowAnalysis(const FunctionDecl &FD, ASTContext &Ctx,
                dataflow::DiagnosisCallback<AnalysisT, Diag> After,
                const FlowBounds &Bounds = {}) {
  return runFlowAnalysis<AnalysisT, Diag>(
      FD, Ctx, dataflow::DiagnosisCallbacks<AnalysisT, Diag>{nullptr, After},
      Bounds);
}

} // namespace clang::interop

#endif // INTEROP_LIB_FLOWANALYSIS_H
