//===--- ArrayDeviceFacts.h - one analysis per function ---------*- C++ -*-===//
//
// The entry point the seed checks call. Four checks judge the same calls
// (to_dlpack twice: sharding and TPU memory), so the flow analysis runs once
// per function and configuration, and every check with that configuration
// reads the same SinkFacts.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICEFACTS_H
#define INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICEFACTS_H

#include "lib/arraydevice/ApiModel.h"
#include "lib/arraydevice/ArrayDeviceModel.h"
#include "lib/engine/FlowRunner.h"

#include "clang/ASTMatchers/ASTMatchers.h"
#include "llvm/ADT/DenseMap.h"

#include <memory>
#include <string>

namespace clang::interop {

/// What the analysis found in one function.
struct FunctionFacts {
  /// Why the function was not analysed (None when it was).
  SkipReason Skipped = SkipReason::None;
  /// The framework's message for a give-up, or the CFG size.
  std::string Detail;
  /// One fact per sink call on a reachable path (every sink call when
  /// BySyntax).
  llvm::SmallVector<SinkFact> Sinks;
  /// True when the syntax proved every sink (proveGuardedSinks) and the flow
  /// analysis did not run.
  bool BySyntax = false;

  /// The fact for `Call`, or null when the call is unreachable or the
  /// function was skipped.
  const SinkFact *find(const CallExpr *Call) const;
};

/// Runs the model over functions on demand and remembers the results for the
/// current translation unit.
class ArrayDeviceFacts {
public:
  /// `Facts`: the FactFamily bits to track. `GuardFastPath`: prove the
  /// sinks of a function from its syntax when its guards allow
  /// (proveGuardedSinks) and run the flow analysis only otherwise; off only
  /// in tests that compare the two.
  ArrayDeviceFacts(const ApiModelOptions &Options, const FlowBounds &Bounds,
                   unsigned Facts = AllFacts, bool GuardFastPath = true);

  const ApiModel &model() const { return Model; }

  /// The facts of FD, computed on first use. A function that calls no sink
  /// this instance tracks facts for is not analysed at all (its facts are
  /// empty and it is not counted as skipped).
  const FunctionFacts &analyze(const FunctionDecl &FD, ASTContext &Ctx);

  /// Number of functions actually run through the flow analysis (tests,
  /// benchmarks).
  unsigned analysedFunctions() const { return Analysed; }

private:
  ApiModel Model;
  FlowBounds Bounds;
  unsigned Facts;
  bool GuardFastPath;
  // Built once: constructing their matchers costs more than analysing a
  // small function.
  std::shared_ptr<const ArrayDeviceAnalysis::TransferSwitch> Transfer;
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<FunctionFacts>> Cache;
  unsigned Analysed = 0;
};

/// Declares that an enabled check needs the FactFamily bits `Facts`. Checks
/// call it from their constructors, which all run before the first analysis,
/// so the shared instances track exactly what some enabled check needs.
void declareNeededFacts(unsigned Facts);

/// The instance shared by every check of the translation unit `Ctx` with
/// these options and bounds (created on first use; it tracks the facts
/// declared so far, or all of them when none were).
ArrayDeviceFacts &sharedArrayDeviceFacts(ASTContext &Ctx,
                                         const ApiModelOptions &Options,
                                         const FlowBounds &Bounds);

/// Forgets every shared instance; checks call it at the end of each
/// translation unit so no state outlives the AST it points into.
void releaseSharedArrayDeviceFacts();

/// The FactFamily bits that can matter in FD's body: single-device facts only
/// if it exports or takes a buffer pointer, addressability only if it
/// imports, TPU facts only if it also names a TPU platform (the only way a
/// TPU fact is ever established). 0 when it calls no sink at all. Lambdas in
/// the body are functions of their own and are not looked into.
unsigned factsUsedBy(const ApiModel &Model, const FunctionDecl &FD);

} // namespace clang::interop

#endif // INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICEFACTS_H
