// RUN: %check_interop %s interop-dlpack-capsule-protocol,interop-dlpack-deleter-ownership %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// A consumer's name check is a name check whatever its spelling: the result
// of PyCapsule_IsValid kept in a variable and tested later (the failing
// branch throws or returns), or the capsule's name read with
// PyCapsule_GetName, tested for NULL and compared with strcmp. After such a
// check, PyCapsule_GetPointer with the checked name cannot fail.

#include <Python.h>
#include <dlpack/dlpack.h>

int strcmp(const char *a, const char *b);
PyObject *PyLong_FromLongLong(long long v);

struct bad_capsule {
  const char *what;
};

void consume(DLManagedTensor *t);

PyObject *import_flag_throws(PyObject *capsule) {
  const bool valid = PyCapsule_IsValid(capsule, "dltensor");
  if (!valid)
    throw bad_capsule{"expected an unconsumed DLPack capsule"};
  auto *t = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule, "dltensor"));
  int64_t first = t->dl_tensor.shape[0];
  consume(t);
  PyCapsule_SetName(capsule, "used_dltensor");
  return PyLong_FromLongLong(first);
}

PyObject *import_flag_returns(PyObject *capsule) {
  int valid = PyCapsule_IsValid(capsule, "dltensor");
  if (valid == 0) {
    PyErr_SetString(PyExc_TypeError, "expected an unconsumed DLPack capsule");
    return nullptr;
  }
  auto *t = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule, "dltensor"));
  int64_t first = t->dl_tensor.shape[0];
  consume(t);
  PyCapsule_SetName(capsule, "used_dltensor");
  return PyLong_FromLongLong(first);
}

PyObject *import_strcmp(PyObject *capsule) {
  const char *name = PyCapsule_GetName(capsule);
  if (name == nullptr || strcmp(name, "dltensor") != 0) {
    PyErr_SetString(PyExc_TypeError, "expected an unconsumed DLPack capsule");
    return nullptr;
  }
  auto *t = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule, "dltensor"));
  int64_t first = t->dl_tensor.shape[0];
  consume(t);
  PyCapsule_SetName(capsule, "used_dltensor");
  return PyLong_FromLongLong(first);
}

// A flag that no longer holds the check's result is no check.
PyObject *import_flag_overwritten(PyObject *capsule, int other) {
  int valid = PyCapsule_IsValid(capsule, "dltensor");
  if (valid == 0)
    return nullptr;
  valid = other;
  auto *t = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule, valid != 0 ? "dltensor" : "other"));
  // CHECK-MESSAGES: :[[@LINE+1]]:19: warning: pointer from PyCapsule_GetPointer used without checking for NULL; a consumed or misnamed capsule returns NULL [interop-dlpack-capsule-protocol]
  int64_t first = t->dl_tensor.shape[0];
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: pointer taken here
  consume(t);
  PyCapsule_SetName(capsule, "used_dltensor");
  return PyLong_FromLongLong(first);
}
