// dlpack_consumer.cpp - the consumer side of DLPack in a C++ data-processing
// library: it maps a producer's device type onto its backends, reads host
// tensors directly, and hands tensors of other backends to the runtime.
//
// Device types are read through interop::dl::device_type_of wherever they
// may be newer than Debian's DLPack 0.6 enum (kDLTPUHost = 20).
//
// Realistic corpus: see test/realistic/README.md.

#include <interop/interop.h>

#include "realistic/status_macros.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

namespace consumer {

using interop::Array;
using interop::Device;
using interop::Platform;
using interop::Result;
using interop::Status;
using interop::StatusCode;

enum class Backend {
  kHost,
  kCuda,
  kTpuHost,
};

// The CUDA side of the library (defined in cuda_copy.cu).
Status copy_from_cuda(void *dst, const void *src, size_t bytes);

namespace {

Status unsupported_device(const DLDevice &device) {
  const int32_t type = interop::dl::device_type_of(device);
  const char *name = interop::dl::device_type_name(type);
  return Status(StatusCode::kTypeError,
                "unsupported DLPack device type " +
                    (name ? std::string(name) : std::to_string(type)));
}

// True when the CPU may read the memory in place.
bool zero_copy_readable(const DLDevice &device) {
  switch (interop::dl::device_type_of(device)) {
  case interop::dl::kCPU:
  case interop::dl::kCUDAHost:
  case interop::dl::kCUDAManaged:
  case interop::dl::kROCMHost:
  case interop::dl::kTPUHost:
    return true;
  default: // ok: plain
    return false;
  }
}

// Kept for producers written against the first version of this library,
// which only knew CPU and CUDA: "not CUDA" meant host memory.
bool on_host(const DLDevice &device) { return device.device_type != kDLCUDA; }

// Compact row-major strides (or NULL, which means the same).
Status check_compact(const DLTensor &t) {
  if (t.strides == nullptr)
    return interop::ok_status();
  int64_t expected = 1;
  for (int d = t.ndim - 1; d >= 0; --d) {
    if (t.shape[d] != 1 && t.strides[d] != expected)
      return Status(StatusCode::kInvalidArgument,
                    "strided tensors are not supported: dimension " +
                        std::to_string(d) + " has stride " +
                        std::to_string(t.strides[d]) + ", expected " +
                        std::to_string(expected));
    expected *= t.shape[d];
  }
  return interop::ok_status();
}

int64_t element_count(const DLTensor &t) {
  int64_t n = 1;
  for (int d = 0; d < t.ndim; ++d)
    n *= t.shape[d];
  return n;
}

size_t byte_size(const DLTensor &t) {
  return static_cast<size_t>(element_count(t)) *
         ((t.dtype.bits * t.dtype.lanes + 7) / 8);
}

// The first element (DLPack puts it at data + byte_offset).
const std::byte *first_element(const DLTensor &t) {
  return static_cast<const std::byte *>(t.data) + t.byte_offset;
}

} // namespace

// The backend a producer's tensor is processed on.
Result<Backend> backend_for(const DLDevice &device) {
  switch (interop::dl::device_type_of(device)) {
  case interop::dl::kCPU:
  case interop::dl::kCUDAHost:
  case interop::dl::kCUDAManaged:
    return Backend::kHost;
  case interop::dl::kCUDA:
    return Backend::kCuda;
  case interop::dl::kTPUHost:
    return Backend::kTpuHost;
  default: // ok: dlpack-device-type
    return unsupported_device(device);
  }
}

// The platform reported to the scheduler. Written when the library only saw
// CPU and CUDA producers.
Platform platform_for(const DLDevice &device) {
  switch (device.device_type) {
  case kDLCUDA:
  case kDLCUDAManaged:
    return Platform::kCuda;
  default: // expect: interop-unsupported-dlpack-device [dlpack-device-type]
    return Platform::kCpu;
  }
}

// The local device a producer's tensor is imported onto.
Result<Device> import_target(const DLDevice &device) {
  switch (device.device_type) {
  case kDLCUDA:
  case kDLCUDAHost:
  case kDLCUDAManaged:
    return interop::local_device_for(device);
  case kDLCPU:
    return interop::local_devices(Platform::kCpu).front();
  default: // expect: interop-unsupported-dlpack-device [plain]
    return interop::local_devices(Platform::kCpu).front();
  }
}

const std::unordered_map<int32_t, Backend> &backend_table() {
  static const std::unordered_map<int32_t, Backend> table = {
      {interop::dl::kCPU, Backend::kHost},
      {interop::dl::kCUDAHost, Backend::kHost},
      {interop::dl::kCUDA, Backend::kCuda},
      {interop::dl::kTPUHost, Backend::kTpuHost},
  };
  return table;
}

Result<Backend> backend_from_table(const DLDevice &device) {
  const auto &table = backend_table();
  auto it = table.find(interop::dl::device_type_of(device));
  if (it == table.end())
    return unsupported_device(device); // ok: plain
  return it->second;
}

// The scheduler's quick estimate: unknown producers count as host work.
Backend backend_hint(const DLDevice &device) {
  const auto &table = backend_table();
  auto it = table.find(interop::dl::device_type_of(device));
  return it == table.end() ? Backend::kHost : it->second; // expect: interop-unsupported-dlpack-device [plain]
}

// Copies a float32 host tensor out of a producer's struct.
Status copy_to_vector(const DLManagedTensorVersioned &mt,
                      std::vector<float> &out) {
  if (mt.version.major != DLPACK_MAJOR_VERSION)
    return Status(StatusCode::kBufferError,
                  "unsupported DLPack major version " +
                      std::to_string(mt.version.major));
  const DLTensor &t = mt.dl_tensor;
  if (!zero_copy_readable(t.device))
    return unsupported_device(t.device);
  RETURN_IF_ERROR(check_compact(t));
  if (!interop::same_dtype(t.dtype, interop::kFloat32))
    return Status(StatusCode::kInvalidArgument,
                  "expected float32, got " + interop::dtype_name(t.dtype));
  out.resize(static_cast<size_t>(element_count(t)));
  const auto *src = static_cast<const char *>(t.data) + t.byte_offset;
  std::memcpy(out.data(), src, out.size() * sizeof(float)); // ok: same-tu-helper
  return interop::ok_status();
}

// The copy path of the first version, still used by old producers.
Status copy_legacy(const DLTensor &t, void *dst, size_t bytes) {
  RETURN_IF_ERROR(check_compact(t));
  const auto *src = static_cast<const char *>(t.data) + t.byte_offset;
  if (!on_host(t.device))
    return copy_from_cuda(dst, src, bytes);
  std::memcpy(dst, src, bytes); // expect: interop-unsupported-dlpack-device [same-tu-helper]
  return interop::ok_status();
}

Result<std::vector<uint8_t>> read_bytes(const DLTensor &t) {
  const int32_t type = interop::dl::device_type_of(t.device);
  if (type != interop::dl::kCPU && type != interop::dl::kCUDAHost &&
      type != interop::dl::kTPUHost)
    return unsupported_device(t.device);
  RETURN_IF_ERROR(check_compact(t));
  const auto *src = static_cast<const uint8_t *>(t.data) + t.byte_offset;
  return std::vector<uint8_t>(src, src + byte_size(t)); // ok: dlpack-device-type
}

Status copy_out(const DLTensor &t, void *dst, size_t bytes) {
  RETURN_IF_ERROR(check_compact(t));
  const auto *src = static_cast<const char *>(t.data) + t.byte_offset;
  switch (interop::dl::device_type_of(t.device)) {
  case interop::dl::kCPU:
  case interop::dl::kCUDAHost:
  case interop::dl::kTPUHost:
    std::memcpy(dst, src, bytes); // ok: dlpack-device-type
    return interop::ok_status();
  case interop::dl::kCUDA:
  case interop::dl::kCUDAManaged:
    return copy_from_cuda(dst, src, bytes);
  default: // ok: plain
    return unsupported_device(t.device);
  }
}

// Sums a float32 tensor for the metrics log.
Result<double> checksum(const DLTensor &t) {
  RETURN_IF_ERROR(check_compact(t));
  const auto *p = reinterpret_cast<const float *>(first_element(t));
  double sum = 0;
  for (int64_t i = 0; i < element_count(t); ++i)
    sum += p[i]; // expect: interop-unsupported-dlpack-device [same-tu-helper]
  return sum;
}

Result<double> checksum_checked(const DLTensor &t) {
  if (!zero_copy_readable(t.device))
    return unsupported_device(t.device);
  RETURN_IF_ERROR(check_compact(t));
  const auto *p = reinterpret_cast<const float *>(first_element(t));
  double sum = 0;
  for (int64_t i = 0; i < element_count(t); ++i)
    sum += p[i]; // ok: same-tu-helper
  return sum;
}

// --- Handing other backends' buffers to the runtime ------------------------

// A compute backend's buffer (defined elsewhere).
struct BackendBuffer {
  void *address;
  int ordinal;
  std::vector<int64_t> shape;
};

namespace {

// A managed tensor over `buffer` whose deleter frees the struct and shape
// (the buffer stays with its backend). The caller sets the device.
DLManagedTensorVersioned *wrap(const BackendBuffer &buffer) {
  auto *mt = new DLManagedTensorVersioned{};
  mt->version = interop::kDLPackVersion;
  mt->deleter = [](DLManagedTensorVersioned *self) {
    delete[] self->dl_tensor.shape;
    delete self;
  };
  auto *shape = new int64_t[buffer.shape.size()];
  std::copy(buffer.shape.begin(), buffer.shape.end(), shape);
  mt->dl_tensor.data = buffer.address;
  mt->dl_tensor.ndim = static_cast<int32_t>(buffer.shape.size());
  mt->dl_tensor.dtype = interop::kFloat32;
  mt->dl_tensor.shape = shape;
  mt->dl_tensor.strides = nullptr;
  mt->dl_tensor.byte_offset = 0;
  return mt;
}

} // namespace

// Unified-memory buffers of the CUDA backend.
Result<Array> import_managed(const BackendBuffer &buffer, const Device &gpu) {
  DLManagedTensorVersioned *mt = wrap(buffer);
  mt->dl_tensor.device = DLDevice{kDLCUDAManaged, buffer.ordinal};
  return interop::from_dlpack(mt, gpu); // ok: dlpack-device-type
}

// Staging buffers of the Vulkan backend are mapped into host memory, but
// are labelled with the backend's own device type, which the runtime has no
// platform for.
Result<Array> import_vulkan_staging(const BackendBuffer &buffer,
                                    const Device &cpu) {
  DLManagedTensorVersioned *mt = wrap(buffer);
  mt->dl_tensor.device = DLDevice{kDLVulkan, buffer.ordinal};
  return interop::from_dlpack(mt, cpu); // expect: interop-unsupported-dlpack-device [dlpack-device-type] msg="always fails"
}

// ROCm buffers: JAX maps kDLROCM, this runtime does not (CPU, CUDA, CUDA
// host, CUDA managed and TPU host only).
Result<Array> import_rocm(const BackendBuffer &buffer, const Device &target) {
  DLManagedTensorVersioned *mt = wrap(buffer);
  interop::dl::set_device_type(mt->dl_tensor.device, interop::dl::kROCM);
  mt->dl_tensor.device.device_id = buffer.ordinal;
  return interop::from_dlpack(mt, target); // expect: interop-unsupported-dlpack-device [dlpack-device-type]
}

// Host buffers of any backend are imported as CPU memory.
Result<Array> import_host(const BackendBuffer &buffer, const Device &cpu) {
  DLManagedTensorVersioned *mt = wrap(buffer);
  mt->dl_tensor.device = DLDevice{kDLCPU, 0};
  return interop::from_dlpack(mt, cpu); // ok: plain
}

} // namespace consumer
