// DLPack import (from_dlpack): validation, placement, zero-copy or copy.
#include "exchange_internal.h"
#include "internal.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <type_traits>

namespace interop {

using detail::Placement;

namespace {

constexpr int32_t kMaxImportDims = 64;

// Owns a foreign managed tensor: calls its deleter exactly once, when the
// owner is destroyed (an import that failed), unless release()d (a zero-copy
// import) or reset() (a copy) first. With `delete_on_failure` false the
// caller keeps a tensor whose import failed (detail::import_keep_on_failure).
template <typename MT> class DeleterGuard {
public:
  explicit DeleterGuard(MT *m, bool delete_on_failure = true)
      : m_(m), delete_on_failure_(delete_on_failure) {}
  ~DeleterGuard() {
    if (m_ && m_->deleter && delete_on_failure_)
      m_->deleter(m_);
  }
  DeleterGuard(const DeleterGuard &) = delete;
  DeleterGuard &operator=(const DeleterGuard &) = delete;
  MT *get() const { return m_; }
  MT *release() {
    MT *m = m_;
    m_ = nullptr;
    return m;
  }
  // Runs the deleter now (after a copy finished).
  void reset() {
    MT *m = release();
    if (m && m->deleter)
      m->deleter(m);
  }

private:
  MT *m_;
  bool delete_on_failure_;
};

// A zero-copy import: the producer's memory, returned through its deleter
// when the last Array or export using it goes away.
template <typename MT> class ExternalBuffer final : public detail::Buffer {
public:
  ExternalBuffer(Placement p, void *data, size_t nbytes, MT *m)
      : Buffer(p, data, nbytes), m_(m) {}
  ~ExternalBuffer() override {
    if (m_->deleter)
      m_->deleter(m_);
  }

private:
  MT *m_;
};

// A zero-copy import in one heap block: the array and the buffer that
// returns the producer's memory. The array's shard refers to the buffer
// without owning it (see detail::Shard::buffer); the block goes, and the
// producer's deleter runs, when the last reference to the array (or to the
// buffer, through detail::shared_buffer()) goes away.
template <typename MT> struct ImportedArray {
  ImportedArray(std::vector<int64_t> shape, DLDataType dtype,
                const Device &device, MemoryKind kind, bool read_only,
                Placement p, void *first, size_t span, MT *m)
      : impl(std::move(shape), dtype, Sharding::single_device(device, kind),
             read_only),
        buffer(p, first, span, m) {}
  detail::ArrayImpl impl;
  ExternalBuffer<MT> buffer;
};

// Where the producer's bytes are, as a placement for copies.
struct Source {
  bool mapped = false;
  bool device_memory = false; // CUDA device (or managed) memory
  Placement place;
};

Source classify(const DLDevice &d) {
  Source s;
  int32_t type = dl::device_type_of(d);
  s.mapped = true;
  if (type == dl::kCPU) {
    s.place = Placement{Platform::kCpu, 0, MemoryKind::kUnpinnedHost};
  } else if (type == dl::kCUDAHost) {
    s.place = Placement{Platform::kCuda, d.device_id, MemoryKind::kPinnedHost};
  } else if (type == dl::kTPUHost) {
    s.place = Placement{Platform::kTpu, d.device_id, MemoryKind::kPinnedHost};
  } else if (type == dl::kCUDA || type == dl::kCUDAManaged) {
    s.place = Placement{Platform::kCuda, d.device_id, MemoryKind::kDevice};
    s.device_memory = true;
  } else {
    s.mapped = false;
  }
  return s;
}

Status unsupported_device_type(int32_t type, std::string_view array_repr) {
  return Status(StatusCode::kTypeError,
                "Array passed to from_dlpack is on unsupported device type "
                "(DLDeviceType: " +
                    detail::device_type_text(type) +
                    ", array: " + std::string(array_repr));
}

// Element offsets of the lowest and highest element a strided tensor
// touches, or an error when a product or sum overflows.
struct Extent {
  int64_t min_elem = 0;
  int64_t max_elem = 0;
  bool compact = true;
};

Result<Extent> strided_extent(const std::vector<int64_t> &shape,
                              const int64_t *strides) {
  Extent e;
  int64_t expected = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    int64_t n = shape[i];
    if (n > 1) {
      int64_t s = strides[i];
      int64_t reach;
      if (__builtin_mul_overflow(s, n - 1, &reach) ||
          __builtin_add_overflow(reach < 0 ? e.min_elem : e.max_elem, reach,
                                 reach < 0 ? &e.min_elem : &e.max_elem))
        return Status(StatusCode::kInvalidArgument,
                      "DLPack tensor strides " +
                          detail::tuple_string(strides, shape.size()) +
                          " for shape " + detail::tuple_string(shape) +
                          " overflow 64-bit element offsets");
      if (s != expected)
        e.compact = false;
    }
    expected *= n > 0 ? n : 1; // cannot overflow: the element count fit
  }
  return e;
}

// Copies one plane, `rows` x `cols` elements of N bytes whose source rows
// and columns are `row_step` and `col_step` bytes apart (any sign, zero
// too), into compact rows at `dst`. Rows whose elements are adjacent are one
// memcpy each. Otherwise the plane goes in tiles of a source cache line's
// worth of rows (for a transposed source, one line holds 64 / N
// consecutive rows' elements of a column) by 8 columns: the 8 lines a tile
// reads stay in L1 while all its rows use them, even when the column stride
// is a multiple of 4 KiB and every line maps to the same (8-way) L1 set.
// Measured on a 1024 x 1024 float32 transpose: wider tiles thrashed that set
// (0.6-1.5 GB/s), 16 x 8 ran at 3.8-4.8 GB/s; per-element copies without
// tiles, 0.8 GB/s.
template <size_t N>
void copy_plane(char *dst, const char *src, int64_t rows, int64_t cols,
                int64_t row_step, int64_t col_step) {
  const size_t row_bytes = static_cast<size_t>(cols) * N;
  if (col_step == static_cast<int64_t>(N)) {
    for (int64_t i = 0; i < rows; ++i, dst += row_bytes, src += row_step)
      std::memcpy(dst, src, row_bytes);
    return;
  }
  constexpr int64_t kTileRows = 64 / static_cast<int64_t>(N);
  constexpr int64_t kTileCols = 8;
  for (int64_t i0 = 0; i0 < rows; i0 += kTileRows) {
    int64_t i1 = std::min(rows, i0 + kTileRows);
    for (int64_t j0 = 0; j0 < cols; j0 += kTileCols) {
      int64_t j1 = std::min(cols, j0 + kTileCols);
      for (int64_t i = i0; i < i1; ++i) {
        char *d = dst + static_cast<size_t>(i) * row_bytes +
                  static_cast<size_t>(j0) * N;
        const char *s = src + i * row_step + j0 * col_step;
        for (int64_t j = j0; j < j1; ++j, d += N, s += col_step)
          std::memcpy(d, s, N); // N is a constant: one load and one store
      }
    }
  }
}

// Copies a strided host tensor (`base` = element 0; `strides` in elements)
// into compact row-major order at `dst`: plane by plane over the last two
// dimensions, stepping the outer ones like an odometer.
void repack(char *dst, const char *base, const std::vector<int64_t> &shape,
            const int64_t *strides, size_t itemsize) {
  size_t ndim = shape.size();
  if (ndim == 0) {
    std::memcpy(dst, base, itemsize);
    return;
  }
  int64_t isz = static_cast<int64_t>(itemsize);
  int64_t rows = ndim >= 2 ? shape[ndim - 2] : 1;
  int64_t cols = shape[ndim - 1];
  // Strides of extent-1 dimensions are meaningless and unchecked (they may
  // be anything): never multiplied.
  int64_t row_step = rows > 1 ? strides[ndim - 2] * isz : 0;
  int64_t col_step = cols > 1 ? strides[ndim - 1] * isz : isz;
  void (*plane)(char *, const char *, int64_t, int64_t, int64_t, int64_t);
  switch (itemsize) {
  case 1:
    plane = &copy_plane<1>;
    break;
  case 2:
    plane = &copy_plane<2>;
    break;
  case 4:
    plane = &copy_plane<4>;
    break;
  case 8:
    plane = &copy_plane<8>;
    break;
  default: // 16: complex128, the largest dtype
    plane = &copy_plane<16>;
    break;
  }
  size_t outer = ndim >= 2 ? ndim - 2 : 0;
  size_t plane_bytes = static_cast<size_t>(rows * cols) * itemsize;
  std::array<int64_t, kMaxImportDims> index{}; // over the outer dimensions
  int64_t offset = 0; // bytes from `base` to the current plane
  while (true) {
    plane(dst, base + offset, rows, cols, row_step, col_step);
    dst += plane_bytes;
    size_t d = outer;
    while (d-- > 0) {
      if (++index[d] < shape[d]) {
        offset += strides[d] * isz;
        break;
      }
      offset -= strides[d] * (shape[d] - 1) * isz;
      index[d] = 0;
    }
    if (d == static_cast<size_t>(-1))
      return;
  }
}

// ---- the steps of an import ------------------------------------------------

// The producer's addresses are validated as integers, since pointer
// arithmetic that overflowed would be undefined; this turns one back.
char *address(uintptr_t value) {
  return reinterpret_cast<char *>(value); // NOLINT(performance-no-int-to-ptr)
}

Status not_addressable() {
  return Status(StatusCode::kRuntimeError,
                "DLPack is only supported for devices addressable by the "
                "current process.");
}

// A producer's tensor as the import reads it, after validation: everything
// later steps need, so that nothing of the struct is read once its deleter
// may have run (except `strides`, read by a repack before the deleter).
struct SourceTensor {
  std::vector<int64_t> shape;
  DLDataType dtype{};
  size_t itemsize = 0;
  int64_t count = 0;          // elements
  size_t nbytes = 0;          // count * itemsize
  Source source;              // where the bytes are
  DLDevice device{kDLCPU, 0}; // as the producer reported it
  Extent extent;              // element offsets touched, relative to element 0
  char *element0 = nullptr;   // data + byte_offset
  uintptr_t first = 0;        // lowest byte the tensor touches
  uintptr_t end = 0;          // one past the highest
  size_t span() const { return static_cast<size_t>(end - first); }
};

// Rank, shape, element and byte counts, dtype, device type and data of `t`,
// in that order (the order of the messages in exchange.h).
Status read_shape_and_type(const DLTensor &t, SourceTensor &out) {
  if (t.ndim < 0)
    return Status(StatusCode::kInvalidArgument,
                  "Number of dimensions in DLManagedTensor must be "
                  "nonnegative, got " +
                      std::to_string(t.ndim));
  if (t.ndim > kMaxImportDims)
    return Status(StatusCode::kInvalidArgument,
                  "Number of dimensions in DLManagedTensor must be at most " +
                      std::to_string(kMaxImportDims) + ", got " +
                      std::to_string(t.ndim));
  if (t.ndim > 0 && !t.shape)
    return Status(StatusCode::kInvalidArgument,
                  "DLManagedTensor has ndim=" + std::to_string(t.ndim) +
                      " but a NULL shape");
  out.shape.assign(t.shape, t.shape + t.ndim);
  std::optional<int64_t> count =
      detail::checked_element_count(out.shape.data(), out.shape.size());
  if (!count)
    return Status(StatusCode::kInvalidArgument,
                  "DLManagedTensor shape " + detail::tuple_string(out.shape) +
                      " has a negative dimension or more than 2^63-1 "
                      "elements");
  out.count = *count;
  // dtype_size() is 0 exactly for the dtypes check_dtype() refuses; the
  // message comes from the latter.
  out.dtype = t.dtype;
  out.itemsize = dtype_size(t.dtype);
  if (out.itemsize == 0)
    return check_dtype(t.dtype);
  if (__builtin_mul_overflow(static_cast<size_t>(out.count), out.itemsize,
                             &out.nbytes) ||
      out.nbytes > static_cast<size_t>(INT64_MAX))
    return Status(StatusCode::kInvalidArgument,
                  "DLManagedTensor shape " + detail::tuple_string(out.shape) +
                      " of " + dtype_name(t.dtype) +
                      " overflows the byte count");
  out.device = t.device;
  out.source = classify(t.device);
  if (!out.source.mapped)
    return unsupported_device_type(dl::device_type_of(t.device),
                                   describe_dltensor(t));
  if (out.count > 0 && !t.data)
    return Status(StatusCode::kInvalidArgument,
                  "DLManagedTensor has NULL data for " +
                      std::to_string(out.count) + " elements");
  return Status();
}

// The byte range [first, end) the tensor covers and its first element,
// refusing strides and offsets whose arithmetic overflows.
Status read_byte_range(const DLTensor &t, SourceTensor &out) {
  if (t.strides && out.count > 0) {
    Result<Extent> e = strided_extent(out.shape, t.strides);
    if (!e.ok())
      return e.status();
    out.extent = *e;
  } else if (out.count > 0) {
    out.extent.max_elem = out.count - 1;
  }
  int64_t lo_bytes = 0;
  int64_t hi_bytes = 0;
  uintptr_t base = reinterpret_cast<uintptr_t>(t.data);
  int64_t isz = static_cast<int64_t>(out.itemsize);
  if (__builtin_mul_overflow(out.extent.min_elem, isz, &lo_bytes) ||
      __builtin_mul_overflow(out.extent.max_elem, isz, &hi_bytes) ||
      __builtin_add_overflow(hi_bytes, isz, &hi_bytes) ||
      __builtin_add_overflow(base, t.byte_offset, &base) ||
      (lo_bytes < 0 &&
       base < uintptr_t{0} - static_cast<uintptr_t>(lo_bytes)) ||
      __builtin_add_overflow(base, static_cast<uintptr_t>(hi_bytes), &out.end))
    return Status(StatusCode::kInvalidArgument,
                  "DLManagedTensor data + byte_offset " +
                      std::to_string(t.byte_offset) + " with strides " +
                      (t.strides
                           ? detail::tuple_string(t.strides, out.shape.size())
                           : std::string("NULL")) +
                      " for shape " + detail::tuple_string(out.shape) +
                      " overflows the address space");
  out.first = base + static_cast<uintptr_t>(lo_bytes);
  out.element0 = address(base);
  return Status();
}

// Where the result lives, and how it gets there.
struct ImportPlan {
  MemoryKind kind = MemoryKind::kDevice;
  Placement dst;
  bool copy = false;
  intptr_t stream = -1; // the producer's stream to follow; -1: none
};

// The memory kind of the result: the requested one, else the source's own
// pinned host memory when it already sits on the target, else device memory.
MemoryKind result_kind(const SourceTensor &src, const Device &target,
                       const ImportOptions &options) {
  if (options.memory_kind)
    return *options.memory_kind;
  int32_t type = dl::device_type_of(src.device);
  bool on_target_ordinal = src.device.device_id == target.local_hardware_id();
  if (on_target_ordinal &&
      ((target.platform() == Platform::kCuda && type == dl::kCUDAHost) ||
       (target.platform() == Platform::kTpu && type == dl::kTPUHost)))
    return MemoryKind::kPinnedHost;
  return MemoryKind::kDevice;
}

// True when the producer's memory already is where the result must live.
bool stays_in_place(const SourceTensor &src, const Device &target,
                    MemoryKind kind) {
  int32_t type = dl::device_type_of(src.device);
  bool on_target_ordinal = src.device.device_id == target.local_hardware_id();
  bool src_host = !src.source.device_memory;
  bool src_pinned = type == dl::kCUDAHost || type == dl::kTPUHost;
  switch (target.platform()) {
  case Platform::kCpu:
    return src_host && (kind != MemoryKind::kPinnedHost || src_pinned);
  case Platform::kCuda:
    if (kind == MemoryKind::kDevice)
      return src.source.device_memory && on_target_ordinal;
    return kind == MemoryKind::kPinnedHost ? type == dl::kCUDAHost : src_host;
  case Platform::kTpu:
    // TPU device memory is opaque: DLPack data never is TPU device memory.
    if (kind == MemoryKind::kPinnedHost)
      return type == dl::kTPUHost && on_target_ordinal;
    return kind == MemoryKind::kUnpinnedHost && src_host;
  }
  return false;
}

// Decides placement, copy and stream; refuses a needed copy under
// copy=kNever (naming the devices, or the strides) and a bad stream.
Status plan_import(const SourceTensor &src, const int64_t *strides,
                   const Device &target, const ImportOptions &options,
                   ImportPlan &plan) {
  plan.kind = result_kind(src, target, options);
  bool in_place = stays_in_place(src, target, plan.kind);
  plan.copy =
      !in_place || !src.extent.compact || options.copy == CopyMode::kAlways;
  if (plan.copy && options.copy == CopyMode::kNever) {
    if (!in_place)
      return Status(StatusCode::kValueError,
                    "Specified device=" + target.to_string() +
                        " (memory_kind=" + memory_kind_name(plan.kind) +
                        ") which requires a copy since the source device is " +
                        detail::dl_device_repr(src.device) +
                        ", however copy=False. Set copy=True or copy=None to "
                        "perform the requested operation.");
    return Status(StatusCode::kBufferError,
                  "from_dlpack with copy=False cannot import strides " +
                      detail::tuple_string(strides, src.shape.size()) +
                      " for shape " + detail::tuple_string(src.shape) +
                      ": zero, negative or gapped strides need a copy into "
                      "row-major order");
  }
  Result<intptr_t> stream =
      detail::resolve_stream(options.stream, src.source.device_memory,
                             src.device, detail::StreamUse::kImport);
  if (!stream.ok())
    return stream.status();
  plan.stream = *stream;
  plan.dst = detail::placement_of(target, plan.kind);
  return Status();
}

// Orders the runtime's work on the source GPU after the producer's stream.
Status follow_producer(const SourceTensor &src, const ImportPlan &plan) {
  if (!src.source.device_memory || plan.stream == -1 || src.count == 0)
    return Status();
  return detail::cuda::order_runtime_after_producer(src.source.place.ordinal,
                                                    plan.stream);
}

// Zero-copy: the result views the producer's memory, which `guard` hands to
// the array's buffer (its deleter runs when the last reference goes away).
template <typename MT>
Result<Array> import_in_place(DeleterGuard<MT> &guard, SourceTensor &src,
                              const ImportPlan &plan, const Device &target,
                              bool read_only) {
  if (Status s = follow_producer(src, plan); !s.ok())
    return s;
  auto block = std::make_shared<ImportedArray<MT>>(
      std::move(src.shape), src.dtype, target, plan.kind, read_only, plan.dst,
      address(src.first), src.span(), guard.get());
  guard.release();
  detail::ArrayImpl &impl = block->impl;
  impl.shard_bytes = src.nbytes;
  impl.shards.emplace_back(
      target, size_t{0},
      std::shared_ptr<detail::Buffer>(std::shared_ptr<detail::Buffer>(),
                                      &block->buffer),
      src.element0);
  return detail::ArrayAccess::make(
      std::shared_ptr<const detail::ArrayImpl>(std::move(block), &impl));
}

// Repacks non-compact strides into compact row-major order at `out` (in
// `dst`). The repack runs on the host: a source in device memory is staged
// into host memory first, and so is a destination in device memory.
Status copy_repacked(const SourceTensor &src, const int64_t *strides,
                     const Placement &dst, void *out) {
  std::shared_ptr<detail::Buffer> staged_src;
  std::shared_ptr<detail::Buffer> staged_dst;
  const char *host_element0 = src.element0;
  if (src.source.device_memory) {
    auto stage = detail::allocate(detail::kHostPlacement, src.span());
    if (!stage.ok())
      return stage.status();
    staged_src = std::move(*stage);
    if (Status s = detail::copy_bytes(
            staged_src->placement(), staged_src->data(), src.source.place,
            address(src.first), src.span(), /*wait=*/true);
        !s.ok())
      return s;
    host_element0 = static_cast<const char *>(staged_src->data()) +
                    (reinterpret_cast<uintptr_t>(src.element0) - src.first);
  }
  char *host_out = static_cast<char *>(out);
  if (!dst.host_accessible()) {
    auto stage = detail::allocate(detail::kHostPlacement, src.nbytes);
    if (!stage.ok())
      return stage.status();
    staged_dst = std::move(*stage);
    host_out = static_cast<char *>(staged_dst->data());
  }
  repack(host_out, host_element0, src.shape, strides, src.itemsize);
  if (staged_dst)
    return detail::copy_bytes(dst, out, staged_dst->placement(), host_out,
                              src.nbytes, /*wait=*/true);
  return Status();
}

// A copy into a fresh buffer in the plan's placement; the producer's
// deleter runs as soon as the copy is complete, with the caller's lock held.
template <typename MT>
Result<Array> import_by_copy(DeleterGuard<MT> &guard, const int64_t *strides,
                             SourceTensor &src, const ImportPlan &plan,
                             const Device &target,
                             const detail::CopyUnlock &unlock) {
  auto buffer = detail::allocate(plan.dst, src.nbytes);
  if (!buffer.ok())
    return buffer.status();
  void *out = (*buffer)->data();
  if (src.count > 0) {
    if (Status s = follow_producer(src, plan); !s.ok())
      return s;
    detail::Unlocked unlocked(unlock, src.nbytes);
    Status copied =
        src.extent.compact
            ? detail::copy_bytes(plan.dst, out, src.source.place, src.element0,
                                 src.nbytes, /*wait=*/true)
            : copy_repacked(src, strides, plan.dst, out);
    if (!copied.ok())
      return copied;
  }
  // The copy is complete: the producer's memory (and its struct, which the
  // deleter may free) is given back; nothing of it is read after.
  guard.reset();
  return detail::make_single_device_array(std::move(src.shape), src.dtype,
                                          target, plan.kind, std::move(*buffer),
                                          out, false);
}

// The import itself, after the version check: `t` is the checked tensor's
// DLTensor, `guard` owns the tensor.
template <typename MT>
Result<Array> import_tensor(DeleterGuard<MT> &guard, const DLTensor &t,
                            bool read_only, const Device &target,
                            const ImportOptions &options,
                            const detail::CopyUnlock &unlock) {
  if (!target.is_addressable())
    return not_addressable();
  SourceTensor src;
  if (Status s = read_shape_and_type(t, src); !s.ok())
    return s;
  if (Status s = read_byte_range(t, src); !s.ok())
    return s;
  ImportPlan plan;
  if (Status s = plan_import(src, t.strides, target, options, plan); !s.ok())
    return s;
  if (!plan.copy)
    return import_in_place(guard, src, plan, target, read_only);
  return import_by_copy(guard, t.strides, src, plan, target, unlock);
}

Status version_mismatch(const DLPackVersion &v) {
  return Status(StatusCode::kBufferError,
                "DLPack tensor has unsupported major version " +
                    std::to_string(v.major) + " (version " +
                    std::to_string(v.major) + "." + std::to_string(v.minor) +
                    "); this runtime understands major version " +
                    std::to_string(DLPACK_MAJOR_VERSION));
}

} // namespace

