// RUN: %check_interop %s interop-dlpack-version %t -- -- -std=c++17 \
// RUN:   -I%S/Inputs/dlpack/v1

// A same-TU helper whose body begins with `if (!cond) throw ...;` returns
// only when its bool argument holds: a version check passed to it is a check
// on every path after the call (MatX's validate_dlpack_condition, the fix of
// its MATX_ASSERT_STR_EXP version check). Read from the body: a
// helper that may return on a false condition, or has no body here, proves
// nothing. (Each function hands the tensor to its deleter: a function that
// only reads its fields is an accessor, left to its caller.)

#include <dlpack/dlpack.h>

struct error {
  explicit error(const char *);
};
[[noreturn]] void fail(const char *);

#define THROW(msg)                                                             \
  { throw error(msg); }
inline void validate(bool condition, const char *message) {
  if (!condition) {
    THROW(message);
  }
}
inline void require(bool ok) {
  if (!ok)
    fail("bad");
}
inline void warnIf(bool condition, const char *message) {
  if (!condition)
    return;
}
void validateElsewhere(bool condition, const char *message);

long ndimValidated(DLManagedTensorVersioned *mt) {
  validate(mt->version.major == DLPACK_MAJOR_VERSION, "unsupported");
  long n = mt->dl_tensor.ndim;
  mt->deleter(mt);
  return n;
}

long ndimRequired(DLManagedTensorVersioned *mt) {
  require(mt->version.major == DLPACK_MAJOR_VERSION);
  long n = mt->dl_tensor.ndim;
  mt->deleter(mt);
  return n;
}

long ndimWarned(DLManagedTensorVersioned *mt) {
  warnIf(mt->version.major == DLPACK_MAJOR_VERSION, "unsupported");
  long n = mt->dl_tensor.ndim;
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'dl_tensor' of a versioned tensor used without checking 'version.major' on this path [interop-dlpack-version]
  mt->deleter(mt);
  return n;
}

long ndimElsewhere(DLManagedTensorVersioned *mt) {
  validateElsewhere(mt->version.major == DLPACK_MAJOR_VERSION, "unsupported");
  long n = mt->dl_tensor.ndim;
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'dl_tensor' of a versioned tensor used without checking 'version.major' on this path [interop-dlpack-version]
  mt->deleter(mt);
  return n;
}

// The wrong polarity proves nothing either.
long ndimInverted(DLManagedTensorVersioned *mt) {
  validate(mt->version.major != DLPACK_MAJOR_VERSION, "supported?");
  long n = mt->dl_tensor.ndim;
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'dl_tensor' of a versioned tensor used without checking 'version.major' on this path [interop-dlpack-version]
  mt->deleter(mt);
  return n;
}
