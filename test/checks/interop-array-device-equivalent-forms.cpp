// RUN: %check_interop %s interop-tpu-dlpack-memory-kind %t -- -- -std=c++17 -I%S/Inputs
// RUN: %check_interop -check-suffix=IMPORT %s interop-nonaddressable-dlpack-import %t.import -- -- -std=c++17 -I%S/Inputs

// Equivalent forms, the platform parts: a shard of
// an array known to be on TPU is on TPU, in the array's memory kind (each
// shard shares the array's memory); the devices of an array's sharding are
// on the array's platform, so `a.sharding().devices().front().platform()`
// is the array's platform.

#include "interop/interop.h"

using namespace interop;

void shards_of_tpu_array(const Array &a) {
  if (a.platform() != Platform::kTpu)
    return;
  for (const Array &shard : a.addressable_shards())
    auto t = to_dlpack(shard);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'to_dlpack' of TPU array 'shard', whose memory kind is not proven to be pinned host; TPU device memory cannot be exported through DLPack [interop-tpu-dlpack-memory-kind]
  // CHECK-MESSAGES: :[[@LINE-2]]:14: note: copy the array into pinned host memory first
}

void one_shard_of_tpu_array(const Array &a) {
  if (a.platform() != Platform::kTpu)
    return;
  auto t = to_dlpack(*a.addressable_data(0));
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to_dlpack' of TPU array '*a.addressable_data(0)', whose memory kind is not proven to be pinned host
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: copy the array into pinned host memory first
}

void shards_of_device_memory(const Array &a) {
  if (a.platform() != Platform::kTpu || a.memory_kind() == MemoryKind::kPinnedHost)
    return;
  for (const Array &shard : a.addressable_shards())
    auto t = to_dlpack(shard);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'to_dlpack' of TPU array 'shard', which is not in pinned host memory on this path; the call will always fail [interop-tpu-dlpack-memory-kind]
  // CHECK-MESSAGES: :[[@LINE-2]]:14: note: copy the array into pinned host memory first
}

