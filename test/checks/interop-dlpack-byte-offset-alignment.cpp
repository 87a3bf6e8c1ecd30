// RUN: %check_interop %s interop-dlpack-byte-offset %t -- -- -std=c++17 -I%S/Inputs/dlpack/v1

// The alignment of the first element is the alignment of data +
// byte_offset: testing `data` alone tests the allocation.

#include <dlpack/dlpack.h>
#include <stdint.h>

constexpr uintptr_t kAlign = 64;
struct invalid_argument {
  explicit invalid_argument(const char *);
};

void check_external(const DLTensor *ext) {
  if (ext->device.device_type != kDLCPU)
    throw invalid_argument("device");
  if (reinterpret_cast<uintptr_t>(ext->data) % kAlign != 0)
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: 'data' used as the address of the first element without adding 'byte_offset' [interop-dlpack-byte-offset]
    // CHECK-MESSAGES: :[[@LINE-2]]:35: note: 'data' read here
    // CHECK-MESSAGES: :[[@LINE-3]]:7: note: add 'byte_offset' (in bytes) to 'data', or reject tensors whose 'byte_offset' is not zero
    throw invalid_argument("misaligned input");
}

bool aligned_mask(const DLManagedTensor *mt) {
  uintptr_t base = reinterpret_cast<uintptr_t>(mt->dl_tensor.data);
  return (base & (kAlign - 1)) == 0;
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'data' used as the address of the first element without adding 'byte_offset' [interop-dlpack-byte-offset]
  // CHECK-MESSAGES: :[[@LINE-3]]:48: note: 'data' read here
  // CHECK-MESSAGES: :[[@LINE-3]]:11: note: add 'byte_offset' (in bytes) to 'data', or reject tensors whose 'byte_offset' is not zero
}

// The fixes: the first element's address, or byte_offset rejected first.
void check_external_fixed(const DLTensor *ext) {
  uintptr_t first = reinterpret_cast<uintptr_t>(ext->data) + ext->byte_offset;
  if (first % kAlign != 0)
    throw invalid_argument("misaligned input");
}

void check_external_no_offset(const DLTensor *ext) {
  if (ext->byte_offset != 0)
    throw invalid_argument("byte_offset");
  if (reinterpret_cast<uintptr_t>(ext->data) % kAlign != 0)
    throw invalid_argument("misaligned input");
}
