// Topology configuration, devices and shardings.
#include "test_util.h"

namespace itest {
namespace {

using TopologyTest = RuntimeTest;

TEST_F(TopologyTest, DefaultIsOneCpuDevice) {
  std::vector<Device> cpus = local_devices(Platform::kCpu);
  ASSERT_EQ(cpus.size(), 1u);
  EXPECT_EQ(cpus[0].id(), 0);
  EXPECT_EQ(cpus[0].process_index(), 0);
  EXPECT_EQ(cpus[0].local_hardware_id(), 0);
  EXPECT_TRUE(cpus[0].is_addressable());
  EXPECT_EQ(cpus[0].to_string(), "CpuDevice(id=0)");
  EXPECT_TRUE(devices(Platform::kTpu).empty());
}

TEST_F(TopologyTest, MultiProcessIdsAndAddressability) {
  Configure(/*cpu=*/2, /*tpu=*/4, /*processes=*/2, /*index=*/1);
  std::vector<Device> all_tpu = devices(Platform::kTpu);
  ASSERT_EQ(all_tpu.size(), 8u);
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(all_tpu[i].id(), i);
    EXPECT_EQ(all_tpu[i].process_index(), i / 4);
    EXPECT_EQ(all_tpu[i].local_hardware_id(), i % 4);
    EXPECT_EQ(all_tpu[i].is_addressable(), i >= 4);
  }
  std::vector<Device> local = local_devices();
  ASSERT_EQ(local.size(), 6u); // 2 CPU + 4 TPU, platform order
  EXPECT_EQ(local[0].to_string(), "CpuDevice(id=2)");
  EXPECT_EQ(local[2].to_string(), "TpuDevice(id=4, process_index=1)");
  EXPECT_EQ(devices().size(), 12u);
  TopologyConfig eff = current_topology();
  EXPECT_EQ(eff.process_count, 2);
  EXPECT_EQ(eff.process_index, 1);
  EXPECT_GE(eff.cuda_devices_per_process, 0);
}

TEST_F(TopologyTest, ConfigureAfterUseFails) {
  (void)devices();
  TopologyConfig c;
  c.cpu_devices_per_process = 4;
  EXPECT_STATUS(configure(c), StatusCode::kRuntimeError,
                "configure() must be called before the runtime is first used: "
                "devices have already been handed out");
  reset_for_testing();
  ASSERT_OK(configure(c));
  EXPECT_EQ(devices(Platform::kCpu).size(), 4u);
}

TEST_F(TopologyTest, ConfigureRejectsBadValues) {
  TopologyConfig c;
  c.cpu_devices_per_process = -1;
  EXPECT_STATUS(configure(c), StatusCode::kInvalidArgument,
                "cpu_devices_per_process must be in [0, 4096], got -1");
  c = TopologyConfig();
  c.tpu_devices_per_process = 5000;
  EXPECT_STATUS(configure(c), StatusCode::kInvalidArgument,
                "tpu_devices_per_process must be in [0, 4096], got 5000");
  c = TopologyConfig();
  c.process_count = 0;
  EXPECT_STATUS(configure(c), StatusCode::kInvalidArgument,
                "process_count must be in [1, 4096], got 0");
  c = TopologyConfig();
  c.process_count = 2;
  c.process_index = 2;
  EXPECT_STATUS(configure(c), StatusCode::kInvalidArgument,
                "process_index must be in [0, process_count=2), got 2");
  c = TopologyConfig();
  c.cpu_devices_per_process = 0;
  c.cuda_devices_per_process = 0;
  EXPECT_STATUS(configure(c), StatusCode::kInvalidArgument,
                "the topology has no devices: cpu_devices_per_process=0, "
                "tpu_devices_per_process=0 and no CUDA devices");
  c = TopologyConfig();
  c.cuda_devices_per_process = -2;
  EXPECT_STATUS(configure(c), StatusCode::kInvalidArgument,
                "cuda_devices_per_process must be in [0, 4096], got -2 (or -1 "
                "for every visible GPU)");
}

TEST_F(TopologyTest, RequestingMoreGpusThanPresentFails) {
  TopologyConfig c;
  c.cuda_devices_per_process = 4096;
  Status s = configure(c);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kRuntimeError);
  EXPECT_EQ(
      s.message().rfind("cuda_devices_per_process=4096 was requested but ", 0),
      0u)
      << s.message();
}

TEST_F(TopologyTest, DeviceById) {
  Configure(3);
  Result<Device> d = device_by_id(Platform::kCpu, 2);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->local_hardware_id(), 2);
  EXPECT_STATUS(device_by_id(Platform::kTpu, 0).status(),
                StatusCode::kValueError, "no tpu device with id 0");
}

TEST_F(TopologyTest, ShardingFactories) {
  Configure(4, 2, 2, 0);
  std::vector<Device> cpus = devices(Platform::kCpu);
  Sharding single = Sharding::single_device(cpus[1]);
  EXPECT_TRUE(single.is_single_device());
  EXPECT_TRUE(single.is_fully_replicated());
  EXPECT_TRUE(single.is_fully_addressable());
  EXPECT_EQ(single.memory_kind(), MemoryKind::kDevice);
  EXPECT_EQ(single.to_string(), "SingleDeviceSharding(device=CpuDevice(id=1), "
                                "memory_kind=device)");

  Result<Sharding> rep = Sharding::replicated({cpus[0], cpus[1]});
  ASSERT_TRUE(rep.ok());
  EXPECT_EQ(rep->num_devices(), 2u);
  EXPECT_TRUE(rep->is_fully_replicated());
  EXPECT_FALSE(rep->is_single_device());

  Result<Sharding> split =
      Sharding::split({cpus[3], cpus[4]}, 0, MemoryKind::kPinnedHost);
  ASSERT_TRUE(split.ok());
  EXPECT_FALSE(split->is_fully_replicated());
  EXPECT_FALSE(split->is_fully_addressable()); // cpus[4] is process 1's
  EXPECT_EQ(split->axis(), 0);
  EXPECT_EQ(split->platform(), Platform::kCpu);
  EXPECT_EQ(split->to_string(),
            "SplitSharding(axis=0, devices=[CpuDevice(id=3), CpuDevice(id=4)], "
            "memory_kind=pinned_host)");

  Result<Sharding> one = Sharding::split({cpus[0]}, 0);
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(one->kind(), Sharding::Kind::kSingleDevice);
}

TEST_F(TopologyTest, ShardingRejectsBadDeviceLists) {
  Configure(2, 1);
  std::vector<Device> cpus = devices(Platform::kCpu);
  Device tpu = devices(Platform::kTpu)[0];
  EXPECT_STATUS(Sharding::replicated({}).status(), StatusCode::kValueError,
                "a Sharding needs at least one device, got none");
  EXPECT_STATUS(Sharding::replicated({cpus[0], cpus[1], cpus[0]}).status(),
                StatusCode::kValueError,
                "a Sharding lists CpuDevice(id=0) twice (positions 0 and 2)");
  EXPECT_STATUS(Sharding::split({cpus[0], tpu}, 0).status(),
                StatusCode::kValueError,
                "the devices of a Sharding must share one platform, got "
                "CpuDevice(id=0) and TpuDevice(id=0, process_index=0)");
  EXPECT_STATUS(Sharding::split({cpus[0], cpus[1]}, -1).status(),
                StatusCode::kValueError,
                "the split axis of a Sharding must be >= 0, got -1");
}

} // namespace
} // namespace itest
