// RUN: %check_interop %s interop-dlpack-deleter-ownership %t -- \
// RUN:   -config="{CheckOptions: {interop-dlpack-deleter-ownership.ReportSkippedFunctions: true}}" -- -I%S/Inputs -I%S/Inputs/dlpack/v1

// A consumer that reads a capsule's tensor twice: once to validate it, once,
// after allocating what will hold it, to store it and claim the capsule.
// PyCapsule_GetPointer returns the capsule's one pointer each time, so
// storing the second pointer hands on the tensor the first one validated:
// no leak. Without the store, the claim leaves the function owning it.

#include <Python.h>
#include <dlpack/dlpack.h>
#include <stdlib.h>

typedef struct {
  DLManagedTensor *managed;
} holder_t;

holder_t *import_validated(PyObject *capsule) {
  DLManagedTensor *mt = (DLManagedTensor *)PyCapsule_GetPointer(capsule, "dltensor");
  if (!mt)
    return NULL;
  if (mt->dl_tensor.ndim > 8)
    return NULL;
  holder_t *h = (holder_t *)malloc(sizeof(holder_t));
  if (!h)
    return NULL;
  h->managed = (DLManagedTensor *)PyCapsule_GetPointer(capsule, "dltensor");
  PyCapsule_SetName(capsule, "used_dltensor");
  return h;
}

holder_t *import_claimed_not_stored(PyObject *capsule) {
  DLManagedTensor *mt = (DLManagedTensor *)PyCapsule_GetPointer(capsule, "dltensor");
  // CHECK-MESSAGES: :[[@LINE-1]]:44: warning: managed tensor obtained here is neither deleted nor handed on on some path [interop-dlpack-deleter-ownership]
  if (!mt)
    return NULL;
  holder_t *h = (holder_t *)malloc(sizeof(holder_t));
  if (!h)
    return NULL;
  (void)PyCapsule_GetPointer(capsule, "dltensor");
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: managed tensor obtained here is neither deleted nor handed on on some path [interop-dlpack-deleter-ownership]
  PyCapsule_SetName(capsule, "used_dltensor");
  return h;
}
