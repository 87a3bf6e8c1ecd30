// RUN: %check_interop %s interop-dlpack-deleter-ownership %t -- -- -I%S/Inputs

// A project's own copy of the managed-tensor ABI that renamed its fields
// (the context is `manager_context`, the tensor's `ndim` is `dimensions`) is
// still a managed tensor: its deleter's NULL test is the test DLPack allows.

#include <Python.h>
#include <stdint.h>

typedef struct own_tensor {
  void *data;
  struct { int32_t device_type; int32_t device_id; } device;
  int32_t dimensions;
  struct { uint8_t code; uint8_t bits; uint16_t lanes; } dtype;
  int64_t *shape;
  int64_t *strides;
  uint64_t byte_offset;
} own_tensor;

typedef struct own_managed {
  own_tensor tensor;
  void *manager_context;
  void (*deleter)(struct own_managed *self);
} own_managed;

int use(void *p);

int consume(PyObject *obj) {
  PyObject *capsule = PyObject_CallMethod(obj, "__dlpack__", NULL);
  if (!capsule)
    return 0;
  own_managed *managed = (own_managed *)PyCapsule_GetPointer(capsule, "dltensor");
  if (!managed) {
    Py_DECREF(capsule);
    return 0;
  }
  int r = use((char *)managed->tensor.data + managed->tensor.byte_offset);
  if (managed->deleter)
    managed->deleter(managed);
  PyCapsule_SetName(capsule, "used_dltensor");
  Py_DECREF(capsule);
  return r;
}

int consume_leaking(PyObject *obj) {
  PyObject *capsule = PyObject_CallMethod(obj, "__dlpack__", NULL);
  if (!capsule)
    return 0;
  own_managed *managed = (own_managed *)PyCapsule_GetPointer(capsule, "dltensor");
  // CHECK-MESSAGES: :[[@LINE-1]]:41: warning: managed tensor obtained here is neither deleted nor handed on on some path [interop-dlpack-deleter-ownership]
  if (!managed) {
    Py_DECREF(capsule);
    return 0;
  }
  int r = use(managed->tensor.data);
  PyCapsule_SetName(capsule, "used_dltensor");
  Py_DECREF(capsule);
  return r;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: note: still owned when the function returns here
}

// A record with a self-deleter and user data but no tensor is not one.
typedef struct job {
  void *user_data;
  int id;
  void (*deleter)(struct job *self);
} job;

int run_job(PyObject *capsule) {
  job *j = (job *)PyCapsule_GetPointer(capsule, "job");
  if (!j)
    return 0;
  if (j->deleter)
    j->deleter(j);
  return 1;
}
