// RUN: %check_interop %s interop-dlpack-version %t -- \
// RUN:   -config="{CheckOptions: {interop-dlpack-version.DebugOnlyAssertMacros: 'MY_DEBUG_CHECK', interop-dlpack-version.CheckReadOnly: false}}" \
// RUN:   -- -std=c++17 -I%S/Inputs/dlpack/v1

// DebugOnlyAssertMacros names the macros that vanish in release builds;
// CheckReadOnly: false turns off the READ_ONLY findings.

#include <dlpack/dlpack.h>

[[noreturn]] void die(const char *);
#define MY_DEBUG_CHECK(c)                                                      \
  do {                                                                         \
    if (!(c))                                                                  \
      die(#c);                                                                 \
  } while (0)
#define MY_RELEASE_CHECK(c)                                                    \
  do {                                                                         \
    if (!(c))                                                                  \
      die(#c);                                                                 \
  } while (0)

void keep(DLManagedTensorVersioned *owner);

int debug_only(DLManagedTensorVersioned *t) {
  MY_DEBUG_CHECK(t->version.major == 1);
  keep(t);
  return t->dl_tensor.ndim;
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'dl_tensor' of a versioned tensor used with 'version.major' checked only by an assertion that is compiled out under NDEBUG [interop-dlpack-version]
}

int release(DLManagedTensorVersioned *t) {
  MY_RELEASE_CHECK(t->version.major == 1);
  keep(t);
  return t->dl_tensor.ndim;
}

void write(DLManagedTensorVersioned *t) {
  MY_RELEASE_CHECK(t->version.major == 1);
  keep(t);
  static_cast<char *>(t->dl_tensor.data)[t->dl_tensor.byte_offset] = 0;
}
