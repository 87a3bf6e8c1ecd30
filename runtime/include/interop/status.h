// interop/status.h - Status and Result<T>, the runtime's error channel.
//
// The runtime never throws for user errors: every fallible call returns a
// Status or a Result<T>. A Status's code names the Python exception a binding
// raises, so the C++ API and the Python module fail the same way JAX does.
#ifndef INTEROP_STATUS_H
#define INTEROP_STATUS_H

#include "interop/export.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

namespace interop {

// What went wrong, spelled as the exception a Python binding raises.
enum class StatusCode : uint8_t {
  kOk = 0,
  // The array cannot be exchanged as asked (DLPack's "un-exportable data").
  // Python: BufferError.
  kBufferError,
  // A well-formed request with an unacceptable value. Python: ValueError.
  kValueError,
  // An argument of the wrong kind, e.g. an unplaceable device type.
  // Python: TypeError.
  kTypeError,
  // A runtime condition: unavailable backend, non-addressable device.
  // Python: RuntimeError (JAX raises XlaRuntimeError, a RuntimeError).
  kRuntimeError,
  // The attribute does not exist for this array, e.g.
  // __cuda_array_interface__ of a CPU array. Python: AttributeError.
  kAttributeError,
  // A malformed DLPack tensor or argument (negative ndim, overflowing shape).
  // Python: ValueError.
  kInvalidArgument,
  // An allocation or page-lock failed. Python: MemoryError.
  kResourceExhausted,
  // A broken invariant inside the runtime; a bug. Python: RuntimeError.
  kInternal,
};

// "BufferError", "ValueError", ... for kOk returns "OK".
INTEROP_API const char *status_code_name(StatusCode code) noexcept;
// The Python exception class name a binding should raise for `code`
// ("BufferError", "ValueError", "TypeError", "RuntimeError",
// "AttributeError", "MemoryError"); nullptr for kOk.
INTEROP_API const char *python_exception_name(StatusCode code) noexcept;

// A code and a human-readable message. The default Status is OK with an
// empty message. Messages are complete sentences/phrases exactly as the user
// sees them (JAX's wording where JAX has one), without a code prefix.
class [[nodiscard]] INTEROP_API Status {
public:
  Status() = default;
  Status(StatusCode code, std::string message)
      : code_(code), message_(std::move(message)) {}

  bool ok() const noexcept { return code_ == StatusCode::kOk; }
  StatusCode code() const noexcept { return code_; }
  const std::string &message() const noexcept { return message_; }
  // "BufferError: <message>", or "OK".
  std::string to_string() const;

  // Explicitly discards a Status whose failure is acceptable.
  void ignore_error() const noexcept {}

  friend bool operator==(const Status &a, const Status &b) {
    return a.code_ == b.code_ && a.message_ == b.message_;
  }
  friend bool operator!=(const Status &a, const Status &b) { return !(a == b); }

private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

inline Status ok_status() { return Status(); }

namespace detail {
// Accessing the value of a failed Result is a programming error, not a user
// error: it aborts with the status (like absl::StatusOr) instead of throwing.
INTEROP_API [[noreturn]] void
die_on_bad_result_access(const Status &status) noexcept;
} // namespace detail

// Either a T or a non-OK Status.
template <typename T> class [[nodiscard]] Result {
  static_assert(!std::is_same<std::decay_t<T>, Status>::value,
                "Result<Status> is meaningless");

public:
  // Success.
  Result(T value) : value_(std::move(value)) {}
  // Failure. Constructing a Result from an OK Status is a bug and yields a
  // kInternal error instead of an empty success.
  Result(Status status) : status_(std::move(status)) {
    if (status_.ok())
      status_ = Status(StatusCode::kInternal,
                       "Result constructed from an OK status without a value");
  }

  bool ok() const noexcept { return value_.has_value(); }
  // OK on success, else the error.
  const Status &status() const noexcept { return status_; }

  // The value; aborts if !ok().
  T &value() & {
    if (!value_)
      detail::die_on_bad_result_access(status_);
    return *value_;
  }
  const T &value() const & {
    if (!value_)
      detail::die_on_bad_result_access(status_);
    return *value_;
  }
  T &&value() && {
    if (!value_)
      detail::die_on_bad_result_access(status_);
    return std::move(*value_);
  }
  T &operator*() & { return value(); }
  const T &operator*() const & { return value(); }
  T &&operator*() && { return std::move(*this).value(); }
  T *operator->() { return &value(); }
  const T *operator->() const { return &value(); }

private:
  Status status_;
  std::optional<T> value_;
};

} // namespace interop

#endif // INTEROP_STATUS_H
