//===--- DLPackFieldConfig.h - options of the field model -------*- C++ -*-===//
//
// Every option that changes the DLPack field facts and its compiled form
// (made by the family, DLPackFieldFacts.cpp, which owns every memo in it).
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_DLPACKFIELDS_DLPACKFIELDCONFIG_H
#define INTEROP_LIB_DLPACKFIELDS_DLPACKFIELDCONFIG_H

#include "lib/engine/ExitConditions.h"
#include "lib/engine/FlowRunner.h"
#include "lib/support/NameLists.h"

#include "clang/AST/Expr.h"

#include <memory>
#include <string>
#include <vector>

namespace clang::interop {

class DLPackHelperSummaries;
class CapturedStridesProofs;

/// The model's configuration: what it needs to know beyond the DLPack ABI.
struct DLPackFieldConfig {
  /// Macros whose condition disappears under NDEBUG (`assert`, DCHECK...).
  std::vector<std::string> DebugOnlyAssertMacros = {
      "assert",    "DCHECK",    "DCHECK_EQ",
      "DCHECK_NE", "DCHECK_LT", "DCHECK_LE",
      "DCHECK_GT", "DCHECK_GE", "TORCH_INTERNAL_ASSERT_DEBUG_ONLY"};
  /// Bool-returning functions of a device or tensor whose true result means
  /// "host-accessible" (a NameList; by default, any function whose own name,
  /// the last part of the qualified one, holds "host" or "cpu").
  std::vector<std::string> HostDeviceGuards = {"[Hh]ost[^:]*$", "[Cc]pu[^:]*$",
                                               "CPU[^:]*$"};
  /// Functions that import a tensor (a NameList): only
  /// tensors passed to these get TensorCallArg events, so that no other call
  /// pays for proving a device type.
  std::vector<std::string> ImportFunctions = {"::interop::from_dlpack"};
  FlowBounds Bounds;
  /// Callee contracts read from names (lib/engine/ExitConditions.h).
  ExitConditionNames Exits;
  /// Try the syntactic proofs first (DLPackFieldSyntaxProofs.h): a function
  /// they prove has nothing to report is not flow-analysed. Tests turn this off
  /// to compare the two.
  bool SyntacticProofs = true;

  std::string key() const;
};

/// The parts of a DLPackFieldConfig compiled before use, once per
/// configuration.
struct DLPackFieldCompiled {
  /// HostDeviceGuards and ImportFunctions, compiled.
  NameList HostGuards;
  /// DebugOnlyAssertMacros, as configured.
  std::vector<std::string> DebugOnlyAssertMacros;
  NameList Importers;
  ExitConditions Exits;
  /// Same-TU helpers read from their bodies (DLPackHelperSummaries.h): the
  /// store holding this lives for one translation unit.
  std::shared_ptr<DLPackHelperSummaries> Summaries;
  /// Strides of lambda captures proven where the lambda is made
  /// (DLPackFieldSyntaxProofs.h), for the same translation unit.
  std::shared_ptr<CapturedStridesProofs> Captures;

  static DLPackFieldCompiled compile(const DLPackFieldConfig &Config);
};

} // namespace clang::interop

#endif // INTEROP_LIB_DLPACKFIELDS_DLPACKFIELDCONFIG_H
