// from_dlpack: validation with exact messages, placement, strides, and the
// deleter running exactly once on every path.
#include "test_util.h"

namespace itest {
namespace {

class ImportTest : public RuntimeTest {
protected:
  Device Cpu() { return local_devices(Platform::kCpu)[0]; }
};

// Runs from_dlpack on a versioned producer, expects the failure, and checks
// the deleter ran exactly once.
void ExpectRejected(VProducer &p, const Device &target, StatusCode code,
                    const std::string &message, const ImportOptions &o = {}) {
  Result<Array> r = from_dlpack(p.get(), target, o);
  EXPECT_FALSE(r.ok());
  EXPECT_STATUS(r.status(), code, message);
  EXPECT_EQ(p.deletes, 1) << "the deleter must run exactly once on failure";
}

TEST_F(ImportTest, ZeroCopyVersioned) {
  VProducer p;
  FillProducer(p, {2, 3}, {}, 6);
  {
    Result<Array> r = from_dlpack(p.get(), Cpu());
    ASSERT_TRUE(r.ok()) << r.status().to_string();
    EXPECT_EQ(*r->unsafe_buffer_pointer(),
              reinterpret_cast<uintptr_t>(p.tensor().data));
    EXPECT_EQ(r->shape(), (std::vector<int64_t>{2, 3}));
    EXPECT_EQ(ToHost(*r), Iota(6));
    EXPECT_EQ(p.deletes, 0) << "zero-copy: the producer's memory is in use";
    Array shard_copy = r->addressable_shards()[0];
    r = Result<Array>(Status(StatusCode::kInternal, "drop"));
    EXPECT_EQ(p.deletes, 0) << "a shard still shares the memory";
  }
  EXPECT_EQ(p.deletes, 1);
}

TEST_F(ImportTest, ZeroCopyLegacy) {
  LProducer p;
  FillProducer(p, {4}, {1}, 4);
  {
    Result<Array> r = from_dlpack(p.get(), Cpu());
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(ToHost(*r), Iota(4));
    EXPECT_FALSE(r->read_only());
  }
  EXPECT_EQ(p.deletes, 1);
}

TEST_F(ImportTest, NullTensorAndNullDeleter) {
  EXPECT_STATUS(
      from_dlpack(static_cast<DLManagedTensorVersioned *>(nullptr), Cpu())
          .status(),
      StatusCode::kInvalidArgument,
      "from_dlpack got a NULL DLManagedTensorVersioned");
  EXPECT_STATUS(
      from_dlpack(static_cast<DLManagedTensor *>(nullptr), Cpu()).status(),
      StatusCode::kInvalidArgument, "from_dlpack got a NULL DLManagedTensor");
  // A NULL deleter means "nothing to free"; both paths must tolerate it.
  VProducer p;
  FillProducer(p, {2}, {}, 2);
  p.managed.deleter = nullptr;
  {
    EXPECT_TRUE(from_dlpack(p.get(), Cpu()).ok());
  }
  p.tensor().ndim = -1;
  EXPECT_FALSE(from_dlpack(p.get(), Cpu()).ok());
  EXPECT_EQ(p.deletes, 0);
}

TEST_F(ImportTest, MajorVersionMismatchTouchesNothingElse) {
  VProducer p;
  FillProducer(p, {2}, {}, 2);
  p.managed.version = {2, 7};
  // Poison every other field: reading any of them would crash or trip ASan.
  DLTensor &t = p.tensor();
  t.ndim = -12345;
  t.shape = reinterpret_cast<int64_t *>(uintptr_t{8});
  t.strides = reinterpret_cast<int64_t *>(uintptr_t{16});
  t.data = reinterpret_cast<void *>(uintptr_t{24});
  dl::set_device_type(t.device, 12345);
  p.managed.flags = ~uint64_t{0};
  ExpectRejected(p, Cpu(), StatusCode::kBufferError,
                 "DLPack tensor has unsupported major version 2 (version 2.7); "
                 "this runtime understands major version 1");
  VProducer q;
  FillProducer(q, {2}, {}, 2);
  q.managed.version = {0, 8};
  Result<Array> r = from_dlpack(q.get());
  EXPECT_STATUS(r.status(), StatusCode::kBufferError,
                "DLPack tensor has unsupported major version 0 (version 0.8); "
                "this runtime understands major version 1");
  EXPECT_EQ(q.deletes, 1);
}

TEST_F(ImportTest, NonAddressableTargetIsRejected) {
  Configure(1, 0, 2, 1);
  Device remote = devices(Platform::kCpu)[0];
  ASSERT_FALSE(remote.is_addressable());
  VProducer p;
  FillProducer(p, {2}, {}, 2);
  ExpectRejected(p, remote, StatusCode::kRuntimeError,
                 "DLPack is only supported for devices addressable by the "
                 "current process.");
  LProducer l;
  FillProducer(l, {2}, {}, 2);
  EXPECT_STATUS(from_dlpack(l.get(), remote).status(),
                StatusCode::kRuntimeError,
                "DLPack is only supported for devices addressable by the "
                "current process.");
  EXPECT_EQ(l.deletes, 1);
}

TEST_F(ImportTest, OntoMultiDeviceShardingIsRejected) {
  Configure(3);
  VProducer p;
  FillProducer(p, {3}, {}, 3);
  Result<Array> r =
      from_dlpack(p.get(), *Sharding::replicated(local_devices()));
  EXPECT_STATUS(r.status(), StatusCode::kValueError,
                "from_dlpack can only unpack a dlpack tensor onto a singular "
                "device, but a Sharding with 3 devices was provided.");
  EXPECT_EQ(p.deletes, 1);
  LProducer q;
  FillProducer(q, {3}, {}, 3);
  Device d = local_devices()[2];
  {
    Result<Array> ok = from_dlpack(
        q.get(), Sharding::single_device(d, MemoryKind::kPinnedHost));
    ASSERT_TRUE(ok.ok()) << ok.status().to_string();
    EXPECT_EQ(ok->sharding().devices()[0], d);
    EXPECT_EQ(ok->memory_kind(), MemoryKind::kPinnedHost);
    EXPECT_EQ(q.deletes, 1) << "CPU memory is copied into pinned memory";
    EXPECT_EQ(ToHost(*ok), Iota(3));
  }
  EXPECT_EQ(q.deletes, 1);
}

TEST_F(ImportTest, MalformedShapes) {
  struct Case {
    int32_t ndim;
    std::vector<int64_t> shape;
    bool null_shape;
    const char *message;
  } cases[] = {
      {-1,
       {},
       true,
       "Number of dimensions in DLManagedTensor must be nonnegative, got -1"},
      {-2147483647 - 1,
       {},
       true,
       "Number of dimensions in DLManagedTensor must be nonnegative, got "
       "-2147483648"},
      {65,
       {},
       true,
       "Number of dimensions in DLManagedTensor must be at most 64, got 65"},
      {2147483647,
       {},
       true,
       "Number of dimensions in DLManagedTensor must be at most 64, got "
       "2147483647"},
      {2, {}, true, "DLManagedTensor has ndim=2 but a NULL shape"},
      {2,
       {2, -3},
       false,
       "DLManagedTensor shape (2, -3) has a negative dimension or more than "
       "2^63-1 elements"},
      {3,
       {1LL << 32, 1LL << 31, 4},
       false,
       "DLManagedTensor shape (4294967296, 2147483648, 4) has a negative "
       "dimension or more than 2^63-1 elements"},
      {1,
       {1LL << 62},
       false,
       "DLManagedTensor shape (4611686018427387904,) of float32 overflows the "
       "byte count"},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.message);
    VProducer p;
    FillProducer(p, c.shape, {}, 4);
    p.tensor().ndim = c.ndim;
    if (c.null_shape)
      p.tensor().shape = nullptr;
    ExpectRejected(p, Cpu(), StatusCode::kInvalidArgument, c.message);
  }
}

TEST_F(ImportTest, OverflowingStridesAndOffsets) {
  VProducer p;
  FillProducer(p, {4, 2}, {INT64_MAX / 2, 1}, 8);
  ExpectRejected(p, Cpu(), StatusCode::kInvalidArgument,
                 "DLPack tensor strides (4611686018427387903, 1) for shape "
                 "(4, 2) overflow 64-bit element offsets");
  VProducer q;
  FillProducer(q, {6, 2}, {INT64_MIN / 4, 1}, 12);
  ExpectRejected(q, Cpu(), StatusCode::kInvalidArgument,
                 "DLPack tensor strides (-2305843009213693952, 1) for shape "
                 "(6, 2) overflow 64-bit element offsets");
  // In range as element offsets, but not as an address range.
  VProducer big;
  FillProducer(big, {3, 2}, {INT64_MAX / 2, 1}, 6);
  ExpectRejected(big, Cpu(), StatusCode::kInvalidArgument,
                 "DLManagedTensor data + byte_offset 0 with strides "
                 "(4611686018427387903, 1) for shape (3, 2) overflows the "
                 "address space");
  VProducer r;
  FillProducer(r, {2}, {}, 2);
  r.tensor().byte_offset = UINT64_MAX - 4;
  ExpectRejected(r, Cpu(), StatusCode::kInvalidArgument,
                 "DLManagedTensor data + byte_offset 18446744073709551611 with "
                 "strides NULL for shape (2,) overflows the address space");
  // Regression (found by the fuzzer): a lowest byte offset of exactly
  // INT64_MIN was negated.
  VProducer m;
  FillProducer(m, {2}, {-(int64_t{1} << 61)}, 2);
  ExpectRejected(m, Cpu(), StatusCode::kInvalidArgument,
                 "DLManagedTensor data + byte_offset 0 with strides "
                 "(-2305843009213693952,) for shape (2,) overflows the "
                 "address space");
  // A negative stride reaching below address 0.
  VProducer s;
  FillProducer(s, {3}, {-(INT64_MAX / 8)}, 3);
  ExpectRejected(s, Cpu(), StatusCode::kInvalidArgument,
                 "DLManagedTensor data + byte_offset 0 with strides "
                 "(-1152921504606846975,) for shape (3,) overflows the address "
                 "space");
}

TEST_F(ImportTest, DtypeValidation) {
  VProducer lanes;
  FillProducer(lanes, {2}, {}, 2, 0, DLDataType{dl::kFloat, 32, 4});
  ExpectRejected(lanes, Cpu(), StatusCode::kInvalidArgument,
                 "Unsupported DLPack tensor dtype: lanes should be equal to 1, "
                 "got 4");
  VProducer fp4;
  FillProducer(fp4, {2}, {}, 2, 0, DLDataType{dl::kFloat4_e2m1fn, 4, 1});
  ExpectRejected(fp4, Cpu(), StatusCode::kInvalidArgument,
                 "Unsupported DLPack tensor dtype: bits should be a multiple "
                 "of 8, got 4 (type code 17)");
  VProducer opaque;
  FillProducer(opaque, {1}, {}, 2, 0, DLDataType{dl::kOpaqueHandle, 64, 1});
  ExpectRejected(opaque, Cpu(), StatusCode::kInvalidArgument,
                 "Unsupported DLPack tensor dtype: type code 3 with 64 bits");
}

TEST_F(ImportTest, BoolBfloat16AndFloat8AreAccepted) {
  for (DLDataType t : {kBool, kBFloat16, kFloat8E4M3FN, kFloat8E5M2,
                       DLDataType{dl::kFloat8_e8m0fnu, 8, 1}}) {
    SCOPED_TRACE(dtype_name(t));
    VProducer p;
    FillProducer(p, {2}, {}, 2, 0, t); // 8 bytes of data cover 2 elements
    Result<Array> r = from_dlpack(p.get(), Cpu());
    ASSERT_TRUE(r.ok()) << r.status().to_string();
    EXPECT_TRUE(same_dtype(r->dtype(), t));
    std::vector<char> out(r->nbytes());
    ASSERT_OK(r->copy_to_host(out.data(), out.size()));
    EXPECT_EQ(std::memcmp(out.data(), p.tensor().data, out.size()), 0);
  }
}

TEST_F(ImportTest, UnsupportedDeviceTypesAreTypeErrors) {
  struct Case {
    int32_t type;
    const char *text;
  } cases[] = {{dl::kVulkan, "kDLVulkan"},   {dl::kROCM, "kDLROCM"},
               {dl::kOpenCL, "kDLOpenCL"},   {dl::kTPU, "kDLTPU"},
               {dl::kHexagon, "kDLHexagon"}, {99, "99"}};
  for (const Case &c : cases) {
    SCOPED_TRACE(c.text);
    VProducer p;
    FillProducer(p, {2, 3}, {}, 6);
    dl::set_device_type(p.tensor().device, c.type);
    std::string d = std::string("(") + c.text + ", 0)";
    ExpectRejected(p, Cpu(), StatusCode::kTypeError,
                   std::string("Array passed to from_dlpack is on unsupported "
                               "device type (DLDeviceType: ") +
                       c.text +
                       ", array: DLTensor(shape=(2, 3), "
                       "dtype=float32, device=" +
                       d + ", strides=NULL, byte_offset=0)");
    // Without a target the same message comes from the device lookup.
    LProducer l;
    FillProducer(l, {2, 3}, {}, 6);
    dl::set_device_type(l.tensor().device, c.type);
    EXPECT_STATUS(from_dlpack(l.get()).status(), StatusCode::kTypeError,
                  std::string("Array passed to from_dlpack is on unsupported "
                              "device type (DLDeviceType: ") +
                      c.text +
                      ", array: DLTensor(shape=(2, 3), "
                      "dtype=float32, device=" +
                      d + ", strides=NULL, byte_offset=0)");
    EXPECT_EQ(l.deletes, 1);
  }
}

TEST_F(ImportTest, NullData) {
  VProducer p;
  FillProducer(p, {2}, {}, 2);
  p.tensor().data = nullptr;
  ExpectRejected(p, Cpu(), StatusCode::kInvalidArgument,
                 "DLManagedTensor has NULL data for 2 elements");
  // An empty tensor may have NULL data, and its deleter still runs.
  VProducer e;
  FillProducer(e, {0, 4}, {}, 0);
  e.tensor().data = nullptr;
  {
    Result<Array> r = from_dlpack(e.get(), Cpu());
    ASSERT_TRUE(r.ok()) << r.status().to_string();
    EXPECT_EQ(r->size(), 0);
  }
  EXPECT_EQ(e.deletes, 1);
}

TEST_F(ImportTest, ByteOffsetIsHonoured) {
  VProducer p;
  FillProducer(p, {3}, {}, 8);
  p.tensor().byte_offset = 8; // starts at element 2
  Result<Array> r = from_dlpack(p.get(), Cpu());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(ToHost(*r), (std::vector<float>{2, 3, 4}));
  // data + byte_offset is the first element also for exports of it.
  Result<ManagedTensor> m = to_dlpack(*r);
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->tensor().byte_offset, 0u);
  EXPECT_EQ(static_cast<float *>(m->tensor().data)[0], 2.0f);
}

