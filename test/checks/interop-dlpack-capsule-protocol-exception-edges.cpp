// RUN: %check_interop %s interop-dlpack-capsule-protocol %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// Exception edges. A consumer hands the capsule's tensor to its importer,
// then renames the capsule. A call that can throw between the two leaves,
// when it throws, the capsule still named "dltensor": its destructor deletes
// the tensor that the imported object deletes too. What can throw is read
// from the callee's declaration: noexcept, C functions and observers (const
// members, operators) cannot; a call inside a try block is caught there.

#include <Python.h>
#include <dlpack/dlpack.h>

struct Tensor {
  bool defined() const;
};
Tensor fromDLPack(DLManagedTensor *t);
void lazy_init(const Tensor &t);
void record(const Tensor &t) noexcept;
PyObject *wrap(Tensor t);

PyObject *throw_between(PyObject *capsule) {
  auto *mt =
      static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule, "dltensor"));
  if (!mt)
    return nullptr;
  Tensor t = fromDLPack(mt);
  lazy_init(t);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: this call can throw after the capsule's tensor was handed on and before the capsule is renamed; if it does, the capsule's destructor deletes the tensor its new owner deletes too [interop-dlpack-capsule-protocol]
  PyCapsule_SetName(capsule, "used_dltensor");
  // CHECK-MESSAGES: :[[@LINE-1]]:3: note: the capsule is renamed only here; rename it right after the import succeeds
  return wrap(t);
}

// A callee whose body is in this file and cannot throw (a scoped holder's
// release(), nanobind's import) is no path; one whose body calls what may
// throw is.
struct Scratch {
  long *p = nullptr;
  long *release() {
    long *t = p;
    p = nullptr;
    return t;
  }
  void grow(long n) { p = static_cast<long *>(reserve(n)); }
  static void *reserve(long n);
};
PyObject *body_cannot_throw(PyObject *capsule, Scratch &s) {
  auto *mt =
      static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule, "dltensor"));
  if (!mt)
    return nullptr;
  Tensor t = fromDLPack(mt);
  mt->dl_tensor.strides = s.release();
  PyCapsule_SetName(capsule, "used_dltensor");
  return wrap(t);
}
PyObject *body_may_throw(PyObject *capsule, Scratch &s) {
  auto *mt =
      static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule, "dltensor"));
  if (!mt)
    return nullptr;
  Tensor t = fromDLPack(mt);
  s.grow(mt->dl_tensor.ndim);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: this call can throw after the capsule's tensor was handed on and before the capsule is renamed; if it does, the capsule's destructor deletes the tensor its new owner deletes too [interop-dlpack-capsule-protocol]
  PyCapsule_SetName(capsule, "used_dltensor");
  // CHECK-MESSAGES: :[[@LINE-1]]:3: note: the capsule is renamed only here; rename it right after the import succeeds
  return wrap(t);
}

// PyTorch's order: renamed right after the import, then anything may throw.
PyObject *rename_first(PyObject *capsule) {
  auto *mt =
      static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule, "dltensor"));
  if (!mt)
    return nullptr;
  Tensor t = fromDLPack(mt);
  PyCapsule_SetName(capsule, "used_dltensor");
  lazy_init(t);
  return wrap(t);
}

// Calls that cannot throw between the two: noexcept, a C function, an
// observer.
PyObject *nothing_throws(PyObject *capsule) {
  auto *mt =
      static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule, "dltensor"));
  if (!mt)
    return nullptr;
  Tensor t = fromDLPack(mt);
  record(t);
  if (!t.defined())
    PyErr_Clear();
  PyCapsule_SetName(capsule, "used_dltensor");
  return wrap(t);
}

// Caught in the function; and a call on the path that gives up before the
// rename (the import failed: the capsule keeps the tensor, rightly).
PyObject *caught(PyObject *capsule) {
  auto *mt =
      static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule, "dltensor"));
  if (!mt)
    return nullptr;
  Tensor t = fromDLPack(mt);
  try {
    lazy_init(t);
  } catch (...) {
    PyCapsule_SetName(capsule, "used_dltensor");
    throw;
  }
  if (!t.defined()) {
    lazy_init(t);
    return nullptr;
  }
  PyCapsule_SetName(capsule, "used_dltensor");
  return wrap(t);
}

// Before the import nothing was handed on yet.
PyObject *throw_before(PyObject *capsule, const Tensor &other) {
  auto *mt =
      static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule, "dltensor"));
  if (!mt)
    return nullptr;
  lazy_init(other);
  Tensor t = fromDLPack(mt);
  PyCapsule_SetName(capsule, "used_dltensor");
  return wrap(t);
}
