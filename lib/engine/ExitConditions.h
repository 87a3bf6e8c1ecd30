//===--- DLPackValidators.h - helpers that throw on a false bool -*- C++
//-*-===//
//
// A same-TU helper whose body begins with `if (!cond) <exit>` (a throw, a
// noreturn call, or a block that ends in one) returns only when its bool
// parameter `cond` is true: MatX's
// `validate_dlpack_condition(owner->version.major == DLPACK_MAJOR_VERSION,
// ...)`. Read from the body, never from the name; a helper without a body
// here is not one.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_DLPACKFIELDS_DLPACKVALIDATORS_H
#define INTEROP_LIB_DLPACKFIELDS_DLPACKVALIDATORS_H

#include "clang/AST/Decl.h"

#include <optional>

namespace clang::interop {

/// The index of the bool parameter Callee's body requires to be true (it
/// exits otherwise, before anything else), or none.
std::optional<unsigned> requiredTrueParam(const FunctionDecl *Callee);

} // namespace clang::interop

#endif // INTEROP_LIB_DLPACKFIELDS_DLPACKVALIDATORS_H
