// RUN: %check_interop %s interop-sharded-cuda-array-interface %t -- -- -std=c++17 -I%S/Inputs

// The remedy note's copy onto one device as a fix-it (applied with
// --fix-notes): the receiver of the interface call becomes its gathered
// copy on this process's first device; an array behind a pointer is left to
// the reader.

#include "interop/interop.h"

void interface_of(const interop::Array &a) {
  auto p = a.unsafe_buffer_pointer();
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'unsafe_buffer_pointer' is supported only for unsharded arrays, but 'a' is not proven to be single-device on every path to this call [interop-sharded-cuda-array-interface]
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: check 'is_single_device()' first, or copy the array onto one device with 'gather'
  // CHECK-FIXES: {{^}}  auto p = interop::gather(a, interop::local_devices()[0]).value().unsafe_buffer_pointer();{{$}}
}

void sharded(const interop::Array &a) {
  if (!a.is_single_device()) {
    auto p = a.unsafe_buffer_pointer();
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'unsafe_buffer_pointer' is supported only for unsharded arrays, but 'a' is sharded over more than one device on this path; the call will always fail [interop-sharded-cuda-array-interface]
    // CHECK-MESSAGES: :[[@LINE-2]]:14: note: copy the array onto one device with 'gather' first
    // CHECK-FIXES: {{^}}    auto p = interop::gather(a, interop::local_devices()[0]).value().unsafe_buffer_pointer();{{$}}
  }
}

void through_pointer(const interop::Array *a) {
  auto p = a->unsafe_buffer_pointer();
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'unsafe_buffer_pointer' is supported only for unsharded arrays
  // CHECK-FIXES: {{^}}  auto p = a->unsafe_buffer_pointer();{{$}}
}
