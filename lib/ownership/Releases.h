//===--- Releases.h - what releases a managed tensor ------------*- C++ -*-===//
//
// A managed tensor is released by its deleter (`t->deleter(t)`), but real
// producers also release their own tensors without going through the field:
// a capsule destructor calls, by name, the very function the producer stores
// in `deleter` (jaxlib's and XLA's DLPackTensorDeleter), or hands the
// tensor's `manager_ctx` to the producer's own bookkeeping (nanobind's
// reference-counted handle). Both are read from bodies, never from names:
//
//   - a release function is a function of one managed-tensor pointer whose
//     visible body releases that parameter: it calls its deleter, deletes or
//     frees it, deletes or frees its manager_ctx, hands its manager_ctx to a
//     call, or passes it to another release function (one level deeper);
//   - a call of a release function is a deleter call of its argument
//     everywhere the ownership family judges deleter calls (double
//     deletion, deletion after a hand-off, a destructor deleting without
//     checking the capsule is unconsumed).
//
// Bounded: a callee's body is read at most two levels deep, and each answer
// is kept per run (ReleaseFunctions).
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_OWNERSHIP_RELEASES_H
#define INTEROP_LIB_OWNERSHIP_RELEASES_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <string>

namespace clang::interop::ownership {

/// The release functions seen so far in one function's run.
class ReleaseFunctions {
public:
  /// True when FD is a release function (see above).
  bool isReleaseFunction(const FunctionDecl *FD);

  /// True when Call releases the managed tensor it is passed: a deleter
  /// call (isDeleterCall) or a call of a release function. The released
  /// tensor is Call->getArg(0) either way.
  bool isReleaseCall(const CallExpr *Call);

private:
  bool releasesParameter(const FunctionDecl *FD, int Depth);
  llvm::DenseMap<const FunctionDecl *, bool> Known;
};

/// True when E (through parentheses and casts) is `t->manager_ctx` or
/// `t.manager_ctx` of a managed tensor.
bool isManagerCtx(const Expr *E);

/// The pre-filter's cheap half of isReleaseCall: a call of a function with
/// a visible body that takes exactly one managed-tensor pointer (it may be
/// a release function; the body is not read).
bool mayBeReleaseCall(const CallExpr *Call);

/// True when FD (or a function it calls directly, one level deep) may
/// release the tensor of the capsule it is the destructor of: a deleter
/// call, a release function's call, manager_ctx handed to a call or
/// deleted, or a managed tensor passed to a function whose body is not
/// visible (which may release it). A destructor whose own body is not
/// visible may too.
bool callsDeleter(const FunctionDecl *FD);

/// A function of one parameter whose visible body uses the parameter only
/// as the base of member accesses (`self->dl_tensor.shape`) or in a test
/// against null (`if (!self) return;`): it cannot free, store or hand on the
/// record's own address. False without a visible body.
bool keepsItsArgument(const FunctionDecl *FD);

/// For a fix-it that releases a leaked tensor where the function leaves:
/// the variable that holds what the site At obtained (the owned parameter
/// Param, or the local initialised with At, through casts, that nothing
/// else is stored into), when releasing it frees nothing still in use: FD's
/// body uses it only to reach the tensor's fields, to test it against null
/// and to call its own deleter, and reads its `data` only to test it.
/// Null otherwise.
const ValueDecl *releasableHolder(const Stmt *At, const ParmVarDecl *Param,
                                  const FunctionDecl &FD);

/// The statement that releases the tensor Holder points to, tolerating a
/// NULL deleter as DLPack allows: `if (t->deleter) t->deleter(t);`.
std::string releaseStatement(const ValueDecl &Holder);

/// True when the deleter that Call (a deleter call on a by-value managed
/// tensor, `rec.deleter(&rec)`) invokes is one that FD itself stored into
/// `rec` and that never frees its argument: cvcuda's constructors install a
/// lambda that frees only the shape and strides arrays, then call it on
/// their own member when they fail. Bounded and syntactic: the store
/// `rec.deleter = f;` must be a statement of FD's body itself (so it runs
/// before Call on every path), the last such statement before the one that
/// holds Call to write `rec` or its deleter, with no other write of either
/// in the statement that holds Call; and `f`'s visible body (a function or
/// a lambda) uses its parameter only to reach its fields.
bool callsOwnDeleterThatKeepsRecord(const CallExpr &Call,
                                    const FunctionDecl &FD);

/// The field of by-value managed-tensor type whose address Arg takes
/// through a pointer other than `this` (`&rec->tensor`), or null.
const FieldDecl *byValueFieldThroughPointer(const Expr *Arg);

/// A pointer to a managed tensor held in a variable of namespace or static
/// storage (`DLManagedTensor *given;`), named by E; null otherwise.
const VarDecl *storedTensorPointer(const Expr *E);

/// The storage a translation unit fills with a by-value copy of another
/// managed tensor: fields of managed-tensor type (`rec->tensor = *mt`, a
/// member initialiser `tensor(*mt)` or `tensor{std::move(t)}`), and
/// pointers of namespace or static storage whose pointee is (`*given = t`)
/// while the pointer itself only ever points at fresh memory (an
/// allocation or NULL; never another tensor, its address never taken). A
/// deleter called on such a field's address, or on such a pointer, frees
/// the copy's address. Found by one walk of the translation unit on the
/// first question (a deleter called on a field reached through a pointer,
/// or on a global, is rare), kept until reset().
class CopiedTensorFields {
public:
  bool holdsCopies(const ValueDecl *D, ASTContext &Ctx);
  void reset() {
    Scanned = false;
    Copies.clear();
  }

private:
  bool Scanned = false;
  llvm::SmallPtrSet<const ValueDecl *, 4> Copies;
};

} // namespace clang::interop::ownership

#endif // INTEROP_LIB_OWNERSHIP_RELEASES_H
