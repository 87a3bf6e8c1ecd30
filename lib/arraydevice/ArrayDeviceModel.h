//===--- ArrayDeviceModel.h - facts about arrays and devices ----*- C++ -*-===//
//
// The dataflow model behind the seed checks: at each program point it knows,
// for each array, sharding and device value, what is proven on every path
// (single-device, on TPU, in pinned host memory, addressable by this
// process), and where the value may have come from.
//
// Proven facts are boolean formulas in synthetic fields of the values'
// storage locations, so guards stored in a local bool, &&, ||, early exits,
// assert() and path joins are understood by the framework's SAT reasoning.
// Provenance ("taken from the list of every process's devices", "made by an
// unknown function") is a may-fact kept in the lattice.
//
// Layout follows clang's dataflow models: type recognisers (ApiModel), state
// accessors, transfer functions, one buildTransferSwitch(), then a separate
// read-only diagnoser that turns the state at each sink call into a SinkFact.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICEMODEL_H
#define INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICEMODEL_H

#include "lib/arraydevice/ApiModel.h"
#include "lib/support/AstHelpers.h"

#include "clang/AST/Expr.h"
#include "clang/Analysis/CFG.h"
#include "clang/Analysis/FlowSensitive/DataflowAnalysis.h"
#include "clang/Analysis/FlowSensitive/DataflowEnvironment.h"
#include "clang/Analysis/FlowSensitive/DataflowLattice.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <functional>
#include <memory>

namespace clang::interop {

/// What is known about one property at one program point.
enum class Proof : unsigned char {
  Unknown, ///< Holds on some paths or is not known.
  Holds,   ///< Holds on every path reaching the point.
  Refuted, ///< Fails on every path reaching the point.
};

/// Where a value may have come from; the strongest origin over all paths.
struct Origin {
  enum Kind : unsigned char {
    None,          ///< Nothing recorded (a parameter, a local, a member).
    Parameter,     ///< Copied from a parameter (Site names it).
    Producer,      ///< Returned by a function the model does not know.
    GlobalDevices, ///< Taken from a list of every process's devices.
  };
  Kind K = None;
  /// The call that produced the value, or the expression naming the
  /// parameter it was copied from.
  const Expr *Site = nullptr;

  bool operator==(const Origin &O) const { return K == O.K && Site == O.Site; }
  bool operator!=(const Origin &O) const { return !(*this == O); }
};

/// The lattice part of the state.
///
/// Origins: may-provenance per storage location. Joins keep, per location,
/// the strongest origin (GlobalDevices over Producer over Parameter) and
/// among equals the earliest in the source, so the result is deterministic.
///
/// Accessors: what a const accessor or dereference returned for an object
/// (holder.array(), *it, ptr->), valid until the object changes, so a guard
/// on one call covers the next. Joins keep the entries both sides agree on.
///
/// Every location the model puts in either map is stable across visits of
/// the same program point, so both maps stay finite and the fixpoint is
/// reached.
class InteropLattice {
public:
  using AccessorKey =
      std::pair<const dataflow::StorageLocation *, const FunctionDecl *>;
  llvm::DenseMap<const dataflow::StorageLocation *, Origin> Origins;
  llvm::DenseMap<AccessorKey, dataflow::StorageLocation *> Accessors;

