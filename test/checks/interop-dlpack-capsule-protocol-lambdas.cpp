// RUN: %check_interop %s interop-dlpack-capsule-protocol %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// Lambdas are functions of their own. A capsule destructor written inline
// as PyCapsule_New's argument, or held in a local variable first, is judged
// as a destructor; its PyCapsule_GetPointer is no consumption by the
// producer around it (jaxlib/dlpack.cc, jaxlib/ffi.cc, XLA's
// python/dlpack.cc and nanobind write their destructors inline).

#include <Python.h>
#include <dlpack/dlpack.h>

static void release(DLManagedTensor *t) {
  if (t && t->deleter)
    t->deleter(t);
}

PyObject *export_inline(DLManagedTensor *mt) {
  return PyCapsule_New(mt, "dltensor", [](PyObject *cap) noexcept {
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    auto *t = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(cap, "dltensor"));
    if (t)
      release(t);
    PyErr_Restore(type, value, tb);
  });
}

// Still a destructor: its own duties are judged.
PyObject *export_inline_clears(DLManagedTensor *mt) {
  return PyCapsule_New(mt, "dltensor", [](PyObject *cap) noexcept {
    auto *t = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(cap, "dltensor"));
    if (t)
      release(t);
    else
      PyErr_Clear();
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: capsule destructor clears the error indicator, discarding an exception that may be in flight [interop-dlpack-capsule-protocol]
  });
}

// A destructor lambda in a variable (Quadrants' dlpack_funcs.cpp), passed
// as it is or with a unary plus.
PyObject *export_held(DLManagedTensor *mt) {
  auto dtor = [](PyObject *cap) {
    auto *t = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(cap, "dltensor"));
    if (t != nullptr && t->deleter != nullptr)
      t->deleter(t);
    else
      PyErr_Clear();
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: capsule destructor clears the error indicator, discarding an exception that may be in flight [interop-dlpack-capsule-protocol]
  };
  return PyCapsule_New(mt, "dltensor", dtor);
}
PyObject *export_held_plus(DLManagedTensor *mt) {
  const auto dtor = [](PyObject *cap) {
    if (!PyCapsule_IsValid(cap, "dltensor"))
      return;
    auto *t = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(cap, "dltensor"));
    t->deleter(t);
  };
  return PyCapsule_New(mt, "dltensor", +dtor);
}

// A lambda that is no destructor is judged as the consumer it is.
struct Tensor {};
Tensor import_tensor(DLManagedTensor *t);
void for_each_capsule(PyObject **caps, int n, Tensor (*f)(PyObject *));
void import_all(PyObject **caps, int n) {
  for_each_capsule(caps, n, [](PyObject *cap) {
    auto *t = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(cap, "dltensor"));
    // CHECK-MESSAGES: :[[@LINE-1]]:46: warning: capsule consumed without renaming it to its used_ name (or clearing its destructor); its destructor will delete the tensor again [interop-dlpack-capsule-protocol]
    if (!t)
      return Tensor();
    return import_tensor(t);
  });
}

// A lambda that captures the imported pointer carries it: the callee that
// keeps the lambda (a deleter of the importer's own tensor) owns the tensor,
// so the capsule must be claimed (Caffe2's feed, 2018).
#include <functional>
struct Storage {
  void share(void *data, std::function<void(void *)> release) noexcept;
};
void feed(Storage &s, PyObject *cap) {
  auto *t = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(cap, "dltensor"));
  // CHECK-MESSAGES: :[[@LINE-1]]:44: warning: capsule consumed without renaming it to its used_ name (or clearing its destructor); its destructor will delete the tensor again [interop-dlpack-capsule-protocol]
  if (!t)
    return;
  s.share(t->dl_tensor.data, [t](void *) {
    if (t->deleter)
      t->deleter(t);
  });
}

void feed_claimed(Storage &s, PyObject *cap) {
  auto *t = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(cap, "dltensor"));
  if (!t)
    return;
  s.share(t->dl_tensor.data, [t](void *) {
    if (t->deleter)
      t->deleter(t);
  });
  PyCapsule_SetName(cap, "used_dltensor");
}

// A local lambda called by name runs its body where it is called: a rename
// through it (here by a helper given the capsule and the tensor) claims the
// capsule, on success and in the handler alike.
#include <stdexcept>
static void mark_used(PyObject *cap, DLManagedTensor *t) {
  PyCapsule_SetName(cap, "used_dltensor");
  if (t->deleter)
    t->deleter(t);
}
void copy_pair(const DLTensor &a, const DLTensor &b);
void import_pair(PyObject *a_cap, PyObject *b_cap) {
  DLManagedTensor *a = nullptr;
  DLManagedTensor *b = nullptr;
  auto consume = [&]() {
    if (a)
      mark_used(a_cap, a);
    if (b)
      mark_used(b_cap, b);
  };
  try {
    a = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(a_cap, "dltensor"));
    b = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(b_cap, "dltensor"));
    if (!a || !b)
      throw std::invalid_argument("not a DLPack capsule");
    copy_pair(a->dl_tensor, b->dl_tensor);
    consume();
  } catch (...) {
    consume();
    throw;
  }
}

// What the lambda hands on, this function hands on: an import through it
// still needs the claim.
Tensor import_through_lambda(PyObject *cap) {
  DLManagedTensor *t = nullptr;
  Tensor r;
  auto take = [&] { r = import_tensor(t); };
  t = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(cap, "dltensor"));
  // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: capsule consumed without renaming it to its used_ name (or clearing its destructor); its destructor will delete the tensor again [interop-dlpack-capsule-protocol]
  if (!t)
    throw std::invalid_argument("not a DLPack capsule");
  take();
  return r;
}

// The same with pybind11 objects, which the lambda captures by reference
// and the helper takes by value (a copy still names the capsule).
#include <pybind11/pybind11.h>
static void mark_object_used(pybind11::object cap, DLManagedTensor *t) {
  PyCapsule_SetName(cap.ptr(), "used_dltensor");
  if (t->deleter)
    t->deleter(t);
}
void import_object(pybind11::object cap) {
  DLManagedTensor *t = nullptr;
  auto consume = [&] {
    if (t)
      mark_object_used(cap, t);
  };
  try {
    t = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(cap.ptr(), "dltensor"));
    if (!t)
      throw std::invalid_argument("not a DLPack capsule");
    copy_pair(t->dl_tensor, t->dl_tensor);
    consume();
  } catch (...) {
    consume();
    throw;
  }
}
