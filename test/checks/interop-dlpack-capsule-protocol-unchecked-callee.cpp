// RUN: %check_interop %s interop-dlpack-capsule-protocol %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// A pointer from PyCapsule_GetPointer (or a name from PyCapsule_GetName)
// passed, with no NULL test, to a function whose body dereferences that
// parameter before anything could test it is used at the call: the callee
// crashes on the NULL a consumed or misnamed capsule returns. A callee that
// tests first, dereferences only on some evaluations, or has no visible
// body is not such a use.

#include <Python.h>
#include <dlpack/dlpack.h>

void record(long n);
void opaque(DLManagedTensor *t);

static void consume(DLManagedTensor *t) {
  record(t->dl_tensor.ndim);
}

static void consume_checked(DLManagedTensor *t) {
  if (!t)
    return;
  record(t->dl_tensor.ndim);
}

static long ndim_or_zero(DLManagedTensor *t) {
  return t ? t->dl_tensor.ndim : 0;
}

static char first_char(const char *s) { return s[0]; }

PyObject *import_unchecked(PyObject *capsule) {
  auto *t = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule, "dltensor"));
  consume(t);
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: pointer from PyCapsule_GetPointer used without checking for NULL; a consumed or misnamed capsule returns NULL [interop-dlpack-capsule-protocol]
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: pointer taken here
  PyCapsule_SetName(capsule, "used_dltensor");
  return Py_None;
}

PyObject *import_checked(PyObject *capsule) {
  auto *t = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule, "dltensor"));
  if (!t)
    return nullptr;
  consume(t);
  PyCapsule_SetName(capsule, "used_dltensor");
  return Py_None;
}

PyObject *import_callee_checks(PyObject *capsule) {
  auto *t = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule, "dltensor"));
  consume_checked(t);
  record(ndim_or_zero(t));
  opaque(t);
  PyCapsule_SetName(capsule, "used_dltensor");
  return Py_None;
}

char name_initial(PyObject *capsule) {
  const char *name = PyCapsule_GetName(capsule);
  return first_char(name);
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: capsule name from PyCapsule_GetName read without checking for NULL; a capsule may be named NULL, and the call returns NULL on error [interop-dlpack-capsule-protocol]
  // CHECK-MESSAGES: :[[@LINE-3]]:22: note: name taken here
}