struct StrideCase {
  const char *name;
  std::vector<int64_t> shape, strides;
  size_t block, first;
  std::vector<float> expected;
};

class StridedImport : public ImportTest,
                      public ::testing::WithParamInterface<StrideCase> {};

TEST_P(StridedImport, CopiedIntoRowMajorOrRejectedWithoutCopy) {
  const StrideCase &c = GetParam();
  VProducer p;
  FillProducer(p, c.shape, c.strides, c.block, c.first);
  {
    Result<Array> r = from_dlpack(p.get(), Cpu());
    ASSERT_TRUE(r.ok()) << r.status().to_string();
    EXPECT_EQ(p.deletes, 1) << "copied, so released right away";
    EXPECT_EQ(ToHost(*r), c.expected);
  }
  EXPECT_EQ(p.deletes, 1);
  VProducer q;
  FillProducer(q, c.shape, c.strides, c.block, c.first);
  ImportOptions never;
  never.copy = CopyMode::kNever;
  std::string s = "(", sh = "(";
  for (size_t i = 0; i < c.strides.size(); ++i) {
    s += (i ? ", " : "") + std::to_string(c.strides[i]);
    sh += (i ? ", " : "") + std::to_string(c.shape[i]);
  }
  s += c.strides.size() == 1 ? ",)" : ")";
  sh += c.shape.size() == 1 ? ",)" : ")";
  ExpectRejected(q, Cpu(), StatusCode::kBufferError,
                 "from_dlpack with copy=False cannot import strides " + s +
                     " for shape " + sh +
                     ": zero, negative or gapped strides need a copy into "
                     "row-major order",
                 never);
}

