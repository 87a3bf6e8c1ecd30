//===--- DLPackFieldValues.h - what the field model keeps -------*- C++ -*-===//
//
// The vocabulary the DLPack field model's transfer functions
// (DLPackFieldModel.cpp) and its event collector (DLPackEventCollector.cpp)
// share: the properties the model attaches to values read from DLPack
// fields, the side tables of one function's run (flow-insensitive facts and
// note locations), and the recognisers that find a field's record in the
// state. Internal to lib/dlpackfields/.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_DLPACKFIELDS_DLPACKFIELDVALUES_H
#define INTEROP_LIB_DLPACKFIELDS_DLPACKFIELDVALUES_H

#include "lib/abi/DLPackFields.h"
#include "lib/dlpackfields/DLPackFieldConfig.h"
#include "lib/engine/ValueFacts.h"
#include "lib/support/LocalStores.h"

#include "clang/AST/Expr.h"
#include "clang/Analysis/FlowSensitive/DataflowEnvironment.h"
#include "clang/Analysis/FlowSensitive/StorageLocation.h"
#include "clang/Analysis/FlowSensitive/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <optional>

namespace clang::interop {

class DLPackEventCollector;

namespace dlpackfield {

using dataflow::BoolValue;
using dataflow::Environment;
using dataflow::RecordStorageLocation;
using dataflow::StorageLocation;
using dataflow::Value;

//===----------------------------------------------------------------------===//
// Properties attached to values read from DLPack fields
//===----------------------------------------------------------------------===//

// Marks a value this function stored itself (a producer's own tensor).
inline constexpr llvm::StringLiteral kLocal = "interop.local";
// `data`: the tensor it came from, whether byte_offset was added, and the
// versioned managed tensor around it (for READ_ONLY).
inline constexpr llvm::StringLiteral kDataTensor = "interop.data.tensor";
inline constexpr llvm::StringLiteral kDataOffset = "interop.data.offset";
inline constexpr llvm::StringLiteral kDataManaged = "interop.data.managed";
// `strides`; its NULL atom is kNull (lib/engine/ValueFacts.h).
inline constexpr llvm::StringLiteral kStrides = "interop.strides";
// `byte_offset` and its zero atom.
inline constexpr llvm::StringLiteral kByteOffset = "interop.bo";
inline constexpr llvm::StringLiteral kZero = "interop.zero";
// `device_type`, its "host-accessible" atom and one atom per compared value
// ("interop.dt.eq.2" is device_type == kDLCUDA).
inline constexpr llvm::StringLiteral kDeviceType = "interop.dt";
inline constexpr llvm::StringLiteral kHost = "interop.dt.host";
// The synthetic field set by host-ness guards: of a DLDevice record, and of
// a DLTensor record for a tensor whose `device` the function never names
// (`if (!is_host(t)) return; memcpy(dst, t->data, n);`): the framework
// models only the fields a function names (hostGuardSlot()).
inline constexpr llvm::StringLiteral kDeviceHostField = "interop_host";
// The synthetic field of a DLDevice record holding its device type when the
// function reads it only through an accessor (interop::dl::device_type_of):
// the framework models only the fields a function names.
inline constexpr llvm::StringLiteral kDeviceTypeField = "interop_device_type";
// The synthetic field of a std::shared_ptr / std::unique_ptr of a DLPack
// record: the raw pointer it was made from, which its operator->, operator*
// and get() give back: a field read or checked through the smart pointer is
// one of the tensor it was made from.
inline constexpr llvm::StringLiteral kHeldPointerField = "interop_held";
inline constexpr llvm::StringLiteral kDeviceEqPrefix = "interop.dt.eq.";
// `version.major`: supported (checked by code that stays in release builds)
// and supported-by-assertion (checked only inside a debug-only macro).
inline constexpr llvm::StringLiteral kMajor = "interop.major";
inline constexpr llvm::StringLiteral kMajorOk = "interop.major.ok";
inline constexpr llvm::StringLiteral kMajorAssertOk = "interop.major.aok";
// `flags`, its READ_ONLY atom, and `flags & READ_ONLY` as an integer whose
// non-zero-ness is an atom.
inline constexpr llvm::StringLiteral kFlags = "interop.flags";
inline constexpr llvm::StringLiteral kReadOnly = "interop.ro";
inline constexpr llvm::StringLiteral kReadOnlyBit = "interop.robit";
inline constexpr llvm::StringLiteral kNonZero = "interop.nz";

bool hasProp(const Value *V, llvm::StringRef Name);

bool isLocal(const Value *V);

/// A value the model tracks (carries one of its markers).
bool isTracked(const Value *V);

BoolValue *boolProp(const Value *V, llvm::StringRef Name);

BoolValue &atomProp(Value &V, llvm::StringRef Name, Environment &Env);

bool provesProp(const Environment &Env, const Value *V, llvm::StringRef Name,
                bool Negated = false);

//===----------------------------------------------------------------------===//
// Side tables of one run (flow-insensitive facts and note locations)
//===----------------------------------------------------------------------===//

struct RunContext {
  const DLPackFieldConfig *Config = nullptr;
  /// Judges statements into events (after the fixpoint).
  DLPackEventCollector *Collector = nullptr;
  /// Where each tracked value was first read.
  llvm::DenseMap<const Value *, const Expr *> ReadSite;
  /// Field values of tensors reached through joined pointers.
  JoinedFields Joins;
  /// Clones made for casts and arithmetic point back at the value read.
  llvm::DenseMap<const Value *, const Value *> Origin;
  /// Strides whose elements were read or that were passed on.
  llvm::DenseSet<const Value *> SeenStrides;
  /// Strides elements read at a constant index and never compared
  /// (uncomparedStrideElements()): reading them does not count as looking.
  llvm::DenseSet<const ArraySubscriptExpr *> UncomparedStrideReads;
  /// Tensors passed to a function that may look at their strides.
  llvm::DenseSet<const StorageLocation *> SeenTensors;
  /// Tensors a call given a device allocated here (allocatedOnDevice): their
  /// layout is this function's (byte_offset 0, compact), their device type
  /// the given device's (null when unknown).
  llvm::DenseMap<const StorageLocation *, Value *> Allocated;
  /// Which callees read the strides field (see mayLookAtStrides).
  llvm::DenseMap<const FunctionDecl *, bool> StridesReaders;
  /// HostDeviceGuards and ImportFunctions, compiled once per configuration.
  const DLPackFieldCompiled *Compiled = nullptr;
  /// Subscripts/derefs that are assignment targets.
  llvm::DenseSet<const Expr *> WriteTargets;
  /// Member expressions on the left of an assignment (producer writes).
  llvm::DenseSet<const Expr *> WriteChains;
  /// Subscripts under `&` (address arithmetic, not an access).
  llvm::DenseSet<const Expr *> AddressOnly;
  /// DLPack records created in this function (a producer's own).
  llvm::DenseSet<const StorageLocation *> LocalRecords;
  /// Records that some assignment makes a copy of another record: where
  /// they were created does not make what they hold the producer's own
  /// (their fields' values say whose it is).
  llvm::DenseSet<const StorageLocation *> CopiedInto;
  /// Versioned-tensor parameters the function only reads fields of (an
  /// accessor: the version belongs to whoever hands the tensor in).
  llvm::DenseSet<const ValueDecl *> AccessorParams;
  /// The host-ness guard call, by the slot it set (hostGuardSlot()).
  llvm::DenseMap<const StorageLocation *, const Expr *> GuardSite;
  /// Strides compared with NULL or tested as a pointer somewhere.
  llvm::DenseSet<const Value *> NullTested;
  /// Strides and data reads whose every caller tests them (callerGuards).
  llvm::DenseMap<const Expr *, bool> CallerGuarded;
  /// The function names byte_offset somewhere (a `data` store copies it
  /// along): its body walked once, at the first store, not per visit.
  std::optional<bool> MentionsByteOffset;
  /// The function names a shape or ndim field somewhere (a kept `data`
  /// goes with the layout), body and initialisers walked once.
  std::optional<bool> MentionsShape;
  /// A constructor's initialisers of pointer members, by the expression
  /// that initialises them (`dptr_(t.data)`), made on first use.
  std::optional<llvm::DenseMap<const Expr *, const FieldDecl *>> KeptInits;
  /// The comparison that created a device-type or assertion atom.
  llvm::DenseMap<const Value *, const Expr *> AtomSite;
};

const Value *originOf(const RunContext &RC, const Value *V);

const Expr *readSiteOf(const RunContext &RC, const Value *V);

//===----------------------------------------------------------------------===//
// Recognisers
//===----------------------------------------------------------------------===//

/// The value the model tracks for E: the value of E after identity casts.
Value *trackedValueOf(const Expr *E, const Environment &Env);

RecordStorageLocation *recordOfMemberBase(const MemberExpr *ME,
                                          const Environment &Env);

StorageLocation *childOf(const RecordStorageLocation *R, DLPackField F);

RecordStorageLocation *childRecordOf(const RecordStorageLocation *R,
                                     DLPackField F);

Value *fieldValue(const RecordStorageLocation *R, DLPackField F,
                  const Environment &Env);

/// The DLTensor record inside R (R itself for a DLTensor, dl_tensor for a
/// managed tensor).
RecordStorageLocation *tensorRecordOf(RecordStorageLocation *R);

/// The location of a DLDevice record's device type: its field when the
/// function names it, the kDeviceTypeField synthetic field otherwise (null
/// when neither is modelled).
StorageLocation *deviceTypeLoc(const RecordStorageLocation *Dev);

Value *deviceTypeValueOf(RecordStorageLocation *TensorRec,
                         const Environment &Env);

/// Where host-ness guards record what they proved of a device: the
/// kDeviceHostField of Rec when it is a DLDevice record; for a DLTensor
/// record, that of its `device`, or the tensor's own when the function never
/// names `device`. Null for other records and null Rec.
StorageLocation *hostGuardSlot(const RecordStorageLocation *Rec);

/// True when E mentions byte_offset: the field itself, a variable whose
/// value was read from it (`size_t off = t->byte_offset; ... base + off`),
/// or, with Stores only, a local computed from it (`int64_t elems = es > 0 ?
/// t.byte_offset / es : 0;`): values through variables.
bool mentionsByteOffset(const Expr *E, const Environment &Env,
                        const LocalStores *Stores = nullptr);

/// True when E mentions the layout of a DLTensor (shape, ndim, strides,
/// dtype), directly or through locals: one initialised from it, and with
/// Stores (the function's LocalStores) one assigned, multiplied up or
/// filled element by element from it (`n *= t.shape[i]`, `dims[i] =
/// t.shape[i]`, an extents object made from `dims`).
bool mentionsLayout(const Expr *E, const LocalStores *Stores = nullptr,
                    int Depth = 0);
/// The same for the shape alone (shape or ndim): what a callee needs to
/// read the data as an array of that shape.
bool mentionsShape(const Expr *E, const LocalStores *Stores);

/// The argument is passed as a DLTensor or managed tensor (by value,
/// reference or pointer), not converted to another type.
bool receivesTensor(const Expr *Arg);

/// True when FD's body names the strides of some tensor, or hands a DLPack
/// tensor (by value, reference or pointer) to a function that may look at
/// its strides (mayLookAtStrides): by syntax alone, "the function may
/// consider strides somewhere".
bool mayConsiderStrides(const FunctionDecl &FD,
                        llvm::DenseMap<const FunctionDecl *, bool> &Memo);

/// The same for a whole class, for data it keeps in a member
/// (DLPackEvent::DataKept): some member function or constructor (of the
/// class template, for an instantiation) may consider strides, is not
/// defined in this translation unit (unknown), or hands a DLPack tensor out
/// (returns a pointer or reference to one) to code that may.
bool classMayConsiderStrides(const CXXRecordDecl &RD,
                             llvm::DenseMap<const FunctionDecl *, bool> &Memo);

/// Some member function or constructor of RD (of the class template, for an
/// instantiation) defined in this translation unit reads F of some tensor
/// (a read: not the target of an assignment): a class that keeps `data`
/// and reads byte_offset somewhere applies it where it reads.
bool classReadsField(const CXXRecordDecl &RD, DLPackField F);

/// True when FD has no body here (its behaviour is unknown) or its body
/// reads the strides field other than to test whether there are any (the
/// pointer against NULL, in a function that returns no truth value or
/// number) or to copy their values into memory (a serializer writing them
/// out): passing a tensor to it counts as looking at the strides (a
/// compactness check in a helper).
bool mayLookAtStrides(const FunctionDecl *FD,
                      llvm::DenseMap<const FunctionDecl *, bool> &Memo);

/// The tensor record a call argument designates: `t`, `&mt->dl_tensor`,
/// `*t` passed by reference, a managed tensor's dl_tensor.
RecordStorageLocation *tensorArgRecord(const Expr *Arg, const Environment &Env);

/// Records the member chain on the left of an assignment as a write.
void markWriteChain(const Expr *LHS, RunContext &RC);

} // namespace dlpackfield
} // namespace clang::interop

#endif // INTEROP_LIB_DLPACKFIELDS_DLPACKFIELDVALUES_H
