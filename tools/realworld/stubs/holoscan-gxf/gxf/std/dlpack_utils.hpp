// Self-written stand-in for GXF's gxf/std/dlpack_utils.hpp (not in the
// Holoscan snapshot): declarations of the helpers Holoscan calls.
#pragma once
#include <dlpack/dlpack.h>

#include <string>

namespace nvidia {
namespace gxf {

template <typename T>
struct StubExpected {
  explicit operator bool() const;
  const T& value() const;
  int error() const;
};

StubExpected<DLDevice> DLDeviceFromPointer(void* ptr);
StubExpected<DLDataType> DLDataTypeFromTypeString(const std::string& typestr);
StubExpected<const char*> numpyTypestr(DLDataType dtype);

}  // namespace gxf
}  // namespace nvidia

const char* GxfResultStr(int result);
