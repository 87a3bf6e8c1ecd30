//===--- ArrayDeviceFacts.h - array/device facts per function ---*- C++ -*-===//
//
// The array/device family of facts, on the pipeline of
// lib/engine/FactPipeline.h: what is proven about the subject of every sink
// call (to_dlpack, from_dlpack, cuda_array_interface). Four checks judge the
// same calls (to_dlpack twice: sharding and TPU memory), so the analysis runs
// once per function and configuration and every check with that
// configuration reads the same SinkFacts.
//
//   pre-filter        factsUsedBy(): which FactFamily bits can matter
//   syntactic proof   ArrayDeviceSyntaxProofs.h
//   flow analysis     ArrayDeviceModel.h, sinks collected at the fixpoint
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICEFACTS_H
#define INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICEFACTS_H

#include "lib/arraydevice/ApiModel.h"
#include "lib/arraydevice/ArrayDeviceModel.h"
#include "lib/engine/FactQuery.h"
#include "lib/engine/FlowRunner.h"

#include "clang/Analysis/FlowSensitive/DataflowEnvironment.h"

#include <optional>
#include <string>
#include <vector>

namespace clang::interop {

template <typename Family> struct PipelineInput;

/// Every option that changes the array/device facts.
struct ArrayDeviceConfig {
  /// Which C++ names play the roles of the API.
  ApiModelOptions Api;
  FlowBounds Bounds;
  /// The FactFamily bits to track (neededFacts() in the checks).
  unsigned Facts = AllFacts;
  /// Prove the sinks of a function from its syntax where its guards allow
  /// (ArrayDeviceSyntaxProofs.h) and run the flow analysis only otherwise;
  /// off only in tests that compare the two.
  bool SyntacticProofs = true;

  std::string key() const;
};

/// The family trait (see lib/engine/FactPipeline.h).
struct ArrayDeviceFamily {
  static constexpr const char *Name = "array-device";
  using Config = ArrayDeviceConfig;
  using Event = SinkFact;
  /// The FactFamily bits that can matter in a function (factsUsedBy).
  using Use = unsigned;
  using Analysis = ArrayDeviceModel;
  struct Compiled;
  struct Run;
  static constexpr bool JudgesExits = false;

  static Compiled compile(const Config &C);
  static bool translationUnitMayMatter(const ASTContext &) { return true; }
  static Use preFilter(const FunctionDecl &FD, const Compiled &C);
  /// The families to track come from the pre-filter, so it applies even
  /// without the syntactic proofs.
  static bool mayHaveEvents(Use U, const Config &C) { return U & C.Facts; }
  static Run prepare(const PipelineInput<ArrayDeviceFamily> &In);
  static std::optional<std::vector<SinkFact>> proveBySyntax(Run &R);
  static Analysis makeAnalysis(ASTContext &Ctx, dataflow::Environment &Env,
                               Run &R, const dataflow::AdornedCFG &CFG);
  static void collect(Run &R, Analysis &A, std::vector<SinkFact> &Out);
  /// Guards without a visible body, for the notes (ArrayDeviceUnseenGuards.h).
  static void postProcess(Run &R, std::vector<SinkFact> &Events);
};

extern template class FactQuery<ArrayDeviceFamily>;
using ArrayDeviceQuery = FactQuery<ArrayDeviceFamily>;
using ArrayDeviceFacts = FunctionFacts<SinkFact>;

/// The fact for Call, or null when the call is unreachable or the function
/// was skipped.
const SinkFact *findSink(const ArrayDeviceFacts &Facts, const CallExpr *Call);

/// Declares that an enabled check needs the FactFamily bits `Facts`. Checks
/// call it from their constructors, which all run before the first
/// analysis, so the facts track exactly what some enabled check needs.
void declareNeededFacts(unsigned Facts);
/// The bits declared so far, or every family when none were.
unsigned neededFacts();

/// The FactFamily bits that can matter in FD's body (and, for a constructor,
/// its initialisers, see forEachInitializerExpr()): single-device facts only
/// if it exports or takes a buffer pointer, addressability only if it
/// imports, TPU facts only if it also names a TPU platform (the only way a
/// TPU fact is ever established). 0 when it calls no sink at all. Lambdas in
/// the body are functions of their own and are not looked into.
unsigned factsUsedBy(const ApiModel &Model, const FunctionDecl &FD);

} // namespace clang::interop

#endif // INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICEFACTS_H