std::string describe_dltensor(const DLTensor &t) {
  std::string out = "DLTensor(";
  bool ndim_ok = t.ndim >= 0 && t.ndim <= kMaxImportDims;
  if (!ndim_ok)
    out += "ndim=" + std::to_string(t.ndim);
  else if (t.ndim > 0 && !t.shape)
    out += "shape=NULL";
  else
    out += "shape=" + detail::tuple_string(t.shape, t.ndim);
  out += ", dtype=" + dtype_name(t.dtype);
  out += ", device=" + detail::dl_device_text(t.device);
  if (ndim_ok)
    out += ", strides=" + (t.strides ? detail::tuple_string(t.strides, t.ndim)
                                     : std::string("NULL"));
  out += ", byte_offset=" + std::to_string(t.byte_offset) + ")";
  return out;
}

namespace {

// local_device_for() for a tensor's own device; the tensor's description,
// which costs far more than the lookup, is built only for the unsupported
// device type's TypeError.
Result<Device> local_device_of_tensor(const DLTensor &t) {
  if (!classify(t.device).mapped)
    return unsupported_device_type(dl::device_type_of(t.device),
                                   describe_dltensor(t));
  return local_device_for(t.device);
}

} // namespace

Result<Device> local_device_for(DLDevice dl_device,
                                std::string_view array_repr) {
  int32_t type = dl::device_type_of(dl_device);
  Platform platform;
  if (type == dl::kCPU) {
    platform = Platform::kCpu;
  } else if (type == dl::kCUDA || type == dl::kCUDAHost ||
             type == dl::kCUDAManaged) {
    platform = Platform::kCuda;
  } else if (type == dl::kTPUHost) {
    platform = Platform::kTpu;
  } else {
    return unsupported_device_type(type, array_repr);
  }
  // Host memory is shared by all virtual CPU devices: any will do.
  if (std::optional<Device> d = detail::find_local_device(
          platform, dl_device.device_id, platform == Platform::kCpu))
    return *d;
  std::string why;
  if (platform == Platform::kCuda)
    if (Status s = detail::cuda::available(); !s.ok())
      why = ": " + s.message();
  return Status(StatusCode::kRuntimeError,
                "DLPack device " + detail::dl_device_text(dl_device) +
                    " names no " + platform_name(platform) +
                    " device of this process" + why);
}

