// RUN: %check_interop %s interop-dlpack-deleter-ownership %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// pybind11's py::capsule(ptr, name, dtor) is PyCapsule_New: its destructor
// must delete the tensor of an unconsumed capsule (Quadrants' capsules held
// an empty destructor lambda in a variable).

#include <dlpack/dlpack.h>
#include <pybind11/pybind11.h>

namespace py = pybind11;

py::capsule export_leaky(DLManagedTensor *mt) {
  return py::capsule(mt, "dltensor", [](PyObject *) {});
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: capsule destructor lambda never calls the tensor's deleter; an unconsumed capsule leaks the tensor [interop-dlpack-deleter-ownership]
  // CHECK-MESSAGES: :[[@LINE-2]]:38: note: destructor defined here
}

py::capsule export_leaky_variable(DLManagedTensor *mt) {
  auto capsule_deleter = [](PyObject *capsule) {};
  pybind11::capsule capsule = pybind11::capsule(mt, "dltensor", capsule_deleter);
  // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: capsule destructor lambda never calls the tensor's deleter; an unconsumed capsule leaks the tensor [interop-dlpack-deleter-ownership]
  // CHECK-MESSAGES: :[[@LINE-3]]:26: note: destructor defined here
  return capsule;
}

py::capsule export_ok(DLManagedTensor *mt) {
  return py::capsule(mt, "dltensor", [](PyObject *cap) {
    PyObject *exc = PyErr_GetRaisedException();
    if (PyCapsule_IsValid(cap, "dltensor")) {
      auto *t = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(cap, "dltensor"));
      if (t->deleter)
        t->deleter(t);
    }
    PyErr_SetRaisedException(exc);
  });
}

// A capsule of something else, and one with no destructor argument written
// (pybind11's own default): not a DLPack producer's capsule of this form.
struct Handle;
py::capsule other(Handle *h) { return py::capsule(h, "handle", [](PyObject *) {}); }
py::capsule plain(void *p) { return py::capsule(p); }
