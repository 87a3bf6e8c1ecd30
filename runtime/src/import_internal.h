// The one internal import entry point, for the Python binding
// (runtime/python/capsule.cpp) and the runtime's tests. Not installed.
#ifndef INTEROP_SRC_IMPORT_INTERNAL_H
#define INTEROP_SRC_IMPORT_INTERNAL_H

#include "interop/interop.h"

#include <cstddef>
#include <cstdint>
#include <optional>

namespace interop {
namespace detail {

// How a caller that holds a lock lets it go during the long part of an
// import, its copy: `unlock` runs before a copy of at least `min_bytes`
// bytes and returns a token that `relock` gets back once the copy is done.
// The producer's deleter always runs with the lock held, after `relock`:
// the Python binding's lock is the GIL, which deleters of Python producers
// (NumPy 1.x's among them) need and do not take themselves. Both may be
// left NULL (with min_bytes SIZE_MAX: never).
struct CopyUnlock {
  size_t min_bytes = SIZE_MAX;
  void *(*unlock)() = nullptr;
  void (*relock)(void *token) = nullptr;
};

// from_dlpack() for a consumer that must leave a tensor with its producer
// when the import fails: the PyCapsule protocol renames a capsule, and so
// takes its tensor, only after a successful import. Validations, messages
// and placement are from_dlpack()'s (onto `target`, or onto the tensor's
// own local device when it is nullopt); only the failure path differs:
// - failure: the deleter has NOT run; the tensor is still the caller's;
// - success: the runtime owns the tensor exactly as from_dlpack() would (its
//   deleter has already run when the import copied, and runs when the last
//   reference to the memory goes away when it did not).
// Public from_dlpack() cannot offer this: it takes ownership on every path.
// `unlock` says which lock to let go around the copy, if any.
Result<Array> import_keep_on_failure(DLManagedTensorVersioned *tensor,
                                     const std::optional<Device> &target,
                                     const ImportOptions &options,
                                     const CopyUnlock &unlock = {});
Result<Array> import_keep_on_failure(DLManagedTensor *tensor,
                                     const std::optional<Device> &target,
                                     const ImportOptions &options,
                                     const CopyUnlock &unlock = {});

} // namespace detail
} // namespace interop

#endif // INTEROP_SRC_IMPORT_INTERNAL_H
