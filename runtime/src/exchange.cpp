// What DLPack export (export.cpp) and import (import.cpp) share: the text of
// DLPack devices in messages and the validation of the `stream` argument.
#include "internal.h"

#include <cstdio>
#include <string>

namespace interop {
namespace detail {

std::string device_type_text(int32_t type) {
  const char *name = dl::device_type_name(type);
  return name ? std::string(name) : std::to_string(type);
}

std::string dl_device_text(const DLDevice &device) {
  return "(" + device_type_text(dl::device_type_of(device)) + ", " +
         std::to_string(device.device_id) + ")";
}

std::string dl_device_repr(const DLDevice &device) {
  Result<Device> local = local_device_for(device);
  return local.ok() ? local->to_string() : dl_device_text(device);
}

std::string pointer_text(const void *ptr) {
  char text[2 + 2 * sizeof(uintptr_t) + 1];
  std::snprintf(
      text, sizeof text, "0x%llx",
      static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(ptr)));
  return text;
}

Result<intptr_t> resolve_stream(const std::optional<intptr_t> &stream,
                                bool device_memory, const DLDevice &where,
                                StreamUse use) {
  if (!device_memory) {
    if (stream)
      return Status(StatusCode::kBufferError,
                    std::string(use == StreamUse::kExport
                                    ? "stream must be None when exporting "
                                      "host memory "
                                    : "stream must be None for a DLPack "
                                      "tensor in host memory ") +
                        dl_device_text(where) + ", got " +
                        std::to_string(*stream));
    return intptr_t{-1};
  }
  intptr_t value = stream.value_or(1); // None: the legacy default stream
  if (value == 0)
    return Status(StatusCode::kValueError,
                  "stream=0 is ambiguous and not allowed by the DLPack "
                  "protocol; use 1 for the legacy default stream, 2 for the "
                  "per-thread default stream, or -1 for no synchronisation");
  if (value < -1)
    return Status(StatusCode::kValueError,
                  "stream must be -1, 1, 2 or a CUDA stream handle, got " +
                      std::to_string(value));
  return value;
}

} // namespace detail
} // namespace interop
