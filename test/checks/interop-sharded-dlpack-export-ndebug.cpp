// RUN: %check_interop %s interop-sharded-dlpack-export %t -- -- -std=c++17 -I%S/Inputs -DNDEBUG

// Under NDEBUG, assert() is compiled out: it guards nothing, so the export
// after it is as unchecked as if it were not there.

#include "interop/interop.h"
#include <cassert>

void asserted(const interop::Array &a) {
  assert(a.is_single_device());
  auto t = interop::to_dlpack(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to_dlpack' needs an array on a single device, but 'a' is not proven to be single-device on every path to this call [interop-sharded-dlpack-export]
  // CHECK-MESSAGES: :[[@LINE-4]]:37: note: 'a' is a parameter: nothing in this function proves it is on a single device
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: check 'is_single_device()' first
}

// An explicit check still counts.
void checked(const interop::Array &a) {
  if (!a.is_single_device())
    return;
  auto t = interop::to_dlpack(a);
}
