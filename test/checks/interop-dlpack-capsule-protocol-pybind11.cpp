// RUN: %check_interop %s interop-dlpack-capsule-protocol %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// The destructor of a pybind11 capsule (py::capsule(ptr, name, dtor)) is a
// capsule destructor like PyCapsule_New's: XLA's 2020 capsules deleted the
// tensor without checking that the capsule was unconsumed, and then cleared
// the error indicator with nothing saved.

#include <dlpack/dlpack.h>
#include <pybind11/pybind11.h>

namespace py = pybind11;
static const char kName[] = "dltensor";
static void tensor_deleter(DLManagedTensor *t) {
  if (t)
    delete t;
}

py::capsule export_unchecked(DLManagedTensor *mt) {
  return py::capsule(mt, kName, [](PyObject *obj) {
    tensor_deleter(static_cast<DLManagedTensor *>(PyCapsule_GetPointer(obj, kName)));
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: capsule destructor calls the deleter without checking that the capsule is unconsumed; a consumer that renamed it owns the tensor [interop-dlpack-capsule-protocol]
    // CHECK-MESSAGES: :[[@LINE-2]]:5: note: check PyCapsule_IsValid(capsule, "dltensor") first
  });
}

py::capsule export_clears(DLManagedTensor *mt) {
  return py::capsule(mt, kName, [](PyObject *obj) {
    auto *t = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(obj, kName));
    if (t)
      tensor_deleter(t);
    else
      PyErr_Clear();
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: capsule destructor clears the error indicator, discarding an exception that may be in flight [interop-dlpack-capsule-protocol]
    // CHECK-MESSAGES: :[[@LINE-2]]:7: note: save it with PyErr_Fetch (or PyErr_GetRaisedException) first and restore it before returning
  });
}

// The same body outside a capsule's destructor: a consumer may clear errors.
void consumer(PyObject *obj) {
  auto *t = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(obj, kName));
  if (!t)
    PyErr_Clear();
}
