// RUN: %check_interop %s interop-tpu-dlpack-memory-kind %t -- -- -std=c++17 -I%S/Inputs

// The platform and memory kind a guard compares with, named through a
// variable: the same facts as the enumerator written inline.

#include "interop/interop.h"

using namespace interop;

void read_kind(MemoryKind &out);

// --- Safe ------------------------------------------------------------------

void constant_local(const Array &a) {
  const MemoryKind want = MemoryKind::kPinnedHost;
  if (a.platform() != Platform::kTpu)
    return;
  if (a.memory_kind() != want)
    return;
  auto t = to_dlpack(a);
}

void assigned_local(const Array &a) {
  MemoryKind want = MemoryKind::kPinnedHost;
  if (a.platform() != Platform::kTpu || want != a.memory_kind())
    return;
  auto t = to_dlpack(a);
}

// Every choice is pinned host memory.
void chosen_kinds(const Array &a, bool f) {
  const MemoryKind want = f ? MemoryKind::kPinnedHost : MemoryKind::kPinnedHost;
  if (a.platform() == Platform::kTpu && a.memory_kind() == want)
    auto t = to_dlpack(a);
}

// Not a TPU under any choice: not this check's business.
void chosen_platforms(const Array &a, bool gpu) {
  const Platform p = gpu ? Platform::kCuda : Platform::kCpu;
  if (a.platform() != p)
    return;
  auto t = to_dlpack(a);
}

// --- Unsafe ----------------------------------------------------------------

// A TPU array named through a local: its memory kind is unchecked.
void platform_local(const Array &a) {
  const Platform tpu = Platform::kTpu;
  Platform p = tpu;
  if (a.platform() != p)
    return;
  auto t = to_dlpack(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to_dlpack' of TPU array 'a', whose memory kind is not proven to be pinned host; TPU device memory cannot be exported through DLPack [interop-tpu-dlpack-memory-kind]
  // CHECK-MESSAGES: :[[@LINE-7]]:34: note: 'a' is a parameter
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: copy the array into pinned host memory first
}

// One choice is device memory.
void chosen_device_memory(const Array &a, bool f) {
  const MemoryKind want = f ? MemoryKind::kPinnedHost : MemoryKind::kDevice;
  if (a.platform() != Platform::kTpu || a.memory_kind() != want)
    return;
  auto t = to_dlpack(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to_dlpack' of TPU array 'a', whose memory kind is not proven to be pinned host; TPU device memory cannot be exported through DLPack [interop-tpu-dlpack-memory-kind]
  // CHECK-MESSAGES: :[[@LINE-6]]:40: note: 'a' is a parameter
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: copy the array into pinned host memory first
}

// Only device memory, through a local: the call always fails.
void device_memory_local(const Array &a) {
  MemoryKind kind = MemoryKind::kDevice;
  if (a.platform() == Platform::kTpu && a.memory_kind() == kind)
    auto t = to_dlpack(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'to_dlpack' of TPU array 'a', which is not in pinned host memory on this path; the call will always fail: it is in TPU device memory [interop-tpu-dlpack-memory-kind]
  // CHECK-MESSAGES: :[[@LINE-2]]:14: note: copy the array into pinned host memory first
}

// A callee may store another kind through the reference.
void changed_by_reference(const Array &a) {
  MemoryKind want = MemoryKind::kPinnedHost;
  read_kind(want);
  if (a.platform() != Platform::kTpu || a.memory_kind() != want)
    return;
  auto t = to_dlpack(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to_dlpack' of TPU array 'a', whose memory kind is not proven to be pinned host; TPU device memory cannot be exported through DLPack [interop-tpu-dlpack-memory-kind]
  // CHECK-MESSAGES: :[[@LINE-7]]:40: note: 'a' is a parameter
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: copy the array into pinned host memory first
}
