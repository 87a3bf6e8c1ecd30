// RUN: %check_interop %s interop-dlpack-capsule-protocol %t -- \
// RUN:   -config="{CheckOptions: {interop-dlpack-capsule-protocol.OwnershipTakingImporters: '::mylib::adopt$'}}" \
// RUN:   -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// OwnershipTakingImporters: importers that take ownership even when they
// fail. Renaming before them is right; every path after them must rename.

#include <Python.h>
#include <dlpack/dlpack.h>

namespace mylib {
bool adopt(DLManagedTensor *t);   // takes t on every path
bool borrow(DLManagedTensor *t);  // takes t only when it succeeds
} // namespace mylib

PyObject *rename_first_taker(PyObject *capsule) {
  auto *mt = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule, "dltensor"));
  if (!mt)
    return nullptr;
  PyCapsule_SetName(capsule, "used_dltensor");
  if (!mylib::adopt(mt))
    return nullptr;
  return Py_None;
}

PyObject *rename_on_success_taker(PyObject *capsule) {
  auto *mt = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule, "dltensor"));
  if (!mt)
    return nullptr;
  if (!mylib::adopt(mt))
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: adopt takes ownership even when it fails, but the capsule is not renamed on some path after it; the capsule's destructor will delete the tensor again [interop-dlpack-capsule-protocol]
    return nullptr;
  // CHECK-MESSAGES: :[[@LINE-1]]:5: note: the function leaves here without renaming it
  PyCapsule_SetName(capsule, "used_dltensor");
  return Py_None;
}

PyObject *rename_first_borrower(PyObject *capsule) {
  auto *mt = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule, "dltensor"));
  if (!mt)
    return nullptr;
  PyCapsule_SetName(capsule, "used_dltensor");
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: capsule renamed to its used_ name before the import has succeeded; if the import fails, nobody deletes the tensor [interop-dlpack-capsule-protocol]
  if (!mylib::borrow(mt))
  // CHECK-MESSAGES: :[[@LINE-1]]:8: note: the import happens here
    return nullptr;
  return Py_None;
}

PyObject *rename_on_success_borrower(PyObject *capsule) {
  auto *mt = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule, "dltensor"));
  if (!mt)
    return nullptr;
  if (!mylib::borrow(mt))
    return nullptr;
  PyCapsule_SetName(capsule, "used_dltensor");
  return Py_None;
}
