//===--- ArrayDeviceModel.h - facts about arrays and devices ----*- C++ -*-===//
//
// The dataflow model of the array/device family: at each program point it
// knows, for each array, sharding and device value, what is proven on every
// path (single-device, on TPU, in pinned host memory, addressable by this
// process), and where the value may have come from.
//
// Proven facts are boolean formulas in synthetic fields of the values'
// storage locations, so guards stored in a local bool, &&, ||, early exits,
// assert() and path joins are understood by the framework's SAT reasoning.
// Provenance ("taken from the list of every process's devices", "made by an
// unknown function") is a may-fact kept in the lattice.
//
// Layout follows clang's dataflow models: type recognisers (ApiModel.h),
// state accessors (ArrayDeviceState.h), the transfer functions in one table
// (ArrayDeviceTransfer.h), and the judgement of each sink call's state into
// a SinkFact, collected during the fixpoint (or by a read-only diagnoser).
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICEMODEL_H
#define INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICEMODEL_H

#include "lib/arraydevice/ApiModel.h"
#include "lib/arraydevice/ArrayDeviceEvents.h"
#include "lib/arraydevice/ArrayDeviceLattice.h"
#include "lib/arraydevice/ArrayDeviceState.h"

#include "clang/Analysis/CFG.h"
#include "clang/Analysis/FlowSensitive/AdornedCFG.h"
#include "clang/Analysis/FlowSensitive/DataflowAnalysis.h"
#include "clang/Analysis/FlowSensitive/DataflowEnvironment.h"
#include "llvm/ADT/SmallVector.h"

#include <memory>
#include <vector>

namespace clang::interop {

namespace arraydevice {
class HelperSummaries;
struct CaptureFacts;
} // namespace arraydevice

/// The dataflow analysis.
class ArrayDeviceModel
    : public dataflow::DataflowAnalysis<ArrayDeviceModel, ArrayDeviceLattice> {
public:
  /// Per-function state of the transfer functions (defined in the .cpp).
  struct Context;

  /// `Facts`: the FactFamily bits to track. `Collect`: remember each sink
  /// call's subject and state as the fixpoint reaches it, for
  /// provePending(). This yields the facts ArrayDeviceDiagnoser computes
  /// without the extra pass over every block that the framework's diagnosis
  /// callbacks cost.
  /// `CFG`: the CFG the framework runs on, when the caller has it: a
  /// lambda's captures are seeded only with it (seedCaptures()).
  /// `Summaries`: same-TU helpers are read through their summaries
  /// (ArrayDeviceSummaries.h); `Depth`: how many helpers deep this run is.
  /// `RecordReturns`: keep the state at each return statement (a helper
  /// being summarised).
  ArrayDeviceModel(ASTContext &Ctx, dataflow::Environment &Env,
                   const ApiModel &Model, unsigned Facts = AllFacts,
                   bool Collect = false,
                   const dataflow::AdornedCFG *CFG = nullptr,
                   arraydevice::HelperSummaries *Summaries = nullptr,
                   unsigned Depth = 0, bool RecordReturns = false);

  /// A lambda's call operator starts from what its enclosing function
  /// proved of its captures (set before the run); `RecordLambdas`: keep the
  /// state where each lambda is created (an enclosing function's run).
  void seedCaptures(const arraydevice::CaptureFacts *Seeds);

  /// What entering a case arm through Label proves of a switch over a value
  /// that encodes a fact (num_devices(), platform(), memory_kind(),
  /// Sharding::kind(): ArrayDeviceState.h's linked values); the engine
  /// decides which labels enter where (lib/engine/SwitchArms.h). Null when
  /// V encodes no fact.
  const dataflow::Formula *caseFormula(const SwitchStmt &Sw,
                                       const SwitchCase *Label,
                                       dataflow::Value &V,
                                       dataflow::Environment &Env);
  void recordLambdas();
  /// RecordLambdas mode, after the fixpoint: the last state at each lambda.
  using LambdaState = arraydevice::LambdaState;
  std::vector<LambdaState> takeLambdas();

  /// A state at a normal exit (ArrayDeviceState.h).
  using ExitState = arraydevice::ExitState;
  /// RecordReturns mode, after the fixpoint: the last state of each return.
  std::vector<ExitState> takeReturns();

  /// Collecting mode, after the fixpoint (while its environments live): one
  /// SinkFact per sink call reached, proved in the state of its last visit.
  llvm::SmallVector<SinkFact> provePending();

  static ArrayDeviceLattice initialElement() { return ArrayDeviceLattice(); }

  void transfer(const CFGElement &Elt, ArrayDeviceLattice &L,
                dataflow::Environment &Env);

private:
  /// The transfer of one element, switch arms aside.
  void transferElement(const CFGElement &Elt, ArrayDeviceLattice &L,
                       dataflow::Environment &Env);

  const ApiModel &Model;
  bool Collecting;
  // Heap-allocated: the analysis is moved out of its factory.
  std::shared_ptr<Context> Per;
};

/// The read-only diagnoser: one SinkFact per sink call reached, judged in
/// the framework's diagnosis pass (tests compare it with the collection).
class ArrayDeviceDiagnoser {
public:
  explicit ArrayDeviceDiagnoser(const ApiModel &Model) : Model(Model) {}

  llvm::SmallVector<SinkFact> operator()(
      const CFGElement &Elt, ASTContext &Ctx,
      const dataflow::TransferStateForDiagnostics<ArrayDeviceLattice> &S);

private:
  const ApiModel &Model;
};

} // namespace clang::interop

#endif // INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICEMODEL_H