  bool operator==(const InteropLattice &O) const {
    return Origins == O.Origins && Accessors == O.Accessors;
  }
  dataflow::LatticeEffect join(const InteropLattice &O);
  /// Drops the accessors cached on `Obj` (it may have changed).
  void forgetAccessors(const dataflow::StorageLocation &Obj);
};

/// The calls the checks judge.
enum class SinkKind : unsigned char {
  Export,             ///< ExportFunctions (to_dlpack).
  Import,             ///< ImportFunctions (from_dlpack onto a device).
  CudaArrayInterface, ///< CudaArrayInterfaceFunctions.
};

/// Everything the analysis proved about the subject of one sink call on the
/// paths that reach it. Arrays (Export, CudaArrayInterface) fill the array
/// proofs, devices (Import) fill Addressable.
struct SinkFact {
  SinkKind Kind = SinkKind::Export;
  const CallExpr *Call = nullptr;
  /// The array or target-device argument (or the receiver of a member sink).
  const Expr *Subject = nullptr;
  /// False when the subject has no storage location the model tracks; the
  /// checks stay silent then rather than guess.
  bool Modelled = false;
  Proof SingleDevice = Proof::Unknown;
  /// Holds or Unknown (whether the array is proven not to be on TPU is not
  /// computed: no check needs it).
  Proof Tpu = Proof::Unknown;
  /// Only computed when Tpu holds (the only case a check needs it).
  Proof PinnedHost = Proof::Unknown;
  Proof Addressable = Proof::Unknown;
  Origin From;
};

/// Families of facts the analysis can track. Each family costs boolean
/// values on every modelled object and SAT work at every join, so only the
/// families some enabled check needs are tracked.
enum FactFamily : unsigned {
  SingleDeviceFacts = 1u << 0, ///< Arrays/shardings on one device.
  TpuMemoryFacts = 1u << 1,    ///< On TPU; in pinned host memory.
  AddressableFacts = 1u << 2,  ///< Devices addressable by this process.
  AllFacts = SingleDeviceFacts | TpuMemoryFacts | AddressableFacts,
};

/// The dataflow analysis. Construct through ArrayDeviceAnalysis::factory().
class ArrayDeviceAnalysis
    : public dataflow::DataflowAnalysis<ArrayDeviceAnalysis, InteropLattice> {
public:
  /// Per-function state of the transfer functions (defined in the .cpp).
  struct Context;
  /// What the transfer functions receive.
  struct State {
    InteropLattice &Lattice;
    dataflow::Environment &Env;
    Context &Ctx;
  };
  /// The transfer functions: one dispatch over CFG statements.
  using TransferSwitch =
      std::function<void(const CFGElement &, ASTContext &, State &)>;

  /// The transfer functions for `Model`. Building them constructs AST
  /// matchers, so callers analysing many functions build them once.
  static std::shared_ptr<const TransferSwitch>
  buildTransferSwitch(const ApiModel &Model);

  /// `Collect`: remember each sink call's subject and state as the fixpoint
  /// reaches it, for provePending(). This yields the facts
  /// ArrayDeviceDiagnoser computes without the extra pass over every block
  /// that the framework's diagnosis callbacks cost.
  ArrayDeviceAnalysis(ASTContext &Ctx, dataflow::Environment &Env,
                      const ApiModel &Model, unsigned Facts = AllFacts,
                      std::shared_ptr<const TransferSwitch> Switch = nullptr,
                      bool Collect = false);

  /// Collecting mode, after the fixpoint (while its environments live): one
  /// SinkFact per sink call reached, proved in the state of its last visit.
  llvm::SmallVector<SinkFact> provePending();

  static InteropLattice initialElement() { return InteropLattice(); }

  void transfer(const CFGElement &Elt, InteropLattice &L,
                dataflow::Environment &Env);

private:
  const ApiModel &Model;
  bool Collecting;
  // Heap-allocated: the analysis is moved out of its factory.
  std::shared_ptr<Context> Per;
  std::shared_ptr<const TransferSwitch> Switch;
};

/// The read-only diagnoser: one SinkFact per sink call reached.
class ArrayDeviceDiagnoser {
public:
  explicit ArrayDeviceDiagnoser(const ApiModel &Model);

  llvm::SmallVector<SinkFact>
  operator()(const CFGElement &Elt, ASTContext &Ctx,
             const dataflow::TransferStateForDiagnostics<InteropLattice> &S);

private:
  const ApiModel &Model;
  std::function<llvm::SmallVector<SinkFact>(
      const CFGElement &, ASTContext &,
      const dataflow::TransferStateForDiagnostics<InteropLattice> &)>
      Switch;
};

/// The sink kind of a callee, if any (for matchers and the pre-filter).
std::optional<SinkKind> sinkKindOf(const ApiModel &Model,
                                   const FunctionDecl *Callee);

/// The expression a sink call judges: the first argument of the array type
/// (Export, CudaArrayInterface) or device type (Import), else the receiver of
/// a member call. Null when there is none.
const Expr *sinkSubject(const ApiModel &Model, const CallExpr &Call,
                        SinkKind Kind);

/// value(), operator* or operator-> of a modelled Result.
bool isResultUnwrap(const ApiModel &M, const CallExpr &CE);

} // namespace clang::interop

#endif // INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICEMODEL_H
