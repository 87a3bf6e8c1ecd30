// to_dlpack / dlpack_device / cuda_array_interface on host platforms.
#include "test_util.h"

namespace itest {
namespace {

using ExportTest = RuntimeTest;

Array CpuArray(std::vector<int64_t> shape, int device = 0) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return HostArray(
      Iota(static_cast<size_t>(n)), std::move(shape),
      Sharding::single_device(local_devices(Platform::kCpu)[device]));
}

std::vector<float> Read(const DLTensor &t, size_t n) {
  std::vector<float> out(n);
  std::memcpy(out.data(), static_cast<const char *>(t.data) + t.byte_offset,
              n * 4);
  return out;
}

TEST_F(ExportTest, VersionedByDefaultAndZeroCopy) {
  Array a = CpuArray({2, 3});
  Result<ManagedTensor> r = to_dlpack(a);
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  ManagedTensor &m = *r;
  ASSERT_TRUE(m.is_versioned());
  EXPECT_STREQ(m.capsule_name(), "dltensor_versioned");
  DLManagedTensorVersioned *v = m.versioned();
  EXPECT_EQ(v->version.major, 1u);
  EXPECT_EQ(v->version.minor, static_cast<uint32_t>(DLPACK_MINOR_VERSION));
  EXPECT_EQ(v->flags, 0u);
  EXPECT_NE(v->deleter, nullptr);
  const DLTensor &t = v->dl_tensor;
  EXPECT_EQ(&t, &m.tensor());
  EXPECT_EQ(dl::device_type_of(t.device), dl::kCPU);
  EXPECT_EQ(t.device.device_id, 0);
  EXPECT_EQ(t.ndim, 2);
  EXPECT_EQ(t.shape[0], 2);
  EXPECT_EQ(t.shape[1], 3);
  ASSERT_NE(t.strides, nullptr); // DLPack 1.2: strides required for ndim > 0
  EXPECT_EQ(t.strides[0], 3);
  EXPECT_EQ(t.strides[1], 1);
  EXPECT_EQ(t.byte_offset, 0u);
  EXPECT_TRUE(same_dtype(t.dtype, kFloat32));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(t.data), *a.unsafe_buffer_pointer());
  // The export keeps the memory alive after the array is gone.
  a = CpuArray({1});
  EXPECT_EQ(Read(t, 6), Iota(6));
}

TEST_F(ExportTest, LegacyWhenConsumerMajorIsZero) {
  Array a = CpuArray({4});
  ExportOptions o;
  o.max_version = {0, 8};
  Result<ManagedTensor> r = to_dlpack(a, o);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->is_versioned());
  EXPECT_STREQ(r->capsule_name(), "dltensor");
  ASSERT_NE(r->legacy(), nullptr);
  EXPECT_EQ(r->flags(), 0u);
  EXPECT_EQ(Read(r->legacy()->dl_tensor, 4), Iota(4));
  // A consumer with a newer minor or major still gets our 1.x struct.
  o.max_version = {1, 0};
  EXPECT_TRUE(to_dlpack(a, o)->is_versioned());
  o.max_version = {2, 5};
  EXPECT_TRUE(to_dlpack(a, o)->is_versioned());
}

TEST_F(ExportTest, ShardedArraysAreRejected) {
  Configure(3);
  std::vector<Device> all = local_devices();
  for (size_t n : {2u, 3u}) {
    std::vector<Device> devs(all.begin(), all.begin() + n);
    std::string msg =
        "to_dlpack can only pack a dlpack tensor from an array "
        "on a singular device, but an array with a Sharding over " +
        std::to_string(n) + " devices was provided.";
    Array split = HostArray(Iota(6), {6}, *Sharding::split(devs, 0));
    EXPECT_STATUS(to_dlpack(split).status(), StatusCode::kBufferError, msg);
    // Fully replicated arrays too: the protocol describes one device.
    Array rep = HostArray(Iota(6), {6}, *Sharding::replicated(devs));
    EXPECT_STATUS(to_dlpack(rep).status(), StatusCode::kBufferError, msg);
    EXPECT_STATUS(dlpack_device(rep).status(), StatusCode::kBufferError,
                  "__dlpack__ only supported for unsharded arrays.");
  }
}

TEST_F(ExportTest, TpuDeviceMemoryCannotBeExported) {
  Configure(1, 2);
  Device tpu = local_devices(Platform::kTpu)[1];
  for (MemoryKind kind : {MemoryKind::kDevice, MemoryKind::kUnpinnedHost}) {
    Array a = HostArray(Iota(4), {4}, Sharding::single_device(tpu, kind));
    EXPECT_STATUS(
        to_dlpack(a).status(), StatusCode::kBufferError,
        "__dlpack__ device only supported for TPU pinned host memory");
    EXPECT_STATUS(
        dlpack_device(a).status(), StatusCode::kBufferError,
        "__dlpack__ device only supported for TPU pinned host memory");
    // Asking for the CPU does not get around it either.
    ExportOptions o;
    o.dl_device = MakeDLDevice(dl::kCPU, 0);
    EXPECT_STATUS(
        to_dlpack(a, o).status(), StatusCode::kBufferError,
        "__dlpack__ device only supported for TPU pinned host memory");
  }
}

