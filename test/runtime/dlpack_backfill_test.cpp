// The backfilled DLPack 1.x ABI must be byte-identical to upstream's.
#include "interop/dlpack.h"

#include <cstddef>
#include <cstring>
#include <gtest/gtest.h>
#include <type_traits>

namespace {

TEST(DLPackBackfill, SharedStructLayouts) {
  EXPECT_EQ(sizeof(DLDevice), 8u);
  EXPECT_EQ(sizeof(DLDataType), 4u);
  EXPECT_EQ(alignof(DLDataType), 2u);
  EXPECT_EQ(sizeof(DLTensor), 48u);
  EXPECT_EQ(offsetof(DLTensor, data), 0u);
  EXPECT_EQ(offsetof(DLTensor, device), 8u);
  EXPECT_EQ(offsetof(DLTensor, ndim), 16u);
  EXPECT_EQ(offsetof(DLTensor, dtype), 20u);
  EXPECT_EQ(offsetof(DLTensor, shape), 24u);
  EXPECT_EQ(offsetof(DLTensor, strides), 32u);
  EXPECT_EQ(offsetof(DLTensor, byte_offset), 40u);
  EXPECT_EQ(sizeof(DLManagedTensor), 64u);
  EXPECT_EQ(offsetof(DLManagedTensor, manager_ctx), 48u);
  EXPECT_EQ(offsetof(DLManagedTensor, deleter), 56u);
}

TEST(DLPackBackfill, VersionedLayout) {
  EXPECT_EQ(sizeof(DLPackVersion), 8u);
  EXPECT_EQ(offsetof(DLPackVersion, major), 0u);
  EXPECT_EQ(offsetof(DLPackVersion, minor), 4u);
  EXPECT_EQ(sizeof(DLManagedTensorVersioned), 80u);
  EXPECT_EQ(offsetof(DLManagedTensorVersioned, version), 0u);
  EXPECT_EQ(offsetof(DLManagedTensorVersioned, manager_ctx), 8u);
  EXPECT_EQ(offsetof(DLManagedTensorVersioned, deleter), 16u);
  EXPECT_EQ(offsetof(DLManagedTensorVersioned, flags), 24u);
  EXPECT_EQ(offsetof(DLManagedTensorVersioned, dl_tensor), 32u);
  EXPECT_TRUE((std::is_same<decltype(DLManagedTensorVersioned::flags),
                            uint64_t>::value));
  EXPECT_TRUE((std::is_same<decltype(DLPackVersion::major), uint32_t>::value));
}

TEST(DLPackBackfill, VersionMacrosAndFlags) {
  EXPECT_EQ(DLPACK_MAJOR_VERSION, 1);
  EXPECT_GE(DLPACK_MINOR_VERSION, 1);
  EXPECT_EQ(DLPACK_FLAG_BITMASK_READ_ONLY, 1UL);
  EXPECT_EQ(DLPACK_FLAG_BITMASK_IS_COPIED, 2UL);
  EXPECT_EQ(DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED, 4UL);
#ifdef DLPACK_VERSION
  // Debian's 0.6 header is what this machine has: the backfill must be active.
  if (DLPACK_VERSION < 100)
    EXPECT_EQ(INTEROP_DLPACK_BACKFILLED, 1);
#endif
}

TEST(DLPackBackfill, NewDeviceTypesAreRawInt32) {
  // kDLTPUHost (20) is out of 0.6's DLDeviceType range: it must round-trip
  // through the raw accessors without ever being an enum value.
  DLDevice device{};
  interop::dl::set_device_type(device, interop::dl::kTPUHost);
  device.device_id = 3;
  EXPECT_EQ(interop::dl::device_type_of(device), 20);
  int32_t raw;
  std::memcpy(&raw, &device.device_type, sizeof(raw));
  EXPECT_EQ(raw, 20);
  EXPECT_EQ(interop::dl::kOneAPI, 14);
  EXPECT_EQ(interop::dl::kHexagon, 16);
  EXPECT_EQ(interop::dl::kMAIA, 17);
  EXPECT_EQ(interop::dl::kTrn, 18);
  EXPECT_EQ(interop::dl::kTPU, 19);
  EXPECT_EQ(interop::dl::kAscend, 21);
  EXPECT_EQ(interop::dl::kBool, 6);
  EXPECT_EQ(interop::dl::kFloat8_e5m2, 12);
  EXPECT_EQ(interop::dl::kFloat4_e2m1fn, 17);
  EXPECT_EQ(interop::dl::kBcomplex, 18);
}

TEST(DLPackBackfill, DeviceTypeNames) {
  EXPECT_STREQ(interop::dl::device_type_name(1), "kDLCPU");
  EXPECT_STREQ(interop::dl::device_type_name(20), "kDLTPUHost");
  EXPECT_STREQ(interop::dl::device_type_name(21), "kDLAscend");
  EXPECT_EQ(interop::dl::device_type_name(5), nullptr);
  EXPECT_EQ(interop::dl::device_type_name(99), nullptr);
}

} // namespace
