// The one internal import entry point, for the Python binding
// (runtime/python/capsule.cpp) and the runtime's tests. Not installed.
#ifndef INTEROP_SRC_IMPORT_INTERNAL_H
#define INTEROP_SRC_IMPORT_INTERNAL_H

#include "interop/interop.h"

#include <optional>

namespace interop {
namespace detail {

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
Result<Array> import_keep_on_failure(DLManagedTensorVersioned *tensor,
                                     const std::optional<Device> &target,
                                     const ImportOptions &options);
Result<Array> import_keep_on_failure(DLManagedTensor *tensor,
                                     const std::optional<Device> &target,
                                     const ImportOptions &options);

} // namespace detail
} // namespace interop

#endif // INTEROP_SRC_IMPORT_INTERNAL_H
