//===--- OwnershipModel.h - who owns a DLPack managed tensor ----*- C++ -*-===//
//
// A dataflow model (clang's framework, run through lib/engine/FlowRunner.h) of
// the ownership of DLPack managed tensors and of the capsules that carry them:
//
//   - each place a function obtains a managed tensor (created with new or
//     malloc, returned by a producer, taken from a capsule it has claimed, a
//     parameter the function deletes somewhere) is a site with three ghost
//     booleans: still owned here, deleted, handed on;
//   - each capsule the function touches has ghosts for "claimed" (renamed to
//     used_dltensor or its destructor cleared), "unconsumed" (what
//     PyCapsule_IsValid(c, "dltensor") answers), and "imported";
//   - a capsule destructor has a ghost for "the exception in flight was
//     saved".
//
// Ghosts are boolean formulas, so correlated conditions (`bool handed = ...;
// if (!handed) delete`) are understood; null checks of the tensor and of its
// deleter are atoms (a NULL deleter means nothing to free). Events are judged
// on the state before each element and at each exit of the function. A
// function that owns no tensor, touches no capsule and releases a tensor only
// as its last act is not run (OwnershipFacts::BySyntax): it has no event.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_OWNERSHIP_OWNERSHIPMODEL_H
#define INTEROP_LIB_OWNERSHIP_OWNERSHIPMODEL_H

#include "lib/engine/FlowRunner.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"

#include <string>
#include <vector>

namespace clang::interop {

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
    /// The tensor imported after its capsule was renamed (Related: the
    /// rename).
    RenameBeforeImport,
    /// An importer that takes ownership even on failure was called, and the
    /// capsule is not claimed on some path to an exit (ExitLoc).
    NotClaimedAfterImport,
    /// A capsule destructor calls the deleter without checking that the
    /// capsule is unconsumed.
    DestructorUncheckedDelete,
    /// A capsule destructor clears the error indicator without saving it.
    DestructorClearsError,
  };
  enum ExitKind { Return, Throw, FallOff };

  Kind K;
  /// Where to report: the site, the deleter call, the use, the import, the
  /// PyErr_Clear.
  const Stmt *At = nullptr;
  /// For sites that are parameters.
  const ParmVarDecl *Param = nullptr;
  const Stmt *Related = nullptr;
  SourceLocation ExitLoc;
  ExitKind Exit = Return;
};

struct OwnershipFacts {
  SkipReason Skipped = SkipReason::None;
  std::string Detail;
  std::vector<OwnershipEvent> Events;
  /// The syntax proved that the function has no event: it obtains no
  /// tensor it owns, touches no capsule, is no capsule destructor, and
  /// every release (deleter call, free, delete) ends the function. The
  /// flow analysis did not run.
  bool BySyntax = false;
};

struct OwnershipModelConfig {
  /// Calls that return a managed tensor the caller then owns (unanchored
  /// regexes over the callee's qualified name with a leading "::").
  std::vector<std::string> TensorSources = {"to_?[Dd][Ll][Pp]ack$",
                                            "To[Dd][Ll][Pp]ack$", "::release$"};
  /// Importers that take ownership on every path, failure included (so the
  /// capsule must be claimed whatever they return).
  std::vector<std::string> OwnershipTakingImporters = {
      "::interop::from_dlpack$"};
  FlowBounds Bounds;
  /// Try the syntactic proof first (OwnershipFacts::BySyntax). Tests turn
  /// this off to compare it with the flow analysis.
  bool SyntacticProofs = true;

  std::string key() const;
};

/// The cheap pre-filter: FD's body names a managed tensor type, its deleter,
/// or the capsule API.
bool mentionsOwnership(const FunctionDecl &FD);

/// Runs the model over FD (cached per function, role and configuration
/// until clearOwnershipFactsCache()). IsCapsuleDestructor: FD is passed as a
/// capsule's destructor somewhere in the translation unit. `ConfigKey`:
/// Config.key() from a caller that keeps it; computed here when empty.
const OwnershipFacts &getOwnershipFacts(const FunctionDecl &FD, ASTContext &Ctx,
                                        bool IsCapsuleDestructor,
                                        const OwnershipModelConfig &Config = {},
                                        llvm::StringRef ConfigKey = {});

void clearOwnershipFactsCache();

} // namespace clang::interop

#endif // INTEROP_LIB_OWNERSHIP_OWNERSHIPMODEL_H