TEST_F(ExportTest, TpuPinnedHostIsTPUHostOrZeroCopyCpu) {
  Configure(1, 2);
  Device tpu = local_devices(Platform::kTpu)[1];
  Array a = HostArray(Iota(4), {4},
                      Sharding::single_device(tpu, MemoryKind::kPinnedHost));
  Result<DLDevice> dev = dlpack_device(a);
  ASSERT_TRUE(dev.ok());
  EXPECT_EQ(dl::device_type_of(*dev), 20); // kDLTPUHost
  EXPECT_EQ(dev->device_id, 1);
  Result<ManagedTensor> native = to_dlpack(a);
  ASSERT_TRUE(native.ok());
  EXPECT_EQ(dl::device_type_of(native->tensor().device), dl::kTPUHost);
  EXPECT_EQ(native->tensor().device.device_id, 1);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(native->tensor().data),
            *a.unsafe_buffer_pointer());
  ExportOptions o;
  o.dl_device = MakeDLDevice(dl::kCPU, 0);
  o.copy = CopyMode::kNever; // the CPU view is zero-copy
  Result<ManagedTensor> cpu = to_dlpack(a, o);
  ASSERT_TRUE(cpu.ok()) << cpu.status().to_string();
  EXPECT_EQ(dl::device_type_of(cpu->tensor().device), dl::kCPU);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(cpu->tensor().data),
            *a.unsafe_buffer_pointer());
  EXPECT_EQ(cpu->flags(), 0u);
}

TEST_F(ExportTest, NonAddressableArrayHasNoLocalHardwareId) {
  Configure(1, 0, 2, 0);
  Device remote = devices(Platform::kCpu)[1];
  Array a = HostArray(Iota(2), {2}, Sharding::single_device(remote));
  EXPECT_TRUE(a.addressable_shards().empty());
  EXPECT_STATUS(to_dlpack(a).status(), StatusCode::kBufferError,
                "Couldn't get local_hardware_id for __dlpack__");
  EXPECT_STATUS(dlpack_device(a).status(), StatusCode::kBufferError,
                "Couldn't get local_hardware_id for __dlpack__");
}

TEST_F(ExportTest, UnsupportedDeviceRequests) {
  Array a = CpuArray({2});
  ExportOptions o;
  o.dl_device = MakeDLDevice(dl::kVulkan, 0);
  EXPECT_STATUS(to_dlpack(a, o).status(), StatusCode::kBufferError,
                "The device specification passed to to_dlpack contains an "
                "unsupported device type (DLDeviceType: kDLVulkan)");
  o.dl_device = MakeDLDevice(99, 0);
  EXPECT_STATUS(to_dlpack(a, o).status(), StatusCode::kBufferError,
                "The device specification passed to to_dlpack contains an "
                "unsupported device type (DLDeviceType: 99)");
  o.dl_device = MakeDLDevice(dl::kTPU, 0);
  EXPECT_STATUS(to_dlpack(a, o).status(), StatusCode::kBufferError,
                "The device specification passed to to_dlpack contains an "
                "unsupported device type (DLDeviceType: kDLTPU)");
  o.dl_device = MakeDLDevice(dl::kTPUHost, 7);
  EXPECT_STATUS(to_dlpack(a, o).status(), StatusCode::kBufferError,
                "The device specification passed to to_dlpack names "
                "(kDLTPUHost, 7), which is not a device of this process");
}

TEST_F(ExportTest, CopyModes) {
  Configure(1, 1);
  Array a = CpuArray({3});
  ExportOptions o;
  o.copy = CopyMode::kAlways;
  Result<ManagedTensor> copied = to_dlpack(a, o);
  ASSERT_TRUE(copied.ok());
  EXPECT_EQ(copied->flags(), dl::kFlagIsCopied);
  EXPECT_NE(reinterpret_cast<uintptr_t>(copied->tensor().data),
            *a.unsafe_buffer_pointer());
  EXPECT_EQ(Read(copied->tensor(), 3), Iota(3));

  o.copy = CopyMode::kNever;
  Result<ManagedTensor> view = to_dlpack(a, o);
  ASSERT_TRUE(view.ok());
  EXPECT_EQ(view->flags(), 0u);

  // Moving to the TPU's pinned host memory needs a copy.
  o.dl_device = MakeDLDevice(dl::kTPUHost, 0);
  EXPECT_STATUS(to_dlpack(a, o).status(), StatusCode::kValueError,
                "Specified device=TpuDevice(id=0, process_index=0) which "
                "requires a copy since the source device is CpuDevice(id=0), "
                "however copy=False. Set copy=True or copy=None to perform the "
                "requested operation.");
  o.copy = CopyMode::kIfNeeded;
  Result<ManagedTensor> moved = to_dlpack(a, o);
  ASSERT_TRUE(moved.ok()) << moved.status().to_string();
  EXPECT_EQ(dl::device_type_of(moved->tensor().device), dl::kTPUHost);
  EXPECT_EQ(moved->flags(), dl::kFlagIsCopied);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(moved->tensor().data) % 4096, 0u);
  EXPECT_EQ(Read(moved->tensor(), 3), Iota(3));
}

