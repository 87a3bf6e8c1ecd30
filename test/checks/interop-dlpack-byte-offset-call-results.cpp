// RUN: %check_interop %s interop-dlpack-byte-offset %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// A tensor reached through a call's result used inline (`lookup(id)->data`,
// a runtime handle's `operator->`) is judged as it is once stored in a
// local; a tensor a call given a device allocates (`NDArray::Empty(n,
// device)`) starts at its data, as every allocation does.

#include <dlpack/dlpack.h>

const DLTensor *lookupTensor(int id);

/// A runtime's array: allocated on a device, its DLTensor through `->`.
struct NDArray {
  const DLTensor *operator->() const;
  static NDArray Empty(long n, DLDevice device);
};

// --- Safe ------------------------------------------------------------------

float offset_added(const NDArray &a) {
  return *reinterpret_cast<float *>(static_cast<char *>(a->data) +
                                    a->byte_offset);
}

void stored_into_an_allocation(DLDevice device, float f) {
  NDArray x = NDArray::Empty(1, device);
  if (device.device_type == kDLCPU)
    static_cast<float *>(x->data)[0] = f;
}

// --- Findings --------------------------------------------------------------

float read_from_a_call(int id) {
  return static_cast<float *>(lookupTensor(id)->data)[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'data' used as the address of the first element without adding 'byte_offset' [interop-dlpack-byte-offset]
  // CHECK-MESSAGES: :[[@LINE-2]]:31: note: 'data' read here
}

float read_through_a_handle(const NDArray &a) {
  return static_cast<float *>(a->data)[1];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'data' used as the address of the first element without adding 'byte_offset'
  // CHECK-MESSAGES: :[[@LINE-2]]:31: note: 'data' read here
}
