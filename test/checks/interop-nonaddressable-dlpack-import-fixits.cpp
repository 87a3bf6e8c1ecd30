// RUN: %check_interop %s interop-nonaddressable-dlpack-import %t -- -- -std=c++17 -I%S/Inputs

// The origin note's remedy as a fix-it (applied with --fix-notes): a device
// taken from the list of every process's devices is taken from this
// process's list instead, when the API declares a twin with the same
// parameters and result beside it (interop::local_devices for
// interop::devices). Indices into the two lists differ in a multi-process
// job, so this changes behaviour: a note fix-it, never applied by --fix.

#include "interop/interop.h"

#define ALL_DEVICES interop::devices()

void by_index(DLManagedTensorVersioned *t) {
  auto r = interop::from_dlpack(t, interop::devices()[0]);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'from_dlpack' imports onto device 'interop::devices()[0]', taken from a list of every process's devices, with no addressability check on this path [interop-nonaddressable-dlpack-import]
  // CHECK-MESSAGES: :[[@LINE-2]]:36: note: the device comes from 'devices', which can return devices of other processes
  // CHECK-FIXES: {{^}}  auto r = interop::from_dlpack(t, interop::local_devices()[0]);{{$}}
}

void by_platform(DLManagedTensorVersioned *t) {
  using namespace interop;
  std::vector<Device> cpus = devices(Platform::kCpu);
  // CHECK-FIXES: {{^}}  std::vector<Device> cpus = local_devices(Platform::kCpu);{{$}}
  auto r = from_dlpack(t, cpus.at(0));
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'from_dlpack' imports onto device 'cpus.at(0)', taken from a list of every process's devices
  // CHECK-MESSAGES: :[[@LINE-4]]:30: note: the device comes from 'devices'
}

// No twin of the same signature: device_by_id(platform, id) and
// local_device_for(DLDevice) are not interchangeable.
void by_id(DLManagedTensorVersioned *t) {
  auto d = interop::device_by_id(interop::Platform::kCpu, 5);
  // CHECK-FIXES: {{^}}  auto d = interop::device_by_id(interop::Platform::kCpu, 5);{{$}}
  if (!d.ok())
    return;
  auto r = interop::from_dlpack(t, *d);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'from_dlpack' imports onto device '*d', taken from a list of every process's devices
  // CHECK-MESSAGES: :[[@LINE-6]]:12: note: the device comes from 'device_by_id'
}

// A sharding's own device list has no twin, and a macro is left alone.
void sharding(DLManagedTensorVersioned *t, const interop::Array &a) {
  auto r = interop::from_dlpack(t, a.sharding().devices()[0]);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'from_dlpack' imports onto device 'a.sharding().devices()[0]'
  // CHECK-FIXES: {{^}}  auto r = interop::from_dlpack(t, a.sharding().devices()[0]);{{$}}
}
void through_macro(DLManagedTensorVersioned *t) {
  auto r = interop::from_dlpack(t, ALL_DEVICES[1]);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'from_dlpack' imports onto device
  // CHECK-FIXES: {{^}}  auto r = interop::from_dlpack(t, ALL_DEVICES[1]);{{$}}
}
