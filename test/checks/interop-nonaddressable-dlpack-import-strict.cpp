// RUN: %check_interop %s interop-nonaddressable-dlpack-import %t -- \
// RUN:   -config="{CheckOptions: {interop-nonaddressable-dlpack-import.Strict: true}}" \
// RUN:   -- -std=c++17 -I%S/Inputs

#include "interop/interop.h"

using namespace interop;

Device pick_device();

// With Strict, any device not proven addressable is flagged.
void parameter(DLManagedTensorVersioned *t, const Device &d) {
  auto r = from_dlpack(t, d);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'from_dlpack' imports onto device 'd', which is not proven to be addressable by this process [interop-nonaddressable-dlpack-import]
  // CHECK-MESSAGES: :[[@LINE-3]]:59: note: 'd' is a parameter: nothing in this function proves it is addressable by this process
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: check 'is_addressable()' first, or take the device from 'local_devices()'
}

void unknown_producer(DLManagedTensor *t) {
  auto r = from_dlpack(t, pick_device());
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'from_dlpack' imports onto device 'pick_device()', which is not proven to be addressable
  // CHECK-MESSAGES: :[[@LINE-2]]:27: note: the value comes from 'pick_device'; nothing proves it is addressable by this process
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: check 'is_addressable()' first
}

// Global lists keep their own wording.
void global_list(DLManagedTensorVersioned *t) {
  auto r = from_dlpack(t, devices()[3]);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'from_dlpack' imports onto device 'devices()[3]', taken from a list of every process's devices, with no addressability check on this path
  // CHECK-MESSAGES: :[[@LINE-2]]:27: note: the device comes from 'devices'
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: check 'is_addressable()' first
}

// Proven addressable: silent even in Strict mode.
void guarded(DLManagedTensorVersioned *t, const Device &d) {
  if (!d.is_addressable())
    return;
  auto r = from_dlpack(t, d);
}

void local(DLManagedTensorVersioned *t) {
  const std::vector<Device> mine = local_devices();
  auto r = from_dlpack(t, mine.front());
}

void imported_device(DLManagedTensorVersioned *t) {
  auto d = local_device_for(DLDevice{1, 0});
  if (!d.ok())
    return;
  auto r = from_dlpack(t, *d);
}
