// interop/array.h - a possibly sharded, immutable n-d array.
#ifndef INTEROP_ARRAY_H
#define INTEROP_ARRAY_H

#include "interop/device.h"
#include "interop/dlpack.h"
#include "interop/dtype.h"
#include "interop/export.h"
#include "interop/sharding.h"
#include "interop/status.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace interop {

namespace detail {
struct ArrayImpl;
struct ArrayAccess;
} // namespace detail

// An immutable array of `shape()` elements of `dtype()`, distributed over the
// devices of `sharding()`. Only shards on this process's devices hold memory
// here; each is stored compact row-major (C order) in the sharding's memory
// kind. Copying an Array is cheap and shares the buffers (like a jax.Array
// reference); the memory is freed when the last Array (or DLPack export)
// referring to it goes away. Thread-safe for concurrent readers.
class INTEROP_API Array {
public:
  // Copies `data_bytes` bytes of C-ordered host data describing the GLOBAL
  // array onto `sharding`: each addressable device receives its shard (its
  // block along the split axis, or everything when replicated); shards of
  // other processes' devices are skipped, as with
  // jax.make_array_from_callback. `data` may be NULL only when the array has
  // no elements. Errors: kInvalidArgument for a negative dimension, a shape
  // whose byte size overflows, or `data_bytes` != the array's byte size;
  // kInvalidArgument for an unsupported dtype; kValueError when the split
  // axis is out of range or its extent is not divisible by the device count;
  // kRuntimeError when the platform is unavailable (CUDA without a GPU);
  // kResourceExhausted when memory cannot be allocated or page-locked.
  static Result<Array> from_host(const void *data, size_t data_bytes,
                                 std::vector<int64_t> shape, DLDataType dtype,
                                 const Sharding &sharding);

  // Global shape, in elements per dimension.
  const std::vector<int64_t> &shape() const noexcept;
  int ndim() const noexcept { return static_cast<int>(shape().size()); }
  DLDataType dtype() const noexcept;
  // Number of elements of the global array (1 for 0-d).
  int64_t size() const noexcept;
  // Bytes of the global array: size() * dtype_size(dtype()).
  size_t nbytes() const noexcept;
  const Sharding &sharding() const noexcept;
  size_t num_devices() const noexcept { return sharding().num_devices(); }
  bool is_single_device() const noexcept {
    return sharding().is_single_device();
  }
  bool is_fully_addressable() const noexcept {
    return sharding().is_fully_addressable();
  }
  bool is_fully_replicated() const noexcept {
    return sharding().is_fully_replicated();
  }
  MemoryKind memory_kind() const noexcept { return sharding().memory_kind(); }
  Platform platform() const noexcept { return sharding().platform(); }
  // True when the array views memory its producer marked read-only (a
  // DLPack import with DLPACK_FLAG_BITMASK_READ_ONLY). Exports of it carry
  // the READ_ONLY flag.
  bool read_only() const noexcept;

  // This process's shards, in sharding device order, each a single-device
  // Array sharing this array's memory (shape: the shard's shape).
  std::vector<Array> addressable_shards() const;
  // addressable_shards()[index], or kValueError naming the index and count.
  Result<Array> addressable_data(size_t index) const;

  // The address of the only shard's first element (a device pointer for CUDA
  // device memory). kValueError "unsafe_buffer_pointer() is supported only
  // for unsharded arrays." when the array does not have exactly one
  // addressable shard on exactly one device (JAX's guard for sharded
  // arrays).
  Result<uintptr_t> unsafe_buffer_pointer() const;

  // Copies the global array, C-ordered, into `dst` (host memory of
  // `dst_bytes` bytes, which must equal nbytes()). Waits for the copy.
  // kRuntimeError when shards live on other processes' devices (JAX's
  // "Fetching value for `jax.Array` that spans non-addressable ..." message).
  Status copy_to_host(void *dst, size_t dst_bytes) const;

  // e.g. "Array(shape=(2, 3), dtype=float32, sharding=...)".
  std::string to_string() const;

private:
  friend struct detail::ArrayAccess;
  explicit Array(std::shared_ptr<const detail::ArrayImpl> impl)
      : impl_(std::move(impl)) {}
  std::shared_ptr<const detail::ArrayImpl> impl_;
};

// The single-device copy JAX's sharded-export error recommends before an
// exchange: copies every
// shard of `array` into one array on `device` (an addressable device of any
// platform) in `memory_kind`. When `array` already lives entirely on `device`
// in `memory_kind`, returns it without copying. Errors: kRuntimeError when
// `device` is not addressable or a shard lives on another process's device;
// kRuntimeError when a backend is unavailable; kResourceExhausted when memory
// cannot be allocated.
INTEROP_API Result<Array> gather(const Array &array, const Device &device,
                                 MemoryKind memory_kind = MemoryKind::kDevice);

// jax.device_put for an Array: places a copy of `array` on `devices` in
// `memory_kind`.
// - One addressable device: gather() onto it (the array itself when it
//   already lives there in that memory kind).
// - Several devices (or another process's device): a new array split along
//   `axis` over `devices` in that order (a negative axis counts from the
//   end), or replicated on all of them when `axis` is nullopt. The data goes
//   through host memory; shards on other processes' devices are skipped, as
//   jax.make_array_from_callback does. `axis` is not read for one device.
// Errors: kValueError "device_put(): the device list is empty"; kValueError
// "device_put(): axis A is out of range for an array of shape (..)"; the
// Sharding factories' errors (mixed platforms, a device listed twice); the
// Array::from_host() errors (an extent not divisible by the device count);
// gather()'s and copy_to_host()'s (shards on other processes' devices).
// Blocks until the copies are complete. Safe to call from several threads.
INTEROP_API Result<Array>
device_put(const Array &array, std::vector<Device> devices,
           MemoryKind memory_kind = MemoryKind::kDevice,
           std::optional<int64_t> axis = 0);

} // namespace interop

#endif // INTEROP_ARRAY_H
