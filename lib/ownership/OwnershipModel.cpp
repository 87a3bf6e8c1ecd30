//===--- OwnershipModel.cpp - who owns a DLPack managed tensor ------------===//
//
// Table of contents: the state of the transfer functions and its ghosts,
// the helpers (sites, NULL atoms, hand-offs, deletions, claims, capsule
// names), the transfer functions (one per statement kind and capsule-API
// call), their table, then the analysis class.
//
//===----------------------------------------------------------------------===//

#include "lib/ownership/OwnershipModel.h"

#include "lib/abi/CapsuleAPI.h"
#include "lib/abi/DLPackFields.h"
#include "lib/engine/StmtSwitch.h"
#include "lib/engine/ValueFacts.h"
#include "lib/ownership/OwnershipExports.h"
#include "lib/ownership/OwnershipJudgement.h"
#include "lib/ownership/OwnershipNames.h"
#include "lib/support/AstHelpers.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Analysis/FlowSensitive/Value.h"

namespace clang::interop {

using namespace clang::dataflow;
using namespace ownership;

namespace {

/// What the transfer functions receive.
struct OwnState {
  Environment &Env;
  RunContext &RC;
  ASTContext &Ctx;
};

/// The callee contracts the engine applies (lib/engine/ValueFacts.h); a run
/// context made without a configuration reads bodies only.
const ExitConditions &exitConditionsOf(const OwnState &S) {
  static const ExitConditions BodiesOnly;
  return S.RC.ExitsP ? *S.RC.ExitsP : BodiesOnly;
}

// Helpers that the transfer functions share.
/// V (E's value) now stands for site Site.
void mapValue(Value *V, unsigned Site, OwnState &Own);
/// E produces a tracked tensor (a producer's call, new, a cast of an
/// allocation): its site is live again and holds E's value. False when E
/// is not a site.
bool obtainedAt(const Expr *E, OwnState &Own);

void initialiseGhosts(OwnState &Own) {
  Environment &Env = Own.Env;
  if (Env.getValue(*Own.RC.Sentinel))
    return;
  setGhost(Env, Own.RC.Sentinel, true);
  for (Site &S : Own.RC.Sites) {
    setGhost(Env, S.Live, S.From == Site::Parameter);
    setGhost(Env, S.Deleted, false);
    setGhost(Env, S.Handed, false);
    setGhost(Env, S.Escaped, false);
    setGhost(Env, S.CapsuleFailed, false);
    setGhost(Env, S.PtrNull, false);
    setGhost(Env, S.DeleterNull, false);
    setGhost(Env, S.Taken, false);
    for (StorageLocation *R : S.ThrownBeforeClaim)
      setGhost(Env, R, false);
    if (S.From == Site::Parameter)
      if (Value *V = Env.getValue(*S.Param)) {
        Env.setValue(*S.Obtained, *V);
        mapValue(V, &S - Own.RC.Sites.data(), Own);
      }
  }
  for (Capsule &C : Own.RC.Capsules) {
    setGhost(Env, C.Claimed, false);
    setGhost(Env, C.Renamed, false);
    setGhost(Env, C.TakingImport, false);
    // Whether a capsule is unconsumed is unknown on entry.
    setGhost(Env, C.Unconsumed, Env.makeAtomicBoolValue());
  }
  setGhost(Env, Own.RC.Saved, false);
  initialiseExportGhosts(Own.RC, Env);
}

void mapValue(Value *V, unsigned S, OwnState &Own) {
  if (!V)
    return;
  Own.RC.SiteOfValue[V] = S;
  if (auto *PV = dyn_cast<PointerValue>(V))
    Own.RC.SiteOfLoc[&PV->getPointeeLoc()] = S;
}

void resetVar(const ValueDecl *V, OwnState &Own) {
  Environment &Env = Own.Env;
  forgetExports(V, Env, Own.RC);
  auto It = Own.RC.SiteOfVar.find(V);
  if (It == Own.RC.SiteOfVar.end())
    return;
  Site &S = Own.RC.Sites[It->second];
  setGhost(Env, S.Deleted, false);
  setGhost(Env, S.Handed, false);
}

void transferDecl(const DeclStmt *E, OwnState &Own) {
  for (const Decl *D : E->decls())
    if (const auto *VD = dyn_cast<VarDecl>(D)) {
      resetVar(VD, Own);
      // `auto &[key, t] : pool`: each binding names a new element.
      if (const auto *DD = dyn_cast<DecompositionDecl>(VD))
        for (const BindingDecl *B : DD->bindings())
          resetVar(B, Own);
    }
}

/// The first deleter call on a variable the function did not obtain the
/// tensor into: from here on its value is tracked (for double deletion).
int adoptUnowned(const Expr *E, OwnState &Own) {
  Environment &Env = Own.Env;
  auto It = Own.RC.SiteOfVar.find(referencedDecl(E));
  if (It == Own.RC.SiteOfVar.end())
    return -1;
  const Expr *S = stripIdentityCasts(E);
  Value *V = S ? Env.getValue(*S) : nullptr;
  if (!V)
    return -1;
  mapValue(V, It->second, Own);
  return static_cast<int>(It->second);
}

int siteOf(const Expr *E, OwnState &Own) {
  Environment &Env = Own.Env;
  return siteOfExpr(Own.RC, E, Env);
}

/// The sites E stands for (sitesOfExpr).
SiteChoices sitesOf(const Expr *E, OwnState &Own) {
  return sitesOfExpr(Own.RC, E, Own.Env);
}

BoolValue *nullAtom(const Expr *E, OwnState &Own) {
  Environment &Env = Own.Env;
  const Expr *S = stripIdentityCasts(E);
  Value *V = S ? Env.getValue(*S) : nullptr;
  // `m->deleter` through a pointer joined from two arms: the framework gives
  // the joined tensor's fields no value until one is put there.
  if (!V && S && S->isGLValue())
    if (StorageLocation *L = Env.getStorageLocation(*S))
      V = Own.RC.Joins.valueAt(*L, Env);
  if (!V || !isa<PointerValue>(V))
    return nullptr;
  // Only pointers the model cares about: tensors, their deleters, capsule
  // pointers, capsule names, and values whose NULL-ness a join kept.
  bool Relevant = !sitesOf(E, Own).empty() || V->getProperty(kNull) ||
                  Own.RC.CapsuleResults.contains(V) ||
                  Own.RC.NameResults.count(V) ||
                  Own.RC.ExportResults.contains(V) ||
                  dlpackFieldOfMember(S) == DLPackField::Deleter;
  if (!Relevant)
    return nullptr;
  BoolValue *B = &nullAtomOf(*V, Env);
  // Keep the test on the site's ghosts too (on each site a joined pointer
  // chose between, where it chose it).
  bool OfDeleter = dlpackFieldOfMember(S) == DLPackField::Deleter;
  for (auto [Site, When] :
       sitesOf(OfDeleter ? cast<MemberExpr>(S)->getBase() : E, Own)) {
    StorageLocation *G =
        OfDeleter ? Own.RC.Sites[Site].DeleterNull : Own.RC.Sites[Site].PtrNull;
    setGhostWhen(Env, G, B->formula(), When);
  }
  return B;
}

/// Calls F(I, Taken) for every alias I of site S (RunContext::aliasesOf),
/// Taken the condition that I took the tensor on this path.
template <typename Fn>
void forEachAlias(unsigned S, OwnState &Own, const Formula *When, Fn F) {
  Arena &A = Own.Env.arena();
  for (unsigned I : Own.RC.aliasesOf(S))
    if (auto *Taken = Own.Env.get<BoolValue>(*Own.RC.Sites[I].Taken))
      F(I, When ? A.makeAnd(*When, Taken->formula()) : Taken->formula());
}

void handOff(unsigned S, const Stmt *Where, OwnState &Own,
             const FunctionDecl *Callee, bool Strong = true,
             const Formula *When = nullptr, bool OfAlias = false) {
  Environment &Env = Own.Env;
  Site &St = Own.RC.Sites[S];
  // Any escape ends this function's duty to delete (precision: the callee
  // may take ownership). Only a certain transfer (returned, stored, wrapped,
  // an importer that always takes it) makes a later deleter call wrong.
  setGhostWhen(Env, St.Live, false, When);
  setGhostWhen(Env, St.Escaped, true, When);
  // A throw before this escape is not between the import and the claim.
  for (StorageLocation *R : St.ThrownBeforeClaim)
    setGhostWhen(Env, R, false, When);
  if (Strong || (Callee && Own.RC.takers().matches(Callee))) {
    setGhostWhen(Env, St.Handed, true, When);
    if (!St.FirstHandOff)
      St.FirstHandOff = Where;
  }
  if (St.CapsuleId >= 0 && Callee && Own.RC.takers().matches(Callee)) {
    Capsule &C = Own.RC.Capsules[St.CapsuleId];
    setGhost(Env, C.TakingImport, true);
    if (!C.TakingImportCall)
      C.TakingImportCall = Where;
  }
  if (!OfAlias)
    forEachAlias(S, Own, When, [&](unsigned I, const Formula &Taken) {
      handOff(I, Where, Own, Callee, Strong, &Taken, /*OfAlias=*/true);
    });
}

void deleted(unsigned S, const Stmt *Where, OwnState &Own,
             const Formula *When = nullptr, bool OfAlias = false) {
  Environment &Env = Own.Env;
  Site &St = Own.RC.Sites[S];
  setGhostWhen(Env, St.Live, false, When);
  setGhostWhen(Env, St.Deleted, true, When);
  if (!St.FirstDelete)
    St.FirstDelete = Where;
  if (!OfAlias)
    forEachAlias(S, Own, When, [&](unsigned I, const Formula &Taken) {
      deleted(I, Where, Own, &Taken, /*OfAlias=*/true);
    });
}

void claim(int C, const Stmt *Where, bool IsRename, OwnState &Own) {
  Environment &Env = Own.Env;
  if (C < 0)
    return;
  Capsule &Cap = Own.RC.Capsules[C];
  setGhost(Env, Cap.Claimed, true);
  setGhost(Env, Cap.Unconsumed, false);
  if (IsRename) {
    setGhost(Env, Cap.Renamed, true);
    if (!Cap.Rename)
      Cap.Rename = Where;
  }
  // The tensors taken from this capsule now belong to the function, unless
  // already handed on or deleted (an import before the rename).
  Arena &A = Env.arena();
  for (Site &S : Own.RC.Sites) {
    if (S.CapsuleId != C)
      continue;
    auto *Escaped = Env.get<BoolValue>(*S.Escaped);
    auto *Deleted = Env.get<BoolValue>(*S.Deleted);
    auto *Taken = Env.get<BoolValue>(*S.Taken);
    if (!Escaped || !Deleted || !Taken)
      continue;
    const Formula *Live =
        &A.makeAnd(Taken->formula(), A.makeAnd(A.makeNot(Escaped->formula()),
                                               A.makeNot(Deleted->formula())));
    if (Value *V = Env.getValue(*S.Obtained))
      if (auto *N = dyn_cast_or_null<BoolValue>(V->getProperty(kNull)))
        Live = &A.makeAnd(*Live, A.makeNot(N->formula()));
    setGhost(Env, S.Live, A.makeBoolValue(*Live));
  }
}

/// t->deleter(t), a release function's call (Releases.h), free(t): the site
/// is deleted (a variable the function did not obtain the tensor into is
/// tracked from here, for double deletion).
bool isRelease(const CallExpr &E, OwnState &Own) {
  return Own.RC.Releases.isReleaseCall(&E) ||
         (isRawDeallocation(&E) && E.getNumArgs() == 1);
}
void transferRelease(const CallExpr *E, OwnState &Own) {
  // A pointer assigned from two imports in the arms of an if is released
  // once after it: each import on the paths that chose it.
  auto Sites = sitesOf(E->getArg(0), Own);
  if (Sites.empty())
    if (int S = adoptUnowned(E->getArg(0), Own); S >= 0)
      Sites.push_back({static_cast<unsigned>(S), nullptr});
  for (auto [S, When] : Sites)
    deleted(S, E, Own, When);
}

/// PyCapsule_GetPointer(capsule, name): the tensor, owned here only by a
/// destructor of an unconsumed capsule; with the unconsumed name the pointer
/// is non-NULL exactly when the capsule is unconsumed.
void transferGetPointer(const CallExpr *E, OwnState &Own) {
  Environment &Env = Own.Env;
  auto It = Own.RC.SiteOfStmt.find(E);
  if (It == Own.RC.SiteOfStmt.end())
    return;
  Site &S = Own.RC.Sites[It->second];
  Value *V = valueOrFresh(*E, Env);
  if (!V)
    return;
  Env.setValue(*S.Obtained, *V);
  mapValue(V, It->second, Own);
  BoolValue &N = nullAtomOf(*V, Env);
  setGhost(Env, S.PtrNull, N);
  Arena &A = Env.arena();
  if (S.OwnName)
    Env.assume(A.makeNot(N.formula()));
  if (S.UnconsumedName && S.CapsuleId >= 0)
    if (auto *U = Env.get<BoolValue>(*Own.RC.Capsules[S.CapsuleId].Unconsumed))
      Env.assume(A.makeEquals(A.makeNot(N.formula()), U->formula()));
  setGhost(Env, S.Deleted, false);
  setGhost(Env, S.Handed, false);
  setGhost(Env, S.Escaped, false);
  setGhost(Env, S.Taken, true);
  // A destructor owns the tensor of an unconsumed capsule; a consumer owns
  // it only once it claims the capsule.
  if (Own.RC.IsDestructor && S.UnconsumedName)
    setGhost(Env, S.Live, Env.makeNot(N));
  else
    setGhost(Env, S.Live, false);
}

/// The tracked capsule a capsule-API call's first argument names, or -1.
int capsuleArgument(const CallExpr *E, OwnState &Own) {
  return Own.RC.capsuleIdOf(E->getArg(0));
}

/// PyCapsule_SetName(capsule, "used_dltensor"),
/// PyCapsule_SetDestructor(capsule, NULL): the capsule is claimed.
/// CPython fails a setter (returns non-zero) only on an invalid capsule, so
/// a failure means every pointer read from it on this path was NULL: the
/// result is that truth, and `if (PyCapsule_SetName(c, n) != 0) throw`
/// after a non-NULL read is a dead branch.
void transferClaim(const CallExpr *E, OwnState &Own) {
  Environment &Env = Own.Env;
  if (int Cap = capsuleArgument(E, Own);
      Cap >= 0 && E->getType()->isIntegerType()) {
    Arena &A = Env.arena();
    BoolValue &Failed = Env.makeAtomicBoolValue();
    for (const Site &S : Own.RC.Sites) {
      if (S.CapsuleId != Cap)
        continue;
      auto *Taken = Env.get<BoolValue>(*S.Taken);
      auto *Null = Env.get<BoolValue>(*S.PtrNull);
      if (Taken && Null)
        Env.assume(
            A.makeImplies(Failed.formula(),
                          A.makeImplies(Taken->formula(), Null->formula())));
    }
    Env.setValue(*E, Failed);
  }
  bool IsRename = false;
  int C = ownership::claimedCapsule(*E, Own.RC, Own.Ctx, IsRename);
  if (C >= 0)
    claim(C, E, IsRename, Own);
}

/// A call that can throw out of the function, for each capsule tensor it
/// is not given: whether the tensor had escaped and its capsule was
/// unclaimed when it ran.
void markThrowPoint(const Stmt *S, OwnState &Own) {
  auto It = Own.RC.ThrowPointIndex.find(S);
  if (It == Own.RC.ThrowPointIndex.end())
    return;
  Environment &Env = Own.Env;
  Arena &A = Env.arena();
  const auto *Call = dyn_cast<CallExpr>(S);
  for (unsigned I = 0; I < Own.RC.Sites.size(); ++I) {
    Site &St = Own.RC.Sites[I];
    if (St.ThrownBeforeClaim.empty() || St.CapsuleId < 0)
      continue;
    if (Call && llvm::any_of(Call->arguments(), [&](const Expr *Arg) {
          return siteOf(Arg, Own) == int(I);
        }))
      continue;
    auto *Escaped = Env.get<BoolValue>(*St.Escaped);
    auto *Claimed = Env.get<BoolValue>(*Own.RC.Capsules[St.CapsuleId].Claimed);
    auto *Deleted = Env.get<BoolValue>(*St.Deleted);
    if (!Escaped || !Claimed || !Deleted)
      continue;
    setGhost(Env, St.ThrownBeforeClaim[It->second],
             A.makeBoolValue(A.makeAnd(
                 Escaped->formula(),
                 A.makeAnd(A.makeNot(Claimed->formula()),
                           A.makeNot(Deleted->formula())))));
  }
}

/// PyCapsule_IsValid(capsule, "dltensor"): whether it is unconsumed.
void transferIsValid(const CallExpr *E, OwnState &Own) {
  Environment &Env = Own.Env;
  if (E->getNumArgs() != 2)
    return;
  int C = capsuleArgument(E, Own);
  if (C < 0)
    return;
  auto *U = Env.get<BoolValue>(*Own.RC.Capsules[C].Unconsumed);
  if (!U)
    return;
  CapsuleName N = classifyCapsuleName(E->getArg(1), Own.Ctx);
  if (checksOwnName(N, Own.RC))
    Env.setValue(*E, *U);
  else if (isUsedName(N))
    Env.setValue(*E, Env.makeNot(*U));
}

/// PyCapsule_New(tensor, name, destructor): the capsule takes the tensor
/// only when it was created; on failure (NULL) the caller still owns it.
void transferCapsuleNew(const CallExpr *E, OwnState &Own) {
  Environment &Env = Own.Env;
  if (E->getNumArgs() < 1)
    return;
  auto Sites = sitesOf(E->getArg(0), Own);
  if (Sites.empty())
    return;
  Value *Cap = valueOrFresh(*E, Env);
  if (!Cap)
    return;
  Own.RC.CapsuleResults.insert(Cap);
  BoolValue &N = nullAtomOf(*Cap, Env);
  Arena &A = Env.arena();
  for (auto [S, When] : Sites) {
    Site &St = Own.RC.Sites[S];
    auto *Live = Env.get<BoolValue>(*St.Live);
    auto *Handed = Env.get<BoolValue>(*St.Handed);
    if (!Live || !Handed)
      continue;
    // Handed to the capsule where it was created, on the paths where the
    // argument is this tensor.
    const Formula &Took =
        When ? A.makeAnd(*When, A.makeNot(N.formula()))
             : A.makeNot(N.formula());
    setGhost(Env, St.Live,
             A.makeBoolValue(A.makeAnd(Live->formula(), A.makeNot(Took))));
    setGhost(Env, St.Handed,
             A.makeBoolValue(A.makeOr(Handed->formula(), Took)));
    if (When) {
      auto *Failed = Env.get<BoolValue>(*St.CapsuleFailed);
      const Formula &Mine = A.makeAnd(*When, N.formula());
      setGhost(Env, St.CapsuleFailed,
               A.makeBoolValue(Failed ? A.makeOr(Mine, A.makeAnd(
                                                           A.makeNot(*When),
                                                           Failed->formula()))
                                      : Mine));
    } else {
      setGhost(Env, St.CapsuleFailed, N);
    }
    if (auto *Esc = Env.get<BoolValue>(*St.Escaped))
      setGhost(Env, St.Escaped,
               A.makeBoolValue(A.makeOr(Esc->formula(), Took)));
    if (!St.FirstHandOff)
      St.FirstHandOff = E;
  }
}

/// Any other call: a producer (the caller owns what it returns) and
/// hand-offs of the tensors it is passed. strcmp(PyCapsule_GetName(c),
/// "dltensor") is handled where its result is compared.
void transferOtherCall(const CallExpr *E, OwnState &Own) {
  obtainedAt(E, Own);
  const FunctionDecl *Callee = E->getDirectCallee();
  for (unsigned I = 0; I < E->getNumArgs(); ++I) {
    const Expr *Arg = E->getArg(I);
    SiteChoices Sites = sitesOf(Arg, Own);
    // consume(&mt): the callee may take the pointer out of the variable.
    if (Sites.empty())
      if (const auto *UO = dyn_cast<UnaryOperator>(Arg->IgnoreParenImpCasts()))
        if (UO->getOpcode() == UO_AddrOf)
          Sites = sitesOf(UO->getSubExpr(), Own);
    // handle_dec_ref((Handle *)t->manager_ctx): the producer's own
    // bookkeeping takes the tensor.
    if (Sites.empty() && isManagerCtx(Arg))
      Sites =
          sitesOf(cast<MemberExpr>(Arg->IgnoreParenCasts())->getBase(), Own);
    for (auto [J, When] : Sites)
      handOff(J, E, Own, Callee, /*Strong=*/false, When);
  }
}

/// Every call but a release, by the capsule API it calls.
void transferCall(const CallExpr *E, OwnState &Own) {
  // obj.attr("__dlpack__")(): a capsule asked of a producer.
  transferExportCall(*E, Own.Env, Own.RC);
  // std::string name = PyCapsule_GetName(c); name == "used_dltensor"
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E))
    if (BoolValue *Eq = stringNamesCompared(*Op, Own.Env, Own.RC, Own.Ctx))
      return Own.Env.setValue(*E, *Eq);
  // The C calls, and of pybind11's members set_name only.
  CapsuleCallView V = viewCapsuleCall(E);
  switch (V.Member && V.Op != CapsuleCall::SetName ? CapsuleCall::None : V.Op) {
  // PyCapsule_GetPointer(capsule, name)
  case CapsuleCall::GetPointer:
    return transferGetPointer(E, Own);
  // PyCapsule_SetName(c, n), cap.set_name(n), PyCapsule_SetDestructor(c, d)
  case CapsuleCall::SetName:
  case CapsuleCall::SetDestructor:
    return transferClaim(E, Own);
  // PyCapsule_IsValid(capsule, name)
  case CapsuleCall::IsValid:
    return transferIsValid(E, Own);
  // PyErr_Fetch, PyErr_GetRaisedException: the exception in flight is saved.
  case CapsuleCall::ErrFetch:
    return setGhost(Own.Env, Own.RC.Saved, true);
  // PyErr_Restore, PyErr_SetRaisedException: and given back.
  case CapsuleCall::ErrRestore:
    return setGhost(Own.Env, Own.RC.Saved, false);
  // PyCapsule_GetName: a name that may be NULL.
  case CapsuleCall::GetName:
    return transferGetName(*E, Own.Env, Own.RC);
  // PyErr_Clear: judged only.
  case CapsuleCall::ErrClear:
    return;
  // PyCapsule_New(pointer, name, destructor)
  case CapsuleCall::New:
    return transferCapsuleNew(E, Own);
  case CapsuleCall::None:
    return transferOtherCall(E, Own);
  }
}

