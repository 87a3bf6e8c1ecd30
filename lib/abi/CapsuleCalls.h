//===--- CapsuleCalls.h - the capsule API's calls, by name ------*- C++ -*-===//
//
// Which call of the CPython capsule API (and of the few error-indicator
// calls a capsule destructor makes) an expression is, in its C spelling and
// in pybind11's and nanobind's member spellings. Calls are recognised by
// their names, whatever Python.h declares them.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_ABI_CAPSULECALLS_H
#define INTEROP_LIB_ABI_CAPSULECALLS_H

#include "clang/AST/Expr.h"

namespace clang::interop {

enum class CapsuleCall {
  None,
  New,           // PyCapsule_New(pointer, name, destructor)
  GetPointer,    // PyCapsule_GetPointer(capsule, name)
  GetName,       // PyCapsule_GetName(capsule)
  SetName,       // PyCapsule_SetName(capsule, name)
  SetDestructor, // PyCapsule_SetDestructor(capsule, destructor)
  IsValid,       // PyCapsule_IsValid(capsule, name)
  ErrFetch,      // PyErr_Fetch / PyErr_GetRaisedException: saves
  ErrRestore,    // PyErr_Restore / PyErr_SetRaisedException: restores
  ErrClear,      // PyErr_Clear
};

/// Classifies a call by its callee's name.
CapsuleCall classifyCapsuleCall(const CallExpr *Call);

/// One capsule-API call in any of its spellings: C
/// (`PyCapsule_GetPointer(c, name)`, `PyCapsule_SetName(c, name)`,
/// `PyCapsule_GetName(c)`), pybind11 (`cap.get_pointer()`, `cap.name()`,
/// `cap.set_name(name)`) and nanobind (`cap.data()`, `cap.name()`): the
/// operation, the capsule and the name it reads or writes under.
struct CapsuleCallView {
  CapsuleCall Op = CapsuleCall::None;
  /// The capsule: the C call's first argument, or the member call's object.
  const Expr *Capsule = nullptr;
  /// The name argument (C's second, set_name's only one); null when none.
  const Expr *Name = nullptr;
  /// The pointer is read under the capsule's current name, whatever it is
  /// (pybind11's get_pointer(), nanobind's data()): no name check at all.
  bool CurrentName = false;
  /// A pybind11 or nanobind member call.
  bool Member = false;
};
/// The view of Call; Op is None for anything but the capsule API.
CapsuleCallView viewCapsuleCall(const CallExpr *Call);

} // namespace clang::interop

#endif // INTEROP_LIB_ABI_CAPSULECALLS_H
