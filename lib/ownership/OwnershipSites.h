//===--- OwnershipSites.h - what a function obtains and touches -*- C++ -*-===//
//
// The ownership model's view of a function before its run: each site where
// the function obtains a managed tensor (created with new or malloc,
// returned by a producer, taken from a capsule, a parameter it deletes), each
// capsule it touches, and the pre-filter that says whether there is any.
// The ghost locations in them are made by the model (OwnershipModel.h).
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_OWNERSHIP_OWNERSHIPSITES_H
#define INTEROP_LIB_OWNERSHIP_OWNERSHIPSITES_H

#include "lib/abi/CapsuleAPI.h"
#include "lib/abi/DLPackTypes.h"
#include "lib/abi/MemoryCalls.h"
#include "lib/abi/ProducerExports.h"
#include "lib/engine/ValueFacts.h"
#include "lib/ownership/Releases.h"
#include "lib/support/NameLists.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Analysis/FlowSensitive/DataflowEnvironment.h"
#include "clang/Analysis/FlowSensitive/StorageLocation.h"
#include "clang/Analysis/FlowSensitive/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <memory>
#include <optional>
#include <vector>

namespace clang::interop::ownership {

using dataflow::Environment;
using dataflow::StorageLocation;
using dataflow::Value;

/// A place where the function obtains a managed tensor, with the ghost
/// booleans the model keeps for it.
struct Site {
  // Unowned: a variable whose deleter is called but whose origin the
  // function does not see (a cast of a void *, a borrowed parameter); it is
  // tracked for double deletion only, never for leaks.
  enum Source { Created, Produced, Capsule, Parameter, Unowned } From;
  const ValueDecl *Var = nullptr; // for Unowned
  const Stmt *At = nullptr;       // the obtaining expression
  const ParmVarDecl *Param = nullptr;
  int CapsuleId = -1;
  bool UnconsumedName = false; // GetPointer with a name checksOwnName accepts
  // GetPointer under the capsule's own name read back: never NULL for a
  // capsule, whatever it is named.
  bool OwnName = false;
  bool Exported = false; // handed to a PyCapsule_New of this function
  // Ghost locations.
  StorageLocation *Live = nullptr, *Deleted = nullptr, *Handed = nullptr,
                  *Escaped = nullptr;
  // The capsule the tensor was handed to could not be created (an
  // out-of-memory path the leak judgement leaves aside).
  StorageLocation *CapsuleFailed = nullptr;
  // The tensor pointer and its deleter tested NULL (ghosts, so that the
  // facts survive merges with paths that never obtained the tensor).
  StorageLocation *PtrNull = nullptr, *DeleterNull = nullptr;
  // Still to be freed or handed on: Live, and none of CapsuleFailed,
  // PtrNull, DeleterNull. One ghost (lib/engine/DerivedGhosts.h), so that a
  // loop's widening keeps how its parts relate.
  StorageLocation *Owed = nullptr;
  // For a capsule's tensor: taken from the capsule on this path (a claim
  // of the capsule owns only the tensors taken on the path that claims).
  StorageLocation *Taken = nullptr;
  // Holds the pointer obtained, per environment (its null atom says whether
  // the tensor is NULL). A location, not a Value *, because the framework
  // re-runs transfers after the fixpoint and may make new values then.
  StorageLocation *Obtained = nullptr;
  const Stmt *FirstDelete = nullptr;
  const Stmt *FirstHandOff = nullptr;
  // For a capsule's tensor, one per RunContext::ThrowPoints entry: that
  // call ran after the tensor escaped and before the capsule was claimed,
  // with no escape since (an exception there leaves both owning it).
  llvm::SmallVector<StorageLocation *, 4> ThrownBeforeClaim;
};

/// A capsule the function touches, named by its root variable.
struct Capsule {
  const ValueDecl *Root = nullptr;
  StorageLocation *Claimed = nullptr, *Renamed = nullptr, *Unconsumed = nullptr,
                  *TakingImport = nullptr;
  const Stmt *Rename = nullptr;
  const Stmt *TakingImportCall = nullptr;
};

/// What the model knows of one function besides the flow state: its sites
/// and capsules (found before the run) and where their values went.
struct RunContext {
  bool IsDestructor = false;
  /// Compiled TensorSources and OwnershipTakingImporters (once per
  /// configuration).
  const NameList *SourcesP = nullptr, *TakersP = nullptr;
  const NameList &sources() const { return *SourcesP; }
  /// The callee contracts of the configuration (lib/engine/ExitConditions.h).
  const ExitConditions *ExitsP = nullptr;
  const NameList &takers() const { return *TakersP; }
  std::vector<Site> Sites;
  std::vector<Capsule> Capsules;
  llvm::DenseMap<const Stmt *, unsigned> SiteOfStmt;
  llvm::DenseMap<const ParmVarDecl *, unsigned> SiteOfParam;
  llvm::DenseMap<const ValueDecl *, unsigned> SiteOfVar;
  llvm::DenseMap<const ValueDecl *, unsigned> CapsuleOfRoot;
  /// The capsule root E names, through locals that only ever hold another
  /// capsule (CapsuleRoots of the function's body, made on first need).
  const ValueDecl *capsuleRootOf(const Expr *E) const;
  mutable std::optional<CapsuleRoots> Roots;
  /// The tracked capsule E names, or -1.
  int capsuleIdOf(const Expr *E) const {
    auto It = CapsuleOfRoot.find(capsuleRootOf(E));
    return It == CapsuleOfRoot.end() ? -1 : int(It->second);
  }
  /// The other sites that took their tensor from site S's capsule:
  /// PyCapsule_GetPointer returns the capsule's one pointer each time, so
  /// what happens to the tensor through one of them happens through all (a
  /// consumer that reads the tensor once to validate it and again to store
  /// it).
  llvm::SmallVector<unsigned, 2> aliasesOf(unsigned S) const;
  llvm::DenseMap<const Value *, unsigned> SiteOfValue;
  llvm::DenseMap<const StorageLocation *, unsigned> SiteOfLoc;
  StorageLocation *Saved = nullptr;    // destructor: exception saved
  StorageLocation *Sentinel = nullptr; // ghosts initialised
  int DestructorCapsule = -1;
  /// The release functions this run has met (Releases.h).
  mutable ReleaseFunctions Releases;
  /// Capsules created in this function (their NULL-ness matters).
  llvm::DenseSet<const Value *> CapsuleResults;
  /// Names read with PyCapsule_GetName (their NULL-ness matters), and the
  /// call each came from.
  llvm::DenseMap<const Value *, const CallExpr *> NameResults;
  /// Pointers joined from tracked tensors (a `void *` assigned in both arms
  /// of an if): which tensor each stands for, on which paths.
  ValueChoices Choices;
  /// The fields of tensors reached through a joined pointer (a pointer
  /// assigned in one arm of an if and NULL after the other): their values,
  /// the deleter's included, so that a test of them is a test.
  JoinedFields Joins;
  const FunctionDecl *FD = nullptr;
  /// The calls that can leave the function by an exception
  /// (lib/engine/ExceptionEdges.h), found when it takes a tensor out of a
  /// capsule; and each one's index.
  llvm::SmallVector<const Stmt *, 8> ThrowPoints;
  llvm::DenseMap<const Stmt *, unsigned> ThrowPointIndex;
  /// The producer's `__dlpack__` calls (lib/abi/ProducerExports.h), each
  /// with a ghost: the capsule it returned is still unused (held, tested,
  /// dropped; never passed on); and the call each is.
  ExportUses Exports;
  llvm::SmallVector<StorageLocation *, 2> ExportUnused;
  llvm::DenseMap<const Stmt *, unsigned> ExportOfCall;
  /// Capsules an export returned that may be NULL (its NULL-ness matters).
  llvm::DenseSet<const Value *> ExportResults;
};

/// `__dlpack__` calls tracked per function at most.
constexpr unsigned MaxExportCalls = 16;

/// The tracked capsule Call claims (PyCapsule_SetName to a used_ name,
/// PyCapsule_SetDestructor to NULL), or -1; IsRename for the former. The
/// transfer functions and the judgement ask the same question here.
int claimedCapsule(const CallExpr &Call, const RunContext &RC, ASTContext &Ctx,
                   bool &IsRename);

/// Throw points tracked per function at most (each costs a ghost per
/// capsule tensor); the rest are not judged.
constexpr unsigned MaxThrowPoints = 32;

/// The function reads a capsule the producer made and named: a capsule
/// destructor, or a void function of a destructor's shape (one installed
/// through a variable or a conversion the role detection does not follow).
inline bool readsOwnCapsule(const RunContext &RC) {
  return RC.IsDestructor || (RC.FD && RC.FD->getReturnType()->isVoidType() &&
                             hasCapsuleDestructorShape(*RC.FD));
}

/// A tensor some other code made, whose deleter may be NULL (DLPack lets a
/// producer leave it NULL): one taken from a capsule outside the capsule's
/// own destructor (where it is the producer's), or a parameter of the
/// function, owned or not, that it does not export in a capsule. The
/// function's own tensors, those its TensorSources made, those it exports
/// (a producer's) and pointers cast from a `void *` (a producer's own
/// capsule destructor) have the deleter their maker set. A function of a
/// capsule destructor's shape (returning void) reads its own capsule, and a
/// lambda's capture is judged where the lambda is made (`if (t->deleter) cb
/// = [t] { t->deleter(t); };`), neither here.
inline bool isForeignTensor(const Site &St, const RunContext &RC) {
  if (St.Exported || !RC.FD)
    return false;
  const auto *P = dyn_cast_or_null<ParmVarDecl>(St.Var);
  return St.From == Site::Parameter ||
         (St.From == Site::Capsule && !readsOwnCapsule(RC)) ||
         (St.From == Site::Unowned && P && P->getDeclContext() == RC.FD);
}

/// True when a capsule read under a name of kind N is known to be
/// unconsumed: the DLPack unconsumed names; in a capsule destructor also
/// any other constant, the name of a capsule of the library's own (nobody
/// renames it; a destructor installed on a capsule of another name is
/// reported by interop-dlpack-capsule-protocol).
inline bool checksOwnName(CapsuleName N, const RunContext &RC) {
  return isUnconsumedName(N) || (RC.IsDestructor && N == CapsuleName::Other);
}

/// The tracked site E evaluates to (through parentheses and identity casts),
/// or -1.
int siteOfExpr(const RunContext &RC, const Expr *E, const Environment &Env);

/// The site of a tracked value (by itself, or as a pointer to a tracked
/// tensor), or -1.
int siteOfValue(const RunContext &RC, const Value &V);

/// The sites a value stands for, each with the paths on which it does
/// (null: every path): its own site, or those of a pointer joined from
/// several (RunContext::Choices).
using SiteChoices =
    llvm::SmallVector<std::pair<unsigned, const dataflow::Formula *>, 2>;
SiteChoices sitesOfValue(const RunContext &RC, const Value &V);

/// The sites E stands for (sitesOfValue, through identity casts).
SiteChoices sitesOfExpr(const RunContext &RC, const Expr *E,
                        const Environment &Env);

/// Finds FD's sites and capsules into RC (whose configuration is set).
void findSites(RunContext &RC, const FunctionDecl &FD, ASTContext &Ctx);

/// The pre-filter: Body names a managed tensor type, its deleter, or the
/// capsule API (what the model can report on). A function that only reads
/// fields is not analysed.
bool mentionsOwnershipIn(const Stmt *Body);

/// The pointer whose managed tensor E copies as a whole (`*p`, a copy or
/// move of it), or null.
const Expr *copiedManagedTensor(const Expr *E);

} // namespace clang::interop::ownership

namespace clang::interop {

/// The deleter calls of FD's body (outside lambdas) on a tensor FD
/// borrowed: a parameter of type pointer to const managed tensor (the call
/// casts the const away) that FD never hands on for good (it is not
/// captured, returned, stored or wrapped), in a function that is not a
/// release function (Releases.h: a function of that one tensor). The
/// caller, which still owns the tensor, deletes it again (cudf's
/// gdf_from_dlpack: "our borrowing is done").
std::vector<const CallExpr *> borrowedTensorDeletions(const FunctionDecl &FD);

} // namespace clang::interop

#endif // INTEROP_LIB_OWNERSHIP_OWNERSHIPSITES_H