INSTANTIATE_TEST_SUITE_P(
    Strides, StridedImport,
    ::testing::Values(
        StrideCase{"ColumnMajor", {2, 3}, {1, 2}, 6, 0, {0, 2, 4, 1, 3, 5}},
        StrideCase{"Negative", {4}, {-1}, 4, 3, {3, 2, 1, 0}},
        StrideCase{"NegativeRows", {2, 2}, {-2, 1}, 4, 2, {2, 3, 0, 1}},
        StrideCase{"ZeroBroadcast", {3, 2}, {0, 1}, 2, 0, {0, 1, 0, 1, 0, 1}},
        StrideCase{"Gapped", {3}, {2}, 5, 0, {0, 2, 4}},
        StrideCase{"GappedRows", {2, 2}, {3, 1}, 5, 0, {0, 1, 3, 4}}),
    [](const ::testing::TestParamInfo<StrideCase> &i) { return i.param.name; });

// Larger strided sources, every itemsize, against a naive per-element
// reference: transposed planes (copied in tiles), a negative outer stride,
// broadcast, and gapped rows. Extents are not multiples of the tiles.
TEST_F(ImportTest, StridedCopiesAreExactForEveryItemSize) {
  struct Layout {
    const char *name;
    std::vector<int64_t> shape, strides; // strides in elements
    int64_t first;                       // element offset of element 0
  };
  const std::vector<Layout> layouts = {
      {"transposed", {37, 70}, {1, 37}, 0},
      {"transposed-3d-negative-outer", {3, 37, 70}, {-2590, 1, 37}, 5180},
      {"broadcast-rows", {5, 70}, {0, 1}, 0},
      {"broadcast-cols", {37, 5}, {1, 0}, 0},
      {"gapped", {9, 37, 21}, {800, 21, 1}, 0},
      {"column-of-one", {70, 1}, {3, 99}, 0},
  };
  const std::vector<DLDataType> dtypes = {kInt8, kInt16, kFloat32, kFloat64,
                                          kComplex128};
  for (const Layout &l : layouts) {
    for (DLDataType dtype : dtypes) {
      size_t isz = dtype.bits / 8;
      SCOPED_TRACE(std::string(l.name) + " itemsize " + std::to_string(isz));
      // The smallest block holding every element the layout reaches.
      int64_t lo = 0, hi = 0, count = 1;
      for (size_t d = 0; d < l.shape.size(); ++d) {
        int64_t reach = l.strides[d] * (l.shape[d] - 1);
        (reach < 0 ? lo : hi) += reach;
        count *= l.shape[d];
      }
      ASSERT_EQ(l.first, -lo);
      size_t block_bytes = static_cast<size_t>(hi - lo + 1) * isz;
      VProducer p;
      FillProducer(p, l.shape, l.strides, 0, 0, dtype);
      std::free(p.block);
      p.block = std::malloc(block_bytes);
      auto *bytes = static_cast<unsigned char *>(p.block);
      for (size_t i = 0; i < block_bytes; ++i)
        bytes[i] = static_cast<unsigned char>(i * 7 + i / 251);
      p.tensor().data = bytes + l.first * static_cast<int64_t>(isz);

      std::vector<unsigned char> expected(static_cast<size_t>(count) * isz);
      std::vector<int64_t> index(l.shape.size(), 0);
      for (int64_t e = 0; e < count; ++e) {
        int64_t offset = l.first, rest = e;
        for (size_t d = l.shape.size(); d-- > 0;) {
          offset += (rest % l.shape[d]) * l.strides[d];
          rest /= l.shape[d];
        }
        std::memcpy(&expected[static_cast<size_t>(e) * isz],
                    bytes + offset * static_cast<int64_t>(isz), isz);
      }
      Result<Array> r = from_dlpack(p.get(), Cpu());
      ASSERT_TRUE(r.ok()) << r.status().to_string();
      EXPECT_EQ(p.deletes, 1) << "copied, so released right away";
      std::vector<unsigned char> got(expected.size());
      ASSERT_OK(r->copy_to_host(got.data(), got.size()));
      EXPECT_EQ(got, expected);
    }
  }
}

