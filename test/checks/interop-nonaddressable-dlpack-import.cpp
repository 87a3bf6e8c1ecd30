// RUN: %check_interop %s interop-nonaddressable-dlpack-import %t -- -- -std=c++17 -I%S/Inputs

#include "interop/interop.h"

using namespace interop;

Device pick_device();
bool flag();

// jaxlib's "DLPack is only supported for devices addressable by the current
// process": a device picked from every process's devices.
void global_list_index(DLManagedTensorVersioned *t) {
  auto r = from_dlpack(t, devices()[3]);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'from_dlpack' imports onto device 'devices()[3]', taken from a list of every process's devices, with no addressability check on this path [interop-nonaddressable-dlpack-import]
  // CHECK-MESSAGES: :[[@LINE-2]]:27: note: the device comes from 'devices', which can return devices of other processes
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: check 'is_addressable()' first, or take the device from 'local_devices()'
}

void global_list_variable(DLManagedTensor *t) {
  std::vector<Device> all = devices(Platform::kCpu);
  const Device &d = all.at(1);
  auto r = from_dlpack(t, d);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'from_dlpack' imports onto device 'd', taken from a list of every process's devices
  // CHECK-MESSAGES: :[[@LINE-4]]:29: note: the device comes from 'devices'
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: check 'is_addressable()' first
}

void global_list_loop(DLManagedTensorVersioned *t) {
  for (const Device &d : devices()) {
    auto r = from_dlpack(t, d);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'from_dlpack' imports onto device 'd', taken from a list of every process's devices
    // CHECK-MESSAGES: :[[@LINE-3]]:26: note: the device comes from 'devices'
    // CHECK-MESSAGES: :[[@LINE-3]]:14: note: check 'is_addressable()' first
  }
}

void lookup_by_id(DLManagedTensorVersioned *t) {
  auto d = device_by_id(Platform::kCpu, 5);
  if (!d.ok())
    return;
  auto r = from_dlpack(t, *d);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'from_dlpack' imports onto device '*d', taken from a list of every process's devices
  // CHECK-MESSAGES: :[[@LINE-5]]:12: note: the device comes from 'device_by_id'
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: check 'is_addressable()' first
}

void sharding_devices(DLManagedTensorVersioned *t, const Array &a) {
  auto r = from_dlpack(t, a.sharding().devices()[0]);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'from_dlpack' imports onto device 'a.sharding().devices()[0]', taken from a list of every process's devices
  // CHECK-MESSAGES: :[[@LINE-2]]:27: note: the device comes from 'devices'
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: check 'is_addressable()' first
}

// Proven non-addressable on this path: the call always fails.
void known_remote(DLManagedTensorVersioned *t, const Device &d) {
  if (d.is_addressable())
    return;
  auto r = from_dlpack(t, d);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'from_dlpack' imports onto device 'd', which is not addressable by this process on this path; the call will always fail
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: check 'is_addressable()' first, or take the device from 'local_devices()'
}

// A guard on one path only proves nothing.
void guarded_on_one_path(DLManagedTensorVersioned *t) {
  Device d = devices()[2];
  if (flag() && !d.is_addressable())
    return;
  auto r = from_dlpack(t, d);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'from_dlpack' imports onto device 'd', taken from a list
  // CHECK-MESSAGES: :[[@LINE-5]]:14: note: the device comes from 'devices'
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: check 'is_addressable()' first
}

// A guard on one element says nothing about another.
void guard_on_other_element(DLManagedTensorVersioned *t) {
  std::vector<Device> all = devices();
  if (!all[0].is_addressable())
    return;
  auto r = from_dlpack(t, all[1]);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'from_dlpack' imports onto device 'all[1]', taken from a list
  // CHECK-MESSAGES: :[[@LINE-5]]:29: note: the device comes from 'devices'
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: check 'is_addressable()' first
}

// Global on one path is enough.
void global_on_some_path(DLManagedTensorVersioned *t) {
  Device d = local_devices()[0];
  if (flag())
    d = devices()[7];
  auto r = from_dlpack(t, d);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'from_dlpack' imports onto device 'd', taken from a list
  // CHECK-MESSAGES: :[[@LINE-3]]:9: note: the device comes from 'devices'
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: check 'is_addressable()' first
}

// A device chosen by a conditional may be either operand.
void chosen_by_conditional(DLManagedTensorVersioned *t, int id) {
  auto d = device_by_id(Platform::kCpu, id);
  auto r = from_dlpack(t, d.ok() ? *d : local_devices()[0]);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'from_dlpack' imports onto device 'd.ok() ? *d : local_devices()[0]', taken from a list
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: the device comes from 'device_by_id'
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: check 'is_addressable()' first
}

// --- Safe ------------------------------------------------------------------

void both_operands_checked(DLManagedTensorVersioned *t, const Device &a,
                           const Device &b) {
  if (!a.is_addressable() || !b.is_addressable())
    return;
  auto r = from_dlpack(t, flag() ? a : b);
}

void local_device(DLManagedTensorVersioned *t) {
  auto r = from_dlpack(t, local_devices()[0]);
  for (const Device &d : local_devices(Platform::kCpu))
    auto r2 = from_dlpack(t, d);
  auto d = local_device_for(DLDevice{1, 0});
  if (d.ok())
    auto r3 = from_dlpack(t, d.value());
}

void checked_first(DLManagedTensorVersioned *t) {
  Device d = devices()[3];
  if (!d.is_addressable())
    return;
  auto r = from_dlpack(t, d);
}

void checked_in_loop(DLManagedTensorVersioned *t) {
  for (const Device &d : devices()) {
    bool mine = d.is_addressable();
    if (!mine)
      continue;
    auto r = from_dlpack(t, d);
  }
}

void checked_with_and(DLManagedTensorVersioned *t, const Array &a) {
  const Device &d = a.sharding().devices()[0];
  if (d.is_addressable() && d.platform() == Platform::kCpu)
    auto r = from_dlpack(t, d);
}

void reassigned_to_local(DLManagedTensorVersioned *t) {
  Device d = devices()[1];
  d = local_devices()[0];
  auto r = from_dlpack(t, d);
}

// Without Strict, devices of unknown provenance are trusted.
void parameter(DLManagedTensorVersioned *t, const Device &d) {
  auto r = from_dlpack(t, d);
  auto r2 = from_dlpack(t, pick_device());
}

// Imports with no target device pick a local device themselves.
void no_target(DLManagedTensorVersioned *t) { auto r = from_dlpack(t); }
