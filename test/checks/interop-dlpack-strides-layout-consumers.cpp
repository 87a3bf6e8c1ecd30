// RUN: %check_interop %s interop-dlpack-strides,interop-dlpack-byte-offset %t -- -- -std=c++17 -I%S/Inputs/dlpack/v1

// A call that receives a tensor's data together with its shape reads the
// data as that shape from the first element: a view or mdspan made from
// `data` and extents, a project's own copy routine given an element count.
// The shape reaches the call through locals however they were built: a
// count multiplied up from `shape`, an array filled from it element by
// element, an extents object made from that array. Both field checks ask
// the same question of the call, so they agree on it.

#include <dlpack/dlpack.h>

template <class T, unsigned long N> struct fixed_array {
  T v[N];
  T &operator[](unsigned long i) { return v[i]; }
};
template <class T> struct matrix_view {
  matrix_view(T *p, fixed_array<int64_t, 2> extents);
};
void copy_elements(float *dst, const float *src, int64_t count);
void keep(void *p);
void release(void *p);

matrix_view<float> view_of_copy(DLManagedTensor *mt) {
  auto t = mt->dl_tensor;
  fixed_array<int64_t, 2> shape{};
  for (int i = 0; i < t.ndim; ++i)
    shape[i] = t.shape[i];
  return matrix_view<float>{reinterpret_cast<float *>(t.data), shape};
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: 'data' used as the address of the first element without adding 'byte_offset' [interop-dlpack-byte-offset]
  // CHECK-MESSAGES: :[[@LINE-2]]:55: note: 'data' read here
  // CHECK-MESSAGES: :[[@LINE-3]]:29: note: add 'byte_offset' (in bytes) to 'data', or reject tensors whose 'byte_offset' is not zero
  // CHECK-MESSAGES: :[[@LINE-4]]:29: warning: tensor data passed to 'matrix_view' with the tensor's shape, as one compact block, but its 'strides' are never checked [interop-dlpack-strides]
  // CHECK-MESSAGES: :[[@LINE-5]]:55: note: 'data' read here
  // CHECK-MESSAGES: :[[@LINE-6]]:29: note: non-NULL 'strides' may be non-compact (transposed, broadcast, sliced); compare them with the compact strides or reject them
}

void copy_out(const DLTensor *t, float *dst) {
  int64_t count = 1;
  for (int i = 0; i < t->ndim; ++i)
    count *= t->shape[i];
  copy_elements(dst, static_cast<const float *>(t->data), count);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: 'data' used as the address of the first element without adding 'byte_offset' [interop-dlpack-byte-offset]
  // CHECK-MESSAGES: :[[@LINE-2]]:49: note: 'data' read here
  // CHECK-MESSAGES: :[[@LINE-3]]:22: note: add 'byte_offset' (in bytes) to 'data', or reject tensors whose 'byte_offset' is not zero
  // CHECK-MESSAGES: :[[@LINE-4]]:22: warning: tensor data passed to 'copy_elements' with the tensor's shape, as one compact block, but its 'strides' are never checked [interop-dlpack-strides]
  // CHECK-MESSAGES: :[[@LINE-5]]:49: note: 'data' read here
  // CHECK-MESSAGES: :[[@LINE-6]]:22: note: non-NULL 'strides' may be non-compact (transposed, broadcast, sliced); compare them with the compact strides or reject them
}

// Correct: the strides are looked at (a compact tensor required) and
// byte_offset is added.
void copy_out_checked(const DLTensor *t, float *dst) {
  int64_t count = 1, expected = 1;
  for (int i = t->ndim - 1; i >= 0; --i) {
    if (t->strides && t->strides[i] != expected)
      return;
    expected *= t->shape[i];
  }
  for (int i = 0; i < t->ndim; ++i)
    count *= t->shape[i];
  copy_elements(dst,
                reinterpret_cast<const float *>(
                    static_cast<const char *>(t->data) + t->byte_offset),
                count);
}

// No layout passed: the callee's use of the pointer is unknown.
void hand_over(const DLTensor *t) { keep(t->data); }

// The count does not come from the tensor.
void copy_fixed(const DLTensor *t, float *dst, int64_t n) {
  int64_t count = n;
  count *= 2;
  copy_elements(dst, static_cast<const float *>(t->data), count);
}

// Freeing takes the base pointer.
void free_data(DLTensor *t) { release(t->data); }

// A constructor template named by its class alone (its arguments would
// spell the lambda's type, and that spells a file path).
template <class T> struct owning_view {
  template <class D> owning_view(T *p, int64_t count, D release) {
    (void)p, (void)count, (void)release;
  }
};
owning_view<float> view_owning(DLManagedTensor *mt) {
  DLTensor &t = mt->dl_tensor;
  return owning_view<float>(static_cast<float *>(t.data), t.shape[0],
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: 'data' used as the address of the first element without adding 'byte_offset' [interop-dlpack-byte-offset]
  // CHECK-MESSAGES: :[[@LINE-2]]:50: note: 'data' read here
  // CHECK-MESSAGES: :[[@LINE-3]]:29: note: add 'byte_offset' (in bytes) to 'data', or reject tensors whose 'byte_offset' is not zero
  // CHECK-MESSAGES: :[[@LINE-4]]:29: warning: tensor data passed to 'owning_view' with the tensor's shape, as one compact block, but its 'strides' are never checked [interop-dlpack-strides]
  // CHECK-MESSAGES: :[[@LINE-5]]:50: note: 'data' read here
  // CHECK-MESSAGES: :[[@LINE-6]]:29: note: non-NULL 'strides' may be non-compact (transposed, broadcast, sliced); compare them with the compact strides or reject them
                            [mt](float *) { mt->deleter(mt); });
}

// The byte count computed by a helper of this file from the tensor it is
// passed (every return of its body is made from `shape` and `dtype`) is the
// shape too: the project's own copy routine reads a compact block of it
// (FastGC-icecake's put_dltensor_to_device_memory, before it read strides).
unsigned long bytes_of(const DLTensor *t) {
  unsigned long size = 1;
  for (int i = 0; i < t->ndim; ++i)
    size *= t->shape[i];
  return size * ((t->dtype.bits * t->dtype.lanes + 7) / 8);
}
int device_id_of(const DLTensor *t) { return t->device.device_id; }
unsigned long bytes_elsewhere(const DLTensor *t);
void write_block(const char *meta, unsigned long meta_len, const char *raw,
                 unsigned long raw_len);

void store_compact(DLManagedTensor *mt) {
  unsigned long n = bytes_of(&mt->dl_tensor);
  write_block(nullptr, 0, static_cast<const char *>(mt->dl_tensor.data), n);
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: 'data' used as the address of the first element without adding 'byte_offset' [interop-dlpack-byte-offset]
  // CHECK-MESSAGES: :[[@LINE-2]]:27: warning: tensor data passed to 'write_block' with the tensor's shape, as one compact block, but its 'strides' are never checked [interop-dlpack-strides]
  mt->deleter(mt);
}

// A helper that returns something else of the tensor, or whose body is not
// in this file, says nothing of the shape.
void store_tagged(DLManagedTensor *mt) {
  write_block(nullptr, 0, static_cast<const char *>(mt->dl_tensor.data),
              device_id_of(&mt->dl_tensor));
  write_block(nullptr, 0, static_cast<const char *>(mt->dl_tensor.data),
              bytes_elsewhere(&mt->dl_tensor));
  mt->deleter(mt);
}