// Most producers free the managed struct itself in their deleter (NumPy
// does). After a copy the runtime calls the deleter at once, and must read
// nothing of the struct afterwards: this deleter scribbles over it before
// freeing it, so a late read shows as a wrong result here and as a
// heap-use-after-free under ASan.
TEST_F(ImportTest, NothingIsReadFromTheStructAfterACopyReleasedIt) {
  struct Owned {
    DLManagedTensorVersioned managed;
    int64_t shape[2];
    int64_t strides[2];
    float data[6];
  };
  static int deletes = 0;
  deletes = 0;
  for (bool strided : {false, true}) {
    SCOPED_TRACE(strided ? "repacked" : "copied");
    auto *o = new Owned{};
    o->managed.version = kDLPackVersion;
    o->managed.manager_ctx = o;
    o->managed.deleter = [](DLManagedTensorVersioned *self) {
      auto *owned = static_cast<Owned *>(self->manager_ctx);
      std::memset(static_cast<void *>(owned), 0xA5, sizeof(Owned));
      // Keeps the compiler from dropping the scribble as a dead store.
      asm volatile("" : : "r"(owned) : "memory");
      delete owned;
      ++deletes;
    };
    for (int i = 0; i < 6; ++i)
      o->data[i] = static_cast<float>(i);
    DLTensor &t = o->managed.dl_tensor;
    t.data = o->data;
    t.device = MakeDLDevice(dl::kCPU, 0);
    t.ndim = 2;
    t.dtype = kFloat32;
    o->shape[0] = strided ? 3 : 2;
    o->shape[1] = strided ? 2 : 3;
    o->strides[0] = 1; // column-major: repacked
    o->strides[1] = 3;
    t.shape = o->shape;
    t.strides = strided ? o->strides : nullptr;
    ImportOptions always;
    always.copy = CopyMode::kAlways;
    Result<Array> r = from_dlpack(&o->managed, Cpu(), always);
    ASSERT_TRUE(r.ok()) << r.status().to_string();
    EXPECT_EQ(deletes, strided ? 2 : 1);
    EXPECT_EQ(r->dtype().code, kFloat32.code);
    EXPECT_EQ(r->dtype().bits, kFloat32.bits);
    std::vector<int64_t> shape = {strided ? 3 : 2, strided ? 2 : 3};
    EXPECT_EQ(r->shape(), shape);
    EXPECT_EQ(ToHost(*r),
              strided ? (std::vector<float>{0, 3, 1, 4, 2, 5}) : Iota(6));
  }
}