void platform_of_first_sharding_device(const Array &a) {
  if (a.sharding().devices().front().platform() == Platform::kTpu)
    auto d = dlpack_device(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'dlpack_device' of TPU array 'a', whose memory kind is not proven to be pinned host
  // CHECK-MESSAGES: :[[@LINE-2]]:14: note: copy the array into pinned host memory first
}

void platform_of_a_sharding_device_variable(const Array &a) {
  const Device &first = a.sharding().devices()[0];
  if (first.platform() != Platform::kTpu)
    return;
  auto d = dlpack_device(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'dlpack_device' of TPU array 'a', whose memory kind is not proven to be pinned host
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: copy the array into pinned host memory first
}

// --- Correct ------------------------------------------------------------

void shards_of_pinned_tpu_array(const Array &a) {
  if (a.platform() != Platform::kTpu ||
      a.memory_kind() != MemoryKind::kPinnedHost)
    return;
  for (const Array &shard : a.addressable_shards())
    auto t = to_dlpack(shard);
}

void first_device_and_pinned(const Array &a) {
  const Device &first = a.sharding().devices().front();
  if (first.platform() == Platform::kTpu &&
      a.memory_kind() == MemoryKind::kPinnedHost)
    auto d = dlpack_device(a);
}

// Shards of an array on another platform are not TPU arrays.
void shards_of_cpu_array(const Array &a) {
  if (a.platform() != Platform::kCpu)
    return;
  for (const Array &shard : a.addressable_shards())
    auto t = to_dlpack(shard);
}

// A shard list that changed is not the array's any more: nothing is known of
// its elements' platform, so the TPU check does not judge them.
void shards_changed(const Array &a, const Array &other) {
  if (a.platform() != Platform::kTpu ||
      a.memory_kind() != MemoryKind::kPinnedHost)
    return;
  std::vector<Array> shards = a.addressable_shards();
  shards.push_back(other);
  for (const Array &shard : shards)
    auto t = to_dlpack(shard);
}

// The process-index parts (RUN with suffix IMPORT): a device is addressable
// exactly when its process index (ProcessIndexFunctions) equals this
// process's (CurrentProcessIndexSources: current_topology().process_index),
// directly or through a variable.

void process_index_equals(DLManagedTensorVersioned *t, size_t slot) {
  const std::vector<Device> all = devices();
  const Device &d = all[slot % all.size()];
  if (d.process_index() != current_topology().process_index)
    return;
  auto r = from_dlpack(t, d);
}

void process_index_in_loop(DLManagedTensorVersioned *t) {
  const int me = current_topology().process_index;
  for (const Device &d : devices(Platform::kCpu))
    if (d.process_index() == me)
      auto r = from_dlpack(t, d);
}

void process_index_mirrored(DLManagedTensorVersioned *t, int id) {
  Result<Device> named = device_by_id(Platform::kCuda, id);
  if (!named.ok() || current_topology().process_index != named->process_index())
    return;
  auto r = from_dlpack(t, *named);
}

// Process 0 is not "this process".
void process_index_zero(DLManagedTensorVersioned *t) {
  const std::vector<Device> all = devices();
  const Device &d = all.front();
  if (d.process_index() == 0)
    auto r = from_dlpack(t, d);
  // CHECK-MESSAGES-IMPORT: :[[@LINE-1]]:14: warning: 'from_dlpack' imports onto device 'd', taken from a list of every process's devices, with no addressability check on this path [interop-nonaddressable-dlpack-import]
}

// Another device's process index says nothing about this one.
void process_index_of_other_device(DLManagedTensorVersioned *t,
                                   const Device &e) {
  const std::vector<Device> all = devices();
  const Device &d = all.front();
  if (e.process_index() == current_topology().process_index)
    auto r = from_dlpack(t, d);
  // CHECK-MESSAGES-IMPORT: :[[@LINE-1]]:14: warning: 'from_dlpack' imports onto device 'd', taken from a list of every process's devices, with no addressability check on this path [interop-nonaddressable-dlpack-import]
}

// Two devices' indices compared: neither is known to be this process's.
void process_index_of_two_devices(DLManagedTensorVersioned *t,
                                  const Device &e) {
  const std::vector<Device> all = devices();
  const Device &d = all.front();
  if (d.process_index() == e.process_index())
    auto r = from_dlpack(t, d);
  // CHECK-MESSAGES-IMPORT: :[[@LINE-1]]:14: warning: 'from_dlpack' imports onto device 'd', taken from a list of every process's devices, with no addressability check on this path [interop-nonaddressable-dlpack-import]
}

// The wrong way round: imports onto another process's device.
void process_index_inverted(DLManagedTensorVersioned *t) {
  const std::vector<Device> all = devices();
  const Device &d = all.front();
  if (d.process_index() != current_topology().process_index)
    auto r = from_dlpack(t, d);
  // CHECK-MESSAGES-IMPORT: :[[@LINE-1]]:14: warning: 'from_dlpack' imports onto device 'd'
}

// A find_if predicate comparing with a lambda's copy of this process's
// index: the match is addressable.
void process_index_captured(DLManagedTensorVersioned *t) {
  const int me = current_topology().process_index;
  const std::vector<Device> all = devices();
  auto it = std::find_if(all.begin(), all.end(), [me](const Device &d) {
    return d.process_index() == me;
  });
  if (it != all.end())
    auto r = from_dlpack(t, *it);
}

// The copy is the variable's value where the lambda is created.
void process_index_captured_after_change(DLManagedTensorVersioned *t) {
  int me = current_topology().process_index;
  me = 0;
  const std::vector<Device> all = devices();
  auto it = std::find_if(all.begin(), all.end(), [me](const Device &d) {
    return d.process_index() == me;
  });
  if (it != all.end())
    auto r = from_dlpack(t, *it);
  // CHECK-MESSAGES-IMPORT: :[[@LINE-1]]:14: warning: 'from_dlpack' imports onto device '*it', taken from a list of every process's devices, with no addressability check on this path [interop-nonaddressable-dlpack-import]
}

// Another device's index captured says nothing.
void process_index_captured_other(DLManagedTensorVersioned *t,
                                  const Device &e) {
  const int theirs = e.process_index();
  const std::vector<Device> all = devices();
  auto it = std::find_if(all.begin(), all.end(), [theirs](const Device &d) {
    return d.process_index() == theirs;
  });
  if (it != all.end())
    auto r = from_dlpack(t, *it);
  // CHECK-MESSAGES-IMPORT: :[[@LINE-1]]:14: warning: 'from_dlpack' imports onto device '*it', taken from a list of every process's devices, with no addressability check on this path [interop-nonaddressable-dlpack-import]
}

// A conditional whose arms are calls: each arm's facts, temporaries
// included, are those of its own path.
void conditional_arm_temporary(DLManagedTensorVersioned *t, int id) {
  Result<Device> preferred = device_by_id(Platform::kCuda, id);
  const std::vector<Device> local = local_devices(Platform::kCuda);
  if (!preferred.ok() || local.empty())
    return;
  const Device &d = preferred->is_addressable() ? *preferred : local.front();
  auto r = from_dlpack(t, d);
}

// The condition is not the check: the first arm is not proven.
void conditional_arm_unchecked(DLManagedTensorVersioned *t, int id, bool remote) {
  Result<Device> preferred = device_by_id(Platform::kCuda, id);
  const std::vector<Device> local = local_devices(Platform::kCuda);
  if (!preferred.ok() || local.empty())
    return;
  const Device &d = remote ? *preferred : local.front();
  auto r = from_dlpack(t, d);
  // CHECK-MESSAGES-IMPORT: :[[@LINE-1]]:12: warning: 'from_dlpack' imports onto device 'd', taken from a list of every process's devices, with no addressability check on this path [interop-nonaddressable-dlpack-import]
}
