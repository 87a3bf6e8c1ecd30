// Arrays: creation on shardings, shards, host copies, gather.
#include "test_util.h"

#include <cstdio>

namespace itest {
namespace {

using ArrayTest = RuntimeTest;

TEST_F(ArrayTest, SingleDeviceRoundTrip) {
  Device cpu = local_devices()[0];
  Array a = HostArray(Iota(6), {2, 3}, Sharding::single_device(cpu));
  EXPECT_EQ(a.shape(), (std::vector<int64_t>{2, 3}));
  EXPECT_TRUE(same_dtype(a.dtype(), kFloat32));
  EXPECT_EQ(a.size(), 6);
  EXPECT_EQ(a.nbytes(), 24u);
  EXPECT_EQ(a.ndim(), 2);
  EXPECT_TRUE(a.is_single_device());
  EXPECT_TRUE(a.is_fully_addressable());
  EXPECT_EQ(a.platform(), Platform::kCpu);
  EXPECT_FALSE(a.read_only());
  EXPECT_EQ(ToHost(a), Iota(6));
  Result<uintptr_t> p = a.unsafe_buffer_pointer();
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(*p % 64, 0u) << "host allocations are 64-byte aligned";
  EXPECT_EQ(a.to_string(),
            "Array(shape=(2, 3), dtype=float32, "
            "sharding=SingleDeviceSharding(device=CpuDevice(id=0), "
            "memory_kind=device))");
}

TEST_F(ArrayTest, SplitShardsHoldTheirBlocks) {
  Configure(4);
  std::vector<Device> cpus = local_devices();
  // Split along axis 1 of a (2, 4) array: each device holds a (2, 1) column.
  Array a = HostArray(Iota(8), {2, 4}, *Sharding::split(cpus, 1));
  EXPECT_EQ(a.num_devices(), 4u);
  std::vector<Array> shards = a.addressable_shards();
  ASSERT_EQ(shards.size(), 4u);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(shards[i].shape(), (std::vector<int64_t>{2, 1}));
    EXPECT_EQ(shards[i].sharding().devices()[0], cpus[i]);
    EXPECT_EQ(ToHost(shards[i]), (std::vector<float>{float(i), float(4 + i)}));
  }
  EXPECT_EQ(ToHost(a), Iota(8));
  Result<Array> third = a.addressable_data(2);
  ASSERT_TRUE(third.ok());
  EXPECT_EQ(ToHost(*third), (std::vector<float>{2, 6}));
  EXPECT_STATUS(a.addressable_data(4).status(), StatusCode::kValueError,
                "addressable_data index 4 is out of range: the array has 4 "
                "addressable shard(s)");
}

TEST_F(ArrayTest, ReplicatedShardsAreFullCopies) {
  Configure(2);
  Array a = HostArray(Iota(3), {3}, *Sharding::replicated(local_devices()));
  ASSERT_EQ(a.addressable_shards().size(), 2u);
  EXPECT_NE(*a.addressable_shards()[0].unsafe_buffer_pointer(),
            *a.addressable_shards()[1].unsafe_buffer_pointer());
  for (const Array &s : a.addressable_shards())
    EXPECT_EQ(ToHost(s), Iota(3));
}

TEST_F(ArrayTest, FromHostValidation) {
  Device cpu = local_devices()[0];
  Sharding s = Sharding::single_device(cpu);
  std::vector<float> v = Iota(6);
  EXPECT_STATUS(Array::from_host(v.data(), 20, {2, 3}, kFloat32, s).status(),
                StatusCode::kInvalidArgument,
                "from_host: data_bytes is 20 but shape (2, 3) of float32 needs "
                "24");
  EXPECT_STATUS(Array::from_host(v.data(), 24, {2, -3}, kFloat32, s).status(),
                StatusCode::kInvalidArgument,
                "from_host: shape (2, -3) has a negative dimension or more "
                "than 2^63-1 elements");
  EXPECT_STATUS(
      Array::from_host(v.data(), 24, {INT64_MAX / 2, 4}, kFloat32, s).status(),
      StatusCode::kInvalidArgument,
      "from_host: shape (4611686018427387903, 4) has a negative dimension or "
      "more than 2^63-1 elements");
  EXPECT_STATUS(
      Array::from_host(v.data(), 24, {INT64_MAX / 4}, kFloat64, s).status(),
      StatusCode::kInvalidArgument,
      "from_host: shape (2305843009213693951,) of float64 overflows the byte "
      "count");
  EXPECT_STATUS(
      Array::from_host(v.data(), 24, {6}, DLDataType{2, 32, 2}, s).status(),
      StatusCode::kInvalidArgument,
      "Unsupported DLPack tensor dtype: lanes should be equal to 1, got 2");
  EXPECT_STATUS(Array::from_host(nullptr, 24, {6}, kFloat32, s).status(),
                StatusCode::kInvalidArgument,
                "from_host: data is NULL for 24 bytes");
  // Zero elements: NULL data is fine.
  Result<Array> empty = Array::from_host(nullptr, 0, {0, 5}, kFloat32, s);
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->size(), 0);
}

