// RUN: %check_interop %s interop-sharded-dlpack-export,interop-sharded-cuda-array-interface,interop-nonaddressable-dlpack-import %t -- -- -std=c++17 -I%S/Inputs
// RUN: %check_interop -check-suffix=LISTED %s interop-sharded-dlpack-export,interop-sharded-cuda-array-interface,interop-nonaddressable-dlpack-import %t.listed -- \
// RUN:   -config="{CheckOptions: {SingleDevicePredicates: '::interop::Array::is_single_device;::interop::Sharding::is_single_device;::policy::fits', AddressablePredicates: '::interop::Device::is_addressable;::is_local'}}" \
// RUN:   -- -std=c++17 -I%S/Inputs

// When the only guard on a finding's path is a call
// the analysis cannot see into (no body in this translation unit), a note
// at that call names the option that would describe it, with the name to
// add. Listed there, the call is a guard and the finding goes away. No note
// for a guard with a body, on another variable, of the wrong polarity, of a
// non-bool result, a member of a modelled type, or when the variable may
// change after the guard.

#include "interop/interop.h"

using namespace interop;

// Defined in other translation units.
namespace policy {
bool fits(const Array &a);
}
bool is_local(const Device &d);
int rank_of(const Array &a);
Array next_array();

void export_behind_unseen(const Array &a) {
  if (!policy::fits(a))
    return;
  auto t = to_dlpack(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to_dlpack' needs an array on a single device, but 'a' is not proven to be single-device on every path to this call [interop-sharded-dlpack-export]
  // CHECK-MESSAGES: :[[@LINE-5]]:40: note: 'a' is a parameter: nothing in this function proves it is on a single device
  // CHECK-MESSAGES: :[[@LINE-5]]:8: note: 'fits' has no body in this translation unit, so what it checks is unknown; if it returns true only for arrays on one device, add '::policy::fits' to SingleDevicePredicates
  // CHECK-MESSAGES: :[[@LINE-4]]:12: note: check 'is_single_device()' first, or copy the array onto one device with 'gather'
}

void buffer_inside_unseen(const Array &a) {
  if (policy::fits(a)) {
    auto p = a.unsafe_buffer_pointer();
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'unsafe_buffer_pointer' is supported only for unsharded arrays, but 'a' is not proven to be single-device on every path to this call [interop-sharded-cuda-array-interface]
    // CHECK-MESSAGES: :[[@LINE-4]]:40: note: 'a' is a parameter
    // CHECK-MESSAGES: :[[@LINE-4]]:7: note: 'fits' has no body in this translation unit, so what it checks is unknown; if it returns true only for arrays on one device, add '::policy::fits' to SingleDevicePredicates
    // CHECK-MESSAGES: :[[@LINE-4]]:14: note: check 'is_single_device()' first
  }
}

void import_behind_unseen(DLManagedTensorVersioned *t) {
  const std::vector<Device> all = devices();
  const Device &d = all[1];
  if (!is_local(d))
    return;
  auto r = from_dlpack(t, d);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'from_dlpack' imports onto device 'd', taken from a list of every process's devices, with no addressability check on this path [interop-nonaddressable-dlpack-import]
  // CHECK-MESSAGES: :[[@LINE-6]]:35: note: the device comes from 'devices', which can return devices of other processes
  // CHECK-MESSAGES: :[[@LINE-5]]:8: note: 'is_local' has no body in this translation unit, so what it checks is unknown; if it returns true only for devices this process can address, add '::is_local' to AddressablePredicates
  // CHECK-MESSAGES: :[[@LINE-4]]:12: note: check 'is_addressable()' first, or take the device from 'local_devices()'
}

// --- No note -----------------------------------------------------------

// A guard with a body says what it checks (here: not single-device).
bool replicated(const Array &a) { return a.is_fully_replicated(); }

void guard_with_body(const Array &a) {
  if (!replicated(a))
    return;
  auto t = to_dlpack(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to_dlpack' needs an array on a single device, but 'a' is not proven
  // CHECK-MESSAGES-LISTED: :[[@LINE-2]]:12: warning: 'to_dlpack' needs an array on a single device, but 'a' is not proven
}

void guard_on_another_array(const Array &a, const Array &b) {
  if (!policy::fits(b))
    return;
  auto t = to_dlpack(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to_dlpack' needs an array on a single device, but 'a' is not proven
  // CHECK-MESSAGES-LISTED: :[[@LINE-2]]:12: warning: 'to_dlpack' needs an array on a single device, but 'a' is not proven
}

// Reached where the call returned false: listing it would not help (listed,
// it says the array is sharded there).
void wrong_polarity(const Array &a) {
  if (policy::fits(a))
    return;
  auto t = to_dlpack(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to_dlpack' needs an array on a single device, but 'a' is not proven
  // CHECK-MESSAGES-LISTED: :[[@LINE-2]]:12: warning: 'to_dlpack' needs an array on a single device, but 'a' is sharded over more than one device on this path; the call will always fail
}

void not_a_predicate(const Array &a) {
  if (rank_of(a) != 0)
    return;
  auto t = to_dlpack(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to_dlpack' needs an array on a single device, but 'a' is not proven
  // CHECK-MESSAGES-LISTED: :[[@LINE-2]]:12: warning: 'to_dlpack' needs an array on a single device, but 'a' is not proven
}

// The runtime's own members are what the API model describes.
void model_member(const Array &a) {
  if (!a.is_fully_addressable())
    return;
  auto t = to_dlpack(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to_dlpack' needs an array on a single device, but 'a' is not proven
  // CHECK-MESSAGES-LISTED: :[[@LINE-2]]:12: warning: 'to_dlpack' needs an array on a single device, but 'a' is not proven
}

// The variable changes after the guard.
void written_after_guard() {
  Array a = next_array();
  if (!policy::fits(a))
    return;
  a = next_array();
  auto t = to_dlpack(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to_dlpack' needs an array on a single device, but 'a' is not proven
  // CHECK-MESSAGES-LISTED: :[[@LINE-2]]:12: warning: 'to_dlpack' needs an array on a single device, but 'a' is not proven
}

// --- Correct --------------------------------------------------------------

void unseen_and_checked(const Array &a) {
  if (!policy::fits(a) || !a.is_single_device())
    return;
  auto t = to_dlpack(a);
}