void transferNew(const CXXNewExpr *E, OwnState &Own) { obtainedAt(E, Own); }

bool obtainedAt(const Expr *E, OwnState &Own) {
  Environment &Env = Own.Env;
  auto It = Own.RC.SiteOfStmt.find(E);
  if (It == Own.RC.SiteOfStmt.end())
    return false;
  Site &S = Own.RC.Sites[It->second];
  Value *V = E->isPRValue() ? valueOrFresh(*E, Env) : Env.getValue(*E);
  if (V)
    Env.setValue(*S.Obtained, *V);
  mapValue(V, It->second, Own);
  setGhost(Env, S.Live, true);
  setGhost(Env, S.Deleted, false);
  setGhost(Env, S.Handed, false);
  setGhost(Env, S.Escaped, false);
  return true;
}

void transferDelete(const CXXDeleteExpr *E, OwnState &Own) {
  for (auto [S, When] : sitesOf(E->getArgument(), Own))
    deleted(S, E, Own, When);
}

/// What a pointer or an integer tested for truth stands for (C++'s bool
/// conversion of it, or C's bare operand); null when nothing is known.
BoolValue *operandTruth(const Expr *Operand, OwnState &Own) {
  QualType T = Operand->getType();
  if (T->isAnyPointerType() || T->isBlockPointerType()) {
    BoolValue *N = nullAtom(Operand, Own);
    return N ? &Own.Env.makeNot(*N) : nullptr;
  }
  // if (strcmp(PyCapsule_GetName(c), "dltensor")): the names differ.
  if (T->isIntegralOrEnumerationType())
    return namesDiffer(Operand, Own.Env, Own.RC, Own.Ctx);
  return nullptr;
}

