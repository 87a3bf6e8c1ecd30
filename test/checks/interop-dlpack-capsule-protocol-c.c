// RUN: %check_interop %s interop-dlpack-capsule-protocol %t -- -- -I%S/Inputs -I%S/Inputs/dlpack/v06

// In C the name and struct findings still work (they are syntactic); the
// flow-sensitive ones need C++ (clang's dataflow framework).

#include <Python.h>
#include <dlpack/dlpack.h>

static void destructor(PyObject *capsule);

PyObject *to_dlpack(DLManagedTensor *mt) {
  return PyCapsule_New(mt, "dlpack", destructor);
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: capsule holding a DLPack tensor created with name 'dlpack'; consumers accept only 'dltensor' or 'dltensor_versioned' [interop-dlpack-capsule-protocol]
}

DLManagedTensor *from_dlpack(PyObject *capsule) {
  return (DLManagedTensor *)PyCapsule_GetPointer(capsule, NULL);
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: pointer taken from the capsule without checking its name; a consumed ('used_dltensor') or foreign capsule is read as a live tensor [interop-dlpack-capsule-protocol]
}
