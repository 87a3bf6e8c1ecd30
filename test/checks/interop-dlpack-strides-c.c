// RUN: %check_interop %s interop-dlpack-strides %t -- -- -I%S/Inputs/dlpack/v1

// C tests a pointer for truth with no bool conversion (`if (t->strides)`,
// `!t->strides`, `t->strides && ...`, `t->strides ? ... : ...`). Each is a
// NULL test, as its C++ spelling is. A function that fills the strides
// array (a producer laying out the block it allocated) is not a consumer.

#include <dlpack/dlpack.h>
#include <stdlib.h>

int64_t first_stride_unchecked(const DLTensor *t) {
  return t->strides[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'strides' dereferenced without a NULL check on this path [interop-dlpack-strides]
}

int64_t first_stride_if(const DLTensor *t) {
  if (t->strides)
    return t->strides[0];
  return 1;
}

int64_t first_stride_early_return(const DLTensor *t) {
  if (!t->strides)
    return 1;
  return t->strides[0];
}

int unit_stride_and(const DLTensor *t) {
  return t->strides && t->strides[0] == 1;
}

int64_t first_stride_ternary(const DLTensor *t) {
  return t->strides ? t->strides[0] : 1;
}

int64_t last_stride_loop(const DLTensor *t) {
  int64_t s = 1;
  const int64_t *p = t->strides;
  int i = 0;
  while (p && i < t->ndim)
    s = p[i++];
  return s;
}

/* The test on the wrong branch still leaves the read unguarded. */
int64_t first_stride_inverted(const DLTensor *t) {
  if (t->strides)
    return 1;
  return t->strides[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'strides' dereferenced without a NULL check on this path [interop-dlpack-strides]
}

/* A producer filling the shape and strides of the block it allocated. */
static void fill_layout(DLTensor *dl, const int64_t *shape, int ndim) {
  for (int i = 0; i < ndim; ++i) {
    dl->shape[i] = shape[i];
    dl->strides[i] = 1;
  }
}

DLManagedTensor *make(void *data, const int64_t *shape, int ndim) {
  void *block = malloc(sizeof(DLManagedTensor) + 2 * sizeof(int64_t) * ndim);
  if (!block)
    return NULL;
  DLManagedTensor *mt = (DLManagedTensor *)block;
  mt->dl_tensor.data = data;
  mt->dl_tensor.ndim = ndim;
  mt->dl_tensor.shape = (int64_t *)(mt + 1);
  mt->dl_tensor.strides = mt->dl_tensor.shape + ndim;
  fill_layout(&mt->dl_tensor, shape, ndim);
  return mt;
}
