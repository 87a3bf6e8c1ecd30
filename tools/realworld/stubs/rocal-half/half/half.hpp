// Self-written stand-in for the half-precision library's <half/half.hpp>
// (a system package in rocAL's build, not in the snapshot): a 2-byte type
// with conversions to and from float, all that rocAL's bindings name.
#pragma once
#include <cstdint>

namespace half_float {
class half {
 public:
  half() = default;
  half(float value);
  operator float() const;

 private:
  std::uint16_t bits_ = 0;
};
}  // namespace half_float
