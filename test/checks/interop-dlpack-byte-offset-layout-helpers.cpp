// RUN: %check_interop %s interop-dlpack-byte-offset %t -- -- -std=c++17 \
// RUN:   -I%S/Inputs/dlpack/v1

// `data` handed to a call beside shape/stride arrays that a same-TU helper
// filled from the same tensor: the call wraps the tensor, so `data` is taken
// as the first element (MatX's make_tensor(tensor,
// const DLManagedTensor)). What fills the arrays is read from the
// helper's body: a helper without a body here, one that fills them from
// something else, or arrays filled from another tensor, make no wrapping.

#include <dlpack/dlpack.h>

struct View {
  float *p;
};
View make_view(float *first, const long *shape, const long *strides,
               bool owning);
void read_layout_elsewhere(const DLTensor &dt, long *shape, long *strides);

void read_layout(const DLTensor &dt, long *shape, long *strides) {
  for (int i = 0; i < dt.ndim; ++i) {
    shape[i] = dt.shape[i];
    strides[i] = dt.strides ? dt.strides[i] : 1;
  }
}
void fill_ones(const DLTensor &dt, long *shape, long *strides) {
  for (int i = 0; i < 2; ++i)
    shape[i] = strides[i] = 1;
}

View borrow(const DLManagedTensor mt) {
  const DLTensor &dt = mt.dl_tensor;
  long shape[2], strides[2];
  read_layout(dt, shape, strides);
  return make_view(reinterpret_cast<float *>(dt.data), shape, strides, false);
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: 'data' used as the address of the first element without adding 'byte_offset' [interop-dlpack-byte-offset]
}

// Through a pointer to the tensor.
View borrowPtr(const DLTensor *t) {
  long shape[2], strides[2];
  read_layout(*t, shape, strides);
  return make_view(static_cast<float *>(t->data), shape, strides, false);
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: 'data' used as the address of the first element without adding 'byte_offset' [interop-dlpack-byte-offset]
}

// Fixed: the offset is added.
View borrowFixed(const DLManagedTensor mt) {
  const DLTensor &dt = mt.dl_tensor;
  long shape[2], strides[2];
  read_layout(dt, shape, strides);
  return make_view(reinterpret_cast<float *>(static_cast<char *>(dt.data) +
                                             dt.byte_offset),
                   shape, strides, false);
}

// Not seen to be filled from the tensor: no wrapping, no finding.
View borrowElsewhere(const DLTensor &dt) {
  long shape[2], strides[2];
  read_layout_elsewhere(dt, shape, strides);
  return make_view(static_cast<float *>(dt.data), shape, strides, false);
}
View borrowOnes(const DLTensor &dt) {
  long shape[2], strides[2];
  fill_ones(dt, shape, strides);
  return make_view(static_cast<float *>(dt.data), shape, strides, false);
}
View borrowOther(const DLTensor &dt, const DLTensor &other) {
  long shape[2], strides[2];
  read_layout(other, shape, strides);
  return make_view(static_cast<float *>(dt.data), shape, strides, false);
}
