//===--- ArrayDeviceTransfer.h - the array/device transfers -----*- C++ -*-===//
//
// The array/device model's transfer functions, as one table
// (lib/engine/StmtSwitch.h), and the cheap gate in front of it.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICETRANSFER_H
#define INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICETRANSFER_H

#include "lib/arraydevice/ArrayDeviceState.h"
#include "lib/engine/StmtSwitch.h"

namespace clang::interop::arraydevice {

/// Only calls, constructions, comparisons and a few more statements can
/// matter, and a call only when it involves the model: the table runs only
/// where this holds.
bool mayMatter(const ApiModel &M, const Stmt *S, const ArrayDeviceLattice &L,
               const Environment &Env);

/// Whether enumerator E is the one the fact behind `Property` (kIsTpu,
/// kIsPinned, kIsSingleKind) names: `kTpu` for a platform.
bool enumeratorMatches(const ApiModel &M, llvm::StringRef Property,
                       const EnumConstantDecl *E);

/// How `count Op K` relates to `One` ("exactly one device"): a formula
/// implied by the comparison (equivalent to it where one exists).
const dataflow::Formula &countRelation(BinaryOperatorKind Op,
                                       const llvm::APSInt &K,
                                       const dataflow::Formula &One,
                                       Environment &Env);

/// Whether S is a call to a same-TU helper with a summary
/// (ArrayDeviceSummaries.h): such calls matter though mayMatter() says no.
bool mayBeSummarisedCall(const Stmt *St, State &S);

/// An element of `Range` (an object of a device or array role) gets what is
/// proven of every element and the range's provenance; a derived range
/// (iterator, view) shares the range's facts.
void initFromRange(const ApiModel &M, State &S,
                   const dataflow::RecordStorageLocation *Range,
                   const dataflow::RecordStorageLocation *Loc);

/// The object cached for accessor `Key` (and `Index`, a value that selects
/// the element, or null) on `Obj`, or a stable new one made at `Site` and
/// initialised by `Init`, entered in the cache.
dataflow::RecordStorageLocation &
cachedAccessor(const dataflow::StorageLocation &Obj, const FunctionDecl *Key,
               const CallExpr *Site, QualType T, State &S,
               llvm::function_ref<void(dataflow::RecordStorageLocation &)> Init,
               const void *Index = nullptr);

/// The transfer functions, one case per API role and statement kind.
const StmtSwitch<State> &transferSwitch();

} // namespace clang::interop::arraydevice

#endif // INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICETRANSFER_H