TEST_F(ExportTest, HostExportsTakeNoStream) {
  Array a = CpuArray({2});
  for (intptr_t s : {intptr_t{-1}, intptr_t{0}, intptr_t{1}, intptr_t{5}}) {
    ExportOptions o;
    o.stream = s;
    EXPECT_STATUS(to_dlpack(a, o).status(), StatusCode::kBufferError,
                  "stream must be None when exporting host memory (kDLCPU, "
                  "0), got " +
                      std::to_string(s));
  }
}

TEST_F(ExportTest, ZeroDimAndZeroSize) {
  Array scalar = CpuArray({});
  Result<ManagedTensor> s = to_dlpack(scalar);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->tensor().ndim, 0);
  EXPECT_EQ(Read(s->tensor(), 1), Iota(1));
  Array empty = CpuArray({3, 0});
  Result<ManagedTensor> e = to_dlpack(empty);
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->tensor().ndim, 2);
  EXPECT_EQ(e->tensor().shape[1], 0);
  EXPECT_NE(e->tensor().data, nullptr);
  EXPECT_EQ(e->tensor().strides[0], 1); // an empty dim counts as 1
}

// Regression (found by the fuzzer): the compact strides of an empty array
// with huge extents overflowed int64.
TEST_F(ExportTest, EmptyArrayWithHugeExtents) {
  for (std::vector<int64_t> shape :
       {std::vector<int64_t>{0, int64_t{1} << 62, int64_t{1} << 31},
        std::vector<int64_t>{int64_t{1} << 62, int64_t{1} << 31, 0}}) {
    Result<Array> a =
        Array::from_host(nullptr, 0, shape, kFloat32,
                         Sharding::single_device(local_devices()[0]));
    ASSERT_TRUE(a.ok()) << a.status().to_string();
    EXPECT_EQ(a->size(), 0);
    Result<ManagedTensor> m = to_dlpack(*a);
    ASSERT_TRUE(m.ok());
    EXPECT_EQ(std::vector<int64_t>(m->tensor().shape, m->tensor().shape + 3),
              shape);
  }
}

TEST_F(ExportTest, DtypesAreReported) {
  Device cpu = local_devices()[0];
  for (DLDataType t : {kBool, kBFloat16, kFloat8E4M3FN, kComplex64, kUInt16}) {
    std::vector<char> bytes(4 * dtype_size(t), 1);
    Result<Array> a = Array::from_host(bytes.data(), bytes.size(), {4}, t,
                                       Sharding::single_device(cpu));
    ASSERT_TRUE(a.ok());
    Result<ManagedTensor> m = to_dlpack(*a);
    ASSERT_TRUE(m.ok());
    EXPECT_TRUE(same_dtype(m->tensor().dtype, t)) << dtype_name(t);
  }
}

TEST_F(ExportTest, ManagedTensorOwnership) {
  Array a = CpuArray({2});
  ManagedTensor m = std::move(to_dlpack(a)).value();
  ManagedTensor moved = std::move(m);
  EXPECT_TRUE(m.empty());
  EXPECT_FALSE(moved.empty());
  DLManagedTensorVersioned *raw = moved.release_versioned();
  ASSERT_NE(raw, nullptr);
  EXPECT_TRUE(moved.empty());
  EXPECT_EQ(moved.release(), nullptr);
  EXPECT_EQ(moved.capsule_name(), nullptr);
  raw->deleter(raw); // the C consumer's side; ASan checks it frees all
  ManagedTensor again = std::move(to_dlpack(a)).value();
  again.reset();
  EXPECT_TRUE(again.empty());
  again.reset(); // idempotent
}

TEST_F(ExportTest, CudaArrayInterfaceGuards) {
  Configure(2);
  Array cpu = CpuArray({2});
  EXPECT_STATUS(cuda_array_interface(cpu).status(), StatusCode::kAttributeError,
                "__cuda_array_interface__ is only defined for NVidia GPU "
                "buffers.");
  // JAX's error for the CUDA array interface of a sharded array.
  Array split = HostArray(Iota(4), {4}, *Sharding::split(local_devices(), 0));
  EXPECT_STATUS(cuda_array_interface(split).status(), StatusCode::kValueError,
                "__cuda_array_interface__() is supported only for unsharded "
                "arrays.");
}

} // namespace
} // namespace itest
