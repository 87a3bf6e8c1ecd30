// device_put: placement onto one device (a gather), a split or a replicated
// sharding, across processes, and its validation with exact messages.
#include "test_util.h"

namespace itest {
namespace {

using DevicePutTest = RuntimeTest;

std::vector<float> ShardValues(const Array &a, size_t i) {
  return ToHost(a.addressable_shards()[i]);
}

TEST_F(DevicePutTest, OneAddressableDeviceIsAGather) {
  Configure(2, 1);
  std::vector<Device> cpus = local_devices(Platform::kCpu);
  Array split = HostArray(Iota(8), {2, 4}, *Sharding::split(cpus, 1));
  Result<Array> one = device_put(split, {cpus[1]});
  ASSERT_TRUE(one.ok()) << one.status().to_string();
  EXPECT_TRUE(one->is_single_device());
  EXPECT_EQ(one->sharding().devices()[0], cpus[1]);
  EXPECT_EQ(one->memory_kind(), MemoryKind::kDevice);
  EXPECT_EQ(ToHost(*one), Iota(8));
  // Already there: the same memory, as jax.device_put does.
  Result<Array> again = device_put(*one, {cpus[1]}, MemoryKind::kDevice,
                                   /*axis=*/12345); // not read for one device
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again->unsafe_buffer_pointer(), *one->unsafe_buffer_pointer());
  // Another memory kind on the same device is a copy.
  Result<Array> pinned = device_put(*one, {local_devices(Platform::kTpu)[0]},
                                    MemoryKind::kPinnedHost);
  ASSERT_TRUE(pinned.ok()) << pinned.status().to_string();
  EXPECT_EQ(pinned->memory_kind(), MemoryKind::kPinnedHost);
  EXPECT_EQ(ToHost(*pinned), Iota(8));
}

TEST_F(DevicePutTest, SplitAlongAnyAxisNegativeFromTheEnd) {
  Configure(2);
  std::vector<Device> cpus = local_devices();
  Array a = HostArray(Iota(8), {2, 4}, Sharding::single_device(cpus[0]));
  for (int64_t axis : {int64_t{1}, int64_t{-1}}) {
    Result<Array> split = device_put(a, cpus, MemoryKind::kDevice, axis);
    ASSERT_TRUE(split.ok()) << split.status().to_string();
    EXPECT_EQ(split->sharding().kind(), Sharding::Kind::kSplit);
    EXPECT_EQ(split->sharding().axis(), 1);
    EXPECT_EQ(ShardValues(*split, 0), (std::vector<float>{0, 1, 4, 5}));
    EXPECT_EQ(ShardValues(*split, 1), (std::vector<float>{2, 3, 6, 7}));
    EXPECT_EQ(ToHost(*split), Iota(8));
  }
  Result<Array> rows = device_put(a, cpus, MemoryKind::kDevice, -2);
  ASSERT_TRUE(rows.ok());
  EXPECT_EQ(rows->sharding().axis(), 0);
  EXPECT_EQ(ShardValues(*rows, 1), (std::vector<float>{4, 5, 6, 7}));
}

TEST_F(DevicePutTest, NoAxisReplicates) {
  Configure(3);
  std::vector<Device> cpus = local_devices();
  Array a = HostArray(Iota(5), {5}, Sharding::single_device(cpus[0]));
  Result<Array> r =
      device_put(a, cpus, MemoryKind::kUnpinnedHost, std::nullopt);
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  EXPECT_TRUE(r->is_fully_replicated());
  EXPECT_EQ(r->memory_kind(), MemoryKind::kUnpinnedHost);
  for (size_t i = 0; i < 3; ++i)
    EXPECT_EQ(ShardValues(*r, i), Iota(5));
}

TEST_F(DevicePutTest, ReshardsAShardedSourceThroughHostMemory) {
  Configure(4);
  std::vector<Device> cpus = local_devices();
  Array split0 = HostArray(Iota(16), {4, 4}, *Sharding::split(cpus, 0));
  std::vector<Device> two = {cpus[3], cpus[1]};
  Result<Array> split1 = device_put(split0, two, MemoryKind::kDevice, 1);
  ASSERT_TRUE(split1.ok()) << split1.status().to_string();
  EXPECT_EQ(split1->sharding().devices(), two) << "the order is kept";
  EXPECT_EQ(ShardValues(*split1, 0),
            (std::vector<float>{0, 1, 4, 5, 8, 9, 12, 13}));
  EXPECT_EQ(ToHost(*split1), Iota(16));
}

TEST_F(DevicePutTest, OtherProcessesDevicesGetNoShards) {
  Configure(/*cpu=*/2, /*tpu=*/0, /*processes=*/2, /*index=*/1);
  std::vector<Device> all = devices(Platform::kCpu);
  Array a = HostArray(Iota(8), {8}, Sharding::single_device(all[2]));
  Result<Array> split = device_put(a, all, MemoryKind::kDevice, 0);
  ASSERT_TRUE(split.ok()) << split.status().to_string();
  EXPECT_FALSE(split->is_fully_addressable());
  ASSERT_EQ(split->addressable_shards().size(), 2u);
  EXPECT_EQ(ShardValues(*split, 0), (std::vector<float>{4, 5}));
  EXPECT_EQ(ShardValues(*split, 1), (std::vector<float>{6, 7}));
  // One remote device: a sharding with nothing here.
  Result<Array> remote = device_put(a, {all[0]});
  ASSERT_TRUE(remote.ok()) << remote.status().to_string();
  EXPECT_TRUE(remote->addressable_shards().empty());
  // A source this process cannot read.
  EXPECT_STATUS(device_put(*remote, {all[3]}).status(),
                StatusCode::kRuntimeError,
                "Fetching value for `jax.Array` that spans non-addressable "
                "(non process local) devices is not possible. Shards on "
                "CpuDevice(id=0) belong to other processes; gather on the "
                "process that owns them, or use addressable_shards() to "
                "inspect this process's shards.");
}

TEST_F(DevicePutTest, ErrorsNameTheValues) {
  Configure(2, 1);
  std::vector<Device> cpus = local_devices(Platform::kCpu);
  Array a = HostArray(Iota(12), {3, 4}, Sharding::single_device(cpus[0]));
  EXPECT_STATUS(device_put(a, {}).status(), StatusCode::kValueError,
                "device_put(): the device list is empty");
  EXPECT_STATUS(device_put(a, cpus, MemoryKind::kDevice, 2).status(),
                StatusCode::kValueError,
                "device_put(): axis 2 is out of range for an array of shape "
                "(3, 4)");
  EXPECT_STATUS(device_put(a, cpus, MemoryKind::kDevice, -3).status(),
                StatusCode::kValueError,
                "device_put(): axis -3 is out of range for an array of shape "
                "(3, 4)");
  EXPECT_STATUS(device_put(a, cpus, MemoryKind::kDevice, 0).status(),
                StatusCode::kValueError,
                "cannot split dimension 0 of size 3 (shape (3, 4)) evenly "
                "over 2 devices");
  EXPECT_STATUS(
      device_put(a, {cpus[0], local_devices(Platform::kTpu)[0]}).status(),
      StatusCode::kValueError,
      "the devices of a Sharding must share one platform, got "
      "CpuDevice(id=0) and TpuDevice(id=0, process_index=0)");
  EXPECT_STATUS(
      device_put(a, {cpus[1], cpus[1]}, MemoryKind::kDevice, std::nullopt)
          .status(),
      StatusCode::kValueError,
      "a Sharding lists CpuDevice(id=1) twice (positions 0 and 1)");
  Array scalar = HostArray({2.5F}, {}, Sharding::single_device(cpus[0]));
  EXPECT_STATUS(device_put(scalar, cpus).status(), StatusCode::kValueError,
                "device_put(): axis 0 is out of range for an array of shape "
                "()");
  Result<Array> replicated =
      device_put(scalar, cpus, MemoryKind::kDevice, std::nullopt);
  ASSERT_TRUE(replicated.ok());
  EXPECT_EQ(ShardValues(*replicated, 1), (std::vector<float>{2.5F}));
}

} // namespace
} // namespace itest