void transferCast(const CastExpr *E, OwnState &Own) {
  Environment &Env = Own.Env;
  switch (E->getCastKind()) {
  case CK_PointerToBoolean:
  case CK_IntegralToBoolean:
    if (BoolValue *B = operandTruth(E->getSubExpr(), Own))
      Env.setValue(*E, *B);
    return;
  case CK_LValueToRValue:
    return;
  default:
    break;
  }
  if (!E->getType()->isPointerType())
    return;
  // (DLManagedTensor *)malloc(sizeof(DLManagedTensor))
  if (obtainedAt(E, Own))
    return;
  // Casts keep the site: static_cast<DLManagedTensor *>(PyCapsule_GetPointer
  // (...)) names the same tensor.
  if (!E->isPRValue())
    return;
  int S = siteOf(E->getSubExpr(), Own);
  Value *From = Env.getValue(*stripIdentityCasts(E->getSubExpr()));
  // A pointer a join chose between imports stays that choice.
  bool Choice = S < 0 && From && !Own.RC.Choices.of(*From).empty();
  if (S < 0 && !Choice)
    return;
  Value *V = valueOrFresh(*E, Env);
  if (!V)
    return;
  if (Choice)
    Own.RC.Choices.cast(*From, *V);
  else
    mapValue(V, S, Own);
  // The null atom belongs to the pointer, whatever its static type.
  if (From && From != V)
    if (Value *N = From->getProperty(kNull))
      V->setProperty(kNull, *N);
}

