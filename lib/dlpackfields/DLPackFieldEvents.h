//===--- DLPackFieldEvents.h - what the field model reports -----*- C++ -*-===//
//
// The events of the DLPack field family: each use of `data`, of `strides`,
// of a versioned tensor's fields and each tensor passed to an importer, with
// the facts proven on every path to it. Checks filter the events;
// isFullyProven() says when no check can report one, which is what the
// syntactic proofs establish for a whole function.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_DLPACKFIELDS_DLPACKFIELDEVENTS_H
#define INTEROP_LIB_DLPACKFIELDS_DLPACKFIELDEVENTS_H

#include "lib/support/NameLists.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseSet.h"

#include <cstdint>
#include <optional>

namespace clang::interop {

/// One thing the model saw, with the facts proven on every path to it.
struct DLPackEvent {
  enum Kind {
    /// `data` (or a pointer derived from it) dereferenced or subscripted.
    DataDeref,
    /// `data` (or a pointer derived from it) passed to a call or constructor.
    DataCallArg,
    /// The address in `data` tested as an integer (`addr % 64`, `addr &
    /// 63`): the alignment of the base, not of the first element.
    DataAddressTest,
    /// `data` stored into another tensor's `data` field (`inner->data =
    /// t->data`): the target keeps its own byte_offset.
    DataStored,
    /// `data` (or a pointer derived from it) kept in a pointer member of
    /// the object (`dptr_(t.data)` in a constructor, `data_ = t->data` in a
    /// method) or of another one (`cursor.base = t->data`, `view->ptr =
    /// t->data`): whoever reads the member later reads it as the array's
    /// first element.
    DataKept,
    /// `strides` (or a copy of it) dereferenced or subscripted, or passed
    /// as an array to a constructor (StridesAsRange).
    StridesDeref,
    /// `dl_tensor` or `flags` of a DLManagedTensorVersioned accessed.
    VersionedAccess,
    /// A pointer to a DLTensor or managed tensor passed to one of the
    /// configuration's ImportFunctions.
    TensorCallArg,
  };
  Kind K;
  /// The expression the event is about (the deref, the argument, the member).
  const Expr *Use = nullptr;
  /// For call events: the CallExpr or CXXConstructExpr, its callee (the
  /// constructor for constructions) and the argument's index.
  const Expr *Call = nullptr;
  const FunctionDecl *Callee = nullptr;
  unsigned ArgIndex = 0;
  /// Where the tracked field was read (`t->data`, `t->strides`).
  const Expr *FieldRead = nullptr;
  /// DataKept: the member that keeps the pointer, and whether it is one of
  /// `this` (the class's methods are then all its readers) or of another
  /// object (whose readers may be anywhere).
  const FieldDecl *KeptIn = nullptr;
  bool KeptByThis = false;
  /// DataKept: the function also reads the tensor's shape (the object
  /// keeps the layout the data is read with).
  bool KeptWithShape = false;

  /// Data events: the use writes through the pointer (assignment target).
  bool IsWrite = false;
  /// Data events: the tensor was created in this function (a producer's).
  bool Local = false;
  /// Data events: byte_offset was added to this pointer on every path.
  bool OffsetApplied = false;
  /// Data events: byte_offset is proven zero on every path. Each SAT-proven
  /// flag below is only proven where it can change a finding (here: only
  /// when OffsetApplied is false); otherwise it stays false.
  bool OffsetZeroProven = false;
  /// Data events: the device type is proven host-accessible on every path.
  bool HostProven = false;
  /// Data events: the function compares or tests the device type at all.
  bool DeviceTypeChecked = false;
  /// Data events: the tensor's strides are proven NULL (compact); only
  /// proven when StridesConsidered is false.
  bool StridesNullProven = false;
  /// Data events: the function looks at this tensor's strides (reads an
  /// element or passes them on) somewhere.
  bool StridesConsidered = false;
  /// Data call events: another argument of the call mentions the shape,
  /// ndim, strides or dtype of a DLTensor (the call wraps the tensor).
  bool CallPassesLayout = false;
  /// Data call events: another argument carries the shape (shape or ndim,
  /// through locals too), and none is the whole tensor (whose strides the
  /// callee could read).
  bool CallPassesShapeOnly = false;
  /// Data events: the data belongs to a DLManagedTensorVersioned.
  bool FromVersioned = false;
  /// Data events on versioned tensors: READ_ONLY is proven clear; only
  /// proven for writes.
  bool ReadOnlyClearProven = false;
  /// Data events on versioned tensors: the flags were never read.
  bool FlagsNeverRead = false;

