// detail::import_keep_on_failure, the import the Python binding uses so that
// a failed import leaves the tensor with its capsule: on failure the deleter
// must NOT have run (the caller still owns the tensor, and a later import of
// it works); on success ownership is the runtime's exactly as with
// from_dlpack(). Also: memory of a zero-copy import, whose buffer lives in
// the array's own allocation, stays alive for every view and export of it.
#include "test_util.h"

#include "exchange_internal.h" // runtime/src

namespace itest {
namespace {

class KeepOnFailureTest : public RuntimeTest {
protected:
  Device Cpu() { return local_devices(Platform::kCpu)[0]; }
};

TEST_F(KeepOnFailureTest, FailuresLeaveTheTensorWithTheCaller) {
  Configure(/*cpu=*/1, /*tpu=*/0, /*processes=*/2, /*index=*/0);
  Device remote = devices(Platform::kCpu)[1];
  ASSERT_FALSE(remote.is_addressable());

  VProducer p;
  FillProducer(p, {2, 3}, {}, 8); // room for the gapped strides below
  // Another process's device, then a copy refused by copy=kNever, then an
  // unsupported device type: each with from_dlpack()'s exact status, and
  // none calls the deleter.
  EXPECT_STATUS(detail::import_keep_on_failure(p.get(), remote, {}).status(),
                StatusCode::kRuntimeError,
                "DLPack is only supported for devices addressable by the "
                "current process.");
  int64_t gapped[] = {4, 1};
  p.tensor().strides = gapped;
  ImportOptions never;
  never.copy = CopyMode::kNever;
  EXPECT_STATUS(
      detail::import_keep_on_failure(p.get(), Cpu(), never).status(),
      StatusCode::kBufferError,
      "from_dlpack with copy=False cannot import strides (4, 1) for shape "
      "(2, 3): zero, negative or gapped strides need a copy into row-major "
      "order");
  p.tensor().strides = nullptr;
  DLDevice cpu_device = p.tensor().device;
  p.tensor().device = MakeDLDevice(7, 0); // kDLVulkan
  Result<Array> unsupported =
      detail::import_keep_on_failure(p.get(), std::nullopt, {});
  EXPECT_EQ(unsupported.status().code(), StatusCode::kTypeError);
  EXPECT_EQ(unsupported.status().message().rfind(
                "Array passed to from_dlpack is on unsupported device type "
                "(DLDeviceType: kDLVulkan, array: DLTensor(shape=(2, 3)",
                0),
            0u)
      << unsupported.status().message();
  p.tensor().device = cpu_device;
  EXPECT_EQ(p.deletes, 0);

  // The tensor is intact and still the caller's: the public import takes it.
  {
    Result<Array> r = from_dlpack(p.get(), Cpu());
    ASSERT_TRUE(r.ok()) << r.status().to_string();
    EXPECT_EQ(ToHost(*r), Iota(6));
    EXPECT_EQ(p.deletes, 0);
  }
  EXPECT_EQ(p.deletes, 1);
}

TEST_F(KeepOnFailureTest, VersionMismatchIsKeptToo) {
  VProducer p;
  FillProducer(p, {2}, {}, 2);
  p.managed.version = {2, 0};
  EXPECT_EQ(detail::import_keep_on_failure(p.get(), Cpu(), {}).status().code(),
            StatusCode::kBufferError);
  EXPECT_EQ(p.deletes, 0);
  EXPECT_EQ(detail::import_keep_on_failure(
                static_cast<DLManagedTensor *>(nullptr), Cpu(), {})
                .status()
                .message(),
            "from_dlpack got a NULL DLManagedTensor");
}

TEST_F(KeepOnFailureTest, SuccessTransfersOwnership) {
  // Zero-copy, onto the tensor's own device: the deleter runs when the last
  // array goes.
  {
    LProducer p;
    FillProducer(p, {3}, {}, 3);
    {
      Result<Array> r = detail::import_keep_on_failure(p.get(), std::nullopt,
                                                       ImportOptions());
      ASSERT_TRUE(r.ok()) << r.status().to_string();
      EXPECT_EQ(r->sharding().devices()[0], Cpu());
      EXPECT_EQ(*r->unsafe_buffer_pointer(),
                reinterpret_cast<uintptr_t>(p.tensor().data));
      EXPECT_EQ(p.deletes, 0);
    }
    EXPECT_EQ(p.deletes, 1);
  }
  // A copy: the producer is released before the call returns.
  {
    VProducer p;
    FillProducer(p, {3}, {}, 3);
    ImportOptions always;
    always.copy = CopyMode::kAlways;
    Result<Array> r = detail::import_keep_on_failure(p.get(), Cpu(), always);
    ASSERT_TRUE(r.ok()) << r.status().to_string();
    EXPECT_EQ(p.deletes, 1);
    EXPECT_EQ(ToHost(*r), Iota(3));
  }
}

// The buffer of a zero-copy import lives inside the array's allocation, so
// everything that keeps the memory (exports, shards) must keep the array's
// allocation alive, and the producer's deleter runs once, after the last.
TEST_F(KeepOnFailureTest, ViewsOfAZeroCopyImportKeepItsMemory) {
  VProducer p;
  FillProducer(p, {2, 2}, {}, 4);
  ManagedTensor exported;
  Result<Array> shard = Status(StatusCode::kInternal, "unset");
  {
    Result<Array> r = from_dlpack(p.get(), Cpu());
    ASSERT_TRUE(r.ok()) << r.status().to_string();
    Result<ManagedTensor> m = to_dlpack(*r);
    ASSERT_TRUE(m.ok()) << m.status().to_string();
    exported = std::move(*m);
    shard = r->addressable_data(0);
    ASSERT_TRUE(shard.ok());
  }
  EXPECT_EQ(p.deletes, 0);
  EXPECT_EQ(exported.tensor().data, p.tensor().data);
  EXPECT_EQ(ToHost(*shard), Iota(4)); // reads the producer's memory
  shard = Status(StatusCode::kInternal, "dropped");
  EXPECT_EQ(p.deletes, 0) << "the export still holds the memory";
  exported.reset();
  EXPECT_EQ(p.deletes, 1);
}

} // namespace
} // namespace itest
