// RUN: %check_interop %s interop-tpu-dlpack-memory-kind %t -- -- -std=c++17 -I%S/Inputs
// RUN: %check_interop -check-suffix=USER %s interop-tpu-dlpack-memory-kind %t.user -- \
// RUN:   -config="{CheckOptions: {DeviceMemoryKinds: ''}}" -- -std=c++17 -I%S/Inputs

// When a TPU export always fails, the message says
// which memory the array is in on that path: the TPU's own memory
// (DeviceMemoryKinds) or unpinned host memory (neither that nor pinned
// host). With DeviceMemoryKinds empty no memory kind is named: the message
// says only "not in pinned host memory".

#include "interop/interop.h"

using namespace interop;

// A gather onto a TPU without a memory kind lands in device memory.
void gathered_default_kind(const Array &a) {
  const Device tpu = local_devices(Platform::kTpu)[0];
  auto g = gather(a, tpu);
  if (g.ok())
    auto t = to_dlpack(*g);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'to_dlpack' of TPU array '*g', which is not in pinned host memory on this path; the call will always fail: it is in TPU device memory [interop-tpu-dlpack-memory-kind]
  // CHECK-MESSAGES: :[[@LINE-2]]:14: note: copy the array into pinned host memory first
  // CHECK-MESSAGES-USER: :[[@LINE-3]]:14: warning: 'to_dlpack' of TPU array '*g', which is not in pinned host memory on this path; the call will always fail [interop-tpu-dlpack-memory-kind]
  // CHECK-MESSAGES-USER: :[[@LINE-4]]:14: note: copy the array into pinned host memory first
}

void gathered_unpinned(const Array &a) {
  const Device tpu = local_devices(Platform::kTpu)[0];
  Array g = gather(a, tpu, MemoryKind::kUnpinnedHost).value();
  auto t = to_dlpack(g);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to_dlpack' of TPU array 'g', which is not in pinned host memory on this path; the call will always fail: it is in unpinned host memory [interop-tpu-dlpack-memory-kind]
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: copy the array into pinned host memory first
  // CHECK-MESSAGES-USER: :[[@LINE-3]]:12: warning: 'to_dlpack' of TPU array 'g', which is not in pinned host memory on this path; the call will always fail [interop-tpu-dlpack-memory-kind]
  // CHECK-MESSAGES-USER: :[[@LINE-4]]:12: note: copy the array into pinned host memory first
}

// A memory kind kept in a variable says the same.
void kind_in_variable(const Array &a) {
  const Device tpu = local_devices(Platform::kTpu)[0];
  MemoryKind kind = MemoryKind::kUnpinnedHost;
  Array g = gather(a, tpu, kind).value();
  auto t = to_dlpack(g);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: {{.*}}the call will always fail: it is in unpinned host memory
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: copy the array into pinned host memory first
  // CHECK-MESSAGES-USER: :[[@LINE-3]]:12: warning: {{.*}}the call will always fail [interop-tpu-dlpack-memory-kind]
  // CHECK-MESSAGES-USER: :[[@LINE-4]]:12: note: copy the array into pinned host memory first
}

// Checked kinds, either way round.
void checked_device_memory(const Array &a) {
  if (a.platform() == Platform::kTpu && MemoryKind::kDevice == a.memory_kind())
    auto t = to_dlpack(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: {{.*}}the call will always fail: it is in TPU device memory [interop-tpu-dlpack-memory-kind]
  // CHECK-MESSAGES: :[[@LINE-2]]:14: note: copy the array into pinned host memory first
  // CHECK-MESSAGES-USER: :[[@LINE-3]]:14: warning: {{.*}}the call will always fail [interop-tpu-dlpack-memory-kind]
  // CHECK-MESSAGES-USER: :[[@LINE-4]]:14: note: copy the array into pinned host memory first
}

void checked_unpinned(const Array &a) {
  if (a.platform() != Platform::kTpu ||
      a.memory_kind() != MemoryKind::kUnpinnedHost)
    return;
  auto t = to_dlpack(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: {{.*}}the call will always fail: it is in unpinned host memory
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: copy the array into pinned host memory first
  // CHECK-MESSAGES-USER: :[[@LINE-3]]:12: warning: {{.*}}the call will always fail [interop-tpu-dlpack-memory-kind]
  // CHECK-MESSAGES-USER: :[[@LINE-4]]:12: note: copy the array into pinned host memory first
}

// Not pinned, but which other kind is not known: no claim about it.
void not_pinned_only(const Array &a) {
  if (a.platform() != Platform::kTpu ||
      a.memory_kind() == MemoryKind::kPinnedHost)
    return;
  auto t = to_dlpack(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to_dlpack' of TPU array 'a', which is not in pinned host memory on this path; the call will always fail [interop-tpu-dlpack-memory-kind]
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: copy the array into pinned host memory first
  // CHECK-MESSAGES-USER: :[[@LINE-3]]:12: warning: 'to_dlpack' of TPU array 'a', which is not in pinned host memory on this path; the call will always fail [interop-tpu-dlpack-memory-kind]
  // CHECK-MESSAGES-USER: :[[@LINE-4]]:12: note: copy the array into pinned host memory first
}

// Either kind on different paths: no claim either.
void either_kind(const Array &a, bool fast) {
  const Device tpu = local_devices(Platform::kTpu)[0];
  Array g = gather(a, tpu).value();
  if (!fast)
    g = gather(a, tpu, MemoryKind::kUnpinnedHost).value();
  auto t = to_dlpack(g);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to_dlpack' of TPU array 'g', which is not in pinned host memory on this path; the call will always fail [interop-tpu-dlpack-memory-kind]
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: copy the array into pinned host memory first
  // CHECK-MESSAGES-USER: :[[@LINE-3]]:12: warning: 'to_dlpack' of TPU array 'g', which is not in pinned host memory on this path; the call will always fail [interop-tpu-dlpack-memory-kind]
  // CHECK-MESSAGES-USER: :[[@LINE-4]]:12: note: copy the array into pinned host memory first
}

// Correct: pinned host memory.
void gathered_pinned(const Array &a) {
  const Device tpu = local_devices(Platform::kTpu)[0];
  Array g = gather(a, tpu, MemoryKind::kPinnedHost).value();
  auto t = to_dlpack(g);
}