TEST_F(ImportTest, SingletonDimStridesAreIgnored) {
  VProducer p;
  FillProducer(p, {1, 3, 1}, {99, 1, -7}, 3);
  ImportOptions never;
  never.copy = CopyMode::kNever;
  Result<Array> r = from_dlpack(p.get(), Cpu(), never);
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  EXPECT_EQ(*r->unsafe_buffer_pointer(),
            reinterpret_cast<uintptr_t>(p.tensor().data));
  EXPECT_EQ(ToHost(*r), Iota(3));
}

TEST_F(ImportTest, CopyAlwaysReleasesAtOnce) {
  VProducer p;
  FillProducer(p, {3}, {}, 3);
  p.managed.flags = dl::kFlagReadOnly;
  ImportOptions o;
  o.copy = CopyMode::kAlways;
  Result<Array> r = from_dlpack(p.get(), Cpu(), o);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(p.deletes, 1);
  EXPECT_FALSE(r->read_only()) << "a private copy is writable";
  EXPECT_EQ(ToHost(*r), Iota(3));
}

TEST_F(ImportTest, ReadOnlyFlagIsKeptOnZeroCopy) {
  VProducer p;
  FillProducer(p, {3}, {}, 3);
  p.managed.flags = dl::kFlagReadOnly | dl::kFlagIsCopied;
  Result<Array> r = from_dlpack(p.get(), Cpu());
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->read_only());
  Result<ManagedTensor> m = to_dlpack(*r);
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->flags(), dl::kFlagReadOnly);
}

