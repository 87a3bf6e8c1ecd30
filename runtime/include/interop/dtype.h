// interop/dtype.h - the element types the runtime stores, as DLDataType.
#ifndef INTEROP_DTYPE_H
#define INTEROP_DTYPE_H

#include "interop/dlpack.h"
#include "interop/export.h"
#include "interop/status.h"

#include <cstddef>
#include <string>

namespace interop {

// Shorthands for the supported element types (lanes is always 1).
inline constexpr DLDataType kBool = {dl::kBool, 8, 1};
inline constexpr DLDataType kInt8 = {dl::kInt, 8, 1};
inline constexpr DLDataType kInt16 = {dl::kInt, 16, 1};
inline constexpr DLDataType kInt32 = {dl::kInt, 32, 1};
inline constexpr DLDataType kInt64 = {dl::kInt, 64, 1};
inline constexpr DLDataType kUInt8 = {dl::kUInt, 8, 1};
inline constexpr DLDataType kUInt16 = {dl::kUInt, 16, 1};
inline constexpr DLDataType kUInt32 = {dl::kUInt, 32, 1};
inline constexpr DLDataType kUInt64 = {dl::kUInt, 64, 1};
inline constexpr DLDataType kFloat16 = {dl::kFloat, 16, 1};
inline constexpr DLDataType kFloat32 = {dl::kFloat, 32, 1};
inline constexpr DLDataType kFloat64 = {dl::kFloat, 64, 1};
inline constexpr DLDataType kBFloat16 = {dl::kBfloat, 16, 1};
inline constexpr DLDataType kComplex64 = {dl::kComplex, 64, 1};
inline constexpr DLDataType kComplex128 = {dl::kComplex, 128, 1};
inline constexpr DLDataType kFloat8E4M3FN = {dl::kFloat8_e4m3fn, 8, 1};
inline constexpr DLDataType kFloat8E5M2 = {dl::kFloat8_e5m2, 8, 1};

// Field-wise equality (DLDataType is a C struct without operator==).
inline bool same_dtype(const DLDataType &a, const DLDataType &b) noexcept {
  return a.code == b.code && a.bits == b.bits && a.lanes == b.lanes;
}

// OK when the runtime can store `dtype`: int/uint 8-64, float 16/32/64,
// bfloat16, complex 64/128, bool (8 bits), the float8 codes 7-14 (8 bits);
// lanes must be 1. Otherwise kInvalidArgument naming code, bits and lanes
// (e.g. "Unsupported DLPack tensor dtype: lanes should be equal to 1, got 4").
INTEROP_API Status check_dtype(DLDataType dtype);
// Bytes per element of a supported dtype; 0 for an unsupported one.
INTEROP_API size_t dtype_size(DLDataType dtype) noexcept;
// NumPy/JAX spelling: "float32", "bfloat16", "bool", "float8_e4m3fn";
// "dtype(code=C, bits=B, lanes=L)" for anything unsupported.
INTEROP_API std::string dtype_name(DLDataType dtype);

} // namespace interop

#endif // INTEROP_DTYPE_H
