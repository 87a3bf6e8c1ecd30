// The "known user pain" list of reference/dlpack.md, one test each.
#include "test_util.h"

namespace itest {
namespace {

using UserPain = RuntimeTest;

// Sharded JAX arrays handed to torch: export refuses (JAX's sharded-export
// error); the fix the error recommends (gather to one device) then exports
// zero-copy.
TEST_F(UserPain, ShardedArrayHandedToTorch) {
  Configure(4);
  std::vector<Device> cpus = local_devices();
  Array sharded = HostArray(Iota(8), {4, 2}, *Sharding::split(cpus, 0));
  EXPECT_EQ(to_dlpack(sharded).status().code(), StatusCode::kBufferError);
  Result<Array> one = gather(sharded, cpus[0]);
  ASSERT_TRUE(one.ok());
  Result<ManagedTensor> m = to_dlpack(*one);
  ASSERT_TRUE(m.ok()) << m.status().to_string();
  EXPECT_EQ(std::vector<float>(static_cast<float *>(m->tensor().data),
                               static_cast<float *>(m->tensor().data) + 8),
            Iota(8));
}

// bool must travel as (kDLBool, 8, 1) both ways, not as uint8.
TEST_F(UserPain, BoolDtypeExchange) {
  bool values[4] = {true, false, false, true};
  Result<Array> a = Array::from_host(
      values, 4, {4}, kBool, Sharding::single_device(local_devices()[0]));
  ASSERT_TRUE(a.ok());
  ManagedTensor m = std::move(to_dlpack(*a)).value();
  EXPECT_EQ(m.tensor().dtype.code, dl::kBool);
  EXPECT_EQ(m.tensor().dtype.bits, 8);
  EXPECT_EQ(m.tensor().dtype.lanes, 1);
  Result<Array> back = from_dlpack(m.release_versioned(), local_devices()[0]);
  ASSERT_TRUE(back.ok());
  EXPECT_TRUE(same_dtype(back->dtype(), kBool));
  bool out[4];
  ASSERT_OK(back->copy_to_host(out, 4));
  EXPECT_EQ(std::memcmp(out, values, 4), 0);
}

// Leading singleton dims: their strides are arbitrary (PyTorch exports
// whatever) and must neither be trusted nor force a copy.
TEST_F(UserPain, LeadingSingletonDimsAndLayout) {
  VProducer p;
  FillProducer(p, {1, 1, 3}, {0, 12345, 1}, 3);
  ImportOptions never;
  never.copy = CopyMode::kNever;
  Result<Array> r = from_dlpack(p.get(), local_devices()[0], never);
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  EXPECT_EQ(ToHost(*r), Iota(3));
  Result<ManagedTensor> m = to_dlpack(*r);
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->tensor().strides[0], 3);
  EXPECT_EQ(m->tensor().strides[1], 3);
  EXPECT_EQ(m->tensor().strides[2], 1);
}

// Negative strides aborted the process in some consumers; here they are
// read correctly (a copy), or refused with a message when copy=False.
TEST_F(UserPain, NegativeStridesDoNotAbort) {
  VProducer p;
  FillProducer(p, {2, 3}, {3, -1}, 6, 2); // each row reversed
  Result<Array> r = from_dlpack(p.get(), local_devices()[0]);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(ToHost(*r), (std::vector<float>{2, 1, 0, 5, 4, 3}));
}

// byte_offset was ignored by PyTorch, cuda-python and warp.
TEST_F(UserPain, ByteOffsetNotIgnored) {
  LProducer p;
  FillProducer(p, {2}, {}, 10);
  p.tensor().byte_offset = 7 * 4;
  Result<Array> r = from_dlpack(p.get(), local_devices()[0]);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(ToHost(*r), (std::vector<float>{7, 8}));
}

// Double free when an error happens after import but before the capsule
// rename: from_dlpack owns the tensor on every path, so a caller that gives
// it away and sees an error must not (and need not) call the deleter.
TEST_F(UserPain, NoDoubleFreeWhenImportFailsLate) {
  VProducer p;
  FillProducer(p, {2}, {}, 2);
  dl::set_device_type(p.tensor().device, dl::kVulkan); // fails after shape
  ManagedTensor owner(p.get());                        // checks
  Result<Array> r = from_dlpack(owner.release_versioned(), local_devices()[0]);
  EXPECT_EQ(r.status().code(), StatusCode::kTypeError);
  EXPECT_EQ(p.deletes, 1);
  // `owner` was released: destroying it must not call the deleter again.
}

// A capsule destructor calling the deleter after the consumer took
// ownership: ManagedTensor, once released, never calls it.
TEST_F(UserPain, NoDeleterAfterOwnershipMoved) {
  VProducer p;
  FillProducer(p, {3}, {}, 3);
  {
    ManagedTensor capsule(p.get());
    Result<Array> r =
        from_dlpack(capsule.release_versioned(), local_devices()[0]);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(p.deletes, 0);
  }
  EXPECT_EQ(p.deletes, 1);
}

// Consuming twice: the second consumer finds nothing to consume.
TEST_F(UserPain, ConsumingTwiceIsAnErrorNotACrash) {
  Array a =
      HostArray(Iota(2), {2}, Sharding::single_device(local_devices()[0]));
  ManagedTensor m = std::move(to_dlpack(a)).value();
  DLManagedTensorVersioned *first = m.release_versioned();
  DLManagedTensorVersioned *second = m.release_versioned();
  EXPECT_EQ(second, nullptr);
  EXPECT_TRUE(from_dlpack(first, local_devices()[0]).ok());
  EXPECT_STATUS(from_dlpack(second, local_devices()[0]).status(),
                StatusCode::kInvalidArgument,
                "from_dlpack got a NULL DLManagedTensorVersioned");
}

// The deleter was never called for NULL-data / empty tensors (a leak).
TEST_F(UserPain, DeleterRunsForEmptyTensors) {
  for (bool null_data : {false, true}) {
    VProducer p;
    FillProducer(p, {0}, {}, 0);
    if (null_data)
      p.tensor().data = nullptr;
    {
      EXPECT_TRUE(from_dlpack(p.get(), local_devices()[0]).ok());
    }
    EXPECT_EQ(p.deletes, 1);
  }
}

// Zero-size tensors were rejected by some consumers.
TEST_F(UserPain, ZeroSizeTensorsRoundTrip) {
  for (std::vector<int64_t> shape :
       {std::vector<int64_t>{0}, std::vector<int64_t>{3, 0, 2}}) {
    Result<Array> a =
        Array::from_host(nullptr, 0, shape, kFloat32,
                         Sharding::single_device(local_devices()[0]));
    ASSERT_TRUE(a.ok());
    ManagedTensor m = std::move(to_dlpack(*a)).value();
    Result<Array> back = from_dlpack(m.release_versioned(), local_devices()[0]);
    ASSERT_TRUE(back.ok()) << back.status().to_string();
    EXPECT_EQ(back->shape(), shape);
    EXPECT_EQ(back->size(), 0);
  }
}

// A versioned struct misparsed as legacy: the two layouts differ (dl_tensor
// at offset 32 vs 0), so the kind must be explicit everywhere.
TEST_F(UserPain, VersionedNeverMisparsedAsLegacy) {
  Array a =
      HostArray(Iota(2), {2}, Sharding::single_device(local_devices()[0]));
  ManagedTensor v = std::move(to_dlpack(a)).value();
  ASSERT_TRUE(v.is_versioned());
  EXPECT_EQ(reinterpret_cast<const char *>(&v.tensor()),
            reinterpret_cast<const char *>(v.versioned()) + 32);
  EXPECT_STREQ(v.capsule_name(), "dltensor_versioned");
  ExportOptions legacy;
  legacy.max_version = {0, 0};
  ManagedTensor l = std::move(to_dlpack(a, legacy)).value();
  EXPECT_EQ(reinterpret_cast<const void *>(&l.tensor()),
            static_cast<const void *>(l.legacy()));
  EXPECT_STREQ(l.capsule_name(), "dltensor");
}

// Read-only arrays were refused when the consumer did not pass max_version
// (NumPy): here a legacy consumer gets a private copy instead, and only an
// explicit copy=False is refused, with a message saying what to do.
TEST_F(UserPain, ReadOnlyArrayToLegacyConsumer) {
  VProducer p;
  FillProducer(p, {3}, {}, 3);
  p.managed.flags = dl::kFlagReadOnly;
  Result<Array> ro = from_dlpack(p.get(), local_devices()[0]);
  ASSERT_TRUE(ro.ok());
  ASSERT_TRUE(ro->read_only());
  ExportOptions legacy;
  legacy.max_version = {0, 0};
  Result<ManagedTensor> m = to_dlpack(*ro, legacy);
  ASSERT_TRUE(m.ok()) << m.status().to_string();
  EXPECT_NE(reinterpret_cast<uintptr_t>(m->tensor().data),
            *ro->unsafe_buffer_pointer());
  legacy.copy = CopyMode::kNever;
  EXPECT_STATUS(to_dlpack(*ro, legacy).status(), StatusCode::kBufferError,
                "cannot export a read-only array as a legacy DLManagedTensor "
                "without a copy: the legacy struct cannot mark memory "
                "read-only; pass max_version >= (1, 0) or allow a copy");
}

} // namespace
} // namespace itest
