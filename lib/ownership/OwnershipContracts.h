//===--- OwnershipContracts.h - what a function's name promises -*- C++ -*-===//
//
// Callee contracts read on the definition side. A function named by
// TensorSources (`toDLPack`, `to_dlpack`) is one whose callers own the
// managed tensor it returns: the flow model reads its calls that way, and
// the same contract binds its own body. A body that returns a tensor an
// owning smart pointer still holds (`return tensor_.get();`, directly or
// through a local) breaks it: the caller deletes the tensor, as promised,
// and the smart pointer deletes it again (or already has, for a local that
// dies at the return).
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_OWNERSHIP_OWNERSHIPCONTRACTS_H
#define INTEROP_LIB_OWNERSHIP_OWNERSHIPCONTRACTS_H

#include "lib/support/NameLists.h"

#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"

#include <vector>

namespace clang::interop::ownership {

/// A return of a managed tensor that an owning smart pointer still holds.
struct StillOwnedReturn {
  const ReturnStmt *Return = nullptr;
  /// The `owner.get()` the returned value comes from.
  const CXXMemberCallExpr *Get = nullptr;
  /// The smart pointer: a field of the class or a local variable.
  const ValueDecl *Owner = nullptr;
};

/// The returns of FD that break the contract of a function Sources names
/// (none when Sources does not name FD). An owner the body also releases
/// (`owner.release()`), moves, resets or hands to a call is left alone: the
/// body may have given up ownership before it returns.
std::vector<StillOwnedReturn> stillOwnedReturns(const FunctionDecl &FD,
                                                const NameList &Sources);

/// Whether T is an owning smart pointer of a managed tensor whose deleter
/// releases it: `std::unique_ptr<DLManagedTensor>` (default_delete frees
/// the struct), `std::unique_ptr<DLManagedTensor, D>` with a D whose
/// visible call operator releases it (or is not visible), or a
/// `std::shared_ptr` of one.
bool isOwningTensorPointer(QualType T);

/// How a smart pointer constructed from a managed tensor pointer frees it
/// when it lets go, if it does so without the tensor's deleter:
/// `std::unique_ptr<DLManagedTensor>` with std::default_delete (unless the
/// project specialised default_delete for the record to call the deleter),
/// or a `std::shared_ptr` made from the bare pointer (NumArgs == 1). Null
/// when the smart pointer's deleter is the project's own, or T is not one.
const char *defaultFreeOf(QualType T, unsigned NumArgs);

/// At (the construction of a smart pointer variable, or a `reset` call on
/// one) makes a guard FD lets go of: FD calls `release()` on that variable,
/// so the smart pointer frees the tensor only on the paths that fail before
/// it (a wrapper's shell freed on an exception, the tensor left to its
/// capsule). Not a holder that frees what it owns.
bool isReleasedGuard(const FunctionDecl &FD, const Stmt &At);

} // namespace clang::interop::ownership

#endif // INTEROP_LIB_OWNERSHIP_OWNERSHIPCONTRACTS_H
