// RUN: %check_interop %s interop-dlpack-deleter-ownership %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// A capsule destructor may release the tensor without its deleter field: by
// calling, by name, the function the producer stores in `deleter` (jaxlib's
// and XLA's DLPackTensorDeleter), or by handing manager_ctx to the
// producer's own bookkeeping (nanobind's reference-counted handle). Both are
// read from the bodies.

#include <Python.h>
#include <dlpack/dlpack.h>
#include <vector>

struct Holder {
  std::vector<int64_t> shape;
  DLManagedTensor tensor;
};
static void release_holder(DLManagedTensor *t) {
  if (t)
    delete static_cast<Holder *>(t->manager_ctx);
}
static void capsule_dtor(PyObject *obj) {
  if (!PyCapsule_IsValid(obj, "dltensor"))
    return;
  release_holder(static_cast<DLManagedTensor *>(PyCapsule_GetPointer(obj, "dltensor")));
}
PyObject *to_capsule(Holder *h) {
  h->tensor.manager_ctx = h;
  h->tensor.deleter = release_holder;
  return PyCapsule_New(&h->tensor, "dltensor", capsule_dtor);
}

// One level deeper: the release function frees through a helper.
static void free_holder(Holder *h) { delete h; }
static void release_via_helper(DLManagedTensor *t) {
  free_holder(static_cast<Holder *>(t->manager_ctx));
}
PyObject *to_capsule_helper(Holder *h) {
  h->tensor.deleter = release_via_helper;
  return PyCapsule_New(&h->tensor, "dltensor", [](PyObject *obj) {
    if (!PyCapsule_IsValid(obj, "dltensor"))
      return;
    auto *t = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(obj, "dltensor"));
    release_via_helper(t);
  });
}

// The producer's own handle: the tensor goes with its last reference.
struct Handle;
void handle_dec_ref(Handle *h) noexcept;
static void handle_dtor(PyObject *obj) {
  PyObject *exc = PyErr_GetRaisedException();
  auto *t = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(obj, "dltensor"));
  if (t)
    handle_dec_ref(static_cast<Handle *>(t->manager_ctx));
  else
    PyErr_Clear();
  PyErr_SetRaisedException(exc);
}
PyObject *to_capsule_handle(DLManagedTensor *mt) {
  return PyCapsule_New(mt, "dltensor", handle_dtor);
}

// A function of the tensor that does not release it is no release.
static void log_tensor(DLManagedTensor *t) { (void)t->dl_tensor.ndim; }
static void logging_dtor(PyObject *obj) {
  auto *t = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(obj, "dltensor"));
  if (t)
    log_tensor(t);
}
PyObject *to_capsule_logged(DLManagedTensor *mt) {
  return PyCapsule_New(mt, "dltensor", logging_dtor);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: capsule destructor 'logging_dtor' never calls the tensor's deleter; an unconsumed capsule leaks the tensor [interop-dlpack-deleter-ownership]
}

// A release function called twice is a double delete.
void release_twice(Holder *h, bool fail) {
  DLManagedTensor *t = &h->tensor;
  if (fail)
    release_holder(t);
  release_holder(t);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: deleter may be called twice: the tensor may already be deleted on this path [interop-dlpack-deleter-ownership]
}

// A function whose body is not visible may release what it is given.
void release_elsewhere(DLManagedTensor *t);
PyObject *to_capsule_elsewhere(DLManagedTensor *mt) {
  return PyCapsule_New(mt, "dltensor", [](PyObject *obj) {
    if (PyCapsule_IsValid(obj, "dltensor"))
      release_elsewhere(static_cast<DLManagedTensor *>(PyCapsule_GetPointer(obj, "dltensor")));
  });
}
