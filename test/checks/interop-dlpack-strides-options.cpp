// RUN: %check_interop %s interop-dlpack-strides %t -- \
// RUN:   -config="{CheckOptions: {interop-dlpack-strides.CheckCompactUse: false}}" \
// RUN:   -- -std=c++17 -I%S/Inputs/dlpack/v1
// RUN: %check_interop -check-suffix=CONSUMERS %s interop-dlpack-strides %t -- \
// RUN:   -config="{CheckOptions: {interop-dlpack-strides.CompactConsumers: '::mylib::view_contiguous$'}}" \
// RUN:   -- -std=c++17 -I%S/Inputs/dlpack/v1

// CheckCompactUse: false keeps only the NULL-dereference findings.
// CompactConsumers names the calls that read data as one compact block.

#include <dlpack/dlpack.h>
#include <string.h>

namespace mylib {
struct View {};
View view_contiguous(const void *first, size_t bytes);
} // namespace mylib

int64_t deref(const DLTensor *t) { return t->strides[0]; }
// CHECK-MESSAGES: :[[@LINE-1]]:43: warning: 'strides' dereferenced without a NULL check on this path [interop-dlpack-strides]
// CHECK-MESSAGES-CONSUMERS: :[[@LINE-2]]:43: warning: 'strides' dereferenced without a NULL check on this path [interop-dlpack-strides]

mylib::View view(const DLTensor *t, size_t bytes) {
  return mylib::view_contiguous(
      static_cast<const char *>(t->data) + t->byte_offset, bytes);
  // CHECK-MESSAGES-CONSUMERS: :[[@LINE-1]]:7: warning: tensor data passed to 'view_contiguous' as one compact block, but its 'strides' are never checked [interop-dlpack-strides]
}

void copy(const DLTensor *t, void *dst, size_t bytes) {
  memcpy(dst, static_cast<const char *>(t->data) + t->byte_offset, bytes);
  // CHECK-MESSAGES-CONSUMERS: :[[@LINE-1]]:15: warning: tensor data copied as one compact block, but its 'strides' are never checked [interop-dlpack-strides]
}
