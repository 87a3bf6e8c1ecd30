// RUN: %check_interop %s interop-sharded-dlpack-export,interop-nonaddressable-dlpack-import %t -- -- -std=c++17 -I%S/Inputs

// A std::optional of an array or a device is
// a range of at most one element. Default-constructed, reset or given
// std::nullopt it holds nothing, so `*o` proves whatever is asked (reading
// an empty optional is undefined, not a DLPack problem); given a value it
// holds that value's facts. `o ? *o : a` is then proven where both are:
// the copy exists only when it was needed.

#include "interop/interop.h"

using namespace interop;

// --- Correct ------------------------------------------------------------

void copy_only_when_needed(const Array &a, const Device &d) {
  std::optional<Array> copy;
  if (!a.is_single_device()) {
    Result<Array> g = gather(a, d);
    if (!g.ok())
      return;
    copy = *g;
  }
  const Array &payload = copy ? *copy : a;
  auto t = to_dlpack(payload);
}

void emplaced_copy(const Array &a, const Device &d) {
  std::optional<Array> copy;
  if (!a.is_single_device())
    copy.emplace(*gather(a, d));
  const Array &payload = copy.has_value() ? *copy : a;
  auto t = to_dlpack(payload);
}

void tested_then_used(const Array &a, const Device &d) {
  std::optional<Array> copy;
  if (!a.is_single_device())
    copy = *gather(a, d);
  if (copy)
    auto t = to_dlpack(*copy);
}

void constructed_from_a_proven_array(const Array &a) {
  if (!a.is_single_device())
    return;
  std::optional<Array> held = a;
  auto t = to_dlpack(*held);
}

void local_device_or_none(const std::vector<Device> &all, size_t i,
                          DLManagedTensorVersioned *t) {
  std::optional<Device> target = std::nullopt;
  if (all[i].is_addressable())
    target = all[i];
  if (target)
    auto r = from_dlpack(t, *target);
}

// --- Bugs ---------------------------------------------------------------

// The copy is made under the wrong test: on the path where `a` is sharded,
// `payload` is `a` itself.
void copy_under_the_wrong_test(const Array &a, const Device &d) {
  std::optional<Array> copy;
  if (a.is_single_device())
    copy = *gather(a, d);
  const Array &payload = copy ? *copy : a;
  auto t = to_dlpack(payload);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to_dlpack' needs an array on a single device, but 'payload' is not proven to be single-device on every path to this call [interop-sharded-dlpack-export]
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: check 'is_single_device()' first, or copy the array onto one device with 'gather'
}

// The arms swapped: where the copy exists, `a` is the sharded original.
void arms_swapped(const Array &a, const Device &d) {
  std::optional<Array> copy;
  if (!a.is_single_device())
    copy = *gather(a, d);
  const Array &payload = copy ? a : *copy;
  auto t = to_dlpack(payload);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to_dlpack' needs an array on a single device, but 'payload' is not proven to be single-device on every path to this call [interop-sharded-dlpack-export]
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: check 'is_single_device()' first, or copy the array onto one device with 'gather'
}

// A value put in after the check replaces what was proven.
void replaced_after_the_check(const Array &a, const Array &b) {
  if (!a.is_single_device())
    return;
  std::optional<Array> held = a;
  held = b;
  auto t = to_dlpack(*held);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to_dlpack' needs an array on a single device, but '*held' is not proven to be single-device on every path to this call [interop-sharded-dlpack-export]
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: check 'is_single_device()' first, or copy the array onto one device with 'gather'
}

void any_device_of_every_process(const std::vector<Device> &local,
                                 DLManagedTensorVersioned *t) {
  std::optional<Device> target;
  target = devices()[0];
  auto r = from_dlpack(t, *target);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'from_dlpack' imports onto device '*target', taken from a list of every process's devices, with no addressability check on this path [interop-nonaddressable-dlpack-import]
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: the device comes from 'devices', which can return devices of other processes
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: check 'is_addressable()' first, or take the device from 'local_devices()'
}
