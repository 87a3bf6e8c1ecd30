// RUN: %check_interop %s interop-dlpack-byte-offset %t -- -- -std=c++17 -I%S/Inputs/dlpack/v1

// The note's remedy as a fix-it (applied with --fix-notes): the read of
// `data` becomes the address of the first element, of the same type, so
// the code around it still compiles; a read inside a macro is left alone.

#include <dlpack/dlpack.h>
#include <string.h>

void copy_out(const DLTensor *t, void *dst, size_t bytes) {
  memcpy(dst, t->data, bytes);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'data' used as the address of the first element without adding 'byte_offset' [interop-dlpack-byte-offset]
  // CHECK-MESSAGES: :[[@LINE-2]]:15: note: add 'byte_offset' (in bytes) to 'data', or reject tensors whose 'byte_offset' is not zero
  // CHECK-FIXES: {{^}}  memcpy(dst, (void *)((char *)t->data + t->byte_offset), bytes);{{$}}
}

float first(const DLManagedTensor &mt) {
  const float *p = static_cast<const float *>(mt.dl_tensor.data);
  // CHECK-FIXES: {{^}}  const float *p = static_cast<const float *>((void *)((char *)mt.dl_tensor.data + mt.dl_tensor.byte_offset));{{$}}
  return p[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'data' used as the address of the first element without adding 'byte_offset' [interop-dlpack-byte-offset]
  // CHECK-MESSAGES: :[[@LINE-4]]:47: note: 'data' read here
  // CHECK-MESSAGES: :[[@LINE-3]]:10: note: add 'byte_offset' (in bytes) to 'data', or reject tensors whose 'byte_offset' is not zero
}

#define DATA_OF(t) ((t)->data)
void copy_macro(const DLTensor *t, void *dst, size_t bytes) {
  memcpy(dst, DATA_OF(t), bytes);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'data' used as the address of the first element without adding 'byte_offset' [interop-dlpack-byte-offset]
  // CHECK-MESSAGES: :[[@LINE-2]]:15: note: add 'byte_offset' (in bytes) to 'data', or reject tensors whose 'byte_offset' is not zero
  // CHECK-FIXES: {{^}}  memcpy(dst, DATA_OF(t), bytes);{{$}}
}
