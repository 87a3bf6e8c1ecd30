// RUN: %check_interop %s interop-dlpack-capsule-protocol %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// pybind11's py::capsule(ptr, name, dtor) is PyCapsule_New: its name must
// say which struct it holds, and its destructor must read it under that
// name, as for the C call.

#include <dlpack/dlpack.h>
#include <pybind11/pybind11.h>

namespace py = pybind11;

DLManagedTensorVersioned *to_dlpack_versioned();
DLManagedTensor *to_dlpack();

static void release_versioned(PyObject *capsule) {
  if (!PyCapsule_IsValid(capsule, "dltensor_versioned"))
    return;
  auto *m = static_cast<DLManagedTensorVersioned *>(
      PyCapsule_GetPointer(capsule, "dltensor_versioned"));
  if (m && m->deleter)
    m->deleter(m);
}

py::capsule export_misnamed() {
  return py::capsule(to_dlpack_versioned(), "dltensor", [](PyObject *) {});
  // CHECK-MESSAGES: :[[@LINE-1]]:45: warning: capsule named 'dltensor' holds a DLManagedTensorVersioned; a consumer will read it as the other struct [interop-dlpack-capsule-protocol]
  // CHECK-MESSAGES: :[[@LINE-2]]:45: note: name it 'dltensor_versioned'
  // CHECK-FIXES: return py::capsule(to_dlpack_versioned(), "dltensor_versioned", [](PyObject *) {});
}

static void release_other(PyObject *capsule) {
  if (!PyCapsule_IsValid(capsule, "tensor"))
    return;
  auto *m = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule, "tensor"));
  // CHECK-MESSAGES: :[[@LINE-1]]:44: warning: capsule destructor reads the capsule under 'tensor', but it is created as 'dltensor'; the name never matches and the tensor is never deleted [interop-dlpack-capsule-protocol]
  if (m && m->deleter)
    m->deleter(m);
}
py::capsule export_never_deleted() {
  return py::capsule(to_dlpack(), "dltensor", release_other);
  // CHECK-MESSAGES: :[[@LINE-1]]:35: note: capsule created here
}

// Correct: the name of the struct it holds, read back under it.
py::capsule export_ok() {
  return py::capsule(to_dlpack_versioned(), "dltensor_versioned",
                     release_versioned);
}