TEST_F(ImportTest, TpuHostPlacement) {
  Configure(1, 2);
  Device tpu1 = local_devices(Platform::kTpu)[1];
  VProducer p;
  FillProducer(p, {4}, {}, 4);
  dl::set_device_type(p.tensor().device, dl::kTPUHost);
  p.tensor().device.device_id = 1;
  {
    // Onto the device it names: zero-copy, pinned host memory kind.
    Result<Array> r = from_dlpack(p.get());
    ASSERT_TRUE(r.ok()) << r.status().to_string();
    EXPECT_EQ(r->sharding().devices()[0], tpu1);
    EXPECT_EQ(r->memory_kind(), MemoryKind::kPinnedHost);
    EXPECT_EQ(*r->unsafe_buffer_pointer(),
              reinterpret_cast<uintptr_t>(p.tensor().data));
    EXPECT_EQ(p.deletes, 0);
  }
  EXPECT_EQ(p.deletes, 1);

  // Onto the other TPU: a copy into its device memory, or an error.
  Device tpu0 = local_devices(Platform::kTpu)[0];
  VProducer q;
  FillProducer(q, {4}, {}, 4);
  dl::set_device_type(q.tensor().device, dl::kTPUHost);
  q.tensor().device.device_id = 1;
  ImportOptions never;
  never.copy = CopyMode::kNever;
  ExpectRejected(q, tpu0, StatusCode::kValueError,
                 "Specified device=TpuDevice(id=0, process_index=0) "
                 "(memory_kind=device) which requires a copy since the source "
                 "device is TpuDevice(id=1, process_index=0), however "
                 "copy=False. Set copy=True or copy=None to perform the "
                 "requested operation.",
                 never);
  VProducer c;
  FillProducer(c, {4}, {}, 4);
  dl::set_device_type(c.tensor().device, dl::kTPUHost);
  c.tensor().device.device_id = 1;
  Result<Array> copied = from_dlpack(c.get(), tpu0);
  ASSERT_TRUE(copied.ok());
  EXPECT_EQ(copied->memory_kind(), MemoryKind::kDevice);
  EXPECT_EQ(c.deletes, 1);
  EXPECT_EQ(ToHost(*copied), Iota(4));
  // ... which in turn cannot be exported (JAX's TPU device-memory export
  // error).
  EXPECT_EQ(to_dlpack(*copied).status().code(), StatusCode::kBufferError);
}