void transferReturn(const ReturnStmt *E, OwnState &Own) {
  if (!E->getRetValue())
    return;
  for (auto [S, When] : sitesOf(E->getRetValue(), Own))
    handOff(S, E, Own, nullptr, /*Strong=*/true, When);
  // `return *p;` by value: the copy carries the deleter and manager_ctx, so
  // the caller owns the tensor (a C ABI that passes managed tensors by
  // value).
  if (const Expr *P = copiedManagedTensor(E->getRetValue()))
    for (auto [S, When] : sitesOf(P, Own))
      handOff(S, E, Own, nullptr, /*Strong=*/true, When);
}

void transferBinaryOperator(const BinaryOperator *E, OwnState &Own) {
  Environment &Env = Own.Env;
  if (E->getOpcode() == BO_EQ || E->getOpcode() == BO_NE) {
    const Expr *P = E->getLHS(), *Other = E->getRHS();
    ASTContext &Ctx = Own.Ctx;
    if (isNullConstant(P, Ctx))
      std::swap(P, Other);
    if (P->getType()->isPointerType() && isNullConstant(Other, Ctx)) {
      if (BoolValue *N = nullAtom(P, Own))
        Env.setValue(*E, E->getOpcode() == BO_EQ ? *N : Env.makeNot(*N));
      return;
    }
    // strcmp(PyCapsule_GetName(c), "dltensor") == 0
    for (auto [Cmp, Zero] : {std::pair(E->getLHS(), E->getRHS()),
                             std::pair(E->getRHS(), E->getLHS())}) {
      std::optional<llvm::APSInt> Z = integerConstant(Zero, Ctx);
      if (!Z || !Z->isZero())
        continue;
      if (BoolValue *Differ = namesDiffer(Cmp, Own.Env, Own.RC, Own.Ctx)) {
        Env.setValue(*E,
                     E->getOpcode() == BO_NE ? *Differ : Env.makeNot(*Differ));
        return;
      }
    }
    // name == kDLTensorName, comparing the pointers.
    if (BoolValue *Eq = namePointerEquals(E->getLHS(), E->getRHS(), Own.Env,
                                          Own.RC, Own.Ctx))
      Env.setValue(*E, E->getOpcode() == BO_EQ ? *Eq : Env.makeNot(*Eq));
    return;
  }
  if (E->getOpcode() != BO_Assign)
    return;
  // A tracked variable given a new value holds a new tensor.
  if (const auto *DRE =
          dyn_cast<DeclRefExpr>(E->getLHS()->IgnoreParenImpCasts()))
    resetVar(DRE->getDecl(), Own);
  SiteChoices Sites = sitesOf(E->getRHS(), Own);
  if (Sites.empty())
    return;
  // Copying into a local pointer keeps the site; storing anywhere else
  // (a field, a global, through a pointer) hands it on: each import a
  // joined pointer chose, on the paths that chose it.
  if (const auto *DRE =
          dyn_cast<DeclRefExpr>(E->getLHS()->IgnoreParenImpCasts()))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (VD->hasLocalStorage() && !VD->getType()->isReferenceType())
        return;
  for (auto [S, When] : Sites)
    handOff(S, E, Own, nullptr, /*Strong=*/true, When);
}

