// RUN: %check_interop %s interop-dlpack-byte-offset %t -- -- -std=c++17 -I%S/Inputs/dlpack/v1
// RUN: %check_interop -check-suffix=C %s interop-dlpack-byte-offset %t -- -- -xc -std=c11 -I%S/Inputs/dlpack/v1

// A tensor record copied whole into a local after the local was declared
// (`c = *t;`, `m.dl_tensor = *t;`) holds the copied tensor, as a copy made
// in the declaration does: an import's `data` read through it is judged.
// Only what the function writes into the copy afterwards is its own.

#include <dlpack/dlpack.h>
#include <string.h>

float declared_copy(const DLTensor *t) {
  DLTensor c = *t;
  return ((const float *)c.data)[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'data' used as the address of the first element without adding 'byte_offset' [interop-dlpack-byte-offset]
  // CHECK-MESSAGES-C: :[[@LINE-2]]:10: warning: 'data' used as the address of the first element without adding 'byte_offset' [interop-dlpack-byte-offset]
}

float assigned_copy(const DLManagedTensor *mt) {
  DLTensor c;
  c = mt->dl_tensor;
  return ((const float *)c.data)[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'data' used as the address of the first element without adding 'byte_offset' [interop-dlpack-byte-offset]
  // CHECK-MESSAGES-C: :[[@LINE-2]]:10: warning: 'data' used as the address of the first element without adding 'byte_offset' [interop-dlpack-byte-offset]
}

// Into a member of a record the function made (and zeroed) itself.
float copied_into_member(const DLTensor *t) {
  DLManagedTensor m;
  memset(&m, 0, sizeof m);
  m.dl_tensor = *t;
  return ((const float *)m.dl_tensor.data)[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'data' used as the address of the first element without adding 'byte_offset' [interop-dlpack-byte-offset]
  // CHECK-MESSAGES-C: :[[@LINE-2]]:10: warning: 'data' used as the address of the first element without adding 'byte_offset' [interop-dlpack-byte-offset]
}

static float storage[4];

// A copy of the function's own tensor is its own.
float copy_of_own(void) {
  DLTensor own;
  own.data = storage;
  own.byte_offset = 0;
  DLTensor c;
  c = own;
  return ((const float *)c.data)[0];
}

// `data` written after the copy is the function's own.
float rewritten_after_copy(const DLTensor *t) {
  DLTensor c;
  c = *t;
  c.data = storage;
  return ((const float *)c.data)[0];
}

// The copied tensor's byte_offset applied through the copy.
float applied_through_copy(const DLTensor *t) {
  DLTensor c;
  c = *t;
  return *(const float *)((const char *)c.data + c.byte_offset);
}
