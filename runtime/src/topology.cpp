// The simulated cluster: which devices exist and which this process owns.
#include "internal.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <string>

namespace interop {
namespace {

// Far above any real machine, low enough that device ids stay small ints.
constexpr int kMaxDevicesPerProcess = 1 << 12;
constexpr int kMaxProcesses = 1 << 12;

struct TopologyState {
  std::mutex mu;
  TopologyConfig requested;
  bool in_use = false;
  TopologyConfig effective;
  std::vector<Device> all; // sorted by platform, then id
  std::vector<const TopologyConfig *> retired;
};

TopologyState &state() {
  static TopologyState *s = new TopologyState(); // never destroyed: Devices
  return *s;                                     // may outlive static dtors
}

// Read on every is_addressable() without taking the lock.
std::atomic<int> g_process_index{0};
// The effective topology once it is in use, read without the lock by every
// import that looks a device up. Each is immutable; reset_for_testing()
// retires it (kept reachable in TopologyState::retired, never freed, since a
// reader may still hold it).
std::atomic<const TopologyConfig *> g_effective{nullptr};

Status check_count(const char *field, int value) {
  if (value < 0 || value > kMaxDevicesPerProcess)
    return Status(StatusCode::kInvalidArgument,
                  std::string(field) + " must be in [0, " +
                      std::to_string(kMaxDevicesPerProcess) + "], got " +
                      std::to_string(value));
  return Status();
}

void add_platform(std::vector<Device> &out, Platform platform, int per_process,
                  int process_count) {
  for (int p = 0; p < process_count; ++p)
    for (int local = 0; local < per_process; ++local)
      out.push_back(detail::DeviceAccess::make(
          platform, p * per_process + local, p, local));
}

} // namespace

const char *platform_name(Platform platform) noexcept {
  switch (platform) {
  case Platform::kCpu:
    return "cpu";
  case Platform::kCuda:
    return "cuda";
  case Platform::kTpu:
    return "tpu";
  }
  return "unknown";
}

const char *memory_kind_name(MemoryKind kind) noexcept {
  switch (kind) {
  case MemoryKind::kDevice:
    return "device";
  case MemoryKind::kPinnedHost:
    return "pinned_host";
  case MemoryKind::kUnpinnedHost:
    return "unpinned_host";
  }
  return "unknown";
}

bool Device::is_addressable() const noexcept {
  return process_index_ == g_process_index.load(std::memory_order_relaxed);
}

std::string Device::to_string() const {
  switch (platform_) {
  case Platform::kCpu:
    return "CpuDevice(id=" + std::to_string(id_) + ")";
  case Platform::kCuda:
    return "CudaDevice(id=" + std::to_string(id_) + ")";
  case Platform::kTpu:
    return "TpuDevice(id=" + std::to_string(id_) +
           ", process_index=" + std::to_string(process_index_) + ")";
  }
  return "Device(id=" + std::to_string(id_) + ")";
}

Status configure(const TopologyConfig &config) {
  if (Status s = check_count("cpu_devices_per_process",
                             config.cpu_devices_per_process);
      !s.ok())
    return s;
  if (Status s = check_count("tpu_devices_per_process",
                             config.tpu_devices_per_process);
      !s.ok())
    return s;
  if (config.cuda_devices_per_process != -1)
    if (Status s = check_count("cuda_devices_per_process",
                               config.cuda_devices_per_process);
        !s.ok())
      return Status(s.code(), s.message() + " (or -1 for every visible GPU)");
  if (config.process_count < 1 || config.process_count > kMaxProcesses)
    return Status(StatusCode::kInvalidArgument,
                  "process_count must be in [1, " +
                      std::to_string(kMaxProcesses) + "], got " +
                      std::to_string(config.process_count));
  if (config.process_index < 0 || config.process_index >= config.process_count)
    return Status(StatusCode::kInvalidArgument,
                  "process_index must be in [0, process_count=" +
                      std::to_string(config.process_count) + "), got " +
                      std::to_string(config.process_index));
  if (config.cuda_devices_per_process > 0) {
    if (Status s = detail::cuda::available(); !s.ok())
      return Status(StatusCode::kRuntimeError,
                    "cuda_devices_per_process=" +
                        std::to_string(config.cuda_devices_per_process) +
                        " was requested but " + s.message());
    int have = detail::cuda::device_count();
    if (config.cuda_devices_per_process > have)
      return Status(StatusCode::kRuntimeError,
                    "cuda_devices_per_process=" +
                        std::to_string(config.cuda_devices_per_process) +
                        " was requested but this process has " +
                        std::to_string(have) + " CUDA device(s)");
  }
  if (config.cpu_devices_per_process == 0 &&
      config.tpu_devices_per_process == 0 &&
      config.cuda_devices_per_process <= 0)
    return Status(StatusCode::kInvalidArgument,
                  "the topology has no devices: cpu_devices_per_process=0, "
                  "tpu_devices_per_process=0 and no CUDA devices");
  TopologyState &s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  if (s.in_use)
    return Status(StatusCode::kRuntimeError,
                  "configure() must be called before the runtime is first "
                  "used: devices have already been handed out");
  s.requested = config;
  return Status();
}

const TopologyConfig &detail::topology_in_use() {
  if (const TopologyConfig *effective =
          g_effective.load(std::memory_order_acquire))
    return *effective;
  TopologyState &s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  if (!s.in_use) {
    TopologyConfig eff = s.requested;
    if (eff.cuda_devices_per_process < 0)
      eff.cuda_devices_per_process = cuda::device_count();
    s.all.clear();
    add_platform(s.all, Platform::kCpu, eff.cpu_devices_per_process,
                 eff.process_count);
    add_platform(s.all, Platform::kCuda, eff.cuda_devices_per_process,
                 eff.process_count);
    add_platform(s.all, Platform::kTpu, eff.tpu_devices_per_process,
                 eff.process_count);
    std::sort(s.all.begin(), s.all.end());
    s.effective = eff;
    g_process_index.store(eff.process_index, std::memory_order_relaxed);
    s.in_use = true;
    g_effective.store(new TopologyConfig(eff), std::memory_order_release);
  }
  return *g_effective.load(std::memory_order_relaxed);
}

TopologyConfig current_topology() { return detail::topology_in_use(); }

void reset_for_testing() {
  TopologyState &s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  s.requested = TopologyConfig();
  s.effective = TopologyConfig();
  s.all.clear();
  s.in_use = false;
  if (const TopologyConfig *old =
          g_effective.exchange(nullptr, std::memory_order_acq_rel))
    s.retired.push_back(old);
  g_process_index.store(0, std::memory_order_relaxed);
}

namespace {
std::vector<Device> filtered(bool local_only, const Platform *platform) {
  detail::topology_in_use();
  TopologyState &s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  std::vector<Device> out;
  for (const Device &d : s.all) {
    if (platform && d.platform() != *platform)
      continue;
    if (local_only && d.process_index() != s.effective.process_index)
      continue;
    out.push_back(d);
  }
  return out;
}
} // namespace

std::optional<Device> detail::find_local_device(Platform platform, int local_id,
                                                bool any) {
  // Computed, not searched: every process has `per_process` devices of each
  // platform, numbered as add_platform() does. No lock, no allocation: this
  // runs on every import.
  const TopologyConfig &t = detail::topology_in_use();
  int per_process = platform == Platform::kCpu    ? t.cpu_devices_per_process
                    : platform == Platform::kCuda ? t.cuda_devices_per_process
                                                  : t.tpu_devices_per_process;
  if (local_id < 0 || local_id >= per_process) {
    if (!any || per_process <= 0)
      return std::nullopt;
    local_id = 0;
  }
  return detail::DeviceAccess::make(platform,
                                    t.process_index * per_process + local_id,
                                    t.process_index, local_id);
}

std::vector<Device> devices() { return filtered(false, nullptr); }
std::vector<Device> devices(Platform platform) {
  return filtered(false, &platform);
}
std::vector<Device> local_devices() { return filtered(true, nullptr); }
std::vector<Device> local_devices(Platform platform) {
  return filtered(true, &platform);
}

Result<Device> device_by_id(Platform platform, int id) {
  for (const Device &d : devices(platform))
    if (d.id() == id)
      return d;
  return Status(StatusCode::kValueError,
                std::string("no ") + platform_name(platform) +
                    " device with id " + std::to_string(id));
}

} // namespace interop
