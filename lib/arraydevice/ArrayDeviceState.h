//===--- ArrayDeviceState.h - the model's facts and objects -----*- C++ -*-===//
//
// The vocabulary the array/device model's transfer functions
// (ArrayDeviceTransfer.cpp) and its sink judgement (ArrayDeviceModel.cpp)
// share: the synthetic fields that hold each modelled object's facts as
// formulas, the objects the model makes itself, and the accessors of both.
// Internal to lib/arraydevice/.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICESTATE_H
#define INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICESTATE_H

#include "lib/arraydevice/ApiModel.h"
#include "lib/arraydevice/ArrayDeviceLattice.h"
#include "lib/engine/ValueFacts.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/Analysis/FlowSensitive/DataflowEnvironment.h"
#include "clang/Analysis/FlowSensitive/StorageLocation.h"
#include "clang/Analysis/FlowSensitive/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace clang::interop::arraydevice {

using dataflow::BoolValue;
using dataflow::Environment;
using dataflow::PointerValue;
using dataflow::RecordStorageLocation;
using dataflow::StorageLocation;
using dataflow::Value;

//===----------------------------------------------------------------------===//
// Synthetic fields
//===----------------------------------------------------------------------===//

// Arrays and shardings: on one device; on TPU; in pinned host memory.
inline constexpr llvm::StringLiteral kSingle = "single";
inline constexpr llvm::StringLiteral kTpu = "tpu";
inline constexpr llvm::StringLiteral kPinned = "pinned";
// In the device's own memory (ArrayDeviceMemoryKinds.h; for wording only).
inline constexpr llvm::StringLiteral kDeviceMem = "device_mem";
// Devices: addressable by this process (and kTpu).
inline constexpr llvm::StringLiteral kAddressable = "addressable";
// Device ranges: kSingle (exactly one device), every element addressable,
// every element a TPU device.
inline constexpr llvm::StringLiteral kElemAddressable = "elem_addressable";
inline constexpr llvm::StringLiteral kElemTpu = "elem_tpu";
// Array ranges: every element on one device (an array's shards); every
// element on TPU / in pinned host memory (the shards of a TPU array are on
// its platform, in its memory kind).
inline constexpr llvm::StringLiteral kElemSingle = "elem_single";
inline constexpr llvm::StringLiteral kElemPinned = "elem_pinned";
// Ranges of records holding a device or an array (TypeRole::HolderRange):
// kElemSingle / kElemAddressable of one held field of every element, under
// the name heldFact() gives.
std::string heldFact(llvm::StringRef Every, const FieldDecl &Field);
// std::optional<T> of a device or an array: it holds a value.
inline constexpr llvm::StringLiteral kEngaged = "engaged";
// Result<T>: the value it holds.
inline constexpr llvm::StringLiteral kValue = "value";
// Status (StatusTypes): not an error.
inline constexpr llvm::StringLiteral kOk = "ok";

// Properties of integer/enum values returned by accessors, linking the value
// back to the fact it encodes: a device count (is it one?), a platform (is it
// TPU?), a memory kind (is it pinned host?).
inline constexpr llvm::StringLiteral kCountIsOne = "count_is_one";
inline constexpr llvm::StringLiteral kIsTpu = "is_tpu";
inline constexpr llvm::StringLiteral kIsPinned = "is_pinned";
// A memory kind's second property: is it device memory?
inline constexpr llvm::StringLiteral kIsDeviceMem = "is_device_mem";
// A sharding kind (is it a single-device kind?).
inline constexpr llvm::StringLiteral kIsSingleKind = "is_single_kind";

/// The fact a value read from an accessor encodes (one of the properties
/// above), or null when it encodes none.
BoolValue *linkedFact(const Value &V, llvm::StringRef *Property = nullptr);

/// Objects the model creates itself (pointees it gives to pointers, results
/// of cached accessors, elements of range-based for loops), one per program
/// point and type: a loop that revisits the point gets the same location
/// back, so the provenance map stays finite and the fixpoint is reached.
class StableObjects {
public:
  /// `Fresh`: give the fields new (unknown) values on every visit, as for
  /// a value computed anew each time; otherwise keep what the object has.
  RecordStorageLocation &get(const void *Key, QualType T, Environment &Env,
                             bool Fresh = true) {
    T = T.getCanonicalType().getUnqualifiedType();
    RecordStorageLocation *&Slot = Locs[{Key, T.getTypePtr()}];
    if (!Slot) {
      Slot = &cast<RecordStorageLocation>(Env.createObject(T));
    } else if (Fresh) {
      Env.initializeFieldsWithValues(*Slot);
      unknownFacts(*Slot, Env);
    }
    return *Slot;
  }

  /// Gives every boolean synthetic field of `Loc` a new unknown. Top values,
  /// not fresh atoms: on a path that tests one it is an atom like any other,
  /// but joins and loop widening take it as "anything" without asking the
  /// solver, which keeps loops over new objects cheap.
  static void unknownFacts(const RecordStorageLocation &Loc, Environment &Env) {
    for (const auto &Entry : Loc.synthetic_fields())
      if (Entry.getValue()->getType()->isBooleanType())
        Env.setValue(*Entry.getValue(), Env.makeTopBoolValue());
  }

private:
  llvm::DenseMap<std::pair<const void *, const Type *>, RecordStorageLocation *>
      Locs;
};

class HelperSummaries;

/// A state at a normal exit of a function: a return statement's (Return
/// set), or the function's exit.
struct ExitState {
  const ReturnStmt *Return;
  dataflow::Environment Env;
  ArrayDeviceLattice Lattice;
};

