// RUN: %check_interop %s interop-dlpack-capsule-protocol,interop-dlpack-deleter-ownership %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// A capsule name is the same value however it reaches the call: a literal,
// a constexpr variable, a choice between two names made at run time (a
// conditional operator, or a local assigned in both arms of an if), or a
// choice made at compile time. A choice between the two unconsumed names is
// "an unconsumed DLPack name", and one between the two used names "a used
// name", to every check.

#include <Python.h>
#include <dlpack/dlpack.h>

void consume(DLManagedTensor *t);
void consume_versioned(DLManagedTensorVersioned *t);

// --- A consumer that accepts either generation -------------------------------

PyObject *import_either(PyObject *capsule, bool versioned) {
  const char *name = versioned ? "dltensor_versioned" : "dltensor";
  if (!PyCapsule_IsValid(capsule, name)) {
    PyErr_SetString(PyExc_TypeError, "not an unconsumed DLPack capsule");
    return nullptr;
  }
  void *p = PyCapsule_GetPointer(capsule, name);
  if (versioned)
    consume_versioned(static_cast<DLManagedTensorVersioned *>(p));
  else
    consume(static_cast<DLManagedTensor *>(p));
  PyCapsule_SetName(capsule,
                    versioned ? "used_dltensor_versioned" : "used_dltensor");
  Py_INCREF(Py_None);
  return Py_None;
}

// The same through a local assigned in both arms of an if.
PyObject *import_either_if(PyObject *capsule, bool versioned) {
  const char *name;
  const char *used;
  if (versioned) {
    name = "dltensor_versioned";
    used = "used_dltensor_versioned";
  } else {
    name = "dltensor";
    used = "used_dltensor";
  }
  void *p = PyCapsule_GetPointer(capsule, name);
  if (!p)
    return nullptr;
  if (versioned)
    consume_versioned(static_cast<DLManagedTensorVersioned *>(p));
  else
    consume(static_cast<DLManagedTensor *>(p));
  PyCapsule_SetName(capsule, used);
  Py_INCREF(Py_None);
  return Py_None;
}

// A choice made at compile time is the chosen name alone.
constexpr bool kVersioned = false;
constexpr const char *kName = kVersioned ? "dltensor_versioned" : "dltensor";
constexpr const char *kUsedName =
    kVersioned ? "used_dltensor_versioned" : "used_dltensor";

PyObject *import_constexpr(PyObject *capsule) {
  auto *t = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule, kName));
  if (!t)
    return nullptr;
  consume(t);
  PyCapsule_SetName(capsule, kUsedName);
  Py_INCREF(Py_None);
  return Py_None;
}

// --- Capsule destructors -----------------------------------------------------

// Checks the name it was made with, whichever generation that was.
static bool g_versioned;
static void either_dtor(PyObject *capsule) {
  PyObject *exc = PyErr_GetRaisedException();
  const char *name = g_versioned ? "dltensor_versioned" : "dltensor";
  if (PyCapsule_IsValid(capsule, name)) {
    auto *t = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule, name));
    t->deleter(t);
  }
  PyErr_SetRaisedException(exc);
}
PyObject *export_either(DLManagedTensor *t) {
  return PyCapsule_New(t, "dltensor", either_dtor);
}

// A choice between an unconsumed and a used name is no name check: with the
// used name, GetPointer succeeds on a consumed capsule too.
static void mixed_dtor(PyObject *capsule) {
  PyObject *exc = PyErr_GetRaisedException();
  const char *name = g_versioned ? "used_dltensor" : "dltensor";
  auto *t = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule, name));
  if (t)
    t->deleter(t);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: capsule destructor calls the deleter without checking that the capsule is unconsumed; a consumer that renamed it owns the tensor [interop-dlpack-capsule-protocol]
  // CHECK-MESSAGES: :[[@LINE-2]]:5: note: check PyCapsule_IsValid(capsule, "dltensor") first
  PyErr_SetRaisedException(exc);
}
PyObject *export_mixed(DLManagedTensor *t) {
  return PyCapsule_New(t, "dltensor", mixed_dtor);
}

// Names in braced constexpr initialisers, and a destructor that picks the
// name from the capsule's own and reads the struct of the same branch: the
// name and the struct are chosen together, and the pointer is non-NULL
// once the chosen name is valid.
int strcmp(const char *a, const char *b);
constexpr const char *kBracedPlain{"dltensor"};
constexpr const char *kBracedVersioned{"dltensor_versioned"};

static void destroy_either(PyObject *ptr) {
  const char *name = PyCapsule_GetName(ptr);
  if (name == nullptr)
    return;
  bool is_versioned = strcmp(name, kBracedVersioned) == 0;
  const char *valid_name = is_versioned ? kBracedVersioned : kBracedPlain;
  if (PyCapsule_IsValid(ptr, valid_name) != 0) {
    if (is_versioned) {
      auto *v = static_cast<DLManagedTensorVersioned *>(
          PyCapsule_GetPointer(ptr, valid_name));
      if (v != nullptr && v->deleter)
        v->deleter(v);
    } else {
      auto *t = static_cast<DLManagedTensor *>(
          PyCapsule_GetPointer(ptr, valid_name));
      if (t != nullptr && t->deleter)
        t->deleter(t);
    }
  }
}

PyObject *export_braced(DLManagedTensor *t) {
  return PyCapsule_New(t, kBracedPlain, destroy_either);
}
