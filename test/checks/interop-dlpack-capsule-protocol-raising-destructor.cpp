// RUN: %check_interop %s interop-dlpack-capsule-protocol %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// A capsule destructor that raises a new exception (PyErr_SetString and
// friends) replaces the exception in flight and leaves an error set from a
// function that cannot report one. Raising after the exception in flight
// was saved (and restoring it afterwards) is right, on the paths where it
// was saved. (C files: ...-raising-destructor-c.c.)

#include <Python.h>
#include <dlpack/dlpack.h>

static void raising_dtor(PyObject *self) {
  if (!PyCapsule_IsValid(self, "dltensor")) {
    PyErr_SetString(PyExc_RuntimeError, "capsule already consumed");
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: capsule destructor raises a new exception without saving the one in flight, which it replaces; a destructor cannot report an error [interop-dlpack-capsule-protocol]
    // CHECK-MESSAGES: :[[@LINE-2]]:5: note: save the exception in flight first and restore it before returning; report the failure with PyErr_WriteUnraisable
    return;
  }
  auto *mt =
      static_cast<DLManagedTensor *>(PyCapsule_GetPointer(self, "dltensor"));
  if (mt->deleter)
    mt->deleter(mt);
}

// Saved on one path only: the other path raises over the one in flight.
extern bool quiet;
static void saved_sometimes(PyObject *self) {
  PyObject *exc = nullptr;
  if (quiet)
    exc = PyErr_GetRaisedException();
  if (!PyCapsule_IsValid(self, "dltensor")) {
    PyErr_NoMemory();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: capsule destructor raises a new exception without saving the one in flight, which it replaces; a destructor cannot report an error [interop-dlpack-capsule-protocol]
    // CHECK-MESSAGES: :[[@LINE-2]]:5: note: save the exception in flight first and restore it before returning; report the failure with PyErr_WriteUnraisable
    PyErr_WriteUnraisable(self);
  } else {
    auto *mt =
        static_cast<DLManagedTensor *>(PyCapsule_GetPointer(self, "dltensor"));
    mt->deleter(mt);
  }
  if (quiet)
    PyErr_SetRaisedException(exc);
}

// Saved first, reported as unraisable, restored.
static void reporting_dtor(PyObject *self) {
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  if (!PyCapsule_IsValid(self, "dltensor")) {
    PyErr_SetString(PyExc_RuntimeError, "capsule already consumed");
    PyErr_WriteUnraisable(self);
  } else {
    auto *mt =
        static_cast<DLManagedTensor *>(PyCapsule_GetPointer(self, "dltensor"));
    mt->deleter(mt);
  }
  PyErr_Restore(type, value, tb);
}

// Raising outside a capsule destructor is an ordinary error return.
DLManagedTensor *take(PyObject *cap) {
  auto *mt =
      static_cast<DLManagedTensor *>(PyCapsule_GetPointer(cap, "dltensor"));
  if (!mt) {
    PyErr_SetString(PyExc_TypeError, "not a DLPack capsule");
    return nullptr;
  }
  PyCapsule_SetName(cap, "used_dltensor");
  return mt;
}

PyObject *export_a(DLManagedTensor *mt) {
  return PyCapsule_New(mt, "dltensor", raising_dtor);
}
PyObject *export_b(DLManagedTensor *mt) {
  return PyCapsule_New(mt, "dltensor", saved_sometimes);
}
PyObject *export_c(DLManagedTensor *mt) {
  return PyCapsule_New(mt, "dltensor", reporting_dtor);
}
