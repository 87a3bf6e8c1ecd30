//===--- CallSites.h - who calls a function in this TU ----------*- C++ -*-===//
//
// Whether a function's caller can have checked what the function trusts
// (a guard in its only caller, a helper only ever called behind a test, an
// entry point nobody here calls) is a question every family asks. The
// answer comes from one walk of the translation unit's own declarations,
// made the first time any check asks and kept until the next translation
// unit, instead of one walk per function asked about.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_ENGINE_CALLSITES_H
#define INTEROP_LIB_ENGINE_CALLSITES_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::interop {

/// One call of a function: the call (a CallExpr, or a CXXConstructExpr
/// of a constructor: `T x(a)`, `new T(a)`; for a constructor also the
/// factory call `std::make_shared<T>(a)` that forwards its arguments to it)
/// and the innermost function or lambda call operator it is written in.
struct CallSite {
  const Expr *Call;
  const FunctionDecl *Caller;

  /// The call's arguments.
  llvm::ArrayRef<const Expr *> args() const;
};

/// Site is its caller calling itself with its own parameter Index passed
/// on unchanged (named as it is, and never assigned, incremented, bound to
/// a non-const reference or captured by reference in the caller): what
/// holds of that argument at the caller's entry holds at this call, so
/// whatever vouches for the outside calls vouches for it (a recursive
/// helper's descent).
bool forwardsOwnParameter(const CallSite &Site, unsigned Index);

/// How a function is referred to in the translation unit, outside system
/// headers.
struct FunctionReferences {
  /// The calls that name it as their callee (direct, member and operator
  /// calls, a local lambda called by name, constructions), in source order.
  llvm::SmallVector<CallSite, 4> Calls;
  /// Other references: its address taken, passed as a callback, bound to a
  /// Python name. Such a function is called from places nobody can see.
  unsigned OtherReferences = 0;
};

/// The references of FD (any declaration of it) in the current translation
/// unit. The first request of a translation unit walks it once; later ones
/// are lookups, forgotten at the next resetFactCache().
const FunctionReferences &referencesOf(const FunctionDecl &FD);

/// FD is only reached from outside this translation unit: nothing here
/// calls it. A binding lambda, an exported API function, a function only
/// ever registered by address.
inline bool isEntryPoint(const FunctionDecl &FD) {
  return referencesOf(FD).Calls.empty();
}

/// Only the calls in this translation unit reach FD: it has internal
/// linkage or is declared only here (a C++ function of the main file that
/// no header declares and nothing exports, such as a helper that lacks
/// `static`), or it is an inline function or a template instantiation,
/// whose calls in another unit are judged with that unit's copy. A method,
/// called through objects that other units may hold, counts only when its
/// class is this unit's alone (in an anonymous namespace, or defined in the
/// main file only) and it is called by name: not virtual (a call through
/// the base is no call of it), no operator, conversion or destructor.
bool callsHereAreAll(const FunctionDecl &FD);

/// Calls of one function that everyCallVouches() reads at most; a function
/// called more often is not vouched for by its callers.
constexpr unsigned MaxGuardedCallSites = 16;

/// What FD trusts of its parameter Index is vouched for by its callers: the
/// calls here are all there are (callsHereAreAll), FD is never referred to
/// except as the callee of a call (no address taken), it is called at most
/// MaxGuardedCallSites times, and Vouches(Site, Arg) holds at every call
/// from outside FD (Arg: the call's argument Index). A call of FD from
/// itself passing the parameter on unchanged (forwardsOwnParameter) counts
/// when Forwarded(Site) says nothing on the way undoes what the outside
/// calls proved; at least one call must come from outside. The question
/// every family asks of a helper's parameter, answered from one walk of
/// the translation unit (referencesOf).
bool everyCallVouches(
    const FunctionDecl &FD, unsigned Index,
    llvm::function_ref<bool(const CallSite &, const Expr *Arg)> Vouches,
    llvm::function_ref<bool(const CallSite &)> Forwarded);

/// Some code of the translation unit outside system headers reads F's
/// value: any use of the member other than as the target of a plain
/// assignment (a constructor's member initialiser is a store too). A
/// pointer that nothing reads cannot be what releases, or otherwise uses,
/// the object it points at. Answered from the same one walk as
/// referencesOf().
bool fieldReadHere(const FieldDecl &F);

} // namespace clang::interop

#endif // INTEROP_LIB_ENGINE_CALLSITES_H
