// libFuzzer harness for from_dlpack: builds arbitrary DLManagedTensor /
// DLManagedTensorVersioned contents (ndim, shape, strides, byte_offset,
// dtype, device type including values outside every enum, version, flags,
// NULL pointers) and checks that the runtime neither crashes, leaks nor reads
// outside the memory the tensor honestly describes, and that the deleter
// runs exactly once (or, through detail::import_keep_on_failure, not at
// all when the import fails).
//
// When the described extent is small, the harness backs it with a heap block
// of exactly that many bytes, so ASan flags any read beyond it. Otherwise
// the data pointer is arbitrary and the import is forced onto the zero-copy
// path (copy=False onto the CPU), where the runtime must not dereference it.
#include <interop/interop.h>

#include "exchange_internal.h" // runtime/src: the Python binding's import

#include <cstdint>
#include <cstdlib>
#include <fuzzer/FuzzedDataProvider.h>
#include <optional>
#include <vector>

namespace {

using namespace interop;

constexpr int64_t kMaxBackedBytes = 1 << 20;

struct Context {
  int deletes = 0;
  void *block = nullptr; // freed by the deleter
};

template <typename MT> void Deleter(MT *self) {
  auto *ctx = static_cast<Context *>(self->manager_ctx);
  ++ctx->deletes;
  std::free(ctx->block);
  ctx->block = nullptr;
}

int64_t Dim(FuzzedDataProvider &in) {
  switch (in.ConsumeIntegralInRange<int>(0, 7)) {
  case 0:
    return in.ConsumeIntegral<int64_t>();
  case 1:
    return in.PickValueInArray<int64_t>(
        {-1, INT64_MIN, INT64_MAX, int64_t{1} << 31, int64_t{1} << 62});
  default:
    return in.ConsumeIntegralInRange<int64_t>(0, 5);
  }
}

int64_t Stride(FuzzedDataProvider &in) {
  switch (in.ConsumeIntegralInRange<int>(0, 7)) {
  case 0:
    return in.ConsumeIntegral<int64_t>();
  case 1:
    return in.PickValueInArray<int64_t>(
        {INT64_MIN, INT64_MAX, INT64_MAX / 2, INT64_MIN / 4, 1 << 20});
  default:
    return in.ConsumeIntegralInRange<int64_t>(-6, 6);
  }
}

DLDataType DType(FuzzedDataProvider &in) {
  if (in.ConsumeBool())
    return in.PickValueInArray<DLDataType>(
        {kFloat32, kBool, kBFloat16, kFloat8E5M2, kComplex128, kInt8, kUInt64});
  DLDataType t;
  t.code = in.ConsumeIntegral<uint8_t>();
  t.bits = in.ConsumeIntegral<uint8_t>();
  t.lanes = in.ConsumeBool() ? 1 : in.ConsumeIntegral<uint16_t>();
  return t;
}

// The harness's own reading of the tensor: its element count and the span
// of element offsets it covers, computed in 128-bit arithmetic; false when
// the description is not small and sane enough to back with memory.
bool Extent(const std::vector<int64_t> &shape, const int64_t *strides,
            __int128 &count, __int128 &lo, __int128 &hi) {
  count = 1;
  lo = hi = 0;
  for (int64_t d : shape) {
    if (d < 0 || d > (int64_t{1} << 40))
      return false;
    count *= d;
    if (count > kMaxBackedBytes)
      return false;
  }
  if (count == 0)
    return true;
  if (!strides) {
    hi = count - 1;
    return true;
  }
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] <= 1)
      continue;
    if (strides[i] > (int64_t{1} << 40) || strides[i] < -(int64_t{1} << 40))
      return false;
    __int128 reach = static_cast<__int128>(strides[i]) * (shape[i] - 1);
    (reach < 0 ? lo : hi) += reach;
  }
  return true;
}

