//===--- ArrayDeviceLattice.h - provenance and accessors --------*- C++ -*-===//
//
// The lattice part of the array/device model's state: where each value may
// have come from, and what const accessors returned. The proven facts are
// not here but in the environment, as formulas (ArrayDeviceState.h).
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICELATTICE_H
#define INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICELATTICE_H

#include "lib/arraydevice/ArrayDeviceEvents.h"

#include "clang/AST/Decl.h"
#include "clang/Analysis/FlowSensitive/DataflowLattice.h"
#include "clang/Analysis/FlowSensitive/StorageLocation.h"
#include "llvm/ADT/DenseMap.h"

#include <tuple>

namespace clang::interop {

/// The lattice part of the state.
///
/// Origins: may-provenance per storage location. Joins keep, per location,
/// the strongest origin (GlobalDevices over Producer over Parameter) and
/// among equals the earliest in the source, so the result is deterministic.
///
/// Accessors: what a const accessor or dereference returned for an object
/// (holder.array(), *it, ptr->, v[i] with i unchanged), valid until the object
/// changes, so a guard on one call covers the next. Joins keep the entries both
/// sides agree on.
///
/// Every location the model puts in either map is stable across visits of
/// the same program point, so both maps stay finite and the fixpoint is
/// reached.
class ArrayDeviceLattice {
public:
  /// The object, the accessor, and what else selects the result: the
  /// index value of an element access (`v[i]`, ArrayDeviceContainers.h),
  /// null for accessors without arguments.
  using AccessorKey = std::tuple<const dataflow::StorageLocation *,
                                 const FunctionDecl *, const void *>;
  llvm::DenseMap<const dataflow::StorageLocation *, Origin> Origins;
  llvm::DenseMap<AccessorKey, dataflow::StorageLocation *> Accessors;

  bool operator==(const ArrayDeviceLattice &O) const {
    return Origins == O.Origins && Accessors == O.Accessors;
  }
  dataflow::LatticeEffect join(const ArrayDeviceLattice &O);
  /// Drops the accessors cached on `Obj` (it may have changed).
  void forgetAccessors(const dataflow::StorageLocation &Obj);
};

/// The stronger of two origins: GlobalDevices over Producer over Parameter
/// over None, then the earlier site.
Origin strongerOrigin(const Origin &A, const Origin &B);

} // namespace clang::interop

#endif // INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICELATTICE_H
