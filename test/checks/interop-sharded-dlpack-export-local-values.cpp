// RUN: %check_interop %s interop-sharded-dlpack-export %t -- -- -std=c++17 -I%S/Inputs

// The device count a guard compares with, named through a variable.

#include "interop/interop.h"

using namespace interop;

// --- Safe ------------------------------------------------------------------

void count_local(const Array &a) {
  int one = 1;
  if (a.num_devices() != one)
    return;
  auto t = to_dlpack(a);
}

void constant_bound(const Array &a) {
  const int kMaxDevices = 1;
  if (a.num_devices() > kMaxDevices)
    return;
  auto t = to_dlpack(a);
}

// Either bound admits one device only.
void chosen_bounds(const Array &a, bool strict) {
  const int limit = strict ? 1 : 2;
  if (a.num_devices() >= limit)
    if (a.num_devices() != 1)
      return;
  auto t = to_dlpack(a);
}

// --- Unsafe ----------------------------------------------------------------

// Two devices pass when the limit is 2.
void chosen_limits(const Array &a, bool strict) {
  const int limit = strict ? 1 : 2;
  if (a.num_devices() > limit)
    return;
  auto t = to_dlpack(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to_dlpack' needs an array on a single device, but 'a' is not proven to be single-device on every path to this call [interop-sharded-dlpack-export]
}

void count_changed(const Array &a, int extra) {
  int n = 1;
  n += extra;
  if (a.num_devices() != n)
    return;
  auto t = to_dlpack(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to_dlpack' needs an array on a single device, but 'a' is not proven to be single-device on every path to this call [interop-sharded-dlpack-export]
}
