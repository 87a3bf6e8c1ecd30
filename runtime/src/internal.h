// Internal declarations shared by the runtime's translation units.
#ifndef INTEROP_SRC_INTERNAL_H
#define INTEROP_SRC_INTERNAL_H

#include "interop/interop.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace interop {
namespace detail {

struct DeviceAccess {
  static Device make(Platform platform, int id, int process_index,
                     int local_hardware_id) {
    return Device(platform, id, process_index, local_hardware_id);
  }
};

// Marks the topology as in use (configure() fails afterwards) and returns it.
const TopologyConfig &topology_in_use();
// This process's device of `platform` with local hardware id `local_id`, or
// (when `any` is set and there is none with that id) its first device of
// that platform. Does not allocate: it runs on every import.
std::optional<Device> find_local_device(Platform platform, int local_id,
                                        bool any = false);

// Where bytes live, independent of the topology: a platform's local ordinal
// and a memory kind. CUDA device memory is the only placement the host
// cannot read directly; TPU device memory is simulated in host memory but
// is opaque to DLPack.
struct Placement {
  Platform platform = Platform::kCpu;
  int ordinal = 0;
  MemoryKind kind = MemoryKind::kDevice;

  bool host_accessible() const {
    return !(platform == Platform::kCuda && kind == MemoryKind::kDevice);
  }
  bool page_locked() const { return kind == MemoryKind::kPinnedHost; }
};
inline Placement placement_of(const Device &device, MemoryKind kind) {
  return Placement{device.platform(), device.local_hardware_id(), kind};
}
std::string placement_string(const Placement &p);

// A block of memory in one placement. Subclasses free it; an imported
// DLPack tensor's buffer calls the producer's deleter instead.
class Buffer {
public:
  Buffer(Placement placement, void *data, size_t nbytes)
      : placement_(placement), data_(data), nbytes_(nbytes) {}
  virtual ~Buffer() = default;
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;

  const Placement &placement() const { return placement_; }
  void *data() const { return data_; }
  size_t nbytes() const { return nbytes_; }

private:
  Placement placement_;
  void *data_;
  size_t nbytes_;
};

// Allocates `nbytes` (at least one byte, so data is never NULL) in
// `placement`: 64-byte aligned host memory, page-locked host memory
// (cudaHostAlloc when a GPU is usable, else page-aligned + mlock), or CUDA
// device memory.
Result<std::shared_ptr<Buffer>> allocate(const Placement &placement,
                                         size_t nbytes);

// Copies `height` rows of `width` bytes; rows start `src_pitch` /
// `dst_pitch` bytes apart. Either side may be CUDA device memory; CUDA
// copies run on the device's runtime stream, and the call waits for them
// when the destination is host memory or `wait` is set.
Status copy_2d(const Placement &dst_place, void *dst, size_t dst_pitch,
               const Placement &src_place, const void *src, size_t src_pitch,
               size_t width, size_t height, bool wait = false);
inline Status copy_bytes(const Placement &dst_place, void *dst,
                         const Placement &src_place, const void *src,
                         size_t nbytes, bool wait = false) {
  return copy_2d(dst_place, dst, nbytes, src_place, src, nbytes, nbytes, 1,
                 wait);
}

struct Shard {
  Device device;
  size_t index; // position in the sharding's device list
  std::shared_ptr<Buffer> buffer;
  void *data; // first element, inside buffer
};

struct ArrayImpl {
  std::vector<int64_t> shape;
  DLDataType dtype;
  size_t itemsize;
  Sharding sharding;
  bool read_only = false;
  std::vector<int64_t> shard_shape; // only for split shardings
  size_t shard_bytes = 0;
  std::vector<Shard> shards; // addressable shards, sharding order

  // Each shard's shape (the whole shape unless split).
  const std::vector<int64_t> &shard_dims() const {
    return sharding.kind() == Sharding::Kind::kSplit ? shard_shape : shape;
  }
};

struct ArrayAccess {
  static Array make(std::shared_ptr<const ArrayImpl> impl) {
    return Array(std::move(impl));
  }
  static const ArrayImpl &impl(const Array &array) { return *array.impl_; }
};

// A single-device array over an existing buffer.
Array make_single_device_array(std::vector<int64_t> shape, DLDataType dtype,
                               const Device &device, MemoryKind kind,
                               std::shared_ptr<Buffer> buffer, void *data,
                               bool read_only);

// The product of `dims`, or nullopt on a negative extent or overflow past
// INT64_MAX.
std::optional<int64_t> checked_element_count(const int64_t *dims, size_t n);

// "(2, 3)" / "()" / "(5,)".
std::string tuple_string(const int64_t *values, size_t n);
inline std::string tuple_string(const std::vector<int64_t> &v) {
  return tuple_string(v.data(), v.size());
}

// The CUDA backend (cuda.cpp). Without a usable GPU, or in a build without
// the CUDA toolkit, every call fails with "CUDA is not available: <why>".
namespace cuda {
// OK when at least one GPU is usable.
Status available();
// Number of usable GPUs (0 when unavailable).
int device_count();
Result<void *> malloc_device(int ordinal, size_t nbytes);
void free_device(int ordinal, void *ptr) noexcept;
Result<void *> malloc_host(size_t nbytes);
void free_host(void *ptr) noexcept;
// cudaMemcpy2DAsync(cudaMemcpyDefault) on `ordinal`'s runtime stream;
// waits for completion when `wait`.
Status copy_2d(int ordinal, void *dst, size_t dst_pitch, const void *src,
               size_t src_pitch, size_t width, size_t height, bool wait);
// Makes `consumer_stream` (a DLPack stream value: 1, 2 or a cudaStream_t)
// wait for the work queued so far on `ordinal`'s runtime stream.
Status order_consumer_after_runtime(int ordinal, intptr_t consumer_stream);
// Makes `ordinal`'s runtime stream wait for the work queued so far on
// `producer_stream` (a DLPack stream value).
Status order_runtime_after_producer(int ordinal, intptr_t producer_stream);
// The runtime stream of `ordinal` as an integer (never 0), or 0 on error.
intptr_t runtime_stream(int ordinal);
} // namespace cuda

} // namespace detail
} // namespace interop

#endif // INTEROP_SRC_INTERNAL_H
