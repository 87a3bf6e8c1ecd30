/*
 * interop/dlpack.h - the DLPack 1.x ABI on top of whatever dlpack.h is found.
 *
 * Debian bookworm ships DLPack 0.6, which predates the versioned ABI. When the
 * included <dlpack/dlpack.h> is older than 1.0 this header declares the 1.x
 * additions with the upstream names and layouts, so that code compiled against
 * a real 1.x header sees identical types and the same struct layouts. When a
 * 1.x header is found, it declares nothing of its own beyond the constants in
 * namespace interop::dl.
 *
 * Device types and dtype codes newer than 0.6 are NOT added to 0.6's
 * DLDeviceType/DLDataTypeCode: 0.6's enums have no fixed underlying type, so
 * their valid range is 0..15 and storing 16, 18 or 20 in a DLDeviceType is
 * undefined behaviour. They are exposed as int32_t constants instead; read
 * DLDevice::device_type through interop::dl::device_type_of() when it may hold
 * a newer value.
 *
 * This header is C compatible; the constants and helpers are C++ only.
 */
#ifndef INTEROP_DLPACK_H
#define INTEROP_DLPACK_H

#include "interop/export.h"

#include <dlpack/dlpack.h>
#include <stddef.h>
#include <stdint.h>

#if !defined(DLPACK_MAJOR_VERSION)
/* Backfill of the DLPack 1.x ABI over a pre-1.0 header. */
#define INTEROP_DLPACK_BACKFILLED 1

/* The ABI version this backfill declares: the 1.1 structs and flag bits. */
#define DLPACK_MAJOR_VERSION 1
#define DLPACK_MINOR_VERSION 1

/* Bits of DLManagedTensorVersioned::flags. */
#define DLPACK_FLAG_BITMASK_READ_ONLY (1UL << 0UL)
#define DLPACK_FLAG_BITMASK_IS_COPIED (1UL << 1UL)
#define DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED (1UL << 2UL)

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The version of the ABI a managed tensor was produced against. A consumer
 * that sees a different major version must call the deleter and touch no other
 * field.
 */
typedef struct {
  uint32_t major; /* ABI-breaking changes bump this. */
  uint32_t minor; /* Compatible additions bump this. */
} DLPackVersion;

/*
 * A DLTensor with its owner, its version and flags. Every field before
 * `flags` is frozen across major versions, so any consumer can always find
 * and call the deleter.
 */
typedef struct DLManagedTensorVersioned {
  /* The producer's ABI version (offset 0). */
  DLPackVersion version;
  /* Opaque producer state for the deleter; may be NULL (offset 8). */
  void *manager_ctx;
  /*
   * Frees dl_tensor's memory AND this struct. Called exactly once by whoever
   * owns the tensor at that moment; may be NULL, meaning nothing to free
   * (offset 16).
   */
  void (*deleter)(struct DLManagedTensorVersioned *self);
  /* DLPACK_FLAG_BITMASK_* bits (offset 24). */
  uint64_t flags;
  /* The tensor itself (offset 32). */
  DLTensor dl_tensor;
} DLManagedTensorVersioned;

#ifdef __cplusplus
} /* extern "C" */
#endif

#else
#define INTEROP_DLPACK_BACKFILLED 0
#endif /* !defined(DLPACK_MAJOR_VERSION) */

/* Layouts every DLPack generation shares on LP64 targets (dlpack.md). */
#if defined(__cplusplus)
#define INTEROP_DLPACK_STATIC_ASSERT static_assert
#else
#define INTEROP_DLPACK_STATIC_ASSERT _Static_assert
#endif
#if UINTPTR_MAX == 0xFFFFFFFFFFFFFFFFu
INTEROP_DLPACK_STATIC_ASSERT(sizeof(DLDevice) == 8, "DLDevice is 8 bytes");
INTEROP_DLPACK_STATIC_ASSERT(sizeof(DLDataType) == 4, "DLDataType is 4 bytes");
INTEROP_DLPACK_STATIC_ASSERT(sizeof(DLTensor) == 48, "DLTensor is 48 bytes");
INTEROP_DLPACK_STATIC_ASSERT(offsetof(DLTensor, device) == 8, "device@8");
INTEROP_DLPACK_STATIC_ASSERT(offsetof(DLTensor, ndim) == 16, "ndim@16");
INTEROP_DLPACK_STATIC_ASSERT(offsetof(DLTensor, dtype) == 20, "dtype@20");
INTEROP_DLPACK_STATIC_ASSERT(offsetof(DLTensor, shape) == 24, "shape@24");
INTEROP_DLPACK_STATIC_ASSERT(offsetof(DLTensor, strides) == 32, "strides@32");
INTEROP_DLPACK_STATIC_ASSERT(offsetof(DLTensor, byte_offset) == 40,
                             "byte_offset@40");
INTEROP_DLPACK_STATIC_ASSERT(sizeof(DLManagedTensor) == 64,
                             "DLManagedTensor is 64 bytes");
