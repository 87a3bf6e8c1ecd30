// RUN: %check_interop %s interop-dlpack-deleter-ownership %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// A producer that allocates the managed struct and puts it in a capsule
// with a NULL deleter leaks it: a consumer calls the deleter only when it is
// set, and nothing else knows the struct was allocated.

#include <Python.h>
#include <dlpack/dlpack.h>
#include <pybind11/pybind11.h>

namespace py = pybind11;

struct Buffer {
  void *ptr;
  long bytes;
};

static void capsule_destructor(PyObject *o) {
  if (PyCapsule_IsValid(o, "dltensor")) {
    auto *m =
        static_cast<DLManagedTensor *>(PyCapsule_GetPointer(o, "dltensor"));
    if (m && m->deleter)
      m->deleter(m);
  }
}

py::object stored_null(Buffer &b) {
  DLManagedTensor *mt = new DLManagedTensor();
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: managed tensor allocated here is exported with a NULL deleter; a consumer calls the deleter only when it is set, so nothing frees the struct [interop-dlpack-deleter-ownership]
  mt->dl_tensor.data = b.ptr;
  mt->manager_ctx = nullptr;
  mt->deleter = nullptr;
  // CHECK-MESSAGES: :[[@LINE-1]]:17: note: deleter set to NULL here; install one that deletes the struct
  py::capsule cap(mt, "dltensor", [](PyObject *o) { capsule_destructor(o); });
  return cap;
}

// Value-initialised and never given a deleter.
PyObject *never_set(Buffer &b) {
  DLManagedTensor *mt = new DLManagedTensor{};
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: managed tensor allocated here is exported with a NULL deleter; {{.*}}
  mt->dl_tensor.data = b.ptr;
  return PyCapsule_New(mt, "dltensor", capsule_destructor);
}

// --- Correct ---------------------------------------------------------------

PyObject *with_deleter(void *data) {
  DLManagedTensor *mt = new DLManagedTensor{};
  mt->dl_tensor.data = data;
  mt->deleter = [](DLManagedTensor *self) { delete self; };
  return PyCapsule_New(mt, "dltensor", capsule_destructor);
}

// A helper of another file may install the deleter.
void finish(DLManagedTensor *mt);
PyObject *finished_elsewhere(Buffer &b) {
  DLManagedTensor *mt = new DLManagedTensor{};
  mt->dl_tensor.data = b.ptr;
  finish(mt);
  return PyCapsule_New(mt, "dltensor", capsule_destructor);
}

// Not exported: the function keeps (or frees) the struct itself.
DLManagedTensor *kept(Buffer &b) {
  DLManagedTensor *mt = new DLManagedTensor{};
  mt->dl_tensor.data = b.ptr;
  mt->deleter = nullptr;
  return mt;
}
