// interop/exchange.h - DLPack export/import and the CUDA array interface.
//
// Ownership in one sentence: to_dlpack() returns a ManagedTensor that owns
// the exported DLPack struct until release(); from_dlpack() takes ownership of
// the struct it is given on every path, success or failure, and calls its
// deleter exactly once (immediately on failure or after a copy, later when
// the last Array sharing the memory goes away on a zero-copy import).
#ifndef INTEROP_EXCHANGE_H
#define INTEROP_EXCHANGE_H

#include "interop/array.h"
#include "interop/device.h"
#include "interop/dlpack.h"
#include "interop/export.h"
#include "interop/status.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace interop {

// The Python `copy` argument: None, True, False.
enum class CopyMode : uint8_t {
  kIfNeeded, // None: copy only when the request cannot be met otherwise
  kAlways,   // True: always copy; a DLPack export sets IS_COPIED
  kNever,    // False: never copy; fail when a copy would be needed
};

// The DLPack ABI version this runtime produces and consumes (1.1).
inline constexpr DLPackVersion kDLPackVersion = {DLPACK_MAJOR_VERSION,
                                                 DLPACK_MINOR_VERSION};

// What the consumer asked __dlpack__ for.
struct ExportOptions {
  // The newest ABI the consumer understands. major >= 1: the versioned
  // struct (DLManagedTensorVersioned, version kDLPackVersion). major < 1
  // (Python's max_version=None maps to {0, 0}): the legacy DLManagedTensor,
  // which cannot carry READ_ONLY or IS_COPIED.
  DLPackVersion max_version = kDLPackVersion;
  // The device the consumer wants the data on, as DLPack (device_type read
  // raw through dl::device_type_of, so 20 = kDLTPUHost is fine); nullopt
  // means "where it is" (dlpack_device()). Supported requests: the array's
  // own DLPack device; kDLCPU for any host memory (zero-copy) or for CUDA
  // device memory (a copy); kDLCUDA / kDLCUDAHost for CPU or CUDA arrays (a
  // copy unless already there). Anything else: kBufferError.
  std::optional<DLDevice> dl_device;
  CopyMode copy = CopyMode::kIfNeeded;
  // The consumer's stream (the Python `stream` argument; nullopt = None).
  // CUDA device memory: nullopt or 1 = legacy default stream, 2 = per-thread
  // default stream, > 2 = a cudaStream_t value, -1 = do not synchronise,
  // 0 and other negatives are rejected (kValueError). The consumer's stream
  // is made to wait (cudaStreamWaitEvent) on an event recorded after the
  // producer's pending work; the host never blocks for this. When the
  // export lands in host memory (CPU, pinned or unpinned host, or a copy to
  // kDLCPU): must be nullopt, else kBufferError.
  std::optional<intptr_t> stream;
};

// The owning result of to_dlpack(): exactly one of a versioned or a legacy
// managed tensor. Destroying it (without release()) calls the tensor's
// deleter once. Move-only.
class INTEROP_API ManagedTensor {
public:
  ManagedTensor() noexcept = default;
  explicit ManagedTensor(DLManagedTensorVersioned *versioned) noexcept
      : versioned_(versioned) {}
  explicit ManagedTensor(DLManagedTensor *legacy) noexcept : legacy_(legacy) {}
  // Inline (like release and reset): an export moves its ManagedTensor out
  // of the Result and into the consumer's hands on every call.
  ManagedTensor(ManagedTensor &&other) noexcept
      : versioned_(other.versioned_), legacy_(other.legacy_) {
    other.versioned_ = nullptr;
    other.legacy_ = nullptr;
  }
  ManagedTensor &operator=(ManagedTensor &&other) noexcept {
    if (this != &other) {
      reset();
      versioned_ = other.versioned_;
      legacy_ = other.legacy_;
      other.versioned_ = nullptr;
      other.legacy_ = nullptr;
    }
    return *this;
  }
  ManagedTensor(const ManagedTensor &) = delete;
  ManagedTensor &operator=(const ManagedTensor &) = delete;
  ~ManagedTensor() { reset(); }

