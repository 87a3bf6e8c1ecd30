// RUN: %check_interop %s interop-dlpack-capsule-protocol %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// Capsule names are constants however they are spelled: a literal, a
// constant, or a local variable every store of which stores the same
// constant (nanobind picks the name with `if constexpr`, so each instance of
// its destructor template stores one name).

#include <Python.h>
#include <dlpack/dlpack.h>
#include <type_traits>

template <bool Versioned> static void capsule_delete(PyObject *capsule) {
  const char *name;
  if constexpr (Versioned)
    name = "dltensor_versioned";
  else
    name = "dltensor";
  using MT =
      std::conditional_t<Versioned, DLManagedTensorVersioned, DLManagedTensor>;
  PyObject *exc = PyErr_GetRaisedException();
  MT *mt = (MT *)PyCapsule_GetPointer(capsule, name);
  if (mt)
    mt->deleter(mt);
  else
    PyErr_WriteUnraisable(capsule);
  PyErr_SetRaisedException(exc);
}
PyObject *export_legacy(DLManagedTensor *mt) {
  return PyCapsule_New(mt, "dltensor", capsule_delete<false>);
}
PyObject *export_versioned(DLManagedTensorVersioned *mt) {
  return PyCapsule_New(mt, "dltensor_versioned", capsule_delete<true>);
}

// A variable that may also hold the capsule's own name is no constant: with
// it PyCapsule_GetPointer succeeds on a consumed capsule too.
extern bool lenient;
static void own_name_sometimes(PyObject *capsule) {
  const char *name = "dltensor";
  if (lenient)
    name = PyCapsule_GetName(capsule);
  auto *mt = (DLManagedTensor *)PyCapsule_GetPointer(capsule, name);
  if (mt)
    mt->deleter(mt);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: capsule destructor calls the deleter without checking that the capsule is unconsumed; a consumer that renamed it owns the tensor [interop-dlpack-capsule-protocol]
  // CHECK-MESSAGES: :[[@LINE-2]]:5: note: check PyCapsule_IsValid(capsule, "dltensor") first
}
PyObject *export_own_name(DLManagedTensor *mt) {
  return PyCapsule_New(mt, "dltensor", own_name_sometimes);
}
