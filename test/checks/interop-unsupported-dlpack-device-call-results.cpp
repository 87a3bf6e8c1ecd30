// RUN: %check_interop %s interop-unsupported-dlpack-device %t -- -- -std=c++17
// -I%S/Inputs -I%S/Inputs/dlpack/v1

// A tensor reached through a call's result used inline (`getTensor()->data`,
// `array->data` through a wrapper's `operator->`) is judged as it is once
// stored in a local. An accessor called twice on one object gives the same
// tensor, so a device type tested through one call guards the data read
// through the next. A handle a call given a device returns
// (`NDArray::Empty(shape, device)`) holds a tensor allocated on that device:
// its data is judged by the device passed in.

#include <dlpack/dlpack.h>

const DLTensor *lookupTensor(int id);

/// A runtime's array handle: `operator->` and `get()` give its DLTensor.
struct ArrayHandle {
  const DLTensor *operator->() const;
  const DLTensor *get() const;
};
struct Constant {
  ArrayHandle value;
};

/// A runtime's array allocated on a device.
struct NDArray {
  const DLTensor *operator->() const;
  static NDArray Empty(long n, DLDevice device);
};

// --- Safe ------------------------------------------------------------------

float tested_through_the_handle(const ArrayHandle &a) {
  if (a->device.device_type != kDLCPU)
    return 0;
  return static_cast<float *>(a->data)[0];
}

float tested_through_get(const ArrayHandle &a) {
  if (a.get()->device.device_type != kDLCPU &&
      a.get()->device.device_type != kDLCUDAHost)
    return 0;
  return static_cast<float *>(a.get()->data)[0];
}

float tested_through_a_field(const Constant *c) {
  if (c->value->device.device_type != kDLCPU)
    return 0;
  return static_cast<float *>(c->value->data)[0];
}

float tested_in_a_loop(const ArrayHandle &a, int n) {
  float sum = 0;
  for (int i = 0; i < n; ++i) {
    if (a->device.device_type != kDLCPU)
      continue;
    sum += static_cast<float *>(a->data)[i];
  }
  return sum;
}

float tested_on_one_branch(const ArrayHandle &a, bool first) {
  if (!first && a->device.device_type == kDLCPU)
    return static_cast<float *>(a->data)[1];
  return 0;
}

float allocated_on_a_tested_device(DLDevice device, float f) {
  if (device.device_type != kDLCPU)
    return 0;
  NDArray x = NDArray::Empty(1, device);
  static_cast<float *>(x->data)[0] = f;
  return f;
}

void allocated_on_the_host(float f) {
  DLDevice device;
  device.device_type = kDLCPU;
  device.device_id = 0;
  NDArray x = NDArray::Empty(1, device);
  static_cast<float *>(x->data)[0] = f;
}

// A handle assigned (or, before C++17, moved into a local) is the same
// array.
void allocated_then_assigned(DLDevice device, float f, NDArray y) {
  if (device.device_type != kDLCPU)
    return;
  y = NDArray::Empty(1, device);
  static_cast<float *>(y->data)[0] = f;
}

void allocated_then_tested(DLDevice device, float f) {
  NDArray x = NDArray::Empty(1, device);
  if (x->device.device_type != kDLCPU)
    return;
  static_cast<float *>(x->data)[0] = f;
}

// --- Findings --------------------------------------------------------------

float read_through_the_handle(const Constant *c) {
  return static_cast<float *>(c->value->data)[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: data of an imported DLTensor accessed from the host without checking its device type [interop-unsupported-dlpack-device]
  // CHECK-MESSAGES: :[[@LINE-2]]:31: note: 'data' read here
  // CHECK-MESSAGES: :[[@LINE-3]]:10: note: check that device_type is host-accessible
}

void written_through_the_handle(const ArrayHandle &a, float f) {
  static_cast<float *>(a->data)[0] = f;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: data of an imported DLTensor accessed from the host without checking its device type
  // CHECK-MESSAGES: :[[@LINE-2]]:24: note: 'data' read here
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: check that device_type is host-accessible
}

float read_from_a_call(int id) {
  return static_cast<float *>(lookupTensor(id)->data)[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: data of an imported DLTensor accessed from the host without checking its device type
  // CHECK-MESSAGES: :[[@LINE-2]]:31: note: 'data' read here
  // CHECK-MESSAGES: :[[@LINE-3]]:10: note: check that device_type is host-accessible
}

// Two calls of a function that is no accessor are two tensors: the test of
// the first does not guard the second.
float tested_on_another_call(int id) {
  if (lookupTensor(id)->device.device_type != kDLCPU)
    return 0;
  return static_cast<float *>(lookupTensor(id)->data)[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: data of an imported DLTensor accessed from the host without checking its device type
  // CHECK-MESSAGES: :[[@LINE-2]]:31: note: 'data' read here
  // CHECK-MESSAGES: :[[@LINE-3]]:10: note: check that device_type is host-accessible
}

float read_on_the_other_branch(const ArrayHandle &a, bool first) {
  if (first)
    return static_cast<float *>(a->data)[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: data of an imported DLTensor accessed from the host without checking its device type
  // CHECK-MESSAGES: :[[@LINE-2]]:33: note: 'data' read here
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: check that device_type is host-accessible
  if (a->device.device_type != kDLCPU)
    return 0;
  return static_cast<float *>(a->data)[1];
}

// The device a scalar constant is allocated on is the caller's: a host store
// into it writes GPU memory when the caller compiles for CUDA.
void allocated_on_the_given_device(DLDevice device, float f) {
  NDArray x = NDArray::Empty(1, device);
  static_cast<float *>(x->data)[0] = f;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: data of an imported DLTensor accessed from the host without checking its device type
  // CHECK-MESSAGES: :[[@LINE-2]]:24: note: 'data' read here
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: check that device_type is host-accessible
}