Result<std::optional<intptr_t>>
dlpack_consumer_stream(DLDevice dl_device, std::string_view array_repr) {
  Result<Device> local = local_device_for(dl_device, array_repr);
  if (!local.ok())
    return local.status();
  if (!classify(dl_device).device_memory)
    return std::optional<intptr_t>();
  Result<intptr_t> stream =
      detail::cuda::runtime_stream(local->local_hardware_id());
  if (!stream.ok())
    return stream.status();
  return std::optional<intptr_t>(*stream);
}

namespace {

const char *struct_name(const DLManagedTensorVersioned *) {
  return "DLManagedTensorVersioned";
}
const char *struct_name(const DLManagedTensor *) { return "DLManagedTensor"; }

bool read_only_flag(const DLManagedTensorVersioned &m) {
  return (m.flags & dl::kFlagReadOnly) != 0;
}
bool read_only_flag(const DLManagedTensor &) { return false; }

// Every from_dlpack() onto a device: the version check, then the tensor's
// own device when no target is given, then the import.
template <typename MT>
Result<Array>
import_managed(MT *tensor, const Device *target, const ImportOptions &options,
               bool delete_on_failure, const detail::CopyUnlock &unlock = {}) {
  if (!tensor)
    return Status(StatusCode::kInvalidArgument,
                  std::string("from_dlpack got a NULL ") + struct_name(tensor));
  DeleterGuard<MT> guard(tensor, delete_on_failure);
  if constexpr (std::is_same<MT, DLManagedTensorVersioned>::value)
    if (tensor->version.major != DLPACK_MAJOR_VERSION)
      return version_mismatch(tensor->version);
  bool read_only = read_only_flag(*tensor);
  if (target)
    return import_tensor(guard, tensor->dl_tensor, read_only, *target, options,
                         unlock);
  Result<Device> local = local_device_of_tensor(tensor->dl_tensor);
  if (!local.ok())
    return local.status();
  return import_tensor(guard, tensor->dl_tensor, read_only, *local, options,
                       unlock);
}

} // namespace

