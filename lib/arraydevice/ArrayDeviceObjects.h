//===--- ArrayDeviceObjects.h - objects made from other objects -*- C++ -*-===//
//
// The primitives every array/device transfer builds on when one modelled
// object is made from another: an element of a range gets what is proven of
// every element and the range's provenance, a derived range (iterator, view,
// the pointee of a smart pointer) shares its range's facts, an accessor's
// result is cached per object so that a guard on one call covers the next,
// and enumerators and counts relate to the facts they encode.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICEOBJECTS_H
#define INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICEOBJECTS_H

#include "lib/arraydevice/ArrayDeviceState.h"

#include "llvm/ADT/APSInt.h"

namespace clang::interop::arraydevice {

/// Whether the fact \p V of every element of a range holds here: a literal
/// true, or what the path proves. One solver query for a formula.
bool provenForEveryElement(const BoolValue &V, Environment &Env);

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

/// Whether T names the record RD (canonical declarations).
bool sameRecord(QualType T, const CXXRecordDecl *RD);

/// Replaces every fact of a range of holders by an unknown.
void forgetHeld(const dataflow::RecordStorageLocation &Range,
                Environment &Env);

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

} // namespace clang::interop::arraydevice

#endif // INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICEOBJECTS_H
