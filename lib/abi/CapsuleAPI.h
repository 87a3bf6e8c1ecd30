//===--- CapsuleAPI.h - the CPython capsule API, by name --------*- C++ -*-===//
//
// The DLPack Python protocol lives in PyCapsule calls: a producer wraps a
// managed tensor in a capsule named "dltensor" (or "dltensor_versioned") with
// a destructor; a consumer takes the pointer, imports it, and renames the
// capsule "used_dltensor" (or clears its destructor) once it owns the
// tensor. Calls are recognised by their C names, whatever Python.h declares
// them.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_ABI_CAPSULEAPI_H
#define INTEROP_LIB_ABI_CAPSULEAPI_H

#include "lib/abi/CapsuleCalls.h"
#include "lib/abi/CapsuleNames.h"
#include "lib/abi/DLPackTypes.h"
#include "lib/abi/DeleterCalls.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang::interop {

class LocalStores;

/// For a member read of a capsule's pointer (viewCapsuleCall: Member,
/// GetPointer): the managed-tensor struct it is read as (its explicit cast
/// Cast, else get_pointer<T>'s T), DLPackRecord::None otherwise. A member
/// read is a DLPack one only when it reads a DLPack managed tensor: a
/// pointer read as `void *` or as a struct of the library's own (nanobind
/// capsules of FFI handlers) is not a DLPack capsule.
DLPackRecord memberReadAs(const CallExpr &Get, const ExplicitCastExpr *Cast);

/// True when the function around Get (a pointer read of a capsule rooted
/// at a variable or parameter) compares that capsule's name before Get: a
/// name read (`cap.name()`, `PyCapsule_GetName(c)`, a local or string
/// holding one: nameReadOf) that is an operand of `==` / `!=` or an
/// argument of a call (strcmp), `PyCapsule_IsValid(c, "dltensor")`, or a
/// call of a function of the translation unit that compares the name of
/// the capsule it is handed (a validator, up to two helpers deep), earlier
/// in the source.
bool nameComparedBefore(const CallExpr &Get, ASTContext &Ctx);
/// The same question at any point At of Within, for the capsule Capsule
/// names there (a call's argument: whether a caller checked the name of
/// the capsule it hands on).
bool nameComparedBefore(const Expr &At, const Expr *Capsule,
                        const FunctionDecl &Within, ASTContext &Ctx);

/// True when Call raises a new Python exception (PyErr_SetString,
/// PyErr_Format, PyErr_SetObject, PyErr_SetNone, PyErr_NoMemory, ...): it
/// replaces any exception in flight.
bool raisesPythonError(const CallExpr *Call);

/// True when E constructs an error scope: an object whose constructor
/// saves the exception in flight (its visible body or member initialisers
/// call PyErr_Fetch or PyErr_GetRaisedException) and whose destructor's
/// visible body restores it (PyErr_Restore or PyErr_SetRaisedException),
/// like nanobind's error_scope. What is cleared while it lives is only
/// what was raised since.
bool constructsErrorScope(const CXXConstructExpr *E);

/// The variable or parameter a capsule expression names (`cap`, `self`,
/// `capsule.ptr()`), used as the capsule's identity.
const ValueDecl *capsuleRoot(const Expr *E);

/// The capsule roots of one function body, through locals of type
/// `PyObject *` that only ever hold another object's capsule (`PyObject
/// *capsule = caps.ptr();` is `caps`): values through variables. The body's
/// LocalStores (lib/support/LocalStores.h) are made on the first such local
/// met, so a body without one never pays for them; a copy shares them.
class CapsuleRoots {
public:
  explicit CapsuleRoots(const Stmt *Body = nullptr) : Body(Body) {}
  /// capsuleRoot(E), followed through those aliases.
  const ValueDecl *of(const Expr *E) const;

private:
  const Stmt *Body;
  mutable std::shared_ptr<const LocalStores> Stores;
};

/// A pointer to PyObject (`struct _object`, or a typedef'd one).
bool isPyObjectPointer(QualType T);
/// FD has the shape of a capsule destructor (PyCapsule_Destructor): one
/// parameter, a PyObject pointer. Only such a function can be one.
inline bool hasCapsuleDestructorShape(const FunctionDecl &FD) {
  return FD.getNumParams() == 1 &&
         isPyObjectPointer(FD.getParamDecl(0)->getType());
}

/// The function a destructor argument designates: a function, its address,
/// or a captureless lambda converted to a function pointer, directly or held
/// in a local variable (a closure, or a const function pointer). Null for
/// NULL or anything else.
const FunctionDecl *destructorFunction(const Expr *E);