Result<Array> from_dlpack(DLManagedTensorVersioned *tensor,
                          const Device &target, const ImportOptions &options) {
  return import_managed(tensor, &target, options, true);
}

Result<Array> from_dlpack(DLManagedTensor *tensor, const Device &target,
                          const ImportOptions &options) {
  return import_managed(tensor, &target, options, true);
}

Result<Array> from_dlpack(DLManagedTensorVersioned *tensor,
                          const ImportOptions &options) {
  return import_managed(tensor, nullptr, options, true);
}

Result<Array> from_dlpack(DLManagedTensor *tensor,
                          const ImportOptions &options) {
  return import_managed(tensor, nullptr, options, true);
}

Result<Array> detail::import_keep_on_failure(
    DLManagedTensorVersioned *tensor, const std::optional<Device> &target,
    const ImportOptions &options, const CopyUnlock &unlock) {
  return import_managed(tensor, target ? &*target : nullptr, options, false,
                        unlock);
}

Result<Array> detail::import_keep_on_failure(
    DLManagedTensor *tensor, const std::optional<Device> &target,
    const ImportOptions &options, const CopyUnlock &unlock) {
  return import_managed(tensor, target ? &*target : nullptr, options, false,
                        unlock);
}

namespace {
template <typename MT>
Result<Array> onto_sharding(MT *tensor, const Sharding &target,
                            const ImportOptions &options) {
  if (target.num_devices() != 1) {
    DeleterGuard<MT> guard(tensor);
    return Status(StatusCode::kValueError,
                  "from_dlpack can only unpack a dlpack tensor onto a singular "
                  "device, but a Sharding with " +
                      std::to_string(target.num_devices()) +
                      " devices was provided.");
  }
  ImportOptions with_kind = options;
  if (!with_kind.memory_kind)
    with_kind.memory_kind = target.memory_kind();
  // Forwarded to the device overload, which is where the addressability
  // guard lives (JAX's RuntimeError for another process's device).
  // NOLINTBEGIN(interop-nonaddressable-dlpack-import)
  return from_dlpack(tensor, target.devices()[0], with_kind);
  // NOLINTEND(interop-nonaddressable-dlpack-import)
}
} // namespace

Result<Array> from_dlpack(DLManagedTensorVersioned *tensor,
                          const Sharding &target,
                          const ImportOptions &options) {
  return onto_sharding(tensor, target, options);
}

Result<Array> from_dlpack(DLManagedTensor *tensor, const Sharding &target,
                          const ImportOptions &options) {
  return onto_sharding(tensor, target, options);
}

} // namespace interop
