// RUN: %check_interop %s interop-tpu-dlpack-memory-kind %t -- -- -std=c++17 -I%S/Inputs

#include "interop/interop.h"

using namespace interop;

Array load();

// JAX's "__dlpack__ device only supported for TPU pinned host memory": a
// TPU array exported without checking its memory kind.
void checked_platform_only(const Array &a) {
  if (a.platform() == Platform::kTpu)
    auto t = to_dlpack(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'to_dlpack' of TPU array 'a', whose memory kind is not proven to be pinned host; TPU device memory cannot be exported through DLPack [interop-tpu-dlpack-memory-kind]
  // CHECK-MESSAGES: :[[@LINE-4]]:41: note: 'a' is a parameter: nothing in this function proves it is in pinned host memory
  // CHECK-MESSAGES: :[[@LINE-3]]:14: note: copy the array into pinned host memory first ('gather' with a pinned host memory kind), or exchange it through host memory
}

void platform_in_variable(const Array &a) {
  Platform p = a.platform();
  if (p != Platform::kTpu)
    return;
  auto t = to_dlpack(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to_dlpack' of TPU array 'a', whose memory kind is not proven
  // CHECK-MESSAGES: :[[@LINE-6]]:40: note: 'a' is a parameter
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: copy the array into pinned host memory first
}

// Gathered onto a TPU device in (default) device memory: always fails.
void gathered_to_tpu_device_memory(const Array &a) {
  auto g = gather(a, local_devices(Platform::kTpu)[0]);
  if (g.ok())
    auto t = to_dlpack(*g);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'to_dlpack' of TPU array '*g', which is not in pinned host memory on this path; the call will always fail
  // CHECK-MESSAGES: :[[@LINE-2]]:14: note: copy the array into pinned host memory first
}

void gathered_to_checked_device(const Array &a, const Device &d) {
  if (d.platform() != Platform::kTpu)
    return;
  Array g = gather(a, d, MemoryKind::kUnpinnedHost).value();
  auto t = to_dlpack(g);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to_dlpack' of TPU array 'g', which is not in pinned host memory on this path; the call will always fail
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: copy the array into pinned host memory first
}

void proven_device_memory(const Array &a) {
  if (a.platform() == Platform::kTpu && a.memory_kind() == MemoryKind::kDevice)
    auto t = to_dlpack(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'to_dlpack' of TPU array 'a', which is not in pinned host memory on this path; the call will always fail
  // CHECK-MESSAGES: :[[@LINE-2]]:14: note: copy the array into pinned host memory first
}

// The enumerator first: the same facts as the other way round.
void enumerators_first(const Array &a) {
  if (Platform::kTpu == a.platform() && MemoryKind::kDevice == a.memory_kind())
    auto t = to_dlpack(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'to_dlpack' of TPU array 'a', which is not in pinned host memory on this path; the call will always fail
  // CHECK-MESSAGES: :[[@LINE-2]]:14: note: copy the array into pinned host memory first
}

// --- Safe ------------------------------------------------------------------

void pinned_checked_enumerators_first(const Array &a) {
  if (Platform::kTpu == a.platform() &&
      MemoryKind::kPinnedHost == a.memory_kind())
    auto t = to_dlpack(a);
}

// Not known to be on TPU: not this check's business.
void unknown_platform(const Array &a) { auto t = to_dlpack(a); }

void cpu_array(const Array &a) {
  if (a.platform() == Platform::kCpu)
    auto t = to_dlpack(a);
}

void pinned_checked(const Array &a) {
  if (a.platform() != Platform::kTpu)
    return;
  if (a.sharding().memory_kind() != MemoryKind::kPinnedHost)
    return;
  auto t = to_dlpack(a);
}

void gathered_to_pinned_host(const Array &a) {
  auto tpu = local_devices(Platform::kTpu)[0];
  auto g = gather(a, tpu, MemoryKind::kPinnedHost);
  if (g.ok())
    auto t = to_dlpack(*g);
}

void kind_in_variable(const Array &a, const Device &d) {
  if (d.platform() != Platform::kTpu)
    return;
  MemoryKind kind = MemoryKind::kPinnedHost;
  auto g = gather(a, d, kind);
  auto t = to_dlpack(g.value());
}

void kind_copied_from_array(const Array &a, const Array &b) {
  if (b.memory_kind() != MemoryKind::kPinnedHost)
    return;
  auto g = gather(a, local_devices(Platform::kTpu)[0], b.memory_kind());
  auto t = to_dlpack(*g);
}