TEST_F(ArrayTest, SplitValidation) {
  Configure(2);
  Sharding split0 = *Sharding::split(local_devices(), 0);
  Sharding split2 = *Sharding::split(local_devices(), 2);
  std::vector<float> v = Iota(6);
  EXPECT_STATUS(
      Array::from_host(v.data(), 24, {3, 2}, kFloat32, split0).status(),
      StatusCode::kValueError,
      "cannot split dimension 0 of size 3 (shape (3, 2)) evenly "
      "over 2 devices");
  EXPECT_STATUS(
      Array::from_host(v.data(), 24, {2, 3}, kFloat32, split2).status(),
      StatusCode::kValueError,
      "split axis 2 is out of range for an array of rank 2 (shape "
      "(2, 3))");
}

TEST_F(ArrayTest, UnsafeBufferPointerOfShardedArray) {
  // JAX's sharded-array guard on unsafe_buffer_pointer().
  Configure(2);
  Array a = HostArray(Iota(4), {4}, *Sharding::split(local_devices(), 0));
  EXPECT_STATUS(a.unsafe_buffer_pointer().status(), StatusCode::kValueError,
                "unsafe_buffer_pointer() is supported only for unsharded "
                "arrays.");
  Array r = HostArray(Iota(4), {4}, *Sharding::replicated(local_devices()));
  EXPECT_STATUS(r.unsafe_buffer_pointer().status(), StatusCode::kValueError,
                "unsafe_buffer_pointer() is supported only for unsharded "
                "arrays.");
  EXPECT_TRUE(a.addressable_shards()[1].unsafe_buffer_pointer().ok());
}

TEST_F(ArrayTest, CopyToHostValidation) {
  Array a =
      HostArray(Iota(4), {4}, Sharding::single_device(local_devices()[0]));
  std::vector<float> out(3);
  EXPECT_STATUS(a.copy_to_host(out.data(), 12), StatusCode::kInvalidArgument,
                "copy_to_host: dst_bytes is 12 but the array Array(shape=(4,), "
                "dtype=float32, sharding=SingleDeviceSharding(device="
                "CpuDevice(id=0), memory_kind=device)) has 16 bytes");
  EXPECT_STATUS(a.copy_to_host(nullptr, 16), StatusCode::kInvalidArgument,
                "copy_to_host: dst is NULL");
}

TEST_F(ArrayTest, GatherSplitArray) {
  Configure(4);
  std::vector<Device> cpus = local_devices();
  for (int axis : {0, 1, 2}) {
    SCOPED_TRACE(axis);
    std::vector<int64_t> shape{4, 4, 4};
    Array a = HostArray(Iota(64), shape, *Sharding::split(cpus, axis));
    Result<Array> g = gather(a, cpus[2]);
    ASSERT_TRUE(g.ok()) << g.status().to_string();
    EXPECT_TRUE(g->is_single_device());
    EXPECT_EQ(g->sharding().devices()[0], cpus[2]);
    EXPECT_EQ(g->shape(), shape);
    EXPECT_EQ(ToHost(*g), Iota(64));
  }
}

// Large host copies bypass the caches (non-temporal stores, see
// kStreamingCopyBytes in runtime/src/internal.h). Pieces of 37 bytes start at
// every alignment, so the head, 16-byte body and tail of each piece are all
// exercised; bytes are checked one by one against the source.
TEST_F(ArrayTest, LargeGatherAndCopyToHostAreExact) {
  Configure(4);
  std::vector<Device> cpus = local_devices();
  const int64_t rows = 57000, cols = 4 * 37; // 8.4 MB of int8: past 8 MiB
  std::vector<int8_t> source(static_cast<size_t>(rows * cols));
  for (size_t i = 0; i < source.size(); ++i)
    source[i] = static_cast<int8_t>((i * 131 + i / 977) & 0x7f);
  for (int axis : {0, 1}) {
    SCOPED_TRACE(axis);
    Result<Array> a =
        Array::from_host(source.data(), source.size(), {rows, cols}, kInt8,
                         *Sharding::split(cpus, axis));
    ASSERT_TRUE(a.ok()) << a.status().to_string();
    Result<Array> g = gather(*a, cpus[1]);
    ASSERT_TRUE(g.ok()) << g.status().to_string();
    // Into a destination one byte past a 16-byte boundary, twice: from the
    // shards and from the gathered single-device array.
    std::vector<int8_t> out(source.size() + 32);
    int8_t *dst = out.data() +
                  (16 - reinterpret_cast<uintptr_t>(out.data()) % 16) % 16 + 1;
    for (const Array *from : {&*a, &*g}) {
      std::fill(out.begin(), out.end(), int8_t{-1});
      ASSERT_OK(from->copy_to_host(dst, source.size()));
      EXPECT_EQ(std::memcmp(dst, source.data(), source.size()), 0);
      EXPECT_EQ(dst[-1], -1); // nothing written outside the destination
      EXPECT_EQ(dst[source.size()], -1);
    }
  }
}