/// `std::unique_ptr<DLManagedTensor, D> p(t, d)` or a `std::shared_ptr`
/// made with a deleter d that never refers to its argument
/// (`[](DLManagedTensor *) {}`): a view of the tensor for the scope, which
/// neither frees it nor takes it over.
bool smartPointerView(const CXXConstructExpr &E);

/// The function a PyCapsule_New (third argument) or PyCapsule_SetDestructor
/// (second argument) call installs as the capsule's destructor; null for any
/// other call and for a destructor that is not a known function.
const FunctionDecl *installedDestructor(const CallExpr &Call);

/// A capsule made from Payload under Name holds a DLPack tensor: the payload
/// is a managed tensor, or the name (a constant, through variables and
/// choices) mentions DLPack. A capsule is a DLPack one when its name or its
/// payload says so, not because it is a capsule: a binding library's
/// internals, NumPy's API table, a keep-alive object are not.
bool makesDLPackCapsule(const Expr *Payload, const Expr *Name,
                        ASTContext &Ctx);

/// True when E makes a pybind11 capsule with a destructor,
/// `py::capsule(ptr, name, dtor)`: pybind11's spelling of PyCapsule_New (a
/// constructor of `pybind11::capsule` whose three arguments are the pointer,
/// the name and a function of one PyObject pointer, the last one written).
bool isPybindCapsuleNew(const CXXConstructExpr &E);

/// RD is a binding library's capsule class: pybind11's or nanobind's
/// `capsule`.
bool isBindingCapsule(const CXXRecordDecl *RD);

/// The function a pybind11 capsule made by E (isPybindCapsuleNew) installs
/// as its destructor; null otherwise.
const FunctionDecl *installedDestructor(const CXXConstructExpr &E);

/// The destructor argument of a pybind11 or nanobind capsule made with a
/// destructor of the pointer alone (`py::capsule(ptr, void (*)(void *))`,
/// `nb::capsule(ptr, name, cleanup)`): the library calls it with the
/// pointer, whatever the capsule is named by then; null for any other
/// construction.
const Expr *pointerDestructorOf(const CXXConstructExpr &E);

/// True when E makes a pybind11 or nanobind capsule with a destructor of
/// either kind (isPybindCapsuleNew, pointerDestructorOf): the constructions
/// a capsule site is made of, for the site walk and the pre-filters alike.
bool makesCapsuleWithDestructor(const CXXConstructExpr &E);

/// A consumer's use of one capsule in one function, found syntactically.
struct CapsuleConsumption {
  const CallExpr *GetPointer = nullptr; // with an unconsumed name
  bool Claimed = false;         // SetName(used_...) or SetDestructor(NULL)
  // The pointer reaches a call (an import) without its capsule beside it.
  bool PointerPassedOn = false;
  // The first call or construction it reaches so, when PointerPassedOn.
  const Expr *PassedTo = nullptr;
  // The capsule's root variable (capsuleRoot), or null.
  const ValueDecl *Root = nullptr;
  // A return statement that hands the pointer to the caller without the
  // capsule beside it, or null.
  const ReturnStmt *ReturnedAlone = nullptr;
};

/// Whether an import (a call or construction the tensor is handed to) can
/// report a failure only by throwing: it returns nothing, or an object with
/// no test of success (no `ok()`, `has_value()`, `status()`, `operator
/// bool`), as `at::fromDLPack` does. A pointer, a number, a status or a
/// result says whether it worked, so a claim belongs after that test.
bool failsOnlyByThrowing(const Expr &Import);

/// A PyCapsule_SetDestructor call in Body that installs a destructor (not
/// NULL) on the capsule Made creates (a PyCapsule_New or a pybind11
/// capsule construction stored whole into the local the call names, through
/// `.ptr()`); null when there is none. A capsule made without a destructor
/// and given one at once is not one without.
const CallExpr *destructorSetLater(const Stmt *Body, const Expr &Made,
                                   ASTContext &Ctx);

/// For each PyCapsule_GetPointer(c, "dltensor"[_versioned]) in Body: whether
/// the same capsule is claimed anywhere in Body, and whether the pointer is
/// passed to a call other than the capsule API and the deleter without the
/// capsule itself in the same call (`return {ptr, std::move(capsule)};`
/// hands over a borrow the capsule still owns). The bodies
/// of lambdas in Body are not part of it (they are functions of their own).
/// With ForeignConsumedReads, also appends the PyCapsule_GetPointer calls
/// under a used_ name ("used_dltensor[_versioned]") of a capsule Body was
/// handed (a parameter, or a local alias of one) and never claims itself:
/// reads of a tensor another consumer owns.
std::vector<CapsuleConsumption> findCapsuleConsumptions(
    const Stmt *Body, ASTContext &Ctx,
    std::vector<const CallExpr *> *ForeignConsumedReads = nullptr);