  // True when this owns a DLManagedTensorVersioned.
  bool is_versioned() const noexcept { return versioned_ != nullptr; }
  // True when this owns nothing (moved from or released).
  bool empty() const noexcept { return !versioned_ && !legacy_; }
  // The owned structs (nullptr when not of that kind); still owned by this.
  DLManagedTensorVersioned *versioned() const noexcept { return versioned_; }
  DLManagedTensor *legacy() const noexcept { return legacy_; }
  // The tensor description of whichever struct is owned. Precondition:
  // !empty().
  const DLTensor &tensor() const noexcept;
  // Flags of the versioned struct; 0 for a legacy one.
  uint64_t flags() const noexcept;
  // The PyCapsule name for this kind: "dltensor_versioned" or "dltensor";
  // nullptr when empty.
  const char *capsule_name() const noexcept;

  // Gives up ownership and returns the struct (DLManagedTensorVersioned* or
  // DLManagedTensor*, see is_versioned()/capsule_name()); the caller must
  // arrange for its deleter to run exactly once. nullptr when empty.
  void *release() noexcept {
    void *out = versioned_ ? static_cast<void *>(versioned_)
                           : static_cast<void *>(legacy_);
    versioned_ = nullptr;
    legacy_ = nullptr;
    return out;
  }
  DLManagedTensorVersioned *release_versioned() noexcept {
    DLManagedTensorVersioned *out = versioned_;
    versioned_ = nullptr;
    return out;
  }
  DLManagedTensor *release_legacy() noexcept {
    DLManagedTensor *out = legacy_;
    legacy_ = nullptr;
    return out;
  }
  // Calls the deleter (if any) and becomes empty.
  void reset() noexcept {
    if (versioned_ && versioned_->deleter)
      versioned_->deleter(versioned_);
    if (legacy_ && legacy_->deleter)
      legacy_->deleter(legacy_);
    versioned_ = nullptr;
    legacy_ = nullptr;
  }

private:
  DLManagedTensorVersioned *versioned_ = nullptr;
  DLManagedTensor *legacy_ = nullptr;
};

// __dlpack_device__: where a DLPack export of `array` lives by default.
// CPU: (kDLCPU, 0). CUDA device memory: (kDLCUDA, ordinal); CUDA pinned host:
// (kDLCUDAHost, ordinal); CUDA unpinned host: (kDLCPU, 0). TPU pinned host:
// (kDLTPUHost=20, local hardware id). Errors (all kBufferError, JAX's
// wording): more than one shard "__dlpack__ only supported for unsharded
// arrays."; a non-addressable device "Couldn't get local_hardware_id for
// __dlpack__"; TPU memory other than pinned host "__dlpack__ device only
// supported for TPU pinned host memory" (JAX's TPU export error).
INTEROP_API Result<DLDevice> dlpack_device(const Array &array);

// __dlpack__: exports `array` (zero-copy unless a copy is requested or
// needed). Exactly one heap allocation per zero-copy export (struct, shape
// and strides in one block); strides are always set (compact row-major);
// byte_offset is 0. The export keeps the array's memory alive until the
// deleter runs. Errors: JAX's sharded-export kBufferError ("to_dlpack can
// only pack a dlpack tensor from an array on a singular device, ...") for a
// sharding over more than one device, fully replicated ones too; the
// dlpack_device() errors (TPU device memory among them); the ExportOptions
// errors; with copy=kNever and a needed copy, kValueError (JAX's "Specified
// device=... which requires a copy
// ..." wording) and, for a read-only array requested as legacy,
// kBufferError.
INTEROP_API Result<ManagedTensor> to_dlpack(const Array &array,
                                            const ExportOptions &options = {});

// How from_dlpack places the imported data.
struct ImportOptions {
  CopyMode copy = CopyMode::kIfNeeded;
  // The stream the producer synchronised the data to (what the consumer
  // passed as __dlpack__'s stream, best dlpack_consumer_stream()); the
  // runtime's stream on that GPU waits for it before copying or handing out
  // the memory, so every use follows the producer's work. Same values as
  // ExportOptions::stream; nullopt = legacy default stream. Must be nullopt
  // for tensors in host memory (kBufferError otherwise).
  std::optional<intptr_t> stream;
  // The memory kind of the result; nullopt: the source's memory kind when the
  // data stays where it is (e.g. kDLTPUHost -> pinned host), else kDevice.
  std::optional<MemoryKind> memory_kind;
};