TEST_F(ArrayTest, GatherOntoSameDeviceIsNoCopy) {
  Device cpu = local_devices()[0];
  Array a = HostArray(Iota(4), {4}, Sharding::single_device(cpu));
  Result<Array> g = gather(a, cpu);
  ASSERT_TRUE(g.ok());
  EXPECT_EQ(*g->unsafe_buffer_pointer(), *a.unsafe_buffer_pointer());
  Result<Array> pinned = gather(a, cpu, MemoryKind::kPinnedHost);
  ASSERT_TRUE(pinned.ok()) << pinned.status().to_string();
  EXPECT_NE(*pinned->unsafe_buffer_pointer(), *a.unsafe_buffer_pointer());
  EXPECT_EQ(pinned->memory_kind(), MemoryKind::kPinnedHost);
  EXPECT_EQ(ToHost(*pinned), Iota(4));
}

TEST_F(ArrayTest, OtherProcessesShardsAreNotAddressable) {
  Configure(/*cpu=*/2, /*tpu=*/0, /*processes=*/2, /*index=*/0);
  std::vector<Device> all = devices(Platform::kCpu);
  Array a = HostArray(Iota(8), {8}, *Sharding::split(all, 0));
  EXPECT_FALSE(a.is_fully_addressable());
  EXPECT_EQ(a.addressable_shards().size(), 2u);
  EXPECT_EQ(ToHost(a.addressable_shards()[1]), (std::vector<float>{2, 3}));
  const char *fetch =
      "Fetching value for `jax.Array` that spans non-addressable (non process "
      "local) devices is not possible. Shards on CpuDevice(id=2), "
      "CpuDevice(id=3) belong to other processes; gather on the process that "
      "owns them, or use addressable_shards() to inspect this process's "
      "shards.";
  EXPECT_STATUS(gather(a, all[0]).status(), StatusCode::kRuntimeError, fetch);
  std::vector<float> out(8);
  EXPECT_STATUS(a.copy_to_host(out.data(), 32), StatusCode::kRuntimeError,
                fetch);
  EXPECT_STATUS(gather(a.addressable_shards()[0], all[3]).status(),
                StatusCode::kRuntimeError,
                "gather target CpuDevice(id=3) is not addressable by the "
                "current process");
  // A replicated array with a local replica can be gathered from it.
  Array r = HostArray(Iota(3), {3}, *Sharding::replicated(all));
  Result<Array> g = gather(r, all[1]);
  ASSERT_TRUE(g.ok()) << g.status().to_string();
  EXPECT_EQ(ToHost(*g), Iota(3));
}

TEST_F(ArrayTest, TpuPinnedHostMemoryIsPageLocked) {
  Configure(1, 2);
  Device tpu = local_devices(Platform::kTpu)[1];
  Array a = HostArray(Iota(1000), {1000},
                      Sharding::single_device(tpu, MemoryKind::kPinnedHost));
  EXPECT_EQ(a.memory_kind(), MemoryKind::kPinnedHost);
  EXPECT_EQ(*a.unsafe_buffer_pointer() % 4096, 0u);
  EXPECT_EQ(ToHost(a), Iota(1000));
}

// The kB of locked memory the kernel reports for this process.
long LockedKiB() {
  FILE *f = std::fopen("/proc/self/status", "r");
  if (!f)
    return -1;
  char line[256];
  long kib = -1;
  while (std::fgets(line, sizeof line, f))
    if (std::sscanf(line, "VmLck: %ld kB", &kib) == 1)
      break;
  std::fclose(f);
  return kib;
}

TEST_F(ArrayTest, PinnedHostMemoryIsReallyLocked) {
  // Without a GPU, pinned host memory is page-aligned and mlock()ed: the
  // kernel's VmLck must grow by the allocation and shrink when it is freed.
  Configure(1, 1, 1, 0, /*cuda=*/-1); // list the GPUs the allocator sees
  if (!local_devices(Platform::kCuda).empty())
    GTEST_SKIP()
        << "cudaHostAlloc provides pinned memory when a GPU is present";
  if (LockedKiB() < 0)
    GTEST_SKIP() << "no VmLck in /proc/self/status";
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
  GTEST_SKIP() << "the sanitizers' interceptors turn mlock() into a no-op";
#endif
#endif
  Device tpu = local_devices(Platform::kTpu)[0];
  long before = LockedKiB();
  {
    std::vector<float> v = Iota(256 * 1024); // 1 MiB
    Array a = HostArray(v, {256 * 1024},
                        Sharding::single_device(tpu, MemoryKind::kPinnedHost));
    EXPECT_GE(LockedKiB() - before, 1024);
    EXPECT_EQ(ToHost(a), v);
  }
  EXPECT_EQ(LockedKiB(), before);
}

} // namespace
} // namespace itest
