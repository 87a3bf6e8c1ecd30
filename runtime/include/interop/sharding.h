// interop/sharding.h - how an array's elements are laid out over devices.
#ifndef INTEROP_SHARDING_H
#define INTEROP_SHARDING_H

#include "interop/device.h"
#include "interop/export.h"
#include "interop/status.h"

#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace interop {

// An immutable description of where an array lives: a non-empty list of
// distinct devices of one platform, a memory kind, and how the elements are
// distributed over the devices (all of them on each device, or split into
// equal contiguous blocks along one axis, in device order).
class INTEROP_API Sharding {
public:
  enum class Kind : uint8_t {
    kSingleDevice, // one device holds the whole array
    kReplicated,   // every device holds the whole array
    kSplit,        // device i holds block i of `axis()`
  };

  // The whole array on `device`. Never fails: every platform offers every
  // memory kind.
  static Sharding single_device(const Device &device,
                                MemoryKind memory_kind = MemoryKind::kDevice);
  // A full copy on each device. kValueError when `devices` is empty, holds a
  // device twice, or mixes platforms. One device gives a single-device
  // sharding.
  static Result<Sharding>
  replicated(std::vector<Device> devices,
             MemoryKind memory_kind = MemoryKind::kDevice);
  // Split along `axis` (>= 0) into devices.size() equal blocks; device i holds
  // block i. Same device checks as replicated(); whether the axis exists and
  // divides evenly is checked when an array is placed on it. One device gives
  // a single-device sharding.
  static Result<Sharding> split(std::vector<Device> devices, int axis,
                                MemoryKind memory_kind = MemoryKind::kDevice);

  Kind kind() const noexcept { return kind_; }
  // The split axis; -1 unless kind() == kSplit.
  int axis() const noexcept { return axis_; }
  // The devices in sharding order (never empty).
  const std::vector<Device> &devices() const noexcept { return *devices_; }
  size_t num_devices() const noexcept { return devices_->size(); }
  bool is_single_device() const noexcept { return devices_->size() == 1; }
  // True when every device belongs to this process.
  bool is_fully_addressable() const noexcept;
  // True when every device holds all elements (single-device shardings too).
  bool is_fully_replicated() const noexcept { return kind_ != Kind::kSplit; }
  MemoryKind memory_kind() const noexcept { return memory_kind_; }
  Platform platform() const noexcept { return devices_->front().platform(); }
  // e.g. "SplitSharding(axis=0, devices=[CpuDevice(id=0), CpuDevice(id=1)],
  // memory_kind=device)".
  std::string to_string() const;

  friend bool operator==(const Sharding &a, const Sharding &b) noexcept {
    return a.kind_ == b.kind_ && a.axis_ == b.axis_ &&
           a.memory_kind_ == b.memory_kind_ &&
           (a.devices_ == b.devices_ || *a.devices_ == *b.devices_);
  }
  friend bool operator!=(const Sharding &a, const Sharding &b) noexcept {
    return !(a == b);
  }

private:
  using DeviceList = std::shared_ptr<const std::vector<Device>>;
  Sharding(Kind kind, DeviceList devices, int axis, MemoryKind memory_kind)
      : kind_(kind), devices_(std::move(devices)), axis_(axis),
        memory_kind_(memory_kind) {}
  Kind kind_;
  // Immutable and shared: copying a Sharding (every Array holds one) costs
  // at most a reference count. Single-device lists are made once per device
  // and never freed (sharding.cpp), so a single-device Sharding allocates
  // nothing after the first and its copies count no references.
  DeviceList devices_;
  int axis_;
  MemoryKind memory_kind_;
};

} // namespace interop

#endif // INTEROP_SHARDING_H
