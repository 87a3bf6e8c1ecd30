// RUN: %check_interop %s interop-dlpack-capsule-protocol %t -- -- -I%S/Inputs -I%S/Inputs/dlpack/v06

// In C a capsule destructor's duty to the exception in flight is judged
// path by path, as in C++: a PyErr_Clear or a raise on a path where no
// PyErr_Fetch (or PyErr_GetRaisedException) saved the exception since the
// last restore is reported.

#include <Python.h>
#include <dlpack/dlpack.h>

static void raising_dtor(PyObject *cap) {
  if (!PyCapsule_IsValid(cap, "dltensor")) {
    PyErr_SetString(PyExc_RuntimeError, "consumed");
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: capsule destructor raises a new exception without saving the one in flight, which it replaces; a destructor cannot report an error [interop-dlpack-capsule-protocol]
    // CHECK-MESSAGES: :[[@LINE-2]]:5: note: save the exception in flight first and restore it before returning; report the failure with PyErr_WriteUnraisable
    return;
  }
  DLManagedTensor *t = (DLManagedTensor *)PyCapsule_GetPointer(cap, "dltensor");
  if (t->deleter)
    t->deleter(t);
}

static void clearing_dtor(PyObject *cap) {
  DLManagedTensor *t = (DLManagedTensor *)PyCapsule_GetPointer(cap, "dltensor");
  if (t == NULL) {
    PyErr_Clear();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: capsule destructor clears the error indicator, discarding an exception that may be in flight [interop-dlpack-capsule-protocol]
    // CHECK-MESSAGES: :[[@LINE-2]]:5: note: save it with PyErr_Fetch (or PyErr_GetRaisedException) first and restore it before returning
    return;
  }
  if (t->deleter)
    t->deleter(t);
}

/* NumPy's form: saved, cleared or reported, restored. */
static void saving_dtor(PyObject *cap) {
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  DLManagedTensor *t = (DLManagedTensor *)PyCapsule_GetPointer(cap, "dltensor");
  if (t == NULL) {
    PyErr_WriteUnraisable(cap);
  } else if (t->deleter) {
    t->deleter(t);
  }
  PyErr_Restore(type, value, tb);
}

/* Restored, then raised: nothing is saved any more. */
static void raises_after_restore(PyObject *cap) {
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  DLManagedTensor *t = (DLManagedTensor *)PyCapsule_GetPointer(cap, "dltensor");
  if (t && t->deleter)
    t->deleter(t);
  PyErr_Restore(type, value, tb);
  if (t == NULL)
    PyErr_Format(PyExc_ValueError, "capsule %p consumed", (void *)cap);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: capsule destructor raises a new exception without saving the one in flight, which it replaces; a destructor cannot report an error [interop-dlpack-capsule-protocol]
  // CHECK-MESSAGES: :[[@LINE-2]]:5: note: save the exception in flight first and restore it before returning; report the failure with PyErr_WriteUnraisable
}

/* Outside a destructor raising is how a C function reports an error. */
DLManagedTensor *take(PyObject *cap) {
  DLManagedTensor *t = (DLManagedTensor *)PyCapsule_GetPointer(cap, "dltensor");
  if (t == NULL) {
    PyErr_SetString(PyExc_TypeError, "not a DLPack capsule");
    return NULL;
  }
  PyCapsule_SetName(cap, "used_dltensor");
  return t;
}

PyObject *a(DLManagedTensor *mt) { return PyCapsule_New(mt, "dltensor", raising_dtor); }
PyObject *b(DLManagedTensor *mt) { return PyCapsule_New(mt, "dltensor", clearing_dtor); }
PyObject *c(DLManagedTensor *mt) { return PyCapsule_New(mt, "dltensor", saving_dtor); }
PyObject *d(DLManagedTensor *mt) { return PyCapsule_New(mt, "dltensor", raises_after_restore); }
