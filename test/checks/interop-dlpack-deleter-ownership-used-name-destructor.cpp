// RUN: %check_interop %s interop-dlpack-deleter-ownership %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// A capsule destructor that takes the pointer only under the consumed name
// ("used_dltensor") finds it only on a capsule a consumer renamed: on an
// unconsumed capsule, still under the name it was made with,
// PyCapsule_GetPointer fails, and the deleter never runs.

#include <dlpack/dlpack.h>
#include <pybind11/pybind11.h>

namespace py = pybind11;

static void release_used(PyObject *capsule) {
  auto *mt = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule, "used_dltensor"));
  if (mt && mt->deleter)
    mt->deleter(mt);
}

PyObject *export_c(DLManagedTensor *mt) {
  return PyCapsule_New(mt, "dltensor", release_used);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: capsule destructor 'release_used' reads the tensor only under the consumed name 'used_dltensor'; an unconsumed capsule, still named 'dltensor', is never released and leaks the tensor [interop-dlpack-deleter-ownership]
  // CHECK-MESSAGES: :15:7: note: read here; take the pointer under 'dltensor', the name of a capsule nobody consumed
}

py::capsule export_versioned(DLManagedTensorVersioned *managed) {
  return py::capsule(managed, "dltensor_versioned", [](PyObject *obj) {
    auto *m = static_cast<DLManagedTensorVersioned *>(
        PyCapsule_GetPointer(obj, "used_dltensor_versioned"));
    if (m)
      m->deleter(m);
  });
  // CHECK-MESSAGES: :[[@LINE-6]]:10: warning: capsule destructor lambda reads the tensor only under the consumed name 'used_dltensor_versioned'; an unconsumed capsule, still named 'dltensor_versioned', is never released and leaks the tensor [interop-dlpack-deleter-ownership]
  // CHECK-MESSAGES: :[[@LINE-5]]:9: note: read here; take the pointer under 'dltensor_versioned', the name of a capsule nobody consumed
}

// Correct: the unconsumed name.
static void release(PyObject *capsule) {
  auto *mt =
      static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule, "dltensor"));
  if (mt && mt->deleter)
    mt->deleter(mt);
}
PyObject *export_ok(DLManagedTensor *mt) {
  return PyCapsule_New(mt, "dltensor", release);
}

// Correct: the unconsumed capsule is tested for first, and read under its
// name; the consumed one is left alone.
static void release_checked(PyObject *capsule) {
  if (PyCapsule_IsValid(capsule, "used_dltensor"))
    return;
  auto *mt =
      static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule, "dltensor"));
  if (mt && mt->deleter)
    mt->deleter(mt);
}
PyObject *export_checked(DLManagedTensor *mt) {
  return PyCapsule_New(mt, "dltensor", release_checked);
}

// Correct: the name the capsule has now, whatever it is.
static void release_current(PyObject *capsule) {
  auto *mt = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule, PyCapsule_GetName(capsule)));
  if (mt && mt->deleter)
    mt->deleter(mt);
}
PyObject *export_current(DLManagedTensor *mt) {
  return PyCapsule_New(mt, "dltensor", release_current);
}
