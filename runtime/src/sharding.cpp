// Sharding factories and queries.
#include "internal.h"

#include <string>

namespace interop {
namespace {

Status check_devices(const std::vector<Device> &devices) {
  if (devices.empty())
    return Status(StatusCode::kValueError,
                  "a Sharding needs at least one device, got none");
  for (size_t i = 0; i < devices.size(); ++i) {
    if (devices[i].platform() != devices[0].platform())
      return Status(StatusCode::kValueError,
                    "the devices of a Sharding must share one platform, got " +
                        devices[0].to_string() + " and " +
                        devices[i].to_string());
    for (size_t j = 0; j < i; ++j)
      if (devices[j] == devices[i])
        return Status(StatusCode::kValueError,
                      "a Sharding lists " + devices[i].to_string() +
                          " twice (positions " + std::to_string(j) + " and " +
                          std::to_string(i) + ")");
  }
  return Status();
}

} // namespace

Sharding Sharding::single_device(const Device &device, MemoryKind memory_kind) {
  return Sharding(Kind::kSingleDevice, {device}, -1, memory_kind);
}

Result<Sharding> Sharding::replicated(std::vector<Device> devices,
                                      MemoryKind memory_kind) {
  if (Status s = check_devices(devices); !s.ok())
    return s;
  if (devices.size() == 1)
    return single_device(devices[0], memory_kind);
  return Sharding(Kind::kReplicated, std::move(devices), -1, memory_kind);
}

Result<Sharding> Sharding::split(std::vector<Device> devices, int axis,
                                 MemoryKind memory_kind) {
  if (Status s = check_devices(devices); !s.ok())
    return s;
  if (axis < 0)
    return Status(StatusCode::kValueError,
                  "the split axis of a Sharding must be >= 0, got " +
                      std::to_string(axis));
  if (devices.size() == 1)
    return single_device(devices[0], memory_kind);
  return Sharding(Kind::kSplit, std::move(devices), axis, memory_kind);
}

bool Sharding::is_fully_addressable() const noexcept {
  for (const Device &d : devices_)
    if (!d.is_addressable())
      return false;
  return true;
}

std::string Sharding::to_string() const {
  std::string out;
  switch (kind_) {
  case Kind::kSingleDevice:
    out = "SingleDeviceSharding(device=" + devices_[0].to_string();
    break;
  case Kind::kReplicated:
  case Kind::kSplit: {
    out = kind_ == Kind::kSplit
              ? "SplitSharding(axis=" + std::to_string(axis_) + ", devices=["
              : "ReplicatedSharding(devices=[";
    for (size_t i = 0; i < devices_.size(); ++i)
      out += (i ? ", " : "") + devices_[i].to_string();
    out += "]";
    break;
  }
  }
  return out + ", memory_kind=" + memory_kind_name(memory_kind_) + ")";
}

} // namespace interop
