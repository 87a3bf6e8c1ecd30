// The runtime's internal exchange entry points, for the Python binding
// (runtime/python/) and the runtime's tests: the import that leaves a failed
// tensor with its capsule, and export and import that let a lock go around
// their copies. Not installed.
#ifndef INTEROP_SRC_EXCHANGE_INTERNAL_H
#define INTEROP_SRC_EXCHANGE_INTERNAL_H

#include "interop/interop.h"

#include <cstddef>
#include <cstdint>
#include <optional>

namespace interop {
namespace detail {

// How a caller that holds a lock lets it go during the long part of an
// export or import, its copy: `unlock` runs before a copy of at least
// `min_bytes` bytes and returns a token that `relock` gets back once the copy
// is done. The producer's deleter always runs with the lock held, after
// `relock`: the Python binding's lock is the GIL, which deleters of Python
// producers (NumPy 1.x's among them) need and do not take themselves. Both may
// be left NULL (with min_bytes SIZE_MAX: never).
struct CopyUnlock {
  size_t min_bytes = SIZE_MAX;
  void *(*unlock)() = nullptr;
  void (*relock)(void *token) = nullptr;
};

// `unlock` let go for the scope of a copy of `nbytes` (a no-op below
// unlock.min_bytes).
class Unlocked {
public:
  Unlocked(const CopyUnlock &unlock, size_t nbytes)
      : unlock_(nbytes >= unlock.min_bytes && unlock.unlock ? &unlock
                                                            : nullptr),
        token_(unlock_ ? unlock_->unlock() : nullptr) {}
  ~Unlocked() {
    if (unlock_ && unlock_->relock)
      unlock_->relock(token_);
  }
  Unlocked(const Unlocked &) = delete;
  Unlocked &operator=(const Unlocked &) = delete;

private:
  const CopyUnlock *unlock_;
  void *token_;
};

// to_dlpack(), letting `unlock` go around the copy an export makes (copy
// requested, another device, a read-only array as legacy). The export's
// deleter touches nothing the lock guards.
Result<ManagedTensor> export_unlocked(const Array &array,
                                      const ExportOptions &options,
                                      const CopyUnlock &unlock);

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

#endif // INTEROP_SRC_EXCHANGE_INTERNAL_H
