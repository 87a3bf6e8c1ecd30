// The consumer side of the stream handshake that needs no GPU:
// dlpack_consumer_stream() for host and unknown devices, and
// from_cuda_array_interface()'s validation, which refuses a malformed
// interface before touching CUDA and releases the producer's keep-alive
// exactly once on every path. The GPU paths are in cuda_test.cpp.
#include "test_util.h"

#include <memory>

namespace itest {
namespace {

class ConsumerStreamTest : public RuntimeTest {
protected:
  void SetUp() override {
    RuntimeTest::SetUp();
    Configure(/*cpu=*/1, /*tpu=*/1);
  }
};

TEST_F(ConsumerStreamTest, HostMemoryTakesNoStream) {
  for (int32_t type : {dl::kCPU, dl::kTPUHost}) {
    Result<std::optional<intptr_t>> s =
        dlpack_consumer_stream(MakeDLDevice(type, 0));
    ASSERT_TRUE(s.ok()) << type << ": " << s.status().to_string();
    EXPECT_FALSE(s->has_value()) << type;
  }
}

TEST_F(ConsumerStreamTest, UnsupportedDeviceTypeIsJaxsTypeError) {
  EXPECT_STATUS(
      dlpack_consumer_stream(MakeDLDevice(7, 0), "Vulkan(x)").status(),
      StatusCode::kTypeError,
      "Array passed to from_dlpack is on unsupported device type "
      "(DLDeviceType: kDLVulkan, array: Vulkan(x)");
}

TEST_F(ConsumerStreamTest, AGpuThisProcessHasNotIsNamed) {
  // Configured without GPUs: a CUDA tensor names no device here, whether
  // or not the machine has one.
  Status s = dlpack_consumer_stream(MakeDLDevice(dl::kCUDA, 3)).status();
  EXPECT_EQ(s.code(), StatusCode::kRuntimeError);
  EXPECT_NE(s.message().find("DLPack device (kDLCUDA, 3) names no cuda device "
                             "of this process"),
            std::string::npos)
      << s.to_string();
}

// A keep-alive that counts its releases.
struct Owner {
  int releases = 0;
  std::shared_ptr<const void> handle() {
    return std::shared_ptr<const void>(this, [](const void *p) {
      ++static_cast<Owner *>(const_cast<void *>(p))->releases;
    });
  }
};

CudaArrayInterface Interface() {
  CudaArrayInterface cai;
  cai.shape = {2, 3};
  cai.typestr = "<f4";
  cai.data = 0x1000;
  cai.version = 3;
  return cai;
}

class CudaArrayInterfaceImportTest : public ConsumerStreamTest {
protected:
  // The import's status, checking that the keep-alive went exactly once.
  Status Import(const CudaArrayInterface &cai) {
    Owner owner;
    Status s = from_cuda_array_interface(cai, owner.handle()).status();
    EXPECT_EQ(owner.releases, 1) << s.to_string();
    return s;
  }
};

TEST_F(CudaArrayInterfaceImportTest, RefusesUnknownVersions) {
  CudaArrayInterface cai = Interface();
  cai.version = 1;
  EXPECT_STATUS(Import(cai), StatusCode::kValueError,
                "__cuda_array_interface__ version 1 is not supported "
                "(versions 2 and 3 are)");
}

TEST_F(CudaArrayInterfaceImportTest, RefusesStreamZero) {
  CudaArrayInterface cai = Interface();
  cai.stream = 0;
  EXPECT_STATUS(Import(cai), StatusCode::kValueError,
                "__cuda_array_interface__ stream 0 is not allowed by the "
                "protocol (1 is the legacy default stream, 2 the per-thread "
                "default stream, None no synchronisation)");
}

TEST_F(CudaArrayInterfaceImportTest, ReadsTypeStrings) {
  CudaArrayInterface cai = Interface();
  for (const char *bad : {">f4", "<f3", "<V8", "f4", "", "<b1x"}) {
    cai.typestr = bad;
    EXPECT_STATUS(Import(cai), StatusCode::kValueError,
                  std::string("__cuda_array_interface__ typestr '") + bad +
                      "' is not supported: expected a little-endian bool, "
                      "int, uint, float or complex type string such as '<f4' "
                      "or '|b1'");
  }
  // Accepted ones get as far as the memory's GPU (no CUDA here, or 0x1000
  // is not CUDA memory).
  for (const char *good : {"<f4", "=f8", "|b1", ">u1", "<c16", "|i1"}) {
    cai.typestr = good;
    Status s = Import(cai);
    EXPECT_FALSE(s.ok());
    EXPECT_EQ(s.message().find("typestr"), std::string::npos)
        << good << ": " << s.to_string();
  }
}

TEST_F(CudaArrayInterfaceImportTest, RefusesStridesThatAreNotElements) {
  CudaArrayInterface cai = Interface();
  cai.strides = {12, 6};
  EXPECT_STATUS(Import(cai), StatusCode::kValueError,
                "__cuda_array_interface__ strides (12, 6) are not multiples "
                "of the item size 4 of '<f4'");
  cai.strides = {12};
  EXPECT_STATUS(Import(cai), StatusCode::kValueError,
                "__cuda_array_interface__ strides (12,) do not match shape "
                "(2, 3)");
}

#if !defined(INTEROP_HAVE_CUDA)
TEST_F(CudaArrayInterfaceImportTest, WithoutCudaSaysSo) {
  EXPECT_STATUS(Import(Interface()), StatusCode::kRuntimeError,
                "CUDA is not available: interop_shim was built without the "
                "CUDA toolkit");
}
#else
TEST_F(CudaArrayInterfaceImportTest, HostPointerOrNoGpuIsRefused) {
  // No GPU: CUDA is not available. A GPU: 0x1000 is no CUDA memory.
  Status s = Import(Interface());
  EXPECT_TRUE(s.code() == StatusCode::kRuntimeError ||
              s.code() == StatusCode::kValueError)
      << s.to_string();
  EXPECT_TRUE(s.message().rfind("CUDA is not available", 0) == 0 ||
              s.message().find("0x1000") != std::string::npos)
      << s.to_string();
}
#endif

} // namespace
} // namespace itest
