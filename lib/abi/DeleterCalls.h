//===--- DeleterCalls.h - calls of a DLPack deleter --------------*- C++ -*-===//
//
// A managed tensor's deleter is how every family sees a tensor released: a
// call through the `deleter` field (directly, through `*`, or through a
// local copy of the pointer), the object it is called on, and whether that
// object is a by-value copy (whose address is not the tensor's).
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_ABI_DELETERCALLS_H
#define INTEROP_LIB_ABI_DELETERCALLS_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

namespace clang::interop {

/// True when E is a call of a managed tensor's deleter: `t->deleter(t)`,
/// `t.deleter(&t)`, `(*t->deleter)(t)`, or through a local copy of the
/// deleter pointer. DeleterBase receives the object expression whose deleter
/// is called.
bool isDeleterCall(const CallExpr *Call, const Expr **DeleterBase = nullptr);

/// The by-value managed tensor whose address Arg takes (`&copy`,
/// `&this->dlm`): a deleter called on it frees the copy, not the tensor.
const NamedDecl *byValueManagedTensor(const Expr *Arg);

} // namespace clang::interop

#endif // INTEROP_LIB_ABI_DELETERCALLS_H
