// RUN: %check_interop %s interop-sharded-dlpack-export,interop-tpu-dlpack-memory-kind %t -- -- -std=c++17 -I%S/Inputs

// Switches over num_devices() (case 1:), over a
// sharding kind or a memory kind, and over platform() (a TPU arm with no
// memory-kind proof is a finding). A case arm knows the value it was entered
// with, by a case edge or by fallthrough from another arm.
//
// The sharding kind comes from the API-model options ShardingKindFunctions
// (::interop::Sharding::kind) and SingleDeviceShardingKinds
// (::interop::Sharding::Kind::kSingleDevice): kind() is kSingleDevice
// exactly when the sharding has one device.

#include "interop/interop.h"

using namespace interop;

void log_sharded(const Array &a);

Result<DLDevice> count_case_one(const Array &a) {
  switch (a.num_devices()) {
  case 1:
    return dlpack_device(a);
  default:
    return Status(StatusCode::kBufferError, "sharded");
  }
}

void count_case_one_break(const Array &a) {
  switch (a.sharding().num_devices()) {
  case 1: {
    auto t = to_dlpack(a);
    break;
  }
  default:
    break;
  }
}

void sharding_kind(const Array &a, const Device &host) {
  switch (a.sharding().kind()) {
  case Sharding::Kind::kSingleDevice: {
    auto t = to_dlpack(a);
    break;
  }
  case Sharding::Kind::kReplicated: {
    auto first = a.addressable_data(0);
    if (first.ok())
      auto t = to_dlpack(*first);
    break;
  }
  case Sharding::Kind::kSplit: {
    auto whole = gather(a, host);
    if (whole.ok())
      auto t = to_dlpack(*whole);
    break;
  }
  }
}

void memory_kind(const Array &a) {
  if (a.platform() != Platform::kTpu || !a.is_single_device())
    return;
  switch (a.memory_kind()) {
  case MemoryKind::kPinnedHost: {
    auto t = to_dlpack(a);
    break;
  }
  case MemoryKind::kDevice:
  case MemoryKind::kUnpinnedHost:
    break;
  }
}

void platform(const Array &a, const Device &tpu) {
  if (!a.is_single_device())
    return;
  switch (a.platform()) {
  case Platform::kCpu:
  case Platform::kCuda: {
    auto t = to_dlpack(a);
    break;
  }
  case Platform::kTpu: {
    if (a.memory_kind() == MemoryKind::kPinnedHost) {
      auto t = to_dlpack(a);
      break;
    }
    auto pinned = gather(a, tpu, MemoryKind::kPinnedHost);
    if (pinned.ok())
      auto t = to_dlpack(*pinned);
    break;
  }
  }
}

// --- Findings --------------------------------------------------------------

void default_falls_out(const Array &a) {
  switch (a.num_devices()) {
  case 1:
    break;
  default:
    log_sharded(a);
    break;
  }
  auto t = to_dlpack(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to_dlpack' needs an array on a single device, but 'a' is not proven to be single-device on every path to this call [interop-sharded-dlpack-export]
}

void case_two(const Array &a) {
  switch (a.num_devices()) {
  case 2: {
    auto t = to_dlpack(a);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'to_dlpack' needs an array on a single device, but 'a' is sharded over more than one device on this path; the call will always fail [interop-sharded-dlpack-export]
    break;
  }
  default:
    break;
  }
}

void fallthrough_into_case_one(const Array &a) {
  switch (a.num_devices()) {
  case 2:
    log_sharded(a);
    [[fallthrough]];
  case 1: {
    auto t = to_dlpack(a);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'to_dlpack' needs an array on a single device, but 'a' is not proven
    break;
  }
  default:
    break;
  }
}

void replicated_grouped_with_single(const Array &a) {
  switch (a.sharding().kind()) {
  case Sharding::Kind::kSingleDevice:
  case Sharding::Kind::kReplicated: {
    auto t = to_dlpack(a);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'to_dlpack' needs an array on a single device, but 'a' is not proven
    break;
  }
  case Sharding::Kind::kSplit:
    break;
  }
}

void replicated(const Array &a) {
  switch (a.sharding().kind()) {
  case Sharding::Kind::kReplicated: {
    auto t = to_dlpack(a);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'to_dlpack' needs an array on a single device, but 'a' is sharded over more than one device on this path; the call will always fail
    break;
  }
  default:
    break;
  }
}

void tpu_arm_without_memory_kind(const Array &a) {
  if (!a.is_single_device())
    return;
  switch (a.platform()) {
  case Platform::kTpu: {
    auto t = to_dlpack(a);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'to_dlpack' of TPU array 'a', whose memory kind is not proven to be pinned host; TPU device memory cannot be exported through DLPack [interop-tpu-dlpack-memory-kind]
    break;
  }
  default:
    break;
  }
}

void unpinned_grouped_with_pinned(const Array &a) {
  if (a.platform() != Platform::kTpu || !a.is_single_device())
    return;
  switch (a.memory_kind()) {
  case MemoryKind::kPinnedHost:
  case MemoryKind::kUnpinnedHost: {
    auto t = to_dlpack(a);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'to_dlpack' of TPU array 'a', whose memory kind is not proven to be pinned host
    break;
  }
  case MemoryKind::kDevice:
    break;
  }
}

void device_memory_arm(const Array &a) {
  if (a.platform() != Platform::kTpu || !a.is_single_device())
    return;
  switch (a.memory_kind()) {
  case MemoryKind::kDevice: {
    auto t = to_dlpack(a);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'to_dlpack' of TPU array 'a', which is not in pinned host memory on this path; the call will always fail [interop-tpu-dlpack-memory-kind]
    break;
  }
  default:
    break;
  }
}

// An arm without a statement of its own: the code after the switch, where
// only it leads, knows what it proved.
void empty_arm(const Array &a) {
  switch (a.num_devices()) {
  case 1:
    break;
  default:
    return;
  }
  auto t = to_dlpack(a);
}

// Arms meet again after the switch: an empty arm and one with a statement,
// or the implicit default of a switch without `default:`.
void empty_arms_meet(const Array &a, int &k) {
  switch (a.num_devices()) {
  case 2:
    break;
  case 3:
    ++k;
    break;
  default:
    return;
  }
  auto t = to_dlpack(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to_dlpack' needs an array on a single device, but 'a' is sharded over more than one device on this path; the call will always fail [interop-sharded-dlpack-export]
}

void past_implicit_default(const Array &a) {
  switch (a.num_devices()) {
  case 1:
    return;
  }
  auto t = to_dlpack(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to_dlpack' needs an array on a single device, but 'a' is sharded over more than one device on this path; the call will always fail [interop-sharded-dlpack-export]
}

// A local of constants, set where the count was known, then switched on.
void mapped_count(const Array &a) {
  int layout;
  switch (a.num_devices()) {
  case 1:
    layout = 0;
    break;
  default:
    layout = 1;
    break;
  }
  switch (layout) {
  case 0: {
    auto t = to_dlpack(a);
    break;
  }
  default:
    break;
  }
}

// A loop back into an arm: the arm is also entered from its own statements.
void loop_in_arm(const Array &a, int n) {
  switch (a.num_devices()) {
  case 1:
    while (n-- > 0)
      auto t = to_dlpack(a);
    break;
  default:
    break;
  }
}
