// RUN: %check_interop %s interop-dlpack-version %t -- \
// RUN:   -config="{CheckOptions: {interop-dlpack-version.DebugOnlyAssertMacros: 'assert;MYLIB_ASSERT_EQ'}}" -- -std=c++17 -I%S/Inputs/dlpack/v1
// RUN: %check_interop -check-suffix=DEFAULT %s interop-dlpack-version %t -- -- -std=c++17 -I%S/Inputs/dlpack/v1

// A project's own assertion macro whose definition is empty under NDEBUG is
// a debug-only check once it is named in DebugOnlyAssertMacros. The checks
// cannot see that on their own: the translation unit is preprocessed in one
// configuration, and the other definition sits in a skipped #else block.
// (MatX's MATX_ASSERT_STR_EXP.)

#include <dlpack/dlpack.h>

struct runtime_error {
  explicit runtime_error(const char *);
};
#if !defined(NDEBUG)
#define MYLIB_ASSERT_EQ(a, b, msg)                                             \
  do {                                                                         \
    if ((a) != (b))                                                            \
      throw runtime_error(msg);                                                \
  } while (0)
#else
#define MYLIB_ASSERT_EQ(a, b, msg) {}
#endif

void *adopt(DLManagedTensorVersioned *mt) {
  MYLIB_ASSERT_EQ(mt->version.major, DLPACK_MAJOR_VERSION, "unsupported");
  const DLTensor &dt = mt->dl_tensor;
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: 'dl_tensor' of a versioned tensor used with 'version.major' checked only by an assertion that is compiled out under NDEBUG [interop-dlpack-version]
  void *first = static_cast<char *>(dt.data) + dt.byte_offset;
  mt->deleter(mt);
  return first;
}