/// The constant names a translation unit reads its capsules back under
/// outside their destructors (PyCapsule_GetPointer or PyCapsule_IsValid of a
/// capsule that is not a destructor's own parameter). A capsule created
/// under such a name that is not a DLPack one is the library's own (a
/// keep-alive base object it reads back itself), not one given to a DLPack
/// consumer.
class ReadBackCapsuleNames {
public:
  /// Records Call's name (a GetPointer or IsValid call with a constant name)
  /// unless the capsule it reads is a parameter of a function in
  /// Destructors (canonical declarations).
  void add(const CallExpr &Call,
           const llvm::SmallPtrSetImpl<const FunctionDecl *> &Destructors,
           ASTContext &Ctx);
  bool contains(llvm::StringRef Name) const { return Names.contains(Name); }
  void clear() { Names.clear(); }

private:
  llvm::StringSet<> Names;
};

/// The names a capsule destructor Dtor reads its own capsule (its
/// parameter) under, with PyCapsule_GetPointer or PyCapsule_IsValid, for a
/// capsule created under the constant name Created. Reads under NULL or
/// PyCapsule_GetName(self) accept any name and do not count.
struct DestructorNameReads {
  /// Some read under Created, or under a name that is not constant.
  bool CreatedOrUnknown = false;
  /// The first read under Created's used_ name (a GetPointer one if any).
  const CallExpr *Used = nullptr;
  /// The first read under another constant name (a GetPointer one if any).
  const CallExpr *Other = nullptr;
};
DestructorNameReads destructorNameReads(const FunctionDecl &Dtor,
                                        llvm::StringRef Created,
                                        ASTContext &Ctx);

/// For a capsule created under the constant name Created with destructor
/// Dtor: the first read of destructorNameReads under another constant name,
/// when none reads it under Created or its used_ name, nor under a name
/// that is not constant (the pointer is then always NULL, the tensor never
/// deleted). Null when there is none.
const CallExpr *readUnderOtherName(const FunctionDecl &Dtor,
                                   llvm::StringRef Created, ASTContext &Ctx);

/// For a capsule created under the constant unconsumed name Created with
/// destructor Dtor: the first read of destructorNameReads under Created's
/// used_ name, when none reads it under Created or a name that is not
/// constant. The destructor finds its pointer only on a capsule a consumer
/// renamed; on an unconsumed one it never reaches the tensor. Null when
/// there is none.
const CallExpr *readOnlyUnderUsedName(const FunctionDecl &Dtor,
                                      llvm::StringRef Created, ASTContext &Ctx);

/// What the ownership checks judge call by call in one body, found in one
/// walk (lambdas inside the body included).
struct CapsuleSites {
  /// PyCapsule_New, PyCapsule_SetDestructor, PyCapsule_GetPointer and
  /// PyCapsule_IsValid calls.
  std::vector<const CallExpr *> CapsuleCalls;
  /// pybind11 capsules made with a destructor (isPybindCapsuleNew), and
  /// pybind11 or nanobind ones made with a destructor of the pointer alone
  /// (pointerDestructorOf).
  std::vector<const CXXConstructExpr *> CapsuleConstructs;
  /// Calls through a field named `deleter` (isDeleterCall narrows them).
  std::vector<const CallExpr *> DeleterCalls;
  /// Explicit casts of a PyCapsule_GetPointer call: the struct a consumer
  /// reads the capsule's pointer as.
  std::vector<std::pair<const ExplicitCastExpr *, const CallExpr *>>
      PointerCasts;
  /// Explicit casts of a PyObject pointer (a capsule object) to a managed
  /// tensor pointer: the object is not its payload.
  std::vector<const ExplicitCastExpr *> ObjectCasts;
  /// Lambdas passed to an expression that does not compile (a recovery
  /// expression: `py::capsule c(p, name, [](PyObject *o) {...})` where `p`
  /// does not compile): whether they are capsule destructors is unknown.
  std::vector<const FunctionDecl *> LambdasOfInvalidCalls;
};
CapsuleSites findCapsuleSites(const Stmt *Body);

} // namespace clang::interop

#endif // INTEROP_LIB_ABI_CAPSULEAPI_H
