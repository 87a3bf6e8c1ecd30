// RUN: %check_interop %s interop-sharded-cuda-array-interface %t -- -- -std=c++17 -I%S/Inputs

#include "interop/interop.h"

using namespace interop;

Result<Array> load();

// JAX's "__cuda_array_interface__() is supported only for unsharded arrays":
// the CUDA array interface of an array that may be sharded.
void unchecked(const Array &a) {
  auto cai = cuda_array_interface(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'cuda_array_interface' is supported only for unsharded arrays, but 'a' is not proven to be single-device on every path to this call [interop-sharded-cuda-array-interface]
  // CHECK-MESSAGES: :[[@LINE-3]]:29: note: 'a' is a parameter: nothing in this function proves it is on a single device
  // CHECK-MESSAGES: :[[@LINE-3]]:14: note: check 'is_single_device()' first, or copy the array onto one device with 'gather'
}

void buffer_pointer(const Array &a) {
  auto p = a.unsafe_buffer_pointer();
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'unsafe_buffer_pointer' is supported only for unsharded arrays, but 'a' is not proven
  // CHECK-MESSAGES: :[[@LINE-3]]:34: note: 'a' is a parameter
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: check 'is_single_device()' first
}

void through_result_arrow() {
  auto r = load();
  if (!r.ok())
    return;
  auto p = r->unsafe_buffer_pointer();
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'unsafe_buffer_pointer' is supported only for unsharded arrays, but 'r' is not proven
  // CHECK-MESSAGES: :[[@LINE-5]]:12: note: the value comes from 'load'; nothing proves it is on a single device
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: check 'is_single_device()' first
}

void proven_sharded(const Array &a) {
  if (a.sharding().num_devices() > 1) {
    auto p = a.unsafe_buffer_pointer();
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'unsafe_buffer_pointer' is supported only for unsharded arrays, but 'a' is sharded over more than one device on this path; the call will always fail
    // CHECK-MESSAGES: :[[@LINE-2]]:14: note: copy the array onto one device with 'gather' first
  }
}

// --- Safe ------------------------------------------------------------------

void guarded(const Array &a) {
  if (a.is_single_device()) {
    auto cai = cuda_array_interface(a);
    auto p = a.unsafe_buffer_pointer();
  }
}

void gathered(const Array &a) {
  auto g = gather(a, local_devices(Platform::kCuda)[0]);
  if (!g.ok())
    return;
  auto p = g->unsafe_buffer_pointer();
  auto cai = cuda_array_interface(*g);
}

void each_shard(const Array &a) {
  for (const Array &s : a.addressable_shards())
    auto p = s.unsafe_buffer_pointer();
}

void count_guard_in_bool(const Array &a) {
  const bool unsharded = a.num_devices() < 2;
  if (unsharded)
    auto cai = cuda_array_interface(a);
}