// Imports a DLPack tensor onto the addressable device `target`, taking
// ownership of `tensor` on every path (the deleter, when non-NULL, runs
// exactly once). Zero-copy when the data already sits where the result must
// live and is compact row-major; otherwise copies (unless copy=kNever).
// Validation order and errors:
//   NULL tensor: kInvalidArgument (nothing to delete);
//   versioned major != 1: kBufferError, after calling the deleter and reading
//     no field but version and deleter;
//   `target` not addressable: kRuntimeError "DLPack is only supported for
//     devices addressable by the current process." (JAX's error);
//   ndim < 0 or > 64, NULL shape with ndim > 0, negative extents, element or
//     byte counts that overflow, stride*extent products that overflow:
//     kInvalidArgument naming the values;
//   dtype unsupported or lanes != 1: kInvalidArgument (check_dtype());
//   a device type with no platform here: kTypeError "Array passed to
//     from_dlpack is on unsupported device type (DLDeviceType: T, array: A"
//     (JAX's error);
//   NULL data with elements: kInvalidArgument;
//   copy=kNever with a needed copy (other device, non-compact strides):
//     kValueError / kBufferError naming device or strides;
//   CUDA data without a usable GPU: kRuntimeError "CUDA is not available: ...".
// Strides may be NULL (compact), zero (broadcast), negative or gapped; the
// non-compact ones are copied into compact form. byte_offset is honoured.
// READ_ONLY makes the result read_only() on a zero-copy import.
INTEROP_API Result<Array> from_dlpack(DLManagedTensorVersioned *tensor,
                                      const Device &target,
                                      const ImportOptions &options = {});
INTEROP_API Result<Array> from_dlpack(DLManagedTensor *tensor,
                                      const Device &target,
                                      const ImportOptions &options = {});
// The same onto a Sharding (the Python `device=` may be one): it must have
// exactly one device, else kValueError "from_dlpack can only unpack a dlpack
// tensor onto a singular device, but a Sharding with N devices was
// provided." (after calling the deleter). Its memory kind is used unless
// options.memory_kind is set.
INTEROP_API Result<Array> from_dlpack(DLManagedTensorVersioned *tensor,
                                      const Sharding &target,
                                      const ImportOptions &options = {});
INTEROP_API Result<Array> from_dlpack(DLManagedTensor *tensor,
                                      const Sharding &target,
                                      const ImportOptions &options = {});
// The same onto the local device the tensor reports (local_device_for()).
INTEROP_API Result<Array> from_dlpack(DLManagedTensorVersioned *tensor,
                                      const ImportOptions &options = {});
INTEROP_API Result<Array> from_dlpack(DLManagedTensor *tensor,
                                      const ImportOptions &options = {});

// The addressable device a DLPack device denotes: kDLCPU -> CPU device with
// that local id (0 when the id is unknown here, as host memory is shared);
// kDLCUDA/kDLCUDAHost/kDLCUDAManaged -> that CUDA ordinal; kDLTPUHost -> that
// TPU device. Unknown types: JAX's unsupported-device-type kTypeError (see
// from_dlpack()), with `array_repr` as the array part of the message; known
// types without a device here: kRuntimeError naming the type and id.
INTEROP_API Result<Device>
local_device_for(DLDevice dl_device,
                 std::string_view array_repr = "<DLTensor>");

