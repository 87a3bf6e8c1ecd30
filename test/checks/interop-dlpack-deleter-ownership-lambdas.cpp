// RUN: %check_interop %s interop-dlpack-deleter-ownership %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// A capsule destructor lambda held in a local variable is the capsule's
// destructor as much as an inline one (Quadrants' dlpack_funcs.cpp before
// 8d20beb85 installed an empty one).

#include <Python.h>
#include <dlpack/dlpack.h>

PyObject *export_leaky(DLManagedTensor *mt) {
  auto dtor = [](PyObject *) {};
  return PyCapsule_New(mt, "dltensor", dtor);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: capsule destructor lambda never calls the tensor's deleter; an unconsumed capsule leaks the tensor [interop-dlpack-deleter-ownership]
  // CHECK-MESSAGES: :[[@LINE-3]]:15: note: destructor defined here
}

PyObject *export_leaky_plus(DLManagedTensor *mt) {
  auto dtor = [](PyObject *) {};
  return PyCapsule_New(mt, "dltensor", +dtor);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: capsule destructor lambda never calls the tensor's deleter; an unconsumed capsule leaks the tensor [interop-dlpack-deleter-ownership]
}

PyObject *export_ok(DLManagedTensor *mt) {
  auto dtor = [](PyObject *cap) {
    PyObject *exc = PyErr_GetRaisedException();
    if (PyCapsule_IsValid(cap, "dltensor")) {
      auto *t = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(cap, "dltensor"));
      if (t->deleter)
        t->deleter(t);
    }
    PyErr_SetRaisedException(exc);
  };
  return PyCapsule_New(mt, "dltensor", dtor);
}

// A function pointer variable that may be reassigned is not followed.
void good_dtor(PyObject *cap);
void other_dtor(PyObject *cap);
PyObject *export_chosen(DLManagedTensor *mt, bool legacy) {
  void (*dtor)(PyObject *) = good_dtor;
  if (legacy)
    dtor = other_dtor;
  return PyCapsule_New(mt, "dltensor", dtor);
}
