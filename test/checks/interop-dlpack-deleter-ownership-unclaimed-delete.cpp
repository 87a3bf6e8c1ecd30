// RUN: %check_interop %s interop-dlpack-deleter-ownership %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// A consumer that rejects an imported tensor and calls its deleter while
// the capsule still carries its unconsumed name leaves the capsule owning
// the tensor: the producer's capsule destructor deletes it a second time
// when the capsule dies. Renaming the capsule first (or clearing its
// destructor), or leaving the tensor to it, is correct.

#include <Python.h>
#include <dlpack/dlpack.h>

struct Imported {
  DLManagedTensor *mt = nullptr;
};

int import_positions(PyObject *array, Imported *out) {
  PyObject *cap = PyObject_CallMethod(array, "__dlpack__", NULL);
  if (!cap)
    return -1;
  auto *mt =
      static_cast<DLManagedTensor *>(PyCapsule_GetPointer(cap, "dltensor"));
  if (!mt) {
    Py_DECREF(cap);
    return -1;
  }
  if (mt->dl_tensor.ndim != 2) {
    if (mt->deleter)
      mt->deleter(mt);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: deleter called on a tensor its capsule still owns: the capsule is not renamed to its used_ name, so its destructor deletes the tensor again [interop-dlpack-deleter-ownership]
    Py_DECREF(cap);
    return -1;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: note: the function leaves here with the capsule unrenamed; rename it before calling the deleter, or leave the tensor to the capsule
  }
  out->mt = mt;
  PyCapsule_SetName(cap, "used_dltensor");
  Py_DECREF(cap);
  return 0;
}

// Correct: the capsule is claimed before the tensor is judged, so the
// rejected tensor is this function's to delete.
int import_claimed(PyObject *cap, Imported *out) {
  auto *mt =
      static_cast<DLManagedTensor *>(PyCapsule_GetPointer(cap, "dltensor"));
  if (!mt)
    return -1;
  PyCapsule_SetName(cap, "used_dltensor");
  if (mt->dl_tensor.ndim != 2) {
    if (mt->deleter)
      mt->deleter(mt);
    return -1;
  }
  out->mt = mt;
  return 0;
}

// Correct: the rejected tensor is left to the capsule.
int import_left(PyObject *cap, Imported *out) {
  auto *mt =
      static_cast<DLManagedTensor *>(PyCapsule_GetPointer(cap, "dltensor"));
  if (!mt || mt->dl_tensor.ndim != 2)
    return -1;
  PyCapsule_SetName(cap, "used_dltensor");
  out->mt = mt;
  return 0;
}

// Correct: the destructor is cleared after the deleter call, on that path.
int import_cleared(PyObject *cap, Imported *out) {
  auto *mt =
      static_cast<DLManagedTensor *>(PyCapsule_GetPointer(cap, "dltensor"));
  if (!mt)
    return -1;
  if (mt->dl_tensor.ndim != 2) {
    if (mt->deleter)
      mt->deleter(mt);
    PyCapsule_SetDestructor(cap, NULL);
    return -1;
  }
  PyCapsule_SetName(cap, "used_dltensor");
  out->mt = mt;
  return 0;
}

// pybind11's spelling of the claim: cap.set_name("used_dltensor").
#include <pybind11/pybind11.h>
namespace py = pybind11;
int import_pybind(py::capsule cap, Imported *out, bool ok) {
  auto *mt = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(cap.ptr(), "dltensor"));
  if (!mt)
    return -1;
  if (!ok) {
    if (mt->deleter)
      mt->deleter(mt);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: deleter called on a tensor its capsule still owns: {{.*}}
    return -1;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: note: the function leaves here with the capsule unrenamed; {{.*}}
  }
  cap.set_name("used_dltensor");
  out->mt = mt;
  return 0;
}
int import_pybind_claimed(py::capsule cap, Imported *out, bool ok) {
  auto *mt = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(cap.ptr(), "dltensor"));
  if (!mt)
    return -1;
  cap.set_name("used_dltensor");
  if (!ok) {
    if (mt->deleter)
      mt->deleter(mt);
    return -1;
  }
  out->mt = mt;
  return 0;
}
