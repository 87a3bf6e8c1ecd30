//===--- DLPackCallerGuards.h - strides tested by every caller --*- C++ -*-===//
//
// A helper with internal linkage that dereferences the strides of a tensor
// parameter is correct when every call of it in the translation unit sits
// behind a NULL test of that tensor's strides (XLA's GetByteStrides in its
// dlpack.cc, only called under `if (dl_tensor.strides)`). The helper
// cannot be called from another translation unit, so the calls in this one
// are all there are.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_DLPACKFIELDS_DLPACKCALLERGUARDS_H
#define INTEROP_LIB_DLPACKFIELDS_DLPACKCALLERGUARDS_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

namespace clang::interop {

/// Calls of one helper that callerGuardsStrides() reads at most; a helper
/// called more often is not vouched for by its callers.
constexpr unsigned MaxGuardedCallSites = 16;

/// True when `Read` (a read of `strides`, `t.strides` or `mt->dl_tensor.
/// strides`, in FD) reads the strides of a parameter of FD, FD is a free
/// function with internal linkage (static, or in an anonymous namespace)
/// and no template, it is never referred to in the translation unit except
/// as the callee of a call (no address taken), it is called at most
/// MaxGuardedCallSites times, and at every call the strides of the
/// argument's tensor are tested non-NULL around the call (GuardProof's
/// shapes: `if (a.strides)`, `if (!a.strides) return;`, `a.strides ? f(a) :
/// g()`, ...) in a caller that assigns no DLPack field and never changes the
/// variable the argument names. Bounded: one walk of the translation unit's
/// non-system declarations and one GuardScan of each caller.
bool callerGuardsStrides(const FunctionDecl &FD, const Expr *Read);

} // namespace clang::interop

#endif // INTEROP_LIB_DLPACKFIELDS_DLPACKCALLERGUARDS_H