TEST_F(ImportTest, HostImportsTakeNoStream) {
  VProducer p;
  FillProducer(p, {2}, {}, 2);
  ImportOptions o;
  o.stream = 3;
  ExpectRejected(p, Cpu(), StatusCode::kBufferError,
                 "stream must be None for a DLPack tensor in host memory "
                 "(kDLCPU, 0), got 3",
                 o);
}

TEST_F(ImportTest, CudaDataWithoutGpu) {
  if (!local_devices(Platform::kCuda).empty())
    GTEST_SKIP() << "a GPU is present; see cuda_test.cpp";
  VProducer p;
  FillProducer(p, {2}, {}, 2);
  dl::set_device_type(p.tensor().device, dl::kCUDA);
  Result<Array> r = from_dlpack(p.get(), Cpu());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kRuntimeError);
  EXPECT_EQ(r.status().message().rfind("CUDA is not available: ", 0), 0u)
      << r.status().message();
  EXPECT_EQ(p.deletes, 1);
  LProducer l;
  FillProducer(l, {2}, {}, 2);
  dl::set_device_type(l.tensor().device, dl::kCUDAHost);
  Result<Array> host = from_dlpack(l.get());
  ASSERT_FALSE(host.ok());
  EXPECT_EQ(host.status().message().rfind(
                "DLPack device (kDLCUDAHost, 0) names no cuda device of this "
                "process: CUDA is not available: ",
                0),
            0u)
      << host.status().message();
  EXPECT_EQ(l.deletes, 1);
  // CUDA-host memory is still host memory: the CPU can take it zero-copy.
  LProducer h;
  FillProducer(h, {2}, {}, 2);
  dl::set_device_type(h.tensor().device, dl::kCUDAHost);
  Result<Array> on_cpu = from_dlpack(h.get(), Cpu());
  ASSERT_TRUE(on_cpu.ok()) << on_cpu.status().to_string();
  EXPECT_EQ(*on_cpu->unsafe_buffer_pointer(),
            reinterpret_cast<uintptr_t>(h.tensor().data));
}

