//===--- DLPackHostGuards.h - calls that prove host memory ------*- C++ -*-===//
//
// A call that proves a tensor's memory host-accessible: a helper of the
// translation unit whose body says so on one of its results, or by
// returning at all (DLPackHelperSummaries.h), else a function the
// HostDeviceGuards option names (its body is elsewhere). The syntactic
// proofs and the flow model ask the same question here.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_DLPACKFIELDS_DLPACKHOSTGUARDS_H
#define INTEROP_LIB_DLPACKFIELDS_DLPACKHOSTGUARDS_H

#include "lib/dlpackfields/DLPackHelperSummaries.h"
#include "lib/support/NameLists.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

#include <optional>

namespace clang::interop {

/// A host guard call: the device or tensor argument it tests, and which of
/// its results proves host memory.
struct HostGuardCall {
  const Expr *Arg = nullptr;
  bool IfTrue = false, IfFalse = false;
  /// Named by HostDeviceGuards (no body read): its result is the device's
  /// host-ness itself.
  bool ByName = false;
  /// A void validator: it returns only for host memory.
  bool IfReturns = false;

  /// Whether the call proves host memory when its result is Value, or (a
  /// validator, asked with true) when it returns.
  bool provesIf(bool Value) const {
    return IfReturns || (Value ? IfTrue : IfFalse);
  }
};

/// When E calls a host guard (a one-argument bool function whose name one of
/// HostGuards, the HostDeviceGuards, matches: IsHostDevice(t->device)), the
/// device or tensor it tests; null otherwise.
const Expr *hostGuardArgument(const CallExpr &E, const NameList &HostGuards);

/// The guard E calls, if it is one: a helper whose body proves host memory
/// on a result (Summaries), else a function named by HostGuards
/// (hostGuardArgument()). `Summaries` may be null (names only).
std::optional<HostGuardCall> hostGuardCall(const CallExpr &E,
                                           const NameList &HostGuards,
                                           DLPackHelperSummaries *Summaries,
                                           ASTContext &Ctx);

} // namespace clang::interop

#endif // INTEROP_LIB_DLPACKFIELDS_DLPACKHOSTGUARDS_H
