// __cuda_array_interface__ (CAI): the producer side for CUDA arrays and the
// consumer side, which turns a CAI into a DLPack tensor and hands it to
// from_dlpack() so that placement, validation and ownership are the DLPack
// import's, with the CAI's `stream` as the producer's stream.
#include "internal.h"

#include <cstring>
#include <new>
#include <string>
#include <vector>

namespace interop {

using detail::ArrayAccess;
using detail::ArrayImpl;

namespace {

// NumPy array-interface type strings of the types CAI can express, both
// ways. Multi-byte types are little-endian ('<'); one-byte ones have no byte
// order ('|').
struct TypeString {
  uint8_t code;
  uint8_t bits;
  const char *typestr;
};
constexpr TypeString kTypeStrings[] = {
    {dl::kBool, 8, "|b1"},     {dl::kInt, 8, "|i1"},
    {dl::kInt, 16, "<i2"},     {dl::kInt, 32, "<i4"},
    {dl::kInt, 64, "<i8"},     {dl::kUInt, 8, "|u1"},
    {dl::kUInt, 16, "<u2"},    {dl::kUInt, 32, "<u4"},
    {dl::kUInt, 64, "<u8"},    {dl::kFloat, 16, "<f2"},
    {dl::kFloat, 32, "<f4"},   {dl::kFloat, 64, "<f8"},
    {dl::kComplex, 64, "<c8"}, {dl::kComplex, 128, "<c16"},
};

// nullptr for types CAI cannot express.
const char *typestr_of(DLDataType t) {
  for (const TypeString &e : kTypeStrings)
    if (e.code == t.code && e.bits == t.bits && t.lanes == 1)
      return e.typestr;
  return nullptr;
}

// The dtype a consumer reads from `typestr`: the byte-order character may be
// '<', '|' or '=' (native: this runtime runs on little-endian machines only),
// and '>' for one-byte types, where it means nothing.
Result<DLDataType> dtype_of_typestr(const std::string &typestr) {
  if (typestr.size() >= 3) {
    char order = typestr[0];
    std::string body = typestr.substr(1);
    for (const TypeString &e : kTypeStrings) {
      if (body != e.typestr + 1)
        continue;
      bool one_byte = e.bits == 8;
      if (order == '<' || order == '=' || order == '|' ||
          (one_byte && order == '>'))
        return DLDataType{e.code, e.bits, 1};
    }
  }
  return Status(StatusCode::kValueError,
                "__cuda_array_interface__ typestr '" + typestr +
                    "' is not supported: expected a little-endian bool, int, "
                    "uint, float or complex type string such as '<f4' or "
                    "'|b1'");
}

// XLA's PrimitiveType names, which JAX's message uses.
const char *xla_type_name(DLDataType t) {
  switch (t.code) {
  case dl::kBfloat:
    return "BF16";
  case dl::kFloat8_e3m4:
    return "F8E3M4";
  case dl::kFloat8_e4m3:
    return "F8E4M3";
  case dl::kFloat8_e4m3b11fnuz:
    return "F8E4M3B11FNUZ";
  case dl::kFloat8_e4m3fn:
    return "F8E4M3FN";
  case dl::kFloat8_e4m3fnuz:
    return "F8E4M3FNUZ";
  case dl::kFloat8_e5m2:
    return "F8E5M2";
  case dl::kFloat8_e5m2fnuz:
    return "F8E5M2FNUZ";
  case dl::kFloat8_e8m0fnu:
    return "F8E8M0FNU";
  default:
    return "UNKNOWN";
  }
}

// The DLPack tensor a CAI import hands to from_dlpack(): it owns the shape
// and strides it points to and the producer's keep-alive, all released by
// its deleter.
struct CaiTensor {
  DLManagedTensorVersioned managed; // every field set before it is used
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;
  std::shared_ptr<const void> owner;
};

void delete_cai_tensor(DLManagedTensorVersioned *m) {
  delete static_cast<CaiTensor *>(m->manager_ctx);
}

std::string byte_strides_text(const std::vector<int64_t> &strides) {
  return detail::tuple_string(strides.data(), strides.size());
}

} // namespace

Result<CudaArrayInterface> cuda_array_interface(const Array &array) {
  const ArrayImpl &a = ArrayAccess::impl(array);
  if (array.num_devices() != 1 || a.shards.size() != 1)
    return Status(StatusCode::kValueError,
                  "__cuda_array_interface__() is supported only for unsharded "
                  "arrays.");
  if (array.platform() != Platform::kCuda ||
      array.memory_kind() != MemoryKind::kDevice)
    return Status(StatusCode::kAttributeError,
                  "__cuda_array_interface__ is only defined for NVidia GPU "
                  "buffers.");
  const char *typestr = typestr_of(a.dtype);
  if (!typestr)
    return Status(
        StatusCode::kAttributeError,
        std::string("__cuda_array_interface__ is not supported for ") +
            xla_type_name(a.dtype) + " buffers.");
  CudaArrayInterface cai;
  cai.shape = a.shape;
  cai.typestr = typestr;
  cai.data = reinterpret_cast<uintptr_t>(a.shards.front().data);
  cai.read_only = a.read_only;
  cai.version = 3;
  // The runtime's copies into the array were queued on its stream; the
  // consumer orders its reads after them.
  Result<intptr_t> stream =
      detail::cuda::runtime_stream(a.shards.front().device.local_hardware_id());
  if (!stream.ok())
    return stream.status();
  cai.stream = *stream;
  return cai;
}

Result<Array> from_cuda_array_interface(const CudaArrayInterface &cai,
                                        std::shared_ptr<const void> owner,
                                        const std::optional<Device> &target,
                                        const ImportOptions &options) {
  if (cai.version != 2 && cai.version != 3)
    return Status(StatusCode::kValueError,
                  "__cuda_array_interface__ version " +
                      std::to_string(cai.version) +
                      " is not supported (versions 2 and 3 are)");
  if (cai.stream && *cai.stream == 0)
    return Status(StatusCode::kValueError,
                  "__cuda_array_interface__ stream 0 is not allowed by the "
                  "protocol (1 is the legacy default stream, 2 the "
                  "per-thread default stream, None no synchronisation)");
  Result<DLDataType> dtype = dtype_of_typestr(cai.typestr);
  if (!dtype.ok())
    return dtype.status();
  int64_t itemsize = dtype->bits / 8;
  if (!cai.strides.empty() && cai.strides.size() != cai.shape.size())
    return Status(StatusCode::kValueError, "__cuda_array_interface__ strides " +
                                               byte_strides_text(cai.strides) +
                                               " do not match shape " +
                                               detail::tuple_string(cai.shape));

  auto *t = new (std::nothrow) CaiTensor();
  if (!t)
    return Status(StatusCode::kResourceExhausted,
                  "cannot allocate the DLPack tensor of a CAI import");
  t->shape = cai.shape;
  for (int64_t bytes : cai.strides) {
    if (bytes % itemsize != 0) {
      delete t;
      return Status(StatusCode::kValueError,
                    "__cuda_array_interface__ strides " +
                        byte_strides_text(cai.strides) +
                        " are not multiples of the item size " +
                        std::to_string(itemsize) + " of '" + cai.typestr + "'");
    }
    t->strides.push_back(bytes / itemsize);
  }
  t->owner = std::move(owner);
  DLManagedTensorVersioned &m = t->managed;
  m.version = kDLPackVersion;
  m.manager_ctx = t;
  m.deleter = &delete_cai_tensor;
  m.flags = cai.read_only ? dl::kFlagReadOnly : uint64_t{0};
  // CAI passes the pointer as an int.
  // NOLINTNEXTLINE(performance-no-int-to-ptr)
  m.dl_tensor.data = reinterpret_cast<void *>(cai.data);
  m.dl_tensor.ndim = static_cast<int32_t>(t->shape.size());
  m.dl_tensor.dtype = *dtype;
  m.dl_tensor.shape = t->shape.data();
  m.dl_tensor.strides = t->strides.empty() ? nullptr : t->strides.data();
  m.dl_tensor.byte_offset = 0;

  // The memory's GPU; a zero-size array may have no pointer at all.
  Result<DLDevice> device =
      cai.data == 0
          ? Result<DLDevice>(DLDevice{static_cast<DLDeviceType>(dl::kCUDA), 0})
          : detail::cuda::pointer_device(m.dl_tensor.data);
  if (device.ok() && cai.data == 0)
    if (Status s = detail::cuda::available(); !s.ok())
      device = s;
  if (!device.ok()) {
    delete_cai_tensor(&m);
    return device.status();
  }
  m.dl_tensor.device = *device;

  ImportOptions with_stream = options;
  with_stream.stream.reset();
  if (dl::device_type_of(*device) == dl::kCUDAHost) {
    // Pinned or registered host memory: nothing to order on a GPU stream,
    // so the producer's queued work is waited for here.
    if (cai.stream)
      if (Status s = detail::cuda::wait_for_stream(*cai.stream); !s.ok()) {
        delete_cai_tensor(&m);
        return s;
      }
  } else {
    with_stream.stream = cai.stream ? *cai.stream : intptr_t{-1};
  }
  // from_dlpack() owns `m` from here on every path.
  if (target)
    return from_dlpack(&m, *target, with_stream);
  return from_dlpack(&m, with_stream);
}

} // namespace interop