void transferLambda(const LambdaExpr *E, OwnState &Own) {
  Environment &Env = Own.Env;
  for (const LambdaCapture &C : E->captures()) {
    if (!C.capturesVariable())
      continue;
    const auto *VD = dyn_cast<VarDecl>(C.getCapturedVar());
    if (!VD)
      continue;
    // A capture of a pointer joined from several imports hands on each.
    if (Value *V = Env.getValue(*VD))
      for (auto [S, When] : sitesOfValue(Own.RC, *V))
        handOff(S, E, Own, nullptr, /*Strong=*/true, When);
  }
}

void transferConstruct(const CXXConstructExpr *E, OwnState &Own) {
  // error_scope scope;: the exception in flight is saved until the scope
  // ends (its destructor restores it after anything the body clears).
  if (Own.RC.IsDestructor && constructsErrorScope(E))
    setGhost(Own.Env, Own.RC.Saved, true);
  // A smart pointer that cannot free the tensor (its deleter never refers
  // to it) only views it: the duty to delete ends, nothing is handed over.
  bool Strong = !smartPointerView(*E);
  for (const Expr *Arg : E->arguments())
    for (auto [S, When] : sitesOf(Arg, Own))
      handOff(S, E, Own, E->getConstructor(), Strong, When);
}

//===----------------------------------------------------------------------===//
// The table
//===----------------------------------------------------------------------===//

