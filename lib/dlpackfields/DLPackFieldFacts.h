//===--- DLPackFieldFacts.h - DLPack field facts per function ---*- C++ -*-===//
//
// The DLPack field family of facts, on the pipeline of
// lib/engine/FactPipeline.h: what a function has proven about the DLPack
// fields it reads, as events (DLPackFieldEvents.h) that interop-dlpack-
// byte-offset, -strides, -version and interop-unsupported-dlpack-device
// filter. One run per function and configuration serves all four.
//
//   pre-filters       translationUnitMayUseDLPack, DLPackFieldPreFilter.h
//   syntactic proof   DLPackFieldSyntaxProofs.h (a function it proves has no
//                     event any check could report: BySyntax, no events)
//   flow analysis     DLPackFieldModel.h, judged by DLPackEventCollector.h
//   post-processing   one event per (kind, use), source order (switch
//                     cases are the flow's: lib/engine/SwitchArms.h)
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_DLPACKFIELDS_DLPACKFIELDFACTS_H
#define INTEROP_LIB_DLPACKFIELDS_DLPACKFIELDFACTS_H

#include "lib/dlpackfields/DLPackFieldConfig.h"
#include "lib/dlpackfields/DLPackFieldEvents.h"
#include "lib/dlpackfields/DLPackFieldPreFilter.h"
#include "lib/engine/FactQuery.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Analysis/FlowSensitive/DataflowEnvironment.h"

#include <optional>
#include <vector>

namespace clang::interop {

template <typename Family> struct PipelineInput;
class DLPackFieldModel;

/// The family trait (see lib/engine/FactPipeline.h).
struct DLPackFieldFamily {
  static constexpr const char *Name = "dlpack-fields";
  using Config = DLPackFieldConfig;
  using Event = DLPackEvent;
  using Use = DLPackUse;
  using Compiled = DLPackFieldCompiled;
  using Analysis = DLPackFieldModel;
  struct Run;
  static constexpr bool JudgesExits = false;

  static Compiled compile(const Config &C) { return Compiled::compile(C); }
  static bool translationUnitMayMatter(const ASTContext &Ctx);
  static Use preFilter(const FunctionDecl &FD, const Compiled &);
  /// The pre-filter is a syntactic proof: off with the other proofs (tests
  /// compare both with the flow analysis).
  static bool mayHaveEvents(const Use &U, const Config &C) {
    return U.ReadsModelledFields || !C.SyntacticProofs;
  }
  static Run prepare(const PipelineInput<DLPackFieldFamily> &In);
  static std::optional<std::vector<DLPackEvent>> proveBySyntax(Run &R);
  static Analysis makeAnalysis(ASTContext &Ctx, dataflow::Environment &Env,
                               Run &R);
  static void collect(Run &R, Analysis &A, std::vector<DLPackEvent> &Out);
  static void postProcess(Run &R, std::vector<DLPackEvent> &Events);
};

extern template class FactQuery<DLPackFieldFamily>;
using DLPackFieldQuery = FactQuery<DLPackFieldFamily>;
using DLPackFieldFacts = FunctionFacts<DLPackEvent>;

/// FD's facts under Config (a query built for the call: checks keep a
/// DLPackFieldQuery instead, whose key is built once).
const DLPackFieldFacts &
getDLPackFieldFacts(const FunctionDecl &FD, ASTContext &Ctx,
                    const DLPackFieldConfig &Config = {});

/// The pre-filters' answer for FD under the default configuration.
const DLPackUse &dlpackUseOf(const FunctionDecl &FD);

} // namespace clang::interop

#endif // INTEROP_LIB_DLPACKFIELDS_DLPACKFIELDFACTS_H
