// RUN: %check_interop %s interop-dlpack-deleter-ownership %t -- \
// RUN:   -config="{CheckOptions: {interop-dlpack-deleter-ownership.ReportSkippedFunctions: true}}" -- -I%S/Inputs -I%S/Inputs/dlpack/v1

// A consumer with a dozen branches over either generation of tensor, which
// reads the capsule's tensor again to store it in what it allocated: no
// leak. The function must be analysed at all: its branches over a record of
// booleans join into flow conditions that a solver without clause learning
// gives up on; with ReportSkippedFunctions a skip would be reported here.

#include <Python.h>
#include <dlpack/dlpack.h>
#include <stdlib.h>

typedef struct {
  void *managed;
  int is_versioned;
} owner_t;
typedef struct {
  owner_t *parent;
  char *data;
} view_t;

view_t *import_any(PyObject *capsule, int owned) {
  int is_versioned = 0;
  DLTensor *dl = NULL;
  if (PyCapsule_IsValid(capsule, "dltensor_versioned")) {
    DLManagedTensorVersioned *mv = (DLManagedTensorVersioned *)PyCapsule_GetPointer(capsule, "dltensor_versioned");
    if (!mv)
      goto fail;
    if (mv->version.major != DLPACK_MAJOR_VERSION)
      goto fail;
    dl = &mv->dl_tensor;
    is_versioned = 1;
  } else if (PyCapsule_IsValid(capsule, "dltensor")) {
    DLManagedTensor *ml = (DLManagedTensor *)PyCapsule_GetPointer(capsule, "dltensor");
    if (!ml)
      goto fail;
    dl = &ml->dl_tensor;
  } else {
    goto fail;
  }
  owner_t *owner = (owner_t *)malloc(sizeof(owner_t));
  if (!owner)
    goto fail;
  owner->is_versioned = is_versioned;
  if (is_versioned) {
    owner->managed = PyCapsule_GetPointer(capsule, "dltensor_versioned");
    PyCapsule_SetName(capsule, "used_dltensor_versioned");
  } else {
    owner->managed = PyCapsule_GetPointer(capsule, "dltensor");
    PyCapsule_SetName(capsule, "used_dltensor");
  }
  view_t *view = (view_t *)malloc(sizeof(view_t));
  if (!view) {
    free(owner);
    goto fail;
  }
  view->parent = owner;
  view->data = (char *)dl->data + dl->byte_offset;
  if (owned)
    Py_DECREF(capsule);
  return view;
fail:
  if (owned)
    Py_DECREF(capsule);
  return NULL;
}