const StmtSwitch<OwnState> &transferSwitch() {
  // The cases every family shares first (lib/engine/ValueFacts.h).
  static const StmtSwitch<OwnState> Switch =
      valueCases<OwnState>()
          // t->deleter(t), free(t)
          .caseOf<CallExpr>(isRelease, transferRelease)
          // The capsule API, producers, hand-offs through calls.
          .caseOf<CallExpr>(transferCall)
          // new DLManagedTensor
          .caseOf<CXXNewExpr>(transferNew)
          // delete t
          .caseOf<CXXDeleteExpr>(transferDelete)
          // (DLManagedTensor *)malloc(...), static_cast of a capsule's
          // pointer, NULL tests
          .caseOf<CastExpr>(transferCast)
          // return t: handed on
          .caseOf<ReturnStmt>(transferReturn)
          // t == NULL, strcmp(PyCapsule_GetName(c), "dltensor") == 0, stores
          .caseOf<BinaryOperator>(transferBinaryOperator)
          // [t] { ... }: captured, handed on
          .caseOf<LambdaExpr>(transferLambda)
          // DLManagedTensor *t = ...: a tracked variable declared afresh
          .caseOf<DeclStmt>(transferDecl)
          // Holder h(t), std::unique_ptr<DLManagedTensor, D> g(t)
          .caseOf<CXXConstructExpr>(transferConstruct)
          // import(cap): an exported capsule passed on
          .caseOf<DeclRefExpr>([](const DeclRefExpr *E, OwnState &Own) {
            transferExportUse(*E, Own.Env, Own.RC);
          });
  return Switch;
}

} // namespace