// The `stream` a consumer passes to a producer's __dlpack__ before importing
// its tensor with from_dlpack(), for a tensor the producer reports on
// `dl_device` (what its __dlpack_device__ returned):
// - CUDA device or managed memory: this runtime's own stream on that GPU (a
//   cudaStream_t as an integer; never 0, 1, 2 or -1). The producer makes it
//   wait for its pending work; the import's copies and every later use of the
//   returned array are ordered on it. Pass the same value as
//   ImportOptions::stream.
// - host memory (CPU, CUDA pinned host, TPU pinned host): nullopt, the
//   protocol's None.
// Errors, so that a consumer fails before it asks the producer for anything:
// a device type with no platform here, JAX's unsupported-device-type
// kTypeError with `array_repr`; a device of a known type that this process
// does not have (no usable GPU, an ordinal past the count), kRuntimeError
// naming the device (both as local_device_for()); a CUDA stream that cannot
// be created, kRuntimeError naming the CUDA call.
INTEROP_API Result<std::optional<intptr_t>>
dlpack_consumer_stream(DLDevice dl_device,
                       std::string_view array_repr = "<DLTensor>");

// A describing string for messages: "DLTensor(shape=(2, 3), dtype=float32,
// device=(kDLCPU, 0), strides=(3, 1), byte_offset=0)". Reads only the fields
// it prints and survives NULL shape/strides.
INTEROP_API std::string describe_dltensor(const DLTensor &tensor);

// __cuda_array_interface__ version 3 for a CUDA array.
struct CudaArrayInterface {
  // Extents in elements, one per dimension.
  std::vector<int64_t> shape;
  // NumPy array-interface type string: "<f4", "|b1", "<c8", ...
  std::string typestr;
  // Device pointer of the first element (the `data` tuple's first item).
  uintptr_t data = 0;
  // The `data` tuple's second item.
  bool read_only = false;
  // Always 3.
  int version = 3;
  // Byte strides, one per dimension; empty means C-contiguous (Python None).
  // Arrays of this runtime are always C-contiguous.
  std::vector<int64_t> strides;
  // The stream the producer's pending work is on; the consumer must order its
  // work after it. nullopt (Python None) means no synchronisation is needed.
  // Never 0.
  std::optional<intptr_t> stream;
};

// __cuda_array_interface__ (versions 2 and 3) as a consumer: imports the
// memory `cai` describes, which `owner` keeps alive (it is released once when
// a copy is done, or when the last Array viewing the memory goes away), with
// from_dlpack()'s placement, validations and errors (onto `target`, or onto
// the GPU that holds the memory when nullopt). Zero-copy where from_dlpack()
// would be; a CAI of device memory is never copied to the host implicitly.
// - cai.version: 2 or 3, else kValueError.
// - cai.typestr: "<f4", "|b1", "<c8", ... little-endian or byte-order-free
//   NumPy type strings of bool, int, uint, float and complex types ('=' is
//   taken as little-endian); anything else kValueError naming it.
// - cai.strides: byte strides (empty: C-contiguous), each a multiple of the
//   item size, else kValueError naming the strides and the item size.
// - cai.stream: the producer's stream (version 3): the runtime's stream on
//   that GPU waits for the work queued on it so far before any use of the
//   data; nullopt: no synchronisation. 0 is refused (kValueError), as the
//   protocol forbids it; 1 and 2 are the legacy and per-thread default
//   streams. options.stream is ignored: the CAI's own stream decides.
// - cai.data: the GPU is found from the pointer (cudaPointerGetAttributes):
//   device or managed memory of a GPU of this process; anything else is
//   kValueError naming the pointer; without a usable GPU, kRuntimeError "CUDA
//   is not available: ...". A zero-size array may have data 0 (the first GPU
//   is then assumed).
// `owner` runs on whichever thread releases the last reference.
INTEROP_API Result<Array>
from_cuda_array_interface(const CudaArrayInterface &cai,
                          std::shared_ptr<const void> owner,
                          const std::optional<Device> &target = std::nullopt,
                          const ImportOptions &options = {});

// Errors: JAX's kValueError "__cuda_array_interface__() is supported
// only for unsharded arrays." when the array does not have exactly one
// addressable shard on exactly one device; kAttributeError
// "__cuda_array_interface__ is only defined for NVidia GPU buffers." for
// non-CUDA arrays and for CUDA host memory kinds; kAttributeError
// "__cuda_array_interface__ is not supported for BF16 buffers." (and the
// float8 types, named like XLA: F8E4M3FN, ...).
INTEROP_API Result<CudaArrayInterface> cuda_array_interface(const Array &array);

} // namespace interop

#endif // INTEROP_EXCHANGE_H
