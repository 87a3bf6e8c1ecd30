// RUN: %check_interop %s interop-dlpack-capsule-protocol %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// pybind11 and nanobind also make a capsule from a destructor of the
// pointer alone, which the library calls with the capsule's pointer
// whatever the capsule is named by then. Holding a DLPack tensor, such a
// destructor that runs the deleter deletes it after a consumer took it and
// renamed the capsule: a double free (Riva's caster passed the tensor's own
// deleter, cast to void (*)(void *)).

#include <dlpack/dlpack.h>
#include <pybind11/pybind11.h>

namespace py = pybind11;

py::object export_deleter_itself(DLManagedTensor *src) {
  py::capsule capsule(src, reinterpret_cast<void (*)(void *)>(src->deleter));
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: capsule holding a DLPack tensor made with a destructor of the pointer alone; it deletes the tensor whatever the capsule is named, also after a consumer renamed it to its used_ name [interop-dlpack-capsule-protocol]
  // CHECK-MESSAGES: :[[@LINE-2]]:28: note: give the capsule a destructor of the capsule (PyObject *) that deletes only while PyCapsule_IsValid(capsule, "dltensor")
  capsule.set_name("dltensor");
  return capsule;
}

py::capsule export_lambda(DLManagedTensor *t) {
  return py::capsule(t, "dltensor", [](void *p) {
    auto *mt = static_cast<DLManagedTensor *>(p);
    if (mt->deleter)
      mt->deleter(mt);
  });
  // CHECK-MESSAGES: :[[@LINE-5]]:10: warning: capsule holding a DLPack tensor made with a destructor of the pointer alone
  // CHECK-MESSAGES: :[[@LINE-6]]:37: note: give the capsule a destructor of the capsule (PyObject *)
}

// Not reported: a destructor that deletes nothing of DLPack's (the owner
// lives elsewhere), a capsule of something else, and the PyObject form.
struct Owner {
  ~Owner();
};
py::capsule keep_alive(DLManagedTensor *t, Owner *owner) {
  (void)t;
  return py::capsule(owner, [](void *p) { delete static_cast<Owner *>(p); });
}
py::capsule noop(DLManagedTensor *t) {
  return py::capsule(t, "dltensor", [](void *) {});
}
py::capsule checked(DLManagedTensor *t) {
  return py::capsule(t, "dltensor", [](PyObject *obj) {
    if (!PyCapsule_IsValid(obj, "dltensor"))
      return;
    auto *mt = static_cast<DLManagedTensor *>(
        PyCapsule_GetPointer(obj, "dltensor"));
    if (mt->deleter)
      mt->deleter(mt);
  });
}

// A destructor that frees the struct itself (and its shape) instead of
// calling the deleter deletes the tensor all the same: after a consumer
// took it, the consumer's deleter call reads freed memory.
py::capsule export_freeing_lambda(DLManagedTensor *t) {
  return py::capsule(t, "dltensor", [](void *p) {
    const auto *mt = static_cast<DLManagedTensor *>(p);
    delete[] mt->dl_tensor.shape;
    delete mt;
  });
  // CHECK-MESSAGES: :[[@LINE-5]]:10: warning: capsule holding a DLPack tensor made with a destructor of the pointer alone
  // CHECK-MESSAGES: :[[@LINE-6]]:37: note: give the capsule a destructor of the capsule (PyObject *)
}

// Freeing only what the tensor points at (its shape) is not freeing it.
py::capsule export_shape_only(DLManagedTensor *t) {
  return py::capsule(t, "dltensor", [](void *p) {
    delete[] static_cast<DLManagedTensor *>(p)->dl_tensor.shape;
  });
}

// A named destructor: the function making the capsule mentions no deleter
// and no capsule call, and is judged all the same.
static void free_managed(void *p) { delete static_cast<DLManagedTensor *>(p); }
py::capsule export_named_destructor(DLManagedTensor *t) {
  return py::capsule(t, "dltensor", free_managed);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: capsule holding a DLPack tensor made with a destructor of the pointer alone
  // CHECK-MESSAGES: :[[@LINE-2]]:37: note: give the capsule a destructor of the capsule (PyObject *)
}
