// RUN: %check_interop %s interop-dlpack-byte-offset %t -- \
// RUN:   -config="{CheckOptions: {interop-dlpack-byte-offset.AddressConsumers: '::mylib::wrap_buffer$'}}" \
// RUN:   -- -std=c++17 -I%S/Inputs/dlpack/v1

// AddressConsumers replaces the list of functions that take the address of
// the first element; memcpy-like calls and calls that also pass the
// tensor's layout are recognised whatever the list says.

#include <dlpack/dlpack.h>
#include <string.h>

namespace mylib {
struct Buffer {};
Buffer wrap_buffer(void *first_element, size_t bytes);
Buffer wrap_layout(void *first_element, const int64_t *shape, int ndim);
} // namespace mylib
namespace at {
struct Tensor {};
Tensor from_blob(void *data, size_t bytes);
} // namespace at

mylib::Buffer listed(DLTensor *t, size_t n) {
  return mylib::wrap_buffer(t->data, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: 'data' used as the address of the first element without adding 'byte_offset' [interop-dlpack-byte-offset]
}

mylib::Buffer listed_fixed(DLTensor *t, size_t n) {
  return mylib::wrap_buffer(static_cast<char *>(t->data) + t->byte_offset, n);
}

// Passing the shape with the pointer wraps the tensor, listed or not.
mylib::Buffer layout(DLTensor *t) {
  return mylib::wrap_layout(t->data, t->shape, t->ndim);
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: 'data' used as the address of the first element without adding 'byte_offset' [interop-dlpack-byte-offset]
}

void copy(DLTensor *t, void *dst, size_t n) {
  memcpy(dst, t->data, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'data' used as the address of the first element without adding 'byte_offset' [interop-dlpack-byte-offset]
}

// No longer listed: at::from_blob without the layout is not recognised.
at::Tensor unlisted(DLTensor *t, size_t n) { return at::from_blob(t->data, n); }
