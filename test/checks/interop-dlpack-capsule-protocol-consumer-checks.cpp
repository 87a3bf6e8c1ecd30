// RUN: %check_interop %s interop-dlpack-capsule-protocol,interop-dlpack-deleter-ownership %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// A consumer's name check is a name check whatever its spelling: the result
// of PyCapsule_IsValid kept in a variable and tested later (the failing
// branch throws or returns), or the capsule's name read with
// PyCapsule_GetName, tested for NULL and compared with strcmp. After such a
// check, PyCapsule_GetPointer with the checked name cannot fail.

#include <Python.h>
#include <dlpack/dlpack.h>

#include <memory>

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

// A smart pointer whose deleter cannot free its argument (a lambda that does
// nothing) is a view of the tensor for the scope: the consumer copies the
// data and leaves the tensor to the capsule, which it need not rename. One
// that calls the tensor's deleter takes it over.
void copy_out(void *dst, const DLTensor &t);
void copy_viewed(PyObject *capsule, void *dst) {
  auto *unmanaged = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule, "dltensor"));
  auto keep = [](DLManagedTensor *) {};
  std::unique_ptr<DLManagedTensor, decltype(keep)> view(unmanaged, keep);
  if (!unmanaged)
    return;
  copy_out(dst, unmanaged->dl_tensor);
}
void copy_adopted(PyObject *capsule, void *dst) {
  auto *unmanaged = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule, "dltensor"));
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: capsule consumed without renaming it to its used_ name (or clearing its destructor); its destructor will delete the tensor again [interop-dlpack-capsule-protocol]
  auto release = [](DLManagedTensor *t) {
    if (t && t->deleter)
      t->deleter(t);
  };
  std::unique_ptr<DLManagedTensor, decltype(release)> owner(unmanaged, release);
  if (!unmanaged)
    return;
  copy_out(dst, unmanaged->dl_tensor);
}
