// The element types the runtime stores.
#include "interop/dtype.h"

#include <string>

namespace interop {
namespace {

// The NumPy/JAX name of a supported (code, bits) pair, or nullptr.
const char *known_name(uint8_t code, uint8_t bits) {
  switch (code) {
  case dl::kInt:
    switch (bits) {
    case 8:
      return "int8";
    case 16:
      return "int16";
    case 32:
      return "int32";
    case 64:
      return "int64";
    default:
      return nullptr;
    }
  case dl::kUInt:
    switch (bits) {
    case 8:
      return "uint8";
    case 16:
      return "uint16";
    case 32:
      return "uint32";
    case 64:
      return "uint64";
    default:
      return nullptr;
    }
  case dl::kFloat:
    switch (bits) {
    case 16:
      return "float16";
    case 32:
      return "float32";
    case 64:
      return "float64";
    default:
      return nullptr;
    }
  case dl::kBfloat:
    return bits == 16 ? "bfloat16" : nullptr;
  case dl::kComplex:
    return bits == 64 ? "complex64" : bits == 128 ? "complex128" : nullptr;
  case dl::kBool:
    return bits == 8 ? "bool" : nullptr;
  default:
    break;
  }
  if (bits != 8)
    return nullptr;
  switch (code) {
  case dl::kFloat8_e3m4:
    return "float8_e3m4";
  case dl::kFloat8_e4m3:
    return "float8_e4m3";
  case dl::kFloat8_e4m3b11fnuz:
    return "float8_e4m3b11fnuz";
  case dl::kFloat8_e4m3fn:
    return "float8_e4m3fn";
  case dl::kFloat8_e4m3fnuz:
    return "float8_e4m3fnuz";
  case dl::kFloat8_e5m2:
    return "float8_e5m2";
  case dl::kFloat8_e5m2fnuz:
    return "float8_e5m2fnuz";
  case dl::kFloat8_e8m0fnu:
    return "float8_e8m0fnu";
  default:
    return nullptr;
  }
}

} // namespace

Status check_dtype(DLDataType dtype) {
  if (dtype.lanes != 1)
    return Status(StatusCode::kInvalidArgument,
                  "Unsupported DLPack tensor dtype: lanes should be equal to "
                  "1, got " +
                      std::to_string(dtype.lanes));
  if (dtype.bits % 8 != 0)
    return Status(StatusCode::kInvalidArgument,
                  "Unsupported DLPack tensor dtype: bits should be a multiple "
                  "of 8, got " +
                      std::to_string(dtype.bits) + " (type code " +
                      std::to_string(dtype.code) + ")");
  if (!known_name(dtype.code, dtype.bits))
    return Status(StatusCode::kInvalidArgument,
                  "Unsupported DLPack tensor dtype: type code " +
                      std::to_string(dtype.code) + " with " +
                      std::to_string(dtype.bits) + " bits");
  return Status();
}

size_t dtype_size(DLDataType dtype) noexcept {
  if (dtype.lanes != 1 || !known_name(dtype.code, dtype.bits))
    return 0;
  return dtype.bits / 8;
}

std::string dtype_name(DLDataType dtype) {
  if (dtype.lanes == 1)
    if (const char *name = known_name(dtype.code, dtype.bits))
      return name;
  return "dtype(code=" + std::to_string(dtype.code) +
         ", bits=" + std::to_string(dtype.bits) +
         ", lanes=" + std::to_string(dtype.lanes) + ")";
}

} // namespace interop
