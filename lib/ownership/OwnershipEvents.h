//===--- OwnershipEvents.h - what the ownership model reports ---*- C++ -*-===//
//
// The events of the ownership family: leaks, double deletions, deletions
// after a hand-off, unchecked capsule pointers, renames before an import,
// capsules not claimed after an ownership-taking import, a producer asked
// twice for one import, a producer's tensor whose deleter frees nothing or
// whose data nothing keeps alive, a capsule destructor's two duties (check the
// capsule is unconsumed, save the exception in flight), and a broken
// contract of what a function returns. interop-dlpack-deleter-ownership
// and interop-dlpack-capsule-protocol filter them.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_OWNERSHIP_OWNERSHIPEVENTS_H
#define INTEROP_LIB_OWNERSHIP_OWNERSHIPEVENTS_H

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceLocation.h"

namespace clang::interop {

/// One thing the ownership model judged wrong, with where to report it.
struct OwnershipEvent {
  enum Kind {
    /// A site still owned on some path to an exit (ExitLoc).
    Leak,
    /// The deleter called when it may already have been (Related: the
    /// earlier call).
    DoubleDelete,
    /// The deleter called after the tensor was handed on (Related: where).
    DeleteAfterHandOff,
    /// A pointer from PyCapsule_GetPointer used without a NULL check.
    CapsulePointerUnchecked,
    /// A name from PyCapsule_GetName (Related: that call) read by a C
    /// string function or dereferenced with no NULL test on that path,
    /// outside a function that reads its own capsule: a capsule may be named
    /// NULL, and the call returns NULL on error.
    CapsuleNameUnchecked,
    /// The tensor imported after its capsule was renamed (Related: the
    /// rename).
    RenameBeforeImport,
    /// An importer that takes ownership even on failure was called, and the
    /// capsule is not claimed on some path to an exit (ExitLoc).
    NotClaimedAfterImport,
    /// The deleter of a tensor taken from an unconsumed capsule called (At;
    /// Related: where it was taken) while the capsule stays unclaimed on
    /// some path to the exit (ExitLoc): the capsule's destructor deletes
    /// it again.
    DeletedWhileCapsuleOwns,
    /// A call that can throw out of the function (At) ran after a capsule's
    /// tensor was handed on (its import) and before the capsule was
    /// claimed (Related: the claim): had it thrown, the capsule would still
    /// own the tensor its importer owns too (a double free).
    ThrowBeforeClaim,
    /// A capsule destructor calls the deleter without checking that the
    /// capsule is unconsumed.
    DestructorUncheckedDelete,
    /// A capsule destructor clears the error indicator without saving it.
    DestructorClearsError,
    /// A capsule destructor raises a new exception without saving the one
    /// in flight.
    DestructorRaises,
    /// A capsule destructor reads the capsule's pointer (At) under the
    /// unconsumed name with no proof that the capsule is unconsumed and
    /// without saving the exception in flight: on a capsule a consumer
    /// renamed, PyCapsule_GetPointer raises. Not reported where the
    /// destructor's deleter call is reported as unchecked already.
    DestructorReadRaises,
    /// The deleter of a tensor the function did not make (taken from a
    /// capsule outside its destructor, or an owned parameter) called with no
    /// proof on that path that it is not NULL: DLPack lets a producer leave
    /// it NULL.
    DeleterUnchecked,
    /// A producer's `__dlpack__` called (At) while the capsule an earlier
    /// call on the same producer returned (Related; null when it is the
    /// same call, in a loop) may still be unused on that path: one import
    /// asked for the data twice, and the first capsule is dropped.
    RepeatedExport,
    /// A managed tensor the function allocates (At) gets a deleter
    /// (Related) that never frees its argument: every consumer's call of
    /// the deleter leaks the struct.
    DeleterKeepsTensor,
    /// A managed tensor the function allocates (At) and puts in a capsule
    /// has a NULL deleter (Related: the store; null when never set): no
    /// consumer frees the struct.
    NullDeleterExported,
    /// A managed tensor the function allocates has manager_ctx NULL (or a
    /// fresh object of numbers only: Context) and a deleter (Related) that
    /// touches neither manager_ctx nor one of its pointers (How: "data",
    /// "shape" or "strides"), while that pointer (At: its store) points
    /// into memory something else owns.
    DataNotKeptAlive,
    /// A function whose callers own what it returns (TensorSources)
    /// returns a tensor an owning smart pointer (Owner) still holds
    /// (At: the return; Related: the `get()`).
    ReturnStillOwned,
    /// A tensor the function did not allocate (a producer's, a capsule's)
    /// freed without its deleter (At: `delete`, `free`, or the construction
    /// of a smart pointer that frees it so; How says which; Related: where
    /// the tensor was obtained): the producer's deleter never runs.
    FreedWithoutDeleter,
  };
  /// CallThrows: a call that may throw out of the function (ExitAt null).
  enum ExitKind { Return, Throw, FallOff, CallThrows };

  Kind K;
  /// Where to report: the site, the deleter call, the use, the import, the
  /// PyErr_Clear.
  const Stmt *At = nullptr;
  /// For sites that are parameters.
  const ParmVarDecl *Param = nullptr;
  const Stmt *Related = nullptr;
  SourceLocation ExitLoc;
  ExitKind Exit = Return;
  /// For ReturnStillOwned: the smart pointer that still owns the tensor;
  /// for RepeatedExport: the producer.
  const ValueDecl *Owner = nullptr;
  /// For Leak: the return statement or throw expression at ExitLoc (null
  /// when the function falls off its end), and whether the site is owned on
  /// every path to it (not only on some), so a release there is right.
  const Stmt *ExitAt = nullptr;
  bool Certain = false;
  /// For FreedWithoutDeleter: what frees the struct, in words.
  const char *How = nullptr;
  /// For DataNotKeptAlive: the allocation manager_ctx is set to when it
  /// holds only numbers; null when manager_ctx is NULL. ContextPointers:
  /// it also holds pointers that nothing reads.
  const Expr *Context = nullptr;
  bool ContextPointers = false;

  /// What the event is about: the parameter, else the site's statement.
  /// Events of one tensor (a leak at each of its exits) share it.
  const void *subject() const {
    return Param ? static_cast<const void *>(Param)
                 : static_cast<const void *>(At);
  }
};

} // namespace clang::interop

#endif // INTEROP_LIB_OWNERSHIP_OWNERSHIPEVENTS_H
