//===--- SkipReason.h - why a function was not analysed ---------*- C++ -*-===//
//
// A function that a family cannot analyse is skipped, never analysed
// partially, and the facts say why: the checks stay silent on it, or report
// it when ReportSkippedFunctions asks.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_ENGINE_SKIPREASON_H
#define INTEROP_LIB_ENGINE_SKIPREASON_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace clang::interop {

/// Why a function was not (fully) analysed.
enum class SkipReason {
  None,          ///< Analysed.
  NoBody,        ///< A declaration without a body.
  Dependent,     ///< An uninstantiated template: analysed per instance.
  InvalidCode,   ///< The function failed to compile.
  TooLarge,      ///< Over FlowBounds::MaxCFGBlocks.
  BuildFailed,   ///< The CFG could not be built.
  BoundExceeded, ///< Over MaxBlockVisits or MaxSATIterations.
  Unsupported,   ///< A construct the framework would crash on (C's brace
                 ///< initializers of structs: unmodelledInitializer()).
};

/// A one-line, lowercase description of a skip reason, for diagnostics.
const char *describeSkip(SkipReason R);
/// The same, followed by " (Detail)" where the runner left a detail.
std::string describeSkip(SkipReason R, llvm::StringRef Detail);

/// Whether a skip is a give-up worth reporting: a declaration without a
/// body and a template pattern (judged per instantiation) are not.
bool isGiveUp(SkipReason R);

} // namespace clang::interop

#endif // INTEROP_LIB_ENGINE_SKIPREASON_H