/// The state where a lambda is created, in its enclosing function.
struct LambdaState {
  const LambdaExpr *Lambda;
  dataflow::Environment Env;
  ArrayDeviceLattice Lattice;
};

/// What the transfer functions keep for one function besides the flow
/// state.
struct TransferContext {
  /// Summaries of same-TU helpers (ArrayDeviceSummaries.h), or null; how
  /// many helpers deep this function's analysis is.
  HelperSummaries *Summaries = nullptr;
  unsigned SummaryDepth = 0;
  /// Loop variable of each range-based for -> the variable bound to its
  /// range (`for (const Device &d : devices())`).
  llvm::DenseMap<const VarDecl *, const VarDecl *> RangeFors;
  /// Each arm of a glvalue conditional that is a call or names an object
  /// (`f()`, `a`, `h.a`, after parentheses and implicit casts) -> the
  /// conditional: such an arm ends where that expression is evaluated
  /// (noteConditionalArm()).
  llvm::DenseMap<const Expr *, const AbstractConditionalOperator *>
      ConditionalArms;
  StableObjects Stable;
};

/// What the transfer functions receive.
struct State {
  ArrayDeviceLattice &Lattice;
  Environment &Env;
  TransferContext &Ctx;
  const ApiModel &Model;
  ASTContext &AST;
};

/// The callee contracts the engine applies (lib/engine/ValueFacts.h).
inline const ExitConditions &exitConditionsOf(const State &S) {
  return S.Model.exitConditions();
}

//===----------------------------------------------------------------------===//
// State accessors
//===----------------------------------------------------------------------===//

/// The boolean in field `Name`, created (unconstrained) if it has none yet.
BoolValue *getBool(const RecordStorageLocation *Loc, llvm::StringRef Name,
                   Environment &Env);

/// Read-only variant for the diagnoser.
BoolValue *peekBool(const RecordStorageLocation *Loc, llvm::StringRef Name,
                    const Environment &Env);

void setBool(const RecordStorageLocation *Loc, llvm::StringRef Name,
             BoolValue &V, Environment &Env);

/// Copies field `Name` from `From` to `To` (both may lack it).
void copyBool(const RecordStorageLocation *From,
              const RecordStorageLocation *To, llvm::StringRef Name,
              Environment &Env);

/// Replaces field `Name` by a new unknown (see unknownFacts()): the object
/// may have changed.
void forget(const RecordStorageLocation *Loc, llvm::StringRef Name,
            Environment &Env);

/// The object an expression denotes: the pointee of a pointer, the referent
/// of a glvalue, or the result object of a record prvalue.
RecordStorageLocation *objectLoc(const Expr &E, const Environment &Env);

/// A pointer value to a stable object of `Pointee` keyed by `Key`.
PointerValue &stablePointer(const void *Key, QualType Pointee, State &S);

/// The object a call returns (by value, by reference or through a pointer),
/// creating a location when the framework did not make one.
RecordStorageLocation *returnedObject(const CallExpr &CE, State &S);

/// The object held by a Result (or null when its T is not modelled). A
/// Result<Device *> holds a pointer: the object is its pointee.
RecordStorageLocation *resultValue(const RecordStorageLocation &Result,
                                   State &S);

/// The object a modelled value denotes: itself, or for a Result the value
/// inside. Lets every rule treat `Array` and `Result<Array>` alike.
RecordStorageLocation *modelledObject(const ApiModel &M,
                                      RecordStorageLocation *Loc, State &S);

/// The role of a location's own type, looking into a Result.
TypeRole roleOf(const ApiModel &M, const RecordStorageLocation *Loc);

RecordStorageLocation *receiverLoc(const CallExpr &CE, const Environment &Env);

void setOrigin(State &S, const StorageLocation *Loc, Origin O);

Origin originOf(const ArrayDeviceLattice &L, const StorageLocation *Loc);

/// The origin a copy of `Src` gets: the source's, or the parameter the
/// source expression names.
Origin copiedOrigin(const ArrayDeviceLattice &L,
                    const RecordStorageLocation *Src, const Expr *SrcExpr);

/// The value of an expression that carries a fact (linkedFact), looking
/// through implicit casts when the framework did not carry it over.
Value *valueThroughCasts(const Expr *E, const Environment &Env);

/// The same walk for the first value Wanted accepts.
Value *valueThroughCasts(const Expr *E, const Environment &Env,
                         llvm::function_ref<bool(const Value &)> Wanted);

/// The formula of one enumerator fact (pinned host, TPU, device memory) of
/// an argument: a literal for an enumerator (\p Has says whether it has the
/// fact), the property \p Prop a value read from the accessor carries, a
/// fresh unknown otherwise. pinnedOf, tpuOf and deviceMemOf are its uses.
BoolValue &
enumeratorFact(const Expr *Arg, Environment &Env,
               llvm::function_ref<bool(const EnumConstantDecl *)> Has,
               llvm::StringRef Prop);

/// The "pinned host" formula of a memory-kind argument: a literal for an
/// enumerator, the accessor's fact for a value read from memory_kind(), a
/// fresh unknown otherwise.
BoolValue &pinnedOf(const ApiModel &M, const Expr *Arg, Environment &Env);

/// The "is TPU" formula of a platform argument, like pinnedOf().
BoolValue &tpuOf(const ApiModel &M, const Expr *Arg, Environment &Env);

/// devices(Platform::kTpu), local_devices(Platform::kCpu): a platform
/// argument says what platform the devices are on.
void applyPlatformArgument(const ApiModel &M, const CallExpr &CE,
                           const RecordStorageLocation *Obj, Environment &Env);

} // namespace clang::interop::arraydevice

#endif // INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICESTATE_H
