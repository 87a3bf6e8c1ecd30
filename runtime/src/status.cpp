// Status names and the abort for misuse of Result.
#include "interop/status.h"

#include <cstdio>
#include <cstdlib>

namespace interop {

const char *status_code_name(StatusCode code) noexcept {
  switch (code) {
  case StatusCode::kOk:
    return "OK";
  case StatusCode::kBufferError:
    return "BufferError";
  case StatusCode::kValueError:
    return "ValueError";
  case StatusCode::kTypeError:
    return "TypeError";
  case StatusCode::kRuntimeError:
    return "RuntimeError";
  case StatusCode::kAttributeError:
    return "AttributeError";
  case StatusCode::kInvalidArgument:
    return "InvalidArgument";
  case StatusCode::kResourceExhausted:
    return "ResourceExhausted";
  case StatusCode::kInternal:
    return "Internal";
  }
  return "Unknown";
}

const char *python_exception_name(StatusCode code) noexcept {
  switch (code) {
  case StatusCode::kOk:
    return nullptr;
  case StatusCode::kBufferError:
    return "BufferError";
  case StatusCode::kValueError:
  case StatusCode::kInvalidArgument:
    return "ValueError";
  case StatusCode::kTypeError:
    return "TypeError";
  case StatusCode::kAttributeError:
    return "AttributeError";
  case StatusCode::kResourceExhausted:
    return "MemoryError";
  case StatusCode::kRuntimeError:
  case StatusCode::kInternal:
    return "RuntimeError";
  }
  return "RuntimeError";
}

std::string Status::to_string() const {
  if (ok())
    return "OK";
  return std::string(status_code_name(code_)) + ": " + message_;
}

namespace detail {
void die_on_bad_result_access(const Status &status) noexcept {
  std::fprintf(stderr, "interop: value() of a failed Result: %s\n",
               status.to_string().c_str());
  std::abort();
}
} // namespace detail

} // namespace interop
