// interop/device.h - platforms, memory kinds, devices and the topology.
//
// The runtime simulates a (possibly multi-process) cluster the way XLA's
// forced host device count and jax.distributed do: every process has the same
// number of CPU, CUDA and simulated TPU devices; only this process's devices
// are addressable. Devices of other processes exist (they appear in
// devices() and in shardings) but hold no memory here.
#ifndef INTEROP_DEVICE_H
#define INTEROP_DEVICE_H

#include "interop/export.h"
#include "interop/status.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace interop {

enum class Platform : uint8_t {
  kCpu,  // host memory; DLPack kDLCPU
  kCuda, // an NVIDIA GPU through the CUDA runtime; DLPack kDLCUDA
  kTpu,  // a simulated TPU: device memory is opaque, pinned host is kDLTPUHost
};

// Where on a device an array's bytes live (JAX/XLA memory kinds).
enum class MemoryKind : uint8_t {
  kDevice,       // "device": the device's own memory (default)
  kPinnedHost,   // "pinned_host": page-locked host memory the device can DMA
  kUnpinnedHost, // "unpinned_host": ordinary pageable host memory
};

// "cpu", "cuda", "tpu".
INTEROP_API const char *platform_name(Platform platform) noexcept;
// "device", "pinned_host", "unpinned_host".
INTEROP_API const char *memory_kind_name(MemoryKind kind) noexcept;

namespace detail {
struct DeviceAccess;
} // namespace detail

// One device of the topology. A small value type: copy freely. Two Devices
// are equal when platform and global id are equal.
class INTEROP_API Device {
public:
  Platform platform() const noexcept { return platform_; }
  // Global id, unique per platform across all processes:
  // process_index() * devices-per-process + local_hardware_id().
  int id() const noexcept { return id_; }
  // The process that owns this device, in [0, process_count).
  int process_index() const noexcept { return process_index_; }
  // The device's index within its own process (for CUDA: the CUDA ordinal).
  // DLPack's device_id for this device.
  int local_hardware_id() const noexcept { return local_hardware_id_; }
  // True when this process owns the device (process_index() equals the
  // configured process index). Only addressable devices hold memory.
  bool is_addressable() const noexcept;
  // JAX's repr: "CpuDevice(id=0)", "CudaDevice(id=1)",
  // "TpuDevice(id=2, process_index=1)".
  std::string to_string() const;

  friend bool operator==(const Device &a, const Device &b) noexcept {
    return a.platform_ == b.platform_ && a.id_ == b.id_;
  }
  friend bool operator!=(const Device &a, const Device &b) noexcept {
    return !(a == b);
  }
  // Orders by platform, then global id.
  friend bool operator<(const Device &a, const Device &b) noexcept {
    return a.platform_ != b.platform_ ? a.platform_ < b.platform_
                                      : a.id_ < b.id_;
  }

private:
  friend struct detail::DeviceAccess;
  Device(Platform platform, int id, int process_index, int local_hardware_id)
      : platform_(platform), id_(id), process_index_(process_index),
        local_hardware_id_(local_hardware_id) {}
  Platform platform_;
  int id_;
  int process_index_;
  int local_hardware_id_;
};

// The simulated cluster. Set it with configure() before the runtime is first
// used (before the first devices()/local_devices()/Array/DLPack call).
struct TopologyConfig {
  // Virtual CPU devices per process (XLA's --xla_force_host_platform_device_
  // count). 0 is allowed only when the process has other devices.
  int cpu_devices_per_process = 1;
  // Simulated TPU devices per process. Their device memory cannot be exported
  // through DLPack (JAX's TPU export error); their pinned host memory can.
  int tpu_devices_per_process = 0;
  // CUDA devices per process. -1 means "every GPU cudaGetDeviceCount reports
  // in this process" (0 without a GPU); a positive value must not exceed that
  // count.
  int cuda_devices_per_process = -1;
  // Number of processes in the simulated cluster, >= 1.
  int process_count = 1;
  // This process's index, in [0, process_count).
  int process_index = 0;
};

// Sets the topology. Fails with kRuntimeError once the runtime has been used
// (devices are already handed out), and with kInvalidArgument for values out
// of range (the message names them). Thread-safe.
INTEROP_API Status configure(const TopologyConfig &config);
// The topology in effect (cuda_devices_per_process resolved to a count).
// Counts as first use.
INTEROP_API TopologyConfig current_topology();
// Forgets the topology and the "in use" latch so tests can configure again.
// Arrays and Devices created before stay valid (they own their memory), but
// is_addressable() of old Devices follows the new process index. Not for
// production use.
INTEROP_API void reset_for_testing();

// Every process's devices, ordered by platform (CPU, CUDA, TPU) then id.
INTEROP_API std::vector<Device> devices();
// Every process's devices of one platform, ordered by id.
INTEROP_API std::vector<Device> devices(Platform platform);
// This process's (addressable) devices, ordered by platform then id.
INTEROP_API std::vector<Device> local_devices();
// This process's devices of one platform, ordered by id.
INTEROP_API std::vector<Device> local_devices(Platform platform);
// The device with this platform and global id, or kValueError naming both.
INTEROP_API Result<Device> device_by_id(Platform platform, int id);

} // namespace interop

template <> struct std::hash<interop::Device> {
  size_t operator()(const interop::Device &d) const noexcept {
    return std::hash<int>()(d.id()) * 4 + static_cast<size_t>(d.platform());
  }
};

#endif // INTEROP_DEVICE_H
