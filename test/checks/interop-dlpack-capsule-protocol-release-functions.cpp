// RUN: %check_interop %s interop-dlpack-capsule-protocol %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// A call of the producer's release function (the function it stores in
// `deleter`) is a deleter call for the destructor's duty too: it must not
// run on a consumed capsule (XLA's python/dlpack.cc before 984e293f0c
// called DLPackTensorDeleter on PyCapsule_GetPointer's result unchecked).

#include <Python.h>
#include <dlpack/dlpack.h>

struct Pack {
  DLManagedTensor tensor;
  long shape[4];
};
static void pack_deleter(DLManagedTensor *t) {
  if (t)
    delete static_cast<Pack *>(t->manager_ctx);
}

static void unchecked_dtor(PyObject *cap) {
  pack_deleter(static_cast<DLManagedTensor *>(PyCapsule_GetPointer(cap, "dltensor")));
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: capsule destructor calls the deleter without checking that the capsule is unconsumed; a consumer that renamed it owns the tensor [interop-dlpack-capsule-protocol]
}

static void checked_dtor(PyObject *cap) {
  PyObject *exc = PyErr_GetRaisedException();
  auto *t = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(cap, "dltensor"));
  if (t)
    pack_deleter(t);
  else
    PyErr_WriteUnraisable(cap);
  PyErr_SetRaisedException(exc);
}

PyObject *export_unchecked(Pack *p) {
  p->tensor.manager_ctx = p;
  p->tensor.deleter = pack_deleter;
  return PyCapsule_New(&p->tensor, "dltensor", unchecked_dtor);
}
PyObject *export_checked(Pack *p) {
  p->tensor.manager_ctx = p;
  p->tensor.deleter = pack_deleter;
  return PyCapsule_New(&p->tensor, "dltensor", checked_dtor);
}