template <typename MT>
void RunOne(FuzzedDataProvider &in, const std::vector<Device> &targets) {
  MT managed{};
  Context ctx;
  bool with_deleter = in.ConsumeIntegralInRange<int>(0, 15) != 0;
  managed.manager_ctx = &ctx;
  managed.deleter = with_deleter ? &Deleter<MT> : nullptr;
  if constexpr (std::is_same<MT, DLManagedTensorVersioned>::value) {
    managed.version.major = in.ConsumeIntegralInRange<int>(0, 9)
                                ? 1
                                : in.ConsumeIntegral<uint32_t>();
    managed.version.minor = in.ConsumeIntegral<uint32_t>();
    managed.flags = in.ConsumeIntegral<uint64_t>();
  }
  DLTensor &t = managed.dl_tensor;

  int32_t ndim = in.ConsumeIntegralInRange<int>(0, 7) == 0
                     ? in.ConsumeIntegral<int32_t>()
                     : in.ConsumeIntegralInRange<int32_t>(0, 5);
  t.ndim = ndim;
  size_t dims = ndim >= 0 && ndim <= 64 ? static_cast<size_t>(ndim) : 2;
  std::vector<int64_t> shape(dims), strides(dims);
  for (int64_t &d : shape)
    d = Dim(in);
  bool null_strides = in.ConsumeBool();
  for (int64_t &s : strides)
    s = Stride(in);
  t.shape = in.ConsumeIntegralInRange<int>(0, 15) == 0 ? nullptr : shape.data();
  t.strides = null_strides ? nullptr : strides.data();
  t.dtype = DType(in);
  int32_t type = in.ConsumeBool()
                     ? in.PickValueInArray<int32_t>(
                           {dl::kCPU, dl::kCUDA, dl::kCUDAHost, dl::kTPUHost,
                            dl::kTPU, dl::kVulkan, dl::kCUDAManaged})
                     : in.ConsumeIntegral<int32_t>();
  dl::set_device_type(t.device, type);
  t.device.device_id = in.ConsumeIntegralInRange<int32_t>(-1, 3);
  t.byte_offset = in.ConsumeBool()
                      ? 4 * in.ConsumeIntegralInRange<uint64_t>(0, 8)
                      : in.ConsumeIntegral<uint64_t>();

  __int128 count = 0, lo = 0, hi = 0;
  size_t itemsize = t.dtype.bits / 8 ? t.dtype.bits / 8 : 1;
  bool backed =
      t.shape && ndim >= 0 && ndim <= 64 &&
      Extent(shape, t.strides, count, lo, hi) &&
      count * static_cast<__int128>(itemsize) <= kMaxBackedBytes &&
      (hi - lo + 1) * static_cast<__int128>(itemsize) <= kMaxBackedBytes &&
      t.byte_offset < (uint64_t{1} << 32);
  if (backed && count > 0) {
    size_t span = static_cast<size_t>((hi - lo + 1) * itemsize);
    ctx.block = std::malloc(span);
    std::vector<uint8_t> fill = in.ConsumeBytes<uint8_t>(span);
    fill.resize(span);
    __builtin_memcpy(ctx.block, fill.data(), span);
    // data + byte_offset + lo * itemsize is the block's first byte.
    uintptr_t first = reinterpret_cast<uintptr_t>(ctx.block);
    t.data = reinterpret_cast<void *>(
        first - static_cast<uintptr_t>(lo) * itemsize - t.byte_offset);
  } else {
    t.data = in.ConsumeBool()
                 ? nullptr
                 : reinterpret_cast<void *>(in.ConsumeIntegral<uintptr_t>());
  }

  ImportOptions options;
  options.copy = in.PickValueInArray<CopyMode>(
      {CopyMode::kIfNeeded, CopyMode::kAlways, CopyMode::kNever});
  if (in.ConsumeIntegralInRange<int>(0, 7) == 0)
    options.stream = in.ConsumeIntegralInRange<intptr_t>(-2, 3);
  if (in.ConsumeBool())
    options.memory_kind = in.PickValueInArray<MemoryKind>(
        {MemoryKind::kDevice, MemoryKind::kPinnedHost,
         MemoryKind::kUnpinnedHost});
  size_t pick = in.ConsumeIntegralInRange<size_t>(0, targets.size());
  if (!backed) {
    // Memory the harness did not back must never be read: zero-copy onto
    // the CPU or an error.
    options.copy = CopyMode::kNever;
    options.memory_kind = MemoryKind::kDevice;
    pick = 0;
  }
  MT *handed = in.ConsumeIntegralInRange<int>(0, 63) == 0 ? nullptr : &managed;
  // The Python binding's import, which leaves the tensor with the caller
  // when it fails (consumed last, so older inputs keep their meaning).
  bool keep_on_failure = in.ConsumeBool();
  bool failed = false;
  {
    std::optional<Device> target;
    if (pick != targets.size())
      target = targets[pick];
    Result<Array> r =
        keep_on_failure
            ? detail::import_keep_on_failure(handed, target, options)
        : target ? from_dlpack(handed, *target, options)
                 : from_dlpack(handed, options);
    failed = !r.ok();
    if (r.ok() && backed) {
      std::vector<uint8_t> out(r->nbytes());
      Status s = r->copy_to_host(out.data(), out.size());
      if (!s.ok())
        __builtin_trap();
      Result<ManagedTensor> m = to_dlpack(*r);
      (void)m.ok();
    }
  }
  if (keep_on_failure && failed) {
    // Untouched: the tensor is still the caller's, who releases it now.
    if (ctx.deletes != 0)
      __builtin_trap();
    if (handed && with_deleter)
      managed.deleter(&managed);
  }
  int expected = handed && with_deleter ? 1 : 0;
  if (ctx.deletes != expected)
    __builtin_trap(); // the deleter must run exactly once
  std::free(ctx.block);
}

std::vector<Device> &Targets() {
  static std::vector<Device> *targets = [] {
    TopologyConfig c;
    c.cpu_devices_per_process = 2;
    c.tpu_devices_per_process = 2;
    c.process_count = 2;
    c.process_index = 0;
    if (!configure(c).ok())
      __builtin_trap();
    // CPU 0 first: the forced zero-copy target; then the rest, including
    // another process's device (JAX's non-addressable import error).
    return new std::vector<Device>(devices());
  }();
  return *targets;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  FuzzedDataProvider in(data, size);
  if (in.ConsumeBool())
    RunOne<DLManagedTensorVersioned>(in, Targets());
  else
    RunOne<DLManagedTensor>(in, Targets());
  return 0;
}
