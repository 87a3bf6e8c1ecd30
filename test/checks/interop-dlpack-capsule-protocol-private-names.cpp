// RUN: %check_interop %s interop-dlpack-capsule-protocol,interop-dlpack-deleter-ownership %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// A capsule under a library-private name that the library itself reads back
// (a keep-alive base object) is not a DLPack exchange capsule: no name
// finding; in its destructor a check of that name is the name check; a
// pointer taken with NULL that is never read as a DLPack struct is not a
// DLPack consumer's. A name that nothing in the translation unit reads back
// is still reported.

#include <Python.h>
#include <dlpack/dlpack.h>

#define ACME_BASE "acme_dltensor_base"

static void base_dtor(PyObject *self) {
  PyObject *t, *v, *tb;
  PyErr_Fetch(&t, &v, &tb);
  if (PyCapsule_IsValid(self, ACME_BASE)) {
    auto *mt =
        static_cast<DLManagedTensor *>(PyCapsule_GetPointer(self, ACME_BASE));
    if (mt && mt->deleter)
      mt->deleter(mt);
  }
  PyErr_Restore(t, v, tb);
}

static void base_dtor_by_pointer(PyObject *self) {
  auto *mt =
      static_cast<DLManagedTensor *>(PyCapsule_GetPointer(self, ACME_BASE));
  if (mt == nullptr) {
    PyErr_WriteUnraisable(self);
    return;
  }
  mt->deleter(mt);
}

int set_base(PyObject *array, PyObject *base);

int keep_alive(PyObject *array, DLManagedTensor *mt) {
  PyObject *base = PyCapsule_New(mt, ACME_BASE, base_dtor);
  if (base == nullptr)
    return -1;
  return set_base(array, base);
}

int keep_alive_too(PyObject *array, DLManagedTensor *mt) {
  PyObject *base = PyCapsule_New(mt, ACME_BASE, base_dtor_by_pointer);
  return base ? set_base(array, base) : -1;
}

// The library reads its own capsules back under their name.
DLDevice device_of_base(PyObject *base) {
  if (!PyCapsule_IsValid(base, ACME_BASE))
    return DLDevice{kDLCPU, 0};
  auto *mt =
      static_cast<DLManagedTensor *>(PyCapsule_GetPointer(base, ACME_BASE));
  return mt ? mt->dl_tensor.device : DLDevice{kDLCPU, 0};
}

// A capsule of the library's own struct, made and read with a NULL name.
struct Handle {
  int refs;
};
static void handle_dtor(PyObject *self) {
  delete static_cast<Handle *>(PyCapsule_GetPointer(self, nullptr));
}
PyObject *wrap_handle(Handle *h) { return PyCapsule_New(h, nullptr, handle_dtor); }
int refs_of(PyObject *cap) {
  auto *h = static_cast<Handle *>(PyCapsule_GetPointer(cap, nullptr));
  return h ? h->refs : 0;
}

// A private-looking name that nothing but the capsule's own destructor reads
// back: the capsule goes to a consumer, which accepts only the DLPack names.
static void dltensor_dtor(PyObject *self) {
  PyObject *exc = PyErr_GetRaisedException();
  auto *mt = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(self, "acme_dltensor"));
  if (mt)
    mt->deleter(mt);
  else
    PyErr_WriteUnraisable(self);
  PyErr_SetRaisedException(exc);
}
PyObject *dunder_dlpack(DLManagedTensor *mt) {
  return PyCapsule_New(mt, "acme_dltensor", dltensor_dtor);
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: capsule holding a DLPack tensor created with name 'acme_dltensor'; consumers accept only 'dltensor' or 'dltensor_versioned' [interop-dlpack-capsule-protocol]
}

// Read back with NULL and used as a DLPack tensor: any capsule is accepted.
int ndim_of(PyObject *cap) {
  auto *mt = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(cap, nullptr));
  // CHECK-MESSAGES: :[[@LINE-1]]:45: warning: pointer taken from the capsule without checking its name; a consumed ('used_dltensor') or foreign capsule is read as a live tensor [interop-dlpack-capsule-protocol]
  return mt ? mt->dl_tensor.ndim : -1;
}

// A binding library's internals and NumPy's API table: read with NULL or
// under their current name as a pointer to pointers or as `void *`, never as
// a managed tensor. Not DLPack capsules.
struct Internals;
Internals **internals_of(PyObject *state) {
  void *raw = PyCapsule_GetPointer(state, nullptr);
  return static_cast<Internals **>(raw);
}
void **numpy_api(PyObject *c) {
  return (void **)PyCapsule_GetPointer(c, NULL);
}
void run_cleanup(PyObject *o, void (*cleanup)(void *) noexcept) {
  cleanup(PyCapsule_GetPointer(o, PyCapsule_GetName(o)));
}

// The destructor of a library's private anchor capsule (no DLPack name, no
// tensor inside) has none of a DLPack capsule destructor's duties.
struct Anchor;
static void anchor_dtor(PyObject *self) {
  if (!PyCapsule_GetPointer(self, "acme_internals"))
    PyErr_Clear();
}
PyObject *make_anchor(Anchor *a) {
  return PyCapsule_New(a, "acme_internals", anchor_dtor);
}

// Neither the name (a parameter) nor the payload (a `void *`) says DLPack,
// but the destructor reads the capsule as a managed tensor: it has a DLPack
// capsule destructor's duties.
static void tensor_dtor(PyObject *self) {
  auto *mt = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(self, "dltensor"));
  if (mt)
    mt->deleter(mt);
  else
    PyErr_Clear();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: capsule destructor clears the error indicator, discarding an exception that may be in flight [interop-dlpack-capsule-protocol]
  // CHECK-MESSAGES: :[[@LINE-2]]:5: note: save it with PyErr_Fetch (or PyErr_GetRaisedException) first and restore it before returning
}
PyObject *wrap_opaque(void *payload, const char *name) {
  return PyCapsule_New(payload, name, tensor_dtor);
}