//===----------------------------------------------------------------------===//
// The analysis
//===----------------------------------------------------------------------===//

OwnershipModel::OwnershipModel(ASTContext &Ctx, Environment &Env,
                               RunContext &RC)
    : DataflowAnalysis(Ctx), RC(RC) {
  QualType B = Ctx.BoolTy;
  auto Ghost = [&] { return &Env.createStorageLocation(B); };
  for (Site &S : RC.Sites) {
    S.Live = Ghost();
    S.Deleted = Ghost();
    S.Handed = Ghost();
    S.Escaped = Ghost();
    S.CapsuleFailed = Ghost();
    S.PtrNull = Ghost();
    S.DeleterNull = Ghost();
    S.Taken = Ghost();
    S.Owed = Ghost();
    Derived.add(*S.Owed, {S.Live}, {S.CapsuleFailed, S.PtrNull, S.DeleterNull});
    S.Obtained = &Env.createStorageLocation(Ctx.VoidPtrTy);
    if (S.From == Site::Capsule)
      for (unsigned I = 0; I < RC.ThrowPoints.size(); ++I)
        S.ThrownBeforeClaim.push_back(Ghost());
  }
  for (Capsule &C : RC.Capsules) {
    C.Claimed = Ghost();
    C.Renamed = Ghost();
    C.Unconsumed = Ghost();
    C.TakingImport = Ghost();
  }
  RC.Saved = Ghost();
  RC.Sentinel = Ghost();
  makeExportGhosts(RC, Env, Ctx);
}

