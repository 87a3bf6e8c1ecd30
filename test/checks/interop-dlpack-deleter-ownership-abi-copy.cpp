// RUN: %check_interop %s interop-dlpack-deleter-ownership %t -- -- -std=c++17 -I%S/Inputs

// Libraries that declare their own copy of the managed-tensor ABI under
// other names (nanobind's dlpack::dltensor and managed_dltensor) are DLPack
// code: a record with a manager_ctx pointer and a deleter taking a pointer
// to the record is a managed tensor, whatever its name.

#include <Python.h>
#include <stdint.h>

namespace acme::dl {
struct device { int32_t device_type, device_id; };
struct dtype { uint8_t code, bits; uint16_t lanes; };
struct dltensor {
  void *data;
  device device;
  int32_t ndim;
  dtype dtype;
  int64_t *shape, *strides;
  uint64_t byte_offset;
};
struct managed_dltensor {
  dltensor dltensor;
  void *manager_ctx;
  void (*deleter)(managed_dltensor *);
};
// Not a managed tensor: its deleter does not take the record.
struct callback {
  void *manager_ctx;
  void (*deleter)(void *);
};
} // namespace acme::dl

PyObject *export_ok(acme::dl::managed_dltensor *mt) {
  return PyCapsule_New(mt, "dltensor", [](PyObject *cap) {
    PyObject *exc = PyErr_GetRaisedException();
    auto *t = static_cast<acme::dl::managed_dltensor *>(PyCapsule_GetPointer(cap, "dltensor"));
    if (t && t->deleter)
      t->deleter(t);
    PyErr_SetRaisedException(exc);
  });
}

PyObject *export_leaky(acme::dl::managed_dltensor *mt) {
  return PyCapsule_New(mt, "dltensor", [](PyObject *) {});
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: capsule destructor lambda never calls the tensor's deleter; an unconsumed capsule leaks the tensor [interop-dlpack-deleter-ownership]
}

void release_twice(acme::dl::managed_dltensor *t, bool fail) {
  if (fail)
    t->deleter(t);
  t->deleter(t);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: deleter may be called twice: the tensor may already be deleted on this path [interop-dlpack-deleter-ownership]
  // CHECK-MESSAGES: :[[@LINE-3]]:5: note: deleted here first
}

void run_twice(acme::dl::callback *c, bool fail) {
  if (fail)
    c->deleter(c->manager_ctx);
  c->deleter(c->manager_ctx);
}