TEST_F(ImportTest, LocalDeviceFor) {
  Configure(2, 1);
  EXPECT_EQ(*local_device_for(MakeDLDevice(dl::kCPU, 1)),
            local_devices(Platform::kCpu)[1]);
  EXPECT_EQ(*local_device_for(MakeDLDevice(dl::kCPU, 9)),
            local_devices(Platform::kCpu)[0]);
  EXPECT_EQ(*local_device_for(MakeDLDevice(dl::kTPUHost, 0)),
            local_devices(Platform::kTpu)[0]);
  EXPECT_STATUS(local_device_for(MakeDLDevice(dl::kTPUHost, 3)).status(),
                StatusCode::kRuntimeError,
                "DLPack device (kDLTPUHost, 3) names no tpu device of this "
                "process");
  EXPECT_STATUS(local_device_for(MakeDLDevice(dl::kMetal, 0), "x").status(),
                StatusCode::kTypeError,
                "Array passed to from_dlpack is on unsupported device type "
                "(DLDeviceType: kDLMetal, array: x");
}

TEST_F(ImportTest, DescribeSurvivesGarbage) {
  DLTensor t{};
  t.ndim = 3;
  t.shape = nullptr;
  t.dtype = DLDataType{dl::kFloat, 32, 3};
  EXPECT_EQ(describe_dltensor(t),
            "DLTensor(shape=NULL, dtype=dtype(code=2, bits=32, lanes=3), "
            "device=(0, 0), strides=NULL, byte_offset=0)");
  t.ndim = -4;
  EXPECT_EQ(describe_dltensor(t),
            "DLTensor(ndim=-4, dtype=dtype(code=2, bits=32, lanes=3), "
            "device=(0, 0), byte_offset=0)");
}

TEST_F(ImportTest, RoundTripThroughBothStructs) {
  Array a = HostArray(Iota(6), {3, 2}, Sharding::single_device(Cpu()));
  for (uint32_t major : {1u, 0u}) {
    ExportOptions o;
    o.max_version = {major, 0};
    ManagedTensor m = std::move(to_dlpack(a, o)).value();
    Result<Array> back = m.is_versioned()
                             ? from_dlpack(m.release_versioned(), Cpu())
                             : from_dlpack(m.release_legacy(), Cpu());
    ASSERT_TRUE(back.ok()) << back.status().to_string();
    EXPECT_EQ(*back->unsafe_buffer_pointer(), *a.unsafe_buffer_pointer());
    EXPECT_EQ(ToHost(*back), Iota(6));
  }
}

} // namespace
} // namespace itest
