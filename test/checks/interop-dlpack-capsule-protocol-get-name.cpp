// RUN: %check_interop %s interop-dlpack-capsule-protocol %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// PyCapsule_GetName returns NULL for a capsule named NULL (which is legal)
// and on error (an object that is no capsule). A consumer that hands the
// name to strcmp, strlen or the like, or dereferences it, without a NULL
// test on that path crashes on such an object. A capsule destructor reads
// the capsule its producer named, whose name consumers only change to a
// used_ name: it is not asked.

#include <Python.h>
#include <dlpack/dlpack.h>

int strcmp(const char *a, const char *b);
unsigned long strlen(const char *s);
void consume(DLManagedTensor *t);

PyObject *import_direct(PyObject *capsule) {
  if (strcmp(PyCapsule_GetName(capsule), "dltensor") != 0)
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: capsule name from PyCapsule_GetName read without checking for NULL; a capsule may be named NULL, and the call returns NULL on error [interop-dlpack-capsule-protocol]
    // CHECK-MESSAGES: :[[@LINE-2]]:14: note: name taken here
    return nullptr;
  auto *t = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule, "dltensor"));
  consume(t);
  PyCapsule_SetName(capsule, "used_dltensor");
  return Py_None;
}

PyObject *import_through_local(PyObject *capsule) {
  const char *name = PyCapsule_GetName(capsule);
  if (strcmp(name, "dltensor") != 0)
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: capsule name from PyCapsule_GetName read without checking for NULL; a capsule may be named NULL, and the call returns NULL on error [interop-dlpack-capsule-protocol]
    // CHECK-MESSAGES: :[[@LINE-3]]:22: note: name taken here
    return nullptr;
  auto *t = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule, "dltensor"));
  consume(t);
  PyCapsule_SetName(capsule, "used_dltensor");
  return Py_None;
}

// Tested first: in the same condition, or by an early return.
PyObject *import_tested(PyObject *capsule) {
  const char *name = PyCapsule_GetName(capsule);
  if (!name || strcmp(name, "dltensor") != 0)
    return nullptr;
  auto *t = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule, "dltensor"));
  consume(t);
  PyCapsule_SetName(capsule, "used_dltensor");
  return Py_None;
}

unsigned long name_length(PyObject *capsule) {
  const char *name = PyCapsule_GetName(capsule);
  if (name == nullptr)
    return 0;
  return strlen(name);
}

// Dereferenced, and tested on one path only.
bool looks_used(PyObject *capsule, bool strict) {
  const char *name = PyCapsule_GetName(capsule);
  if (strict && !name)
    return false;
  return *name == 'u';
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: capsule name from PyCapsule_GetName read without checking for NULL; a capsule may be named NULL, and the call returns NULL on error [interop-dlpack-capsule-protocol]
  // CHECK-MESSAGES: :[[@LINE-5]]:22: note: name taken here
}

// The producer's own capsule.
static void destroy(PyObject *capsule) {
  if (strcmp(PyCapsule_GetName(capsule), "used_dltensor") == 0)
    return;
  auto *t = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule, "dltensor"));
  if (t && t->deleter)
    t->deleter(t);
}

PyObject *export_tensor(DLManagedTensor *t) {
  return PyCapsule_New(t, "dltensor", destroy);
}
