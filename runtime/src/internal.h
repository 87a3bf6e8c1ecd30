// Internal declarations shared by the runtime's translation units.
#ifndef INTEROP_SRC_INTERNAL_H
#define INTEROP_SRC_INTERNAL_H

#include "interop/interop.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
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
// Ordinary host memory: where staging copies and host-side results live.
inline constexpr Placement kHostPlacement{Platform::kCpu, 0,
                                          MemoryKind::kUnpinnedHost};
std::string placement_string(const Placement &p);

// ---- what export and import share (exchange.cpp) --------------------------

// A device type for messages: its enumerator name ("kDLCUDA") where DLPack
// has one, else the number.
std::string device_type_text(int32_t type);
// "(kDLCUDA, 0)".
std::string dl_device_text(const DLDevice &device);
// The repr of the local Device a DLPack device denotes ("CpuDevice(id=0)"),
// or dl_device_text() where this process has none.
std::string dl_device_repr(const DLDevice &device);
// "0x7f00deadbeef", for messages that name a pointer.
std::string pointer_text(const void *ptr);

// Which side of an exchange a `stream` argument comes with; the messages
// say which.
enum class StreamUse : uint8_t { kExport, kImport };
// Validates the DLPack `stream` argument of an exchange whose memory is at
// `where` (CUDA device memory when `device_memory`) and resolves it to the
// DLPack stream value to synchronise with: -1 means none. Host memory takes
// no stream (kBufferError); for device memory None is the legacy default
// stream (1), 0 and values below -1 are kValueError.
Result<intptr_t> resolve_stream(const std::optional<intptr_t> &stream,
                                bool device_memory, const DLDevice &where,
                                StreamUse use);

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
// Host-to-host copies of at least this many bytes in all bypass the caches
// (non-temporal stores, x86-64 only): such a destination does not stay in
// cache anyway, and skipping the read-for-ownership of every destination
// line is what lets a gather of 1 KiB pieces keep up with (and pass)
// memcpy of the whole. Below it, ordinary stores win: the bytes stay in
// cache for the reader. Measured crossover on the 2-core build VM: between
// 4 and 8 MiB (docs/performance.md). glibc's memcpy makes the same switch
// at about 3/4 of a core's share of the last-level cache.
constexpr size_t kStreamingCopyBytes = size_t(8) << 20;
// Whether a host copy that writes `total_bytes` in all, possibly in many
// pieces, should use copy_host(..., streaming = true).
bool streaming_copy(size_t total_bytes);
// memcpy(dst, src, n), with non-temporal stores when `streaming`. The
// pieces of one streaming copy must be followed by end_streaming_copy()
// before the destination is handed to anyone else (they are weakly ordered).
void copy_host(void *dst, const void *src, size_t n, bool streaming);
void end_streaming_copy();

inline Status copy_bytes(const Placement &dst_place, void *dst,
                         const Placement &src_place, const void *src,
                         size_t nbytes, bool wait = false) {
  return copy_2d(dst_place, dst, nbytes, src_place, src, nbytes, nbytes, 1,
                 wait);
}

struct ArrayImpl;

struct Shard {
  Device device;
  size_t index; // position in the sharding's device list
  // The memory the shard lives in. Normally an owning reference. A zero-copy
  // import keeps its Buffer inside the ArrayImpl's own allocation (one block
  // instead of two); owning that would keep the array alive forever, so the
  // reference is then non-owning (an empty control block, use_count() == 0).
  // Take references that outlive the array with shared_buffer().
  std::shared_ptr<Buffer> buffer;
  void *data; // first element, inside buffer
};

// An array's shards. Nearly every array has exactly one, kept inline so that
// it costs no allocation of its own; more go to the heap. Neither copyable
// nor movable: an ArrayImpl is built in place and shared.
class ShardList {
public:
  ShardList() = default;
  ShardList(const ShardList &) = delete;
  ShardList &operator=(const ShardList &) = delete;
  ~ShardList() {
    for (size_t i = 0; i < size_; ++i)
      data()[i].~Shard();
    if (heap_)
      std::allocator<Shard>().deallocate(heap_, capacity_);
  }

