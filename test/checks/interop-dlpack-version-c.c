// RUN: %check_interop %s interop-dlpack-version %t -- -- -I%S/Inputs -I%S/Inputs/dlpack/v1

// C: a versioned tensor the function builds in a block it allocated
// (malloc, PyMem_Malloc; cast directly or through a variable) is its own,
// as one made with `new` is; an imported one needs version.major checked,
// also when the check is a bare truth test.

#include <Python.h>
#include <dlpack/dlpack.h>
#include <stdlib.h>

static void free_versioned(DLManagedTensorVersioned *self) { free(self); }

DLManagedTensorVersioned *export_block(void *data, int64_t n) {
  void *block = PyMem_Malloc(sizeof(DLManagedTensorVersioned) + sizeof(int64_t));
  if (block == NULL)
    return NULL;
  DLManagedTensorVersioned *managed = (DLManagedTensorVersioned *)block;
  DLTensor *dl = &managed->dl_tensor;
  managed->version.major = DLPACK_MAJOR_VERSION;
  managed->version.minor = DLPACK_MINOR_VERSION;
  managed->flags = 0;
  managed->manager_ctx = NULL;
  managed->deleter = free_versioned;
  dl->data = data;
  dl->ndim = 1;
  dl->shape = (int64_t *)(managed + 1);
  dl->shape[0] = n;
  dl->strides = NULL;
  dl->byte_offset = 0;
  return managed;
}

int64_t import_unchecked(PyObject *capsule) {
  DLManagedTensorVersioned *mt = (DLManagedTensorVersioned *)PyCapsule_GetPointer(
      capsule, "dltensor_versioned");
  if (!mt)
    return -1;
  return mt->dl_tensor.ndim;
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'dl_tensor' of a versioned tensor used without checking 'version.major' on this path [interop-dlpack-version]
}

int64_t import_checked(PyObject *capsule) {
  DLManagedTensorVersioned *mt = (DLManagedTensorVersioned *)PyCapsule_GetPointer(
      capsule, "dltensor_versioned");
  if (!mt || mt->version.major != DLPACK_MAJOR_VERSION)
    return -1;
  return mt->dl_tensor.ndim;
}

/* A block from elsewhere is not this function's tensor. */
DLManagedTensorVersioned *lookup(void);
int64_t import_foreign_block(void) {
  void *block = lookup();
  DLManagedTensorVersioned *mt = (DLManagedTensorVersioned *)block;
  return mt->dl_tensor.ndim;
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'dl_tensor' of a versioned tensor used without checking 'version.major' on this path [interop-dlpack-version]
}

/* A context block the function allocated holds the tensor by value (with
   what the deleter frees, or a union of the two ABIs): the tensor in it is
   the function's own too. */
typedef struct {
  DLManagedTensorVersioned managed;
  int64_t shape[4];
} export_ctx;
int fill_tensor(DLTensor *out);
static void free_ctx(DLManagedTensorVersioned *self) { free(self->manager_ctx); }

DLManagedTensorVersioned *export_in_context(void) {
  export_ctx *ctx = (export_ctx *)malloc(sizeof(*ctx));
  if (!ctx)
    return NULL;
  DLTensor *dl = &ctx->managed.dl_tensor;
  if (fill_tensor(dl) != 0) {
    free(ctx);
    return NULL;
  }
  ctx->managed.version.major = DLPACK_MAJOR_VERSION;
  ctx->managed.manager_ctx = ctx;
  ctx->managed.deleter = free_ctx;
  return &ctx->managed;
}

typedef struct {
  union {
    DLManagedTensorVersioned versioned;
    DLManagedTensor legacy;
  } managed;
  int is_versioned;
} either_ctx;

void *export_either(int versioned) {
  either_ctx *ctx = (either_ctx *)PyMem_Malloc(sizeof(*ctx));
  if (!ctx)
    return NULL;
  ctx->is_versioned = versioned;
  DLTensor *dl = versioned ? &ctx->managed.versioned.dl_tensor
                           : &ctx->managed.legacy.dl_tensor;
  if (fill_tensor(dl) != 0) {
    PyMem_Free(ctx);
    return NULL;
  }
  return versioned ? (void *)&ctx->managed.versioned
                   : (void *)&ctx->managed.legacy;
}

/* A block that only points at an imported tensor does not make it the
   function's own. */
typedef struct {
  DLManagedTensorVersioned *imported;
} import_ctx;

int64_t import_into_context(PyObject *capsule) {
  import_ctx *ctx = (import_ctx *)malloc(sizeof(*ctx));
  if (!ctx)
    return -1;
  ctx->imported = (DLManagedTensorVersioned *)PyCapsule_GetPointer(
      capsule, "dltensor_versioned");
  if (!ctx->imported)
    return -1;
  return ctx->imported->dl_tensor.ndim;
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: 'dl_tensor' of a versioned tensor used without checking 'version.major' on this path [interop-dlpack-version]
}
