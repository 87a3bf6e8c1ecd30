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

// A consumer that hands the tensor on and never claims the capsule gets the
// rename after the statement that imports, as a note's fix-it (applied with
// --fix-notes: if the callee only borrows the tensor, renaming leaks it). Only
// where the import can fail only by throwing; one that returns its failure
// (a pointer, a status, a result) is claimed after the test of it, which the
// reader writes.
struct Tensor {
  int dim() const;
};
Tensor fromDLPack(DLManagedTensor *t);
Tensor fromDLPackVersioned(DLManagedTensorVersioned *t);
void adopt(DLManagedTensor *t);
Tensor *wrap(DLManagedTensor *t);

int import_declared(PyObject *cap) {
  auto *mt = (DLManagedTensor *)PyCapsule_GetPointer(cap, "dltensor");
  // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: capsule consumed without renaming it to its used_ name (or clearing its destructor); its destructor will delete the tensor again [interop-dlpack-capsule-protocol]
  if (!mt)
    return -1;
  Tensor t = fromDLPack(mt);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: note: the tensor is handed on here; rename the capsule to 'used_dltensor' once this has succeeded
  // CHECK-FIXES: {{^}}  Tensor t = fromDLPack(mt);{{$}}
  // CHECK-FIXES-NEXT: {{^}}  PyCapsule_SetName(cap, "used_dltensor");{{$}}
  return t.dim();
}

void import_statement(PyObject *capsule) {
  auto *mt = static_cast<DLManagedTensorVersioned *>(
      PyCapsule_GetPointer(capsule, "dltensor_versioned"));
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: capsule consumed without renaming it
  if (mt == nullptr)
    return;
  if (mt->version.major == 1) {
    fromDLPackVersioned(mt).dim();
    // CHECK-MESSAGES: :[[@LINE-1]]:5: note: the tensor is handed on here; rename the capsule to 'used_dltensor_versioned' once this has succeeded
    // CHECK-FIXES: {{^}}    fromDLPackVersioned(mt).dim();{{$}}
    // CHECK-FIXES-NEXT: {{^}}    PyCapsule_SetName(capsule, "used_dltensor_versioned");{{$}}
  }
}

void adopt_void(PyObject *cap) {
  auto *mt = (DLManagedTensor *)PyCapsule_GetPointer(cap, "dltensor");
  // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: capsule consumed without renaming it
  if (!mt)
    return;
  adopt(mt);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: note: the tensor is handed on here
  // CHECK-FIXES: {{^}}  adopt(mt);{{$}}
  // CHECK-FIXES-NEXT: {{^}}  PyCapsule_SetName(cap, "used_dltensor");{{$}}
}

// The body of an if without braces has no line of its own to follow.
void unbraced(PyObject *cap) {
  auto *mt = (DLManagedTensor *)PyCapsule_GetPointer(cap, "dltensor");
  // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: capsule consumed without renaming it
  if (mt)
    adopt(mt);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: note: the tensor is handed on here
  // CHECK-FIXES: {{^}}    adopt(mt);{{$}}
  // CHECK-FIXES-NEXT: {{^}}  // CHECK-MESSAGES
}

// Returned at once, or a result that says whether it worked: no fix.
Tensor returned(PyObject *cap) {
  auto *mt = (DLManagedTensor *)PyCapsule_GetPointer(cap, "dltensor");
  // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: capsule consumed without renaming it
  return fromDLPack(mt);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: note: the tensor is handed on here
  // CHECK-FIXES: {{^}}  return fromDLPack(mt);{{$}}
  // CHECK-FIXES-NEXT: {{^}}  // CHECK-MESSAGES
}

Tensor *pointer_result(PyObject *cap) {
  auto *mt = (DLManagedTensor *)PyCapsule_GetPointer(cap, "dltensor");
  // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: capsule consumed without renaming it
  Tensor *t = wrap(mt);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: note: the tensor is handed on here
  // CHECK-FIXES: {{^}}  Tensor *t = wrap(mt);{{$}}
  // CHECK-FIXES-NEXT: {{^}}  // CHECK-MESSAGES
  return t;
}