  size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  const Shard *begin() const noexcept { return data(); }
  const Shard *end() const noexcept { return data() + size_; }
  const Shard &operator[](size_t i) const noexcept { return data()[i]; }
  const Shard &front() const noexcept { return data()[0]; }

  void reserve(size_t n) {
    if (n <= capacity_)
      return;
    Shard *grown = std::allocator<Shard>().allocate(n);
    for (size_t i = 0; i < size_; ++i) {
      new (grown + i) Shard(std::move(data()[i]));
      data()[i].~Shard();
    }
    if (heap_)
      std::allocator<Shard>().deallocate(heap_, capacity_);
    heap_ = grown;
    capacity_ = n;
  }
  // Shard{args...}, built in place. Always inlined: built out of line, the
  // shard's fields went through a temporary whose reload stalled (store
  // forwarding) on every import.
  template <typename... Args>
  __attribute__((always_inline)) void emplace_back(Args &&...args) {
    if (size_ == capacity_)
      reserve(2 * capacity_);
    new (data() + size_) Shard{std::forward<Args>(args)...};
    ++size_;
  }

private:
  Shard *data() noexcept {
    return heap_ ? heap_ : std::launder(reinterpret_cast<Shard *>(inline_));
  }
  const Shard *data() const noexcept {
    return heap_ ? heap_
                 : std::launder(reinterpret_cast<const Shard *>(inline_));
  }
  alignas(Shard) unsigned char inline_[sizeof(Shard)];
  Shard *heap_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 1;
};

struct ArrayImpl {
  ArrayImpl(std::vector<int64_t> shape_, DLDataType dtype_, Sharding sharding_,
            bool read_only_)
      : shape(std::move(shape_)), dtype(dtype_), itemsize(dtype_size(dtype_)),
        sharding(std::move(sharding_)), read_only(read_only_) {}

  std::vector<int64_t> shape;
  DLDataType dtype;
  size_t itemsize;
  Sharding sharding;
  bool read_only = false;
  std::vector<int64_t> shard_shape; // only for split shardings
  size_t shard_bytes = 0;
  ShardList shards; // addressable shards, sharding order

  // Each shard's shape (the whole shape unless split).
  const std::vector<int64_t> &shard_dims() const {
    return sharding.kind() == Sharding::Kind::kSplit ? shard_shape : shape;
  }
};

// An owning reference to `shard`'s buffer, `shard` being one of `owner`'s
// shards: the shard's own reference, or, for a buffer inside the array's
// allocation, one that shares the array's ownership.
inline std::shared_ptr<Buffer>
shared_buffer(const std::shared_ptr<const ArrayImpl> &owner,
              const Shard &shard) {
  if (shard.buffer.use_count() != 0)
    return shard.buffer;
  return std::shared_ptr<Buffer>(owner, shard.buffer.get());
}

struct ArrayAccess {
  static Array make(std::shared_ptr<const ArrayImpl> impl) {
    return Array(std::move(impl));
  }
  static const ArrayImpl &impl(const Array &array) { return *array.impl_; }
  static const std::shared_ptr<const ArrayImpl> &shared(const Array &array) {
    return array.impl_;
  }
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
// The runtime stream of `ordinal` as a DLPack stream value (a cudaStream_t
// as an integer: never 0, 1, 2 or -1); created on first use.
Result<intptr_t> runtime_stream(int ordinal);
// The DLPack device of CUDA memory at `ptr`: kDLCUDA (device memory),
// kDLCUDAManaged or kDLCUDAHost (pinned or registered host memory) with the
// GPU's ordinal. kValueError for memory CUDA does not know.
Result<DLDevice> pointer_device(const void *ptr);
// Blocks the calling thread until the work queued on `stream` (a DLPack
// stream value other than -1) is done.
Status wait_for_stream(intptr_t stream);
} // namespace cuda

} // namespace detail
} // namespace interop

#endif // INTEROP_SRC_INTERNAL_H
