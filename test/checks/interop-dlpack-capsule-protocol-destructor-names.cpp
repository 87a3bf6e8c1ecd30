// RUN: %check_interop %s interop-dlpack-capsule-protocol %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// A destructor that reads its capsule under another constant name than the
// one the capsule is created with never finds the tensor: the pointer is
// always NULL (or IsValid always false) and the tensor is never deleted.
// One finding, at the read, for the two names that disagree (no name
// finding at the creation). A destructor that also reads the creation name
// (one destructor for two kinds of capsule) is fine.

#include <Python.h>
#include <dlpack/dlpack.h>

static void legacy_dtor(PyObject *self) {
  auto *mt =
      static_cast<DLManagedTensor *>(PyCapsule_GetPointer(self, "dltensor"));
  // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: capsule destructor reads the capsule under 'dltensor', but it is created as 'mylib_dltensor'; the name never matches and the tensor is never deleted [interop-dlpack-capsule-protocol]
  if (mt == nullptr) {
    PyErr_WriteUnraisable(nullptr);
    return;
  }
  if (mt->deleter)
    mt->deleter(mt);
}
int set_base(PyObject *array, PyObject *base);
int keep_alive(PyObject *array, DLManagedTensor *mt) {
  PyObject *base = PyCapsule_New(mt, "mylib_dltensor", legacy_dtor);
  // CHECK-MESSAGES: :[[@LINE-1]]:38: note: capsule created here
  return base ? set_base(array, base) : -1;
}

// The versioned struct under its name, but the destructor checks the legacy
// name before it releases the capsule's tensor.
void release_capsule_tensor(PyObject *capsule);
static void checks_legacy(PyObject *self) {
  PyObject *exc = PyErr_GetRaisedException();
  if (PyCapsule_IsValid(self, "dltensor"))
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: capsule destructor reads the capsule under 'dltensor', but it is created as 'dltensor_versioned'; the name never matches and the tensor is never deleted [interop-dlpack-capsule-protocol]
    release_capsule_tensor(self);
  PyErr_SetRaisedException(exc);
}
PyObject *export_versioned(DLManagedTensorVersioned *mt) {
  return PyCapsule_New(mt, "dltensor_versioned", checks_legacy);
  // CHECK-MESSAGES: :[[@LINE-1]]:28: note: capsule created here
}

// One destructor for both generations: it reads each capsule under its own
// name.
static void either_dtor(PyObject *self) {
  PyObject *exc = PyErr_GetRaisedException();
  if (PyCapsule_IsValid(self, "dltensor_versioned")) {
    auto *mt = static_cast<DLManagedTensorVersioned *>(
        PyCapsule_GetPointer(self, "dltensor_versioned"));
    mt->deleter(mt);
  } else if (PyCapsule_IsValid(self, "dltensor")) {
    auto *mt =
        static_cast<DLManagedTensor *>(PyCapsule_GetPointer(self, "dltensor"));
    mt->deleter(mt);
  }
  PyErr_SetRaisedException(exc);
}
PyObject *export_legacy(DLManagedTensor *mt) {
  return PyCapsule_New(mt, "dltensor", either_dtor);
}
PyObject *export_versioned_too(DLManagedTensorVersioned *mt) {
  return PyCapsule_New(mt, "dltensor_versioned", either_dtor);
}
