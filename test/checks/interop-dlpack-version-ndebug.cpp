// RUN: %check_interop %s interop-dlpack-version %t -- -- -std=c++17 -DNDEBUG -I%S/Inputs/dlpack/v1

// Under NDEBUG the assertion is gone, and with it the only check.

#include <assert.h>
#include <dlpack/dlpack.h>

struct Imported {
  Imported(DLManagedTensorVersioned *owner, int64_t ndim);
};

Imported import_tensor(DLManagedTensorVersioned *dlp) {
  assert(dlp->version.major == DLPACK_MAJOR_VERSION);
  return Imported(dlp, dlp->dl_tensor.ndim);
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: 'dl_tensor' of a versioned tensor used without checking 'version.major' on this path [interop-dlpack-version]
}