void OwnershipModel::transfer(const CFGElement &Elt, NoopLattice &,
                              Environment &Env) {
  std::optional<CFGStmt> CS = Elt.getAs<CFGStmt>();
  // Before the ghosts exist there is nothing to judge (the judgement would
  // skip the state too).
  if (CS && isJudgedStatement(CS->getStmt()))
    Recorded.record(CS->getStmt(), Env, Env.getValue(*RC.Sentinel) != nullptr);
  OwnState Own{Env, RC, getASTContext()};
  DerivedGhosts::Snapshot Before = Derived.snapshot(Env);
  initialiseGhosts(Own);
  if (CS) {
    // In the state before the call: an exception leaves it unchanged.
    markThrowPoint(CS->getStmt(), Own);
    transferSwitch()(*CS->getStmt(), Own);
  }
  Derived.update(Before, Env);
}

void OwnershipModel::join(QualType, const Value &V1, const Environment &E1,
                          const Value &V2, const Environment &E2,
                          Value &Joined, Environment &JoinedEnv) {
  if (!isa<PointerValue>(Joined))
    return;
  // Whether the pointer is NULL survives the join: a capsule variable
  // assigned an export's result in one arm of an if and still NULL after
  // the other is tested NULL to retry the export.
  joinBoolProperty(kNull, V1, E1, V2, E2, Joined, JoinedEnv,
                   /*NeedBoth=*/false);
  RC.Choices.join(V1, E1, V2, E2, Joined, JoinedEnv, [&](const Value &V) {
    return siteOfValue(RC, V) >= 0;
  });
  RC.Joins.joinWith(*this, V1, E1, V2, E2, Joined, JoinedEnv);
}

BoolValue *OwnershipModel::truthOfOperand(const Expr &E, Environment &Env) {
  OwnState Own{Env, RC, getASTContext()};
  // A test of the deleter or of the pointer sets the site's ghosts, as a
  // transfer does.
  DerivedGhosts::Snapshot Before = Derived.snapshot(Env);
  BoolValue *B = operandTruth(&E, Own);
  Derived.update(Before, Env);
  return B;
}

} // namespace clang::interop
