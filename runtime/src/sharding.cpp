// Sharding factories and queries.
#include "internal.h"

#include <atomic>
#include <mutex>
#include <string>

namespace interop {
namespace {

// The one-device lists of single-device shardings, shared: every import and
// every shard makes such a sharding, and a fresh list would be a heap
// allocation each time. Entries are immutable and never freed (a Device is
// a few ints and a process sees few distinct ones), so lookups read them
// without a lock (only an insertion takes the mutex), and the Shardings
// refer to them without a reference count (a shared_ptr with no control
// block), so copying one costs no atomic operation either.
struct DeviceListNode {
  std::vector<Device> list; // exactly one device
  const DeviceListNode *next;
};
// Bounds the memory held for processes that see many topologies (tests that
// reset them); past it, lists are made per call.
constexpr size_t kMaxSharedDeviceLists = 1024;
std::atomic<const DeviceListNode *> g_device_lists{nullptr};

// Equal in every field, not just platform and id: the shared list must hold
// exactly the Device the caller passed (process index and local id too,
// which differ between topologies for the same id).
bool identical(const Device &a, const Device &b) {
  return a == b && a.process_index() == b.process_index() &&
         a.local_hardware_id() == b.local_hardware_id();
}

const std::vector<Device> *find_list(const DeviceListNode *n,
                                     const Device &device) {
  for (; n; n = n->next)
    if (identical(n->list.front(), device))
      return &n->list;
  return nullptr;
}

std::shared_ptr<const std::vector<Device>>
single_device_list(const Device &device) {
  // Immortal: aliases no owner, so copies never touch a reference count.
  auto immortal = [](const std::vector<Device> *list) {
    return std::shared_ptr<const std::vector<Device>>(
        std::shared_ptr<const std::vector<Device>>(), list);
  };
  if (const std::vector<Device> *list =
          find_list(g_device_lists.load(std::memory_order_acquire), device))
    return immortal(list);
  static std::mutex *mu = new std::mutex();
  static size_t count = 0;
  std::lock_guard<std::mutex> lock(*mu);
  const DeviceListNode *head = g_device_lists.load(std::memory_order_relaxed);
  if (const std::vector<Device> *list = find_list(head, device)) // lost a race
    return immortal(list);
  if (count == kMaxSharedDeviceLists)
    return std::make_shared<const std::vector<Device>>(1, device);
  ++count;
  auto *node = new DeviceListNode{std::vector<Device>(1, device), head};
  g_device_lists.store(node, std::memory_order_release);
  return immortal(&node->list);
}

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
  return Sharding(Kind::kSingleDevice, single_device_list(device), -1,
                  memory_kind);
}

Result<Sharding> Sharding::replicated(std::vector<Device> devices,
                                      MemoryKind memory_kind) {
  if (Status s = check_devices(devices); !s.ok())
    return s;
  if (devices.size() == 1)
    return single_device(devices[0], memory_kind);
  return Sharding(
      Kind::kReplicated,
      std::make_shared<const std::vector<Device>>(std::move(devices)), -1,
      memory_kind);
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
  return Sharding(
      Kind::kSplit,
      std::make_shared<const std::vector<Device>>(std::move(devices)), axis,
      memory_kind);
}

bool Sharding::is_fully_addressable() const noexcept {
  for (const Device &d : *devices_)
    if (!d.is_addressable())
      return false;
  return true;
}

std::string Sharding::to_string() const {
  std::string out;
  switch (kind_) {
  case Kind::kSingleDevice:
    out = "SingleDeviceSharding(device=" + (*devices_)[0].to_string();
    break;
  case Kind::kReplicated:
  case Kind::kSplit: {
    out = kind_ == Kind::kSplit
              ? "SplitSharding(axis=" + std::to_string(axis_) + ", devices=["
              : "ReplicatedSharding(devices=[";
    for (size_t i = 0; i < devices_->size(); ++i)
      out += (i ? ", " : "") + (*devices_)[i].to_string();
    out += "]";
    break;
  }
  }
  return out + ", memory_kind=" + memory_kind_name(memory_kind_) + ")";
}

} // namespace interop
