// RUN: %check_interop %s interop-dlpack-deleter-ownership %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// Claims and callbacks on one branch say nothing of another branch.
// - A consumer whose two branches each take the pointer from the same
//   capsule, import it and claim the capsule: the claim on one branch does
//   not make the other branch's tensor (never taken on this path) owned.
// - An importer that installs a releasing callback only when the caller
//   passed none does not own the tensor on the path that keeps the
//   caller's callback; one that creates the callback
//   on every path that returns owns it, and leaks it on a path that throws
//   before.

#include <Python.h>
#include <dlpack/dlpack.h>

struct Tensor {
  Tensor();
};
Tensor import_tensor(const DLManagedTensor *t);

Tensor consume(PyObject *cap, bool first) {
  Tensor t;
  if (first) {
    auto *m1 =
        static_cast<DLManagedTensor *>(PyCapsule_GetPointer(cap, "dltensor"));
    if (!m1)
      return t;
    t = import_tensor(m1);
    PyCapsule_SetName(cap, "used_dltensor");
  } else {
    auto *m2 =
        static_cast<DLManagedTensor *>(PyCapsule_GetPointer(cap, "dltensor"));
    if (!m2)
      return t;
    t = import_tensor(m2);
    PyCapsule_SetName(cap, "used_dltensor");
  }
  return t;
}

// The same with the claim before one branch's import only: that branch's
// tensor is owned, and leaked when the import is skipped.
extern bool skip_import;
Tensor consume_leaky(PyObject *cap, bool first) {
  Tensor t;
  if (first) {
    auto *m1 =
        static_cast<DLManagedTensor *>(PyCapsule_GetPointer(cap, "dltensor"));
    // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: managed tensor obtained here is neither deleted nor handed on on some path [interop-dlpack-deleter-ownership]
    if (!m1)
      return t;
    PyCapsule_SetName(cap, "used_dltensor");
    if (skip_import)
      return t;
    // CHECK-MESSAGES: :[[@LINE-1]]:7: note: still owned when the function returns here
    t = import_tensor(m1);
  } else {
    auto *m2 =
        static_cast<DLManagedTensor *>(PyCapsule_GetPointer(cap, "dltensor"));
    if (!m2)
      return t;
    t = import_tensor(m2);
    PyCapsule_SetName(cap, "used_dltensor");
  }
  return t;
}

struct Callback {
  void (*fn)(void *);
  void *ctx;
  explicit operator bool() const { return fn != nullptr; }
};
template <typename F> Callback make_callback(F f) {
  static F Held = f;
  return Callback{[](void *p) { Held(p); }, nullptr};
}
struct Storage {
  Storage(void *p, Callback release);
};
Storage *wrap_storage(void *p, Callback release);

Storage *wrap(const DLManagedTensor *src, Callback release) {
  if (!release) {
    release = make_callback([src](void *) {
      if (src->deleter)
        src->deleter(const_cast<DLManagedTensor *>(src));
    });
  }
  char *first =
      static_cast<char *>(src->dl_tensor.data) + src->dl_tensor.byte_offset;
  return wrap_storage(first, release);
}

// The callback is made on every path that returns: the importer owns the
// tensor, and the throw before it leaks it.
struct Unsupported {};
Storage *wrap_always(DLManagedTensor *src) {
  // CHECK-MESSAGES: :[[@LINE-1]]:39: warning: 'src' is owned by this function (it calls the deleter) but is neither deleted nor handed on on some path [interop-dlpack-deleter-ownership]
  if (src->dl_tensor.ndim > 8)
    throw Unsupported();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: note: still owned when the exception is thrown here
  Callback release = make_callback([src](void *) { src->deleter(src); });
  return wrap_storage(src->dl_tensor.data, release);
}

// A capsule destructor that takes the tensor in one arm (NULL after the
// other) and calls its deleter only when there is one: with a NULL deleter
// there is nothing to free, whichever arm took it. (The analysis gives the
// fields of a tensor reached through such a joined pointer their values,
// so that the deleter's test is a test.)
static void dtor_either_arm(PyObject *obj) {
  DLManagedTensor *managed = nullptr;
  if (PyCapsule_IsValid(obj, "dltensor"))
    managed = static_cast<DLManagedTensor *>(
        PyCapsule_GetPointer(obj, "dltensor"));
  if (managed)
    if (managed->deleter)
      managed->deleter(managed);
}
// Deleted only when its rank is positive: leaked on the other path.
static void dtor_rank_only(PyObject *obj) {
  DLManagedTensor *managed = nullptr;
  if (PyCapsule_IsValid(obj, "dltensor"))
    managed = static_cast<DLManagedTensor *>(
        PyCapsule_GetPointer(obj, "dltensor"));
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: managed tensor obtained here is neither deleted nor handed on on some path [interop-dlpack-deleter-ownership]
  if (managed && managed->deleter && managed->dl_tensor.ndim > 0)
    managed->deleter(managed);
}
PyObject *export_both(DLManagedTensor *m, DLManagedTensor *n) {
  PyObject *a = PyCapsule_New(m, "dltensor", dtor_either_arm);
  PyObject *b = PyCapsule_New(n, "dltensor", dtor_rank_only);
  return a && b ? a : b;
}
