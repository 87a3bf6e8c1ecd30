// RUN: %check_interop %s interop-sharded-dlpack-export %t -- -- -std=c++17 -I%S/Inputs

// The remedy note's copy onto one device as a fix-it (applied with
// --fix-notes): the array the call reads becomes its gathered copy on this
// process's first device. A copy changes what the call exports (and
// value() aborts when the gather fails), so it is never applied by --fix.

#include "interop/interop.h"

#define ARRAY_OF(h) (h).array

void hand_off(const interop::Array &a) {
  auto t = interop::to_dlpack(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to_dlpack' needs an array on a single device, but 'a' is not proven to be single-device on every path to this call [interop-sharded-dlpack-export]
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: check 'is_single_device()' first, or copy the array onto one device with 'gather'
  // CHECK-FIXES: {{^}}  auto t = interop::to_dlpack(interop::gather(a, interop::local_devices()[0]).value());{{$}}
}

// Proven sharded: the other note carries the same copy.
void sharded(const interop::Array &a) {
  if (a.num_devices() > 1) {
    auto t = interop::to_dlpack(a);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'to_dlpack' needs an array on a single device, but 'a' is sharded over more than one device on this path; the call will always fail [interop-sharded-dlpack-export]
    // CHECK-MESSAGES: :[[@LINE-2]]:14: note: copy the array onto one device with 'gather' before exporting it
    // CHECK-FIXES: {{^}}    auto t = interop::to_dlpack(interop::gather(a, interop::local_devices()[0]).value());{{$}}
  }
}

// An expression subject is copied whole.
interop::Result<interop::Array> step();
void unwrapped() {
  auto r = step();
  auto t = interop::to_dlpack(*r);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to_dlpack' needs an array on a single device, but '*r' is not proven
  // CHECK-FIXES: {{^}}  auto t = interop::to_dlpack(interop::gather(*r, interop::local_devices()[0]).value());{{$}}
}

// Written by a macro: reported, not rewritten.
struct Holder {
  interop::Array array;
};
void through_macro(const Holder &h) {
  auto t = interop::to_dlpack(ARRAY_OF(h));
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to_dlpack' needs an array on a single device
  // CHECK-FIXES: {{^}}  auto t = interop::to_dlpack(ARRAY_OF(h));{{$}}
}
