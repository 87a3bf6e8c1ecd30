// DLPack export (__dlpack__, __dlpack_device__).
#include "exchange_internal.h"
#include "internal.h"

#include <new>
#include <string>
#include <type_traits>

namespace interop {

using detail::ArrayAccess;
using detail::ArrayImpl;
using detail::Placement;

// ---- ManagedTensor ------------------------------------------------------

const DLTensor &ManagedTensor::tensor() const noexcept {
  return versioned_ ? versioned_->dl_tensor : legacy_->dl_tensor;
}

uint64_t ManagedTensor::flags() const noexcept {
  return versioned_ ? versioned_->flags : 0;
}

const char *ManagedTensor::capsule_name() const noexcept {
  return versioned_ ? "dltensor_versioned" : legacy_ ? "dltensor" : nullptr;
}

namespace {

// ---- the export block ---------------------------------------------------

// One heap block per export: the managed struct, the reference that keeps
// the memory alive, then shape[ndim] and strides[ndim].
template <typename MT> struct ExportBlock {
  MT managed;
  std::shared_ptr<detail::Buffer> owner;
  int64_t *dims() { return reinterpret_cast<int64_t *>(this + 1); }
};
static_assert(sizeof(ExportBlock<DLManagedTensor>) % alignof(int64_t) == 0);
static_assert(sizeof(ExportBlock<DLManagedTensorVersioned>) %
                  alignof(int64_t) ==
              0);

template <typename MT> void delete_export(MT *self) noexcept {
  if (!self)
    return;
  auto *block = static_cast<ExportBlock<MT> *>(self->manager_ctx);
  block->~ExportBlock<MT>();
  ::operator delete(block);
}

// The export block for `shape` and `dtype` at `data` on `device`, owning
// `owner`; `flags` goes to a versioned struct. Every field of the struct is
// written (the block is not zeroed first). nullptr when out of memory.
template <typename MT>
MT *make_export(const std::vector<int64_t> &shape, DLDataType dtype,
                std::shared_ptr<detail::Buffer> owner, void *data,
                DLDevice device, uint64_t flags) {
  size_t ndim = shape.size();
  void *raw = ::operator new(
      sizeof(ExportBlock<MT>) + 2 * ndim * sizeof(int64_t), std::nothrow);
  if (!raw)
    return nullptr;
  auto *block = new (raw) ExportBlock<MT>;
  block->owner = std::move(owner);
  int64_t *dims = block->dims();
  int64_t *strides = dims + ndim;
  int64_t stride = 1;
  for (size_t i = ndim; i-- > 0;) {
    dims[i] = shape[i];
    strides[i] = stride;
    // Only an empty array's extents can overflow here (a non-empty one has
    // fewer than 2^63 elements); any stride describes it, so stop growing.
    if (__builtin_mul_overflow(stride, shape[i] > 0 ? shape[i] : 1, &stride))
      stride = 0;
  }
  MT &m = block->managed;
  if constexpr (std::is_same<MT, DLManagedTensorVersioned>::value) {
    m.version = kDLPackVersion;
    m.flags = flags;
  }
  m.manager_ctx = block;
  m.deleter = &delete_export<MT>;
  DLTensor &t = m.dl_tensor;
  t.data = data;
  t.device = device;
  t.ndim = static_cast<int32_t>(ndim);
  t.dtype = dtype;
  t.shape = dims;
  t.strides = strides;
  t.byte_offset = 0;
  return &m;
}

DLDevice make_dl_device(int32_t type, int32_t id) {
  DLDevice d{kDLCPU, 0}; // the type is stored raw: it may be kDLTPUHost
  dl::set_device_type(d, type);
  d.device_id = id;
  return d;
}

// True when `ordinal` is a local device of `platform` in the topology.
bool is_local_ordinal(Platform platform, int ordinal) {
  return detail::find_local_device(platform, ordinal).has_value();
}

bool same_placement(const Placement &a, const Placement &b) {
  return a.platform == b.platform && a.ordinal == b.ordinal && a.kind == b.kind;
}

// Where an export of `array` lives by default (dlpack_device()), or JAX's
// refusal: a sharded array, another process's, TPU memory not pinned.
Status native_device(const Array &array, DLDevice &out) {
  const ArrayImpl &a = ArrayAccess::impl(array);
  if (array.num_devices() != 1)
    return Status(StatusCode::kBufferError,
                  "__dlpack__ only supported for unsharded arrays.");
  if (a.shards.empty())
    return Status(StatusCode::kBufferError,
                  "Couldn't get local_hardware_id for __dlpack__");
  int32_t id = a.shards.front().device.local_hardware_id();
  switch (array.platform()) {
  case Platform::kCpu:
    out = make_dl_device(dl::kCPU, 0);
    return Status();
  case Platform::kCuda:
    switch (array.memory_kind()) {
    case MemoryKind::kDevice:
      out = make_dl_device(dl::kCUDA, id);
      return Status();
    case MemoryKind::kPinnedHost:
      out = make_dl_device(dl::kCUDAHost, id);
      return Status();
    case MemoryKind::kUnpinnedHost:
      out = make_dl_device(dl::kCPU, 0);
      return Status();
    }
    break;
  case Platform::kTpu:
    if (array.memory_kind() == MemoryKind::kPinnedHost) {
      out = make_dl_device(dl::kTPUHost, id);
      return Status();
    }
    return Status(StatusCode::kBufferError,
                  "__dlpack__ device only supported for TPU pinned host "
                  "memory");
  }
  return Status(StatusCode::kInternal, "unknown platform");
}

// Where an export lands: the requested DLPack device (`out`, the native one
// when none was asked for) as a placement, and whether the data must move
// there. Refuses a device type the runtime cannot produce and a device this
// process lacks.
Status export_target(const DLDevice &native, const Placement &src,
                     DLDevice &out, Placement &dst, bool &move) {
  int32_t out_type = dl::device_type_of(out);
  dst = src;
  move = false;
  if (out_type == dl::device_type_of(native) &&
      out.device_id == native.device_id) {
    out = native;
    return Status();
  }
  if (out_type == dl::kCPU) {
    if (!src.host_accessible()) {
      dst = detail::kHostPlacement;
      move = true;
    }
    return Status();
  }
  if (out_type == dl::kCUDA || out_type == dl::kCUDAHost ||
      out_type == dl::kTPUHost) {
    Platform platform =
        out_type == dl::kTPUHost ? Platform::kTpu : Platform::kCuda;
    if (!is_local_ordinal(platform, out.device_id))
      return Status(StatusCode::kBufferError,
                    "The device specification passed to to_dlpack names " +
                        detail::dl_device_text(out) +
                        ", which is not a device of this process");
    dst = Placement{platform, out.device_id,
                    out_type == dl::kCUDA ? MemoryKind::kDevice
                                          : MemoryKind::kPinnedHost};
    move = !same_placement(dst, src);
    return Status();
  }
  return Status(StatusCode::kBufferError,
                "The device specification passed to to_dlpack contains an "
                "unsupported device type (DLDeviceType: " +
                    detail::device_type_text(out_type) + ")");
}

// The copy=kNever refusal of an export that must copy: JAX's wording when
// the data must move, the legacy struct's limit for a read-only array.
Status refuse_export_copy(bool move, const DLDevice &out,
                          const Device &source) {
  if (move)
    return Status(StatusCode::kValueError,
                  "Specified device=" + detail::dl_device_repr(out) +
                      " which requires a copy since the source device is " +
                      source.to_string() +
                      ", however copy=False. Set copy=True or copy=None to "
                      "perform the requested operation.");
  return Status(StatusCode::kBufferError,
                "cannot export a read-only array as a legacy "
                "DLManagedTensor without a copy: the legacy struct cannot "
                "mark memory read-only; pass max_version >= (1, 0) or "
                "allow a copy");
}

} // namespace

Result<DLDevice> dlpack_device(const Array &array) {
  DLDevice device{kDLCPU, 0};
  if (Status s = native_device(array, device); !s.ok())
    return s;
  return device;
}

Result<ManagedTensor> to_dlpack(const Array &array,
                                const ExportOptions &options) {
  return detail::export_unlocked(array, options, {});
}

Result<ManagedTensor> detail::export_unlocked(const Array &array,
                                              const ExportOptions &options,
                                              const CopyUnlock &unlock) {
  if (array.num_devices() > 1)
    return Status(StatusCode::kBufferError,
                  "to_dlpack can only pack a dlpack tensor from an array on a "
                  "singular device, but an array with a Sharding over " +
                      std::to_string(array.num_devices()) +
                      " devices was provided.");
  DLDevice native{kDLCPU, 0};
  if (Status s = native_device(array, native); !s.ok())
    return s;
  const ArrayImpl &a = ArrayAccess::impl(array);
  const detail::Shard &shard = a.shards.front();
  const Placement src = shard.buffer->placement();
  bool legacy = options.max_version.major < 1;

  DLDevice out = options.dl_device.value_or(native);
  Placement dst;
  bool move = false;
  if (Status s = export_target(native, src, out, dst, move); !s.ok())
    return s;
  // The common export, host memory without a stream, has nothing to check.
  intptr_t stream = -1;
  if (options.stream || !dst.host_accessible()) {
    Result<intptr_t> resolved =
        detail::resolve_stream(options.stream, !dst.host_accessible(), out,
                               detail::StreamUse::kExport);
    if (!resolved.ok())
      return resolved.status();
    stream = *resolved;
  }
  bool copy =
      move || options.copy == CopyMode::kAlways || (legacy && a.read_only);
  if (copy && options.copy == CopyMode::kNever)
    return refuse_export_copy(move, out, shard.device);

  std::shared_ptr<detail::Buffer> owner;
  void *data = shard.data;
  if (copy) {
    auto buffer = detail::allocate(dst, a.shard_bytes);
    if (!buffer.ok())
      return buffer.status();
    Unlocked unlocked(unlock, a.shard_bytes);
    if (Status s = detail::copy_bytes(dst, (*buffer)->data(), src, shard.data,
                                      a.shard_bytes);
        !s.ok())
      return s;
    owner = std::move(*buffer);
    data = owner->data();
  } else {
    owner = detail::shared_buffer(ArrayAccess::shared(array), shard);
  }
  if (stream != -1)
    if (Status s =
            detail::cuda::order_consumer_after_runtime(dst.ordinal, stream);
        !s.ok())
      return s;

  if (legacy) {
    DLManagedTensor *m = make_export<DLManagedTensor>(
        a.shard_dims(), a.dtype, std::move(owner), data, out, 0);
    if (!m)
      return Status(StatusCode::kResourceExhausted,
                    "cannot allocate the DLManagedTensor");
    return ManagedTensor(m);
  }
  uint64_t flags = copy ? dl::kFlagIsCopied
                        : (a.read_only ? dl::kFlagReadOnly : uint64_t{0});
  DLManagedTensorVersioned *m = make_export<DLManagedTensorVersioned>(
      a.shard_dims(), a.dtype, std::move(owner), data, out, flags);
  if (!m)
    return Status(StatusCode::kResourceExhausted,
                  "cannot allocate the DLManagedTensorVersioned");
  return ManagedTensor(m);
}

} // namespace interop
