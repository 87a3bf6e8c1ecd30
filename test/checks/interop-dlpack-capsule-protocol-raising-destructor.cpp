// RUN: %check_interop %s interop-dlpack-capsule-protocol %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// A capsule destructor that raises a new exception (PyErr_SetString and
// friends) replaces the exception in flight and leaves an error set from a
// function that cannot report one. Raising after the exception in flight
// was saved (and restoring it afterwards) is right, on the paths where it
// was saved. (C files: ...-raising-destructor-c.c.)

#include <Python.h>
#include <dlpack/dlpack.h>

#include <string.h>
#include <string>

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

// PyCapsule_GetPointer under "dltensor" raises ValueError on a capsule a
// consumer renamed: without a PyCapsule_IsValid test first (or the
// exception in flight saved), the destructor of every consumed capsule
// leaves that error set.
static void reads_consumed(PyObject *self) {
  auto *mt =
      static_cast<DLManagedTensor *>(PyCapsule_GetPointer(self, "dltensor"));
  // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: capsule destructor reads the pointer under the unconsumed name without checking the name first; on a capsule a consumer renamed, PyCapsule_GetPointer raises an exception a destructor cannot report [interop-dlpack-capsule-protocol]
  // CHECK-MESSAGES: :[[@LINE-2]]:38: note: return first when PyCapsule_IsValid(capsule, "dltensor") is false
  if (mt && mt->deleter)
    mt->deleter(mt);
}
static void tests_first(PyObject *self) {
  if (PyCapsule_IsValid(self, "used_dltensor"))
    return;
  auto *mt =
      static_cast<DLManagedTensor *>(PyCapsule_GetPointer(self, "dltensor"));
  if (mt && mt->deleter)
    mt->deleter(mt);
}
// The name compared first, through a local and a string made of it; a name
// read NULL is no consumer's rename.
static void compares_string(PyObject *self) {
  const char *name = PyCapsule_GetName(self);
  if (name == nullptr || std::string(name) != "dltensor")
    return;
  auto *mt =
      static_cast<DLManagedTensor *>(PyCapsule_GetPointer(self, "dltensor"));
  if (mt && mt->deleter)
    mt->deleter(mt);
}
static void skips_used(PyObject *self) {
  const char *name = PyCapsule_GetName(self);
  if (name && strcmp(name, "used_dltensor") == 0)
    return;
  auto *mt =
      static_cast<DLManagedTensor *>(PyCapsule_GetPointer(self, "dltensor"));
  if (mt && mt->deleter)
    mt->deleter(mt);
}
static void saves_first(PyObject *self) {
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  auto *mt =
      static_cast<DLManagedTensor *>(PyCapsule_GetPointer(self, "dltensor"));
  if (!mt)
    PyErr_WriteUnraisable(self);
  else if (mt->deleter)
    mt->deleter(mt);
  PyErr_Restore(type, value, tb);
}
// Deleting without the test is reported once, as the unchecked delete.
static void deletes_consumed(PyObject *self) {
  auto *mt =
      static_cast<DLManagedTensor *>(PyCapsule_GetPointer(self, "dltensor"));
  mt->deleter(mt);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: capsule destructor calls the deleter without checking that the capsule is unconsumed; a consumer that renamed it owns the tensor [interop-dlpack-capsule-protocol]
  // CHECK-MESSAGES: :[[@LINE-2]]:3: note: check PyCapsule_IsValid(capsule, "dltensor") first
  // CHECK-MESSAGES: :[[@LINE-3]]:3: warning: pointer from PyCapsule_GetPointer used without checking for NULL; a consumed or misnamed capsule returns NULL [interop-dlpack-capsule-protocol]
  // CHECK-MESSAGES: :[[@LINE-5]]:38: note: pointer taken here
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
PyObject *export_d(DLManagedTensor *mt) {
  return PyCapsule_New(mt, "dltensor", reads_consumed);
}
PyObject *export_e(DLManagedTensor *mt) {
  return PyCapsule_New(mt, "dltensor", tests_first);
}
PyObject *export_f(DLManagedTensor *mt) {
  return PyCapsule_New(mt, "dltensor", saves_first);
}
PyObject *export_g(DLManagedTensor *mt) {
  return PyCapsule_New(mt, "dltensor", deletes_consumed);
}
PyObject *export_h(DLManagedTensor *mt) {
  return PyCapsule_New(mt, "dltensor", compares_string);
}
PyObject *export_i(DLManagedTensor *mt) {
  return PyCapsule_New(mt, "dltensor", skips_used);
}
