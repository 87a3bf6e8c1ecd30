// RUN: %check_interop %s interop-dlpack-capsule-protocol %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v06

// Objective-C++ (an Apple producer's .mm sharing Metal buffers): the flow
// analysis runs on it as on C++. A capsule destructor that calls the deleter
// without checking that the capsule is unconsumed is reported; one that
// tests the name first is not.

#include <Python.h>
#include <dlpack/dlpack.h>

__attribute__((objc_root_class))
@interface Buffer
- (void *)contents;
@end

DLManagedTensor *wrap(Buffer *buffer);

PyObject *export_unchecked(Buffer *buffer) {
  DLManagedTensor *tensor = wrap(buffer);
  return PyCapsule_New(tensor, "dltensor", [](PyObject *capsule) {
    DLManagedTensor *t =
        (DLManagedTensor *)PyCapsule_GetPointer(capsule, "dltensor");
    t->deleter(t);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: capsule destructor calls the deleter without checking that the capsule is unconsumed; a consumer that renamed it owns the tensor [interop-dlpack-capsule-protocol]
    // CHECK-MESSAGES: :[[@LINE-2]]:5: warning: pointer from PyCapsule_GetPointer used without checking for NULL; a consumed or misnamed capsule returns NULL [interop-dlpack-capsule-protocol]
  });
}

PyObject *export_checked(Buffer *buffer) {
  DLManagedTensor *tensor = wrap(buffer);
  return PyCapsule_New(tensor, "dltensor", [](PyObject *capsule) {
    if (!PyCapsule_IsValid(capsule, "dltensor"))
      return;
    DLManagedTensor *t =
        (DLManagedTensor *)PyCapsule_GetPointer(capsule, "dltensor");
    if (t && t->deleter)
      t->deleter(t);
  });
}