INTEROP_DLPACK_STATIC_ASSERT(offsetof(DLManagedTensor, manager_ctx) == 48,
                             "manager_ctx@48");
INTEROP_DLPACK_STATIC_ASSERT(offsetof(DLManagedTensor, deleter) == 56,
                             "deleter@56");
INTEROP_DLPACK_STATIC_ASSERT(sizeof(DLManagedTensorVersioned) == 80,
                             "DLManagedTensorVersioned is 80 bytes");
INTEROP_DLPACK_STATIC_ASSERT(offsetof(DLManagedTensorVersioned, manager_ctx) ==
                                 8,
                             "versioned manager_ctx@8");
INTEROP_DLPACK_STATIC_ASSERT(offsetof(DLManagedTensorVersioned, deleter) == 16,
                             "versioned deleter@16");
INTEROP_DLPACK_STATIC_ASSERT(offsetof(DLManagedTensorVersioned, flags) == 24,
                             "versioned flags@24");
INTEROP_DLPACK_STATIC_ASSERT(offsetof(DLManagedTensorVersioned, dl_tensor) ==
                                 32,
                             "versioned dl_tensor@32");
#endif
#undef INTEROP_DLPACK_STATIC_ASSERT

#ifdef __cplusplus
namespace interop {
namespace dl {

/* Device types as raw int32 values, whichever header generation is in use. */
inline constexpr int32_t kCPU = 1;
inline constexpr int32_t kCUDA = 2;
inline constexpr int32_t kCUDAHost = 3;
inline constexpr int32_t kOpenCL = 4;
inline constexpr int32_t kVulkan = 7;
inline constexpr int32_t kMetal = 8;
inline constexpr int32_t kVPI = 9;
inline constexpr int32_t kROCM = 10;
inline constexpr int32_t kROCMHost = 11;
inline constexpr int32_t kExtDev = 12;
inline constexpr int32_t kCUDAManaged = 13;
inline constexpr int32_t kOneAPI = 14;
inline constexpr int32_t kWebGPU = 15;
inline constexpr int32_t kHexagon = 16;
inline constexpr int32_t kMAIA = 17;
inline constexpr int32_t kTrn = 18;
inline constexpr int32_t kTPU = 19;
inline constexpr int32_t kTPUHost = 20;
inline constexpr int32_t kAscend = 21;

/* Data type codes (DLDataType::code) as raw values. */
inline constexpr uint8_t kInt = 0;
inline constexpr uint8_t kUInt = 1;
inline constexpr uint8_t kFloat = 2;
inline constexpr uint8_t kOpaqueHandle = 3;
inline constexpr uint8_t kBfloat = 4;
inline constexpr uint8_t kComplex = 5;
inline constexpr uint8_t kBool = 6;
inline constexpr uint8_t kFloat8_e3m4 = 7;
inline constexpr uint8_t kFloat8_e4m3 = 8;
inline constexpr uint8_t kFloat8_e4m3b11fnuz = 9;
inline constexpr uint8_t kFloat8_e4m3fn = 10;
inline constexpr uint8_t kFloat8_e4m3fnuz = 11;
inline constexpr uint8_t kFloat8_e5m2 = 12;
inline constexpr uint8_t kFloat8_e5m2fnuz = 13;
inline constexpr uint8_t kFloat8_e8m0fnu = 14;
inline constexpr uint8_t kFloat6_e2m3fn = 15;
inline constexpr uint8_t kFloat6_e3m2fn = 16;
inline constexpr uint8_t kFloat4_e2m1fn = 17;
inline constexpr uint8_t kBcomplex = 18;

/* Flag bits of DLManagedTensorVersioned::flags. */
inline constexpr uint64_t kFlagReadOnly = DLPACK_FLAG_BITMASK_READ_ONLY;
inline constexpr uint64_t kFlagIsCopied = DLPACK_FLAG_BITMASK_IS_COPIED;
inline constexpr uint64_t kFlagIsSubbytePadded =
    DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED;

/*
 * Reads a device's type as a raw int32 without going through the enum, so a
 * value the header's DLDeviceType cannot represent (16, 18, 20 under 0.6) is
 * read without undefined behaviour.
 */
inline int32_t device_type_of(const DLDevice &device) noexcept {
  int32_t raw;
  static_assert(sizeof(device.device_type) == sizeof(raw),
                "device_type is int32-sized in every generation");
  __builtin_memcpy(&raw, &device.device_type, sizeof(raw));
  return raw;
}

/* Stores a raw device type without forming an out-of-range enum value. */
inline void set_device_type(DLDevice &device, int32_t raw) noexcept {
  __builtin_memcpy(&device.device_type, &raw, sizeof(raw));
}

/* The upstream enumerator name of a device type ("kDLCUDA"), or nullptr. */
INTEROP_API const char *device_type_name(int32_t device_type) noexcept;

} // namespace dl
} // namespace interop
#endif /* __cplusplus */

#endif /* INTEROP_DLPACK_H */