  /// StridesDeref: strides proven non-NULL on every path.
  bool NonNullProven = false;
  /// StridesDeref: the strides pointer passed to a constructor (a view, a
  /// container) as an array it reads (with ndim as its length, or as a
  /// [begin, end) range); Call, Callee and ArgIndex say where.
  bool StridesAsRange = false;

  /// VersionedAccess: version.major checked on every path; or checked only
  /// by a debug-only assertion (AssertCheck is that comparison).
  bool MajorChecked = false;
  bool MajorAssertedOnly = false;
  const Expr *AssertCheck = nullptr;

  /// TensorCallArg: the device type proven on every path, if one is.
  std::optional<std::int64_t> ProvenDeviceType;
  /// TensorCallArg: where that device type was compared.
  const Expr *DeviceCheck = nullptr;
};

/// True when every fact that any DLPack field check can ask of E is proven,
/// so that no check reports E whatever its options: for data, byte_offset
/// added (or proven zero), host-accessible memory, the strides looked at (or
/// proven NULL, or only the first element is accessed) and, for a write into
/// a versioned tensor, READ_ONLY clear;
/// strides proven non-NULL where dereferenced; version.major checked for a
/// versioned access; no device type proven at an import.
bool isFullyProven(const DLPackEvent &E, const ASTContext &Ctx);

/// How the call of a DataCallArg event reads the data pointer: the one
/// answer the byte_offset and strides checks share, so that they agree on
/// every call.
enum class DataCallKind {
  /// Nothing known: the callee may take the pointer for anything.
  Other,
  /// free() and friends: the base pointer is what is wanted.
  Dealloc,
  /// memcpy-like host or device copies.
  Copy,
  /// A function of the check's list (at::from_blob, Eigen::Map...).
  Listed,
  /// Another argument carries the tensor's layout (its shape, an extents
  /// object, an element count multiplied up from the shape, its dtype): the
  /// callee reads the data from the first element.
  WithLayout,
  /// WithLayout, and what is passed beside the data is the shape without
  /// the tensor: the callee reads the data as an array of that shape, with
  /// no way to see its strides.
  WithShapeOnly,
};
DataCallKind classifyDataCall(const DLPackEvent &E, const NameList &Listed);

/// The use of a data pointer reads or writes its first element only (`*p`,
/// `p[0]`), which sits at the same address whatever the strides.
bool readsOnlyFirstElement(const Expr *Use, const ASTContext &Ctx);

/// The reads in Body of one `strides` element at a constant index other
/// than 0 (`t.strides[1]`, directly or through a local copy of the pointer)
/// whose value is never compared or tested, directly or through the local
/// it initialises, in a body that never reads strides[0] nor any element at
/// a variable index: such a body assumes the first dimension's stride, so
/// those reads do not look at the strides and a compact copy after them is
/// not checked (cudf's from_dlpack read strides[1] as the column pitch and
/// never compared strides[0] with 1). Bounded: one walk
/// of the body. The flow model and the syntactic proof both ask it, so they
/// agree.
llvm::DenseSet<const ArraySubscriptExpr *>
uncomparedStrideElements(const Stmt *Body);

} // namespace clang::interop

#endif // INTEROP_LIB_DLPACKFIELDS_DLPACKFIELDEVENTS_H
