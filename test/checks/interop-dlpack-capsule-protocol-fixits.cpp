// RUN: %check_interop %s interop-dlpack-capsule-protocol %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// A capsule made with a name a consumer does not accept, or with the other
// generation's name, gets the name its struct needs as a fix-it, when the
// name is spelled at the call (a literal or NULL). A name held in a
// variable or a macro is left to the reader.

#include <Python.h>
#include <dlpack/dlpack.h>

static void dtor(PyObject *c);
#define MY_NAME "my_tensor"

PyObject *legacy_misnamed(DLManagedTensor *t) {
  return PyCapsule_New(t, "dlpack", dtor);
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: capsule holding a DLPack tensor created with name 'dlpack'; consumers accept only 'dltensor' or 'dltensor_versioned' [interop-dlpack-capsule-protocol]
  // CHECK-FIXES: {{^}}  return PyCapsule_New(t, "dltensor", dtor);{{$}}
}

PyObject *versioned_misnamed(DLManagedTensorVersioned *t) {
  return PyCapsule_New(t, "dltensor", dtor);
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: capsule named 'dltensor' holds a DLManagedTensorVersioned; a consumer will read it as the other struct [interop-dlpack-capsule-protocol]
  // CHECK-MESSAGES: :[[@LINE-2]]:27: note: name it 'dltensor_versioned'
  // CHECK-FIXES: {{^}}  return PyCapsule_New(t, "dltensor_versioned", dtor);{{$}}
}

PyObject *used_name(DLManagedTensorVersioned *t) {
  return PyCapsule_New(t, "used_dltensor_versioned", dtor);
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: capsule holding a DLPack tensor created with name 'used_dltensor_versioned'; consumers accept only 'dltensor' or 'dltensor_versioned' [interop-dlpack-capsule-protocol]
  // CHECK-FIXES: {{^}}  return PyCapsule_New(t, "dltensor_versioned", dtor);{{$}}
}

PyObject *from_macro(DLManagedTensor *t) {
  return PyCapsule_New(t, MY_NAME, dtor);
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: capsule holding a DLPack tensor created with name 'my_tensor'; consumers accept only 'dltensor' or 'dltensor_versioned' [interop-dlpack-capsule-protocol]
  // CHECK-FIXES: {{^}}  return PyCapsule_New(t, MY_NAME, dtor);{{$}}
}
