//===--- OwnershipJudgement.cpp - ownership events from states ------------===//

#include "lib/ownership/OwnershipJudgement.h"

#include "lib/abi/CapsuleAPI.h"
#include "lib/abi/DeleterCalls.h"
#include "lib/abi/MemoryCalls.h"
#include "lib/engine/ExceptionEdges.h"
#include "lib/engine/NullContracts.h"
#include "lib/ownership/OwnershipContracts.h"
#include "lib/ownership/OwnershipExports.h"
#include "lib/ownership/OwnershipNames.h"
#include "lib/support/AstHelpers.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

#include <functional>
#include <optional>

namespace clang::interop::ownership {

using namespace clang::dataflow;

bool isJudgedStatement(const Stmt *St) {
  if (isa<CallExpr, CXXDeleteExpr>(St))
    return true;
  if (const auto *C = dyn_cast<CXXConstructExpr>(St))
    return C->getNumArgs() > 0 && defaultFreeOf(C->getType(), C->getNumArgs());
  if (const auto *ME = dyn_cast<MemberExpr>(St))
    return ME->isArrow();
  if (const auto *UO = dyn_cast<UnaryOperator>(St))
    return UO->getOpcode() == UO_Deref;
  return false;
}

namespace {

/// Leaving FD ends the process (main: by a return, a fall off its end or an
/// exception that escapes it): what is still owned then is the operating
/// system's to reclaim, not a leak (a test's early error return).
bool endsTheProcess(const FunctionDecl *FD) { return FD && FD->isMain(); }

/// Judges the state before a statement.
class StatementJudge {
public:
  explicit StatementJudge(RunContext &RC) : RC(RC) {}

  /// The events at St in the state just before it.
  llvm::SmallVector<OwnershipEvent>
  judge(const Stmt *St, const Environment &Env, ASTContext &Ctx) {
    llvm::SmallVector<OwnershipEvent> Found;
    if (!Env.getValue(*RC.Sentinel))
      return Found;
    if (const auto *Call = dyn_cast<CallExpr>(St)) {
      leaksIfThrows(Call, Env, Found);
      call(Call, Env, Ctx, Found);
    } else if (const auto *ME = dyn_cast<MemberExpr>(St)) {
      if (ME->isArrow())
        deref(ME, ME->getBase(), Env, Found);
    } else if (const auto *UO = dyn_cast<UnaryOperator>(St)) {
      if (UO->getOpcode() == UO_Deref)
        deref(UO, UO->getSubExpr(), Env, Found);
    } else if (const auto *D = dyn_cast<CXXDeleteExpr>(St)) {
      freedWithoutDeleter(D, D->getArgument(), "'delete'", false, Env, Found);
    } else if (const auto *C = dyn_cast<CXXConstructExpr>(St)) {
      if (const char *How = defaultFreeOf(C->getType(), C->getNumArgs()))
        freedWithoutDeleter(C, C->getArg(0), How, true, Env, Found);
    }
    return Found;
  }

private:
  int siteOf(const Expr *E, const Environment &Env) const {
    return siteOfExpr(RC, E, Env);
  }

  static bool allows(const Environment &Env, StorageLocation *L) {
    auto *B = L ? Env.get<BoolValue>(*L) : nullptr;
    return B && Env.allows(B->formula());
  }
  static bool proves(const Environment &Env, StorageLocation *L) {
    auto *B = L ? Env.get<BoolValue>(*L) : nullptr;
    return B && Env.proves(B->formula());
  }

  /// Call throws out of the function (ExceptionEdges: it may, and a body
  /// the file holds shows a throw): a tensor the function allocated or a
  /// producer handed it, still to be freed and not given to the call, is
  /// leaked when it does. A parameter's or a capsule's tensor is not: the
  /// caller, or the capsule, still owns it on that path. A call evaluated
  /// for a throw expression's operand leaves by that throw, which is an
  /// exit of its own.
  void leaksIfThrows(const CallExpr *Call, const Environment &Env,
                     llvm::SmallVectorImpl<OwnershipEvent> &Found) {
    if (!RC.ThrowPointIndex.count(Call) || insideThrowExpression(Call) ||
        endsTheProcess(Env.getCurrentFunc()) || !throwsVisibly(*Call))
      return;
    for (unsigned I = 0; I < RC.Sites.size(); ++I) {
      const Site &St = RC.Sites[I];
      if (St.From != Site::Created && St.From != Site::Produced)
        continue;
      if (llvm::any_of(Call->arguments(), [&](const Expr *Arg) {
            return siteOf(Arg, Env) == int(I);
          }))
        continue;
      if (!allows(Env, St.Owed))
        continue;
      OwnershipEvent E{OwnershipEvent::Leak,
                       St.At,
                       St.Param,
                       nullptr,
                       Call->getBeginLoc(),
                       OwnershipEvent::CallThrows};
      Found.push_back(E);
    }
  }

  bool insideThrowExpression(const CallExpr *Call) const {
    std::function<bool(const Stmt *)> Holds = [&](const Stmt *S) {
      return S && (S == Call || llvm::any_of(S->children(), Holds));
    };
    return llvm::any_of(RC.ThrowPoints, [&](const Stmt *P) {
      return isa<CXXThrowExpr>(P) && Holds(P);
    });
  }

  /// Freeing removes the struct but runs nothing of its producer: only a
  /// struct this function allocated may be freed so. A tensor a producer
  /// handed over (or a capsule held) must go through its deleter.
  void freedWithoutDeleter(const Stmt *At, const Expr *Arg, const char *How,
                           bool ByHolder, const Environment &Env,
                           llvm::SmallVectorImpl<OwnershipEvent> &Found) {
    // What is freed must be the managed struct, not a payload of another
    // type read from the same capsule.
    if (!isManagedPointer(Arg->IgnoreParenImpCasts()->getType()))
      return;
    int S = siteOf(Arg, Env);
    if (S < 0)
      return;
    const Site &St = RC.Sites[S];
    if (St.From != Site::Produced && St.From != Site::Capsule)
      return;
    // A capsule's own destructor frees what its producer (this library)
    // put there, by the producer's convention; after a deleter call on
    // this path the question is a double free, not this one; a guard let
    // go of on success frees only on the paths that fail.
    if (RC.IsDestructor || allows(Env, St.Deleted) ||
        (ByHolder && isReleasedGuard(*RC.FD, *At)))
      return;
    OwnershipEvent E{OwnershipEvent::FreedWithoutDeleter, At, nullptr, St.At};
    E.How = How;
    Found.push_back(E);
  }

  /// p.reset(t) on a smart pointer that frees without the deleter.
  void resetOf(const CallExpr *Call, const Environment &Env,
               llvm::SmallVectorImpl<OwnershipEvent> &Found) {
    const auto *MC = dyn_cast<CXXMemberCallExpr>(Call);
    const CXXMethodDecl *MD = MC ? MC->getMethodDecl() : nullptr;
    if (!MD || !MD->getIdentifier() || MD->getName() != "reset" ||
        MC->getNumArgs() != 1)
      return;
    if (const char *How = defaultFreeOf(
            MC->getImplicitObjectArgument()->getType(), /*NumArgs=*/1))
      freedWithoutDeleter(Call, MC->getArg(0), How, true, Env, Found);
  }

  void call(const CallExpr *Call, const Environment &Env, ASTContext &Ctx,
            llvm::SmallVectorImpl<OwnershipEvent> &Found) {
    if (isRawDeallocation(Call) && Call->getNumArgs() == 1)
      freedWithoutDeleter(Call, Call->getArg(0), "'free'", false, Env, Found);
    resetOf(Call, Env, Found);
    judgeRepeatedExport(*Call, Env, RC, Found);
    if (RC.Releases.isReleaseCall(Call)) {
      int S = siteOf(Call->getArg(0), Env);
      if (S >= 0) {
        Site &St = RC.Sites[S];
        if (allows(Env, St.Deleted))
          Found.push_back({OwnershipEvent::DoubleDelete, Call, nullptr,
                           St.FirstDelete != Call ? St.FirstDelete : nullptr});
        else if (allows(Env, St.Handed) && St.FirstHandOff)
          Found.push_back({OwnershipEvent::DeleteAfterHandOff, Call, nullptr,
                           St.FirstHandOff});
      }
      if (RC.IsDestructor && !unconsumedProven(S, Env))
        Found.push_back({OwnershipEvent::DestructorUncheckedDelete, Call,
                         nullptr, nullptr});
      if (S >= 0 && isForeignTensor(RC.Sites[S], RC) && isDeleterCall(Call) &&
          !provenNonNull(calledPointer(*Call), Env))
        Found.push_back(
            {OwnershipEvent::DeleterUnchecked, Call, nullptr, nullptr});
      return;
    }
    bool IsRename = false;
    if (int C = claimedCapsule(*Call, RC, Ctx, IsRename); C >= 0)
      thrownBeforeClaim(C, Call, Env, Found);
    CapsuleCall K = classifyCapsuleCall(Call);
    if (K == CapsuleCall::ErrClear && RC.IsDestructor &&
        !proves(Env, RC.Saved)) {
      Found.push_back(
          {OwnershipEvent::DestructorClearsError, Call, nullptr, nullptr});
      return;
    }
    if (RC.IsDestructor && raisesPythonError(Call) && !proves(Env, RC.Saved)) {
      Found.push_back(
          {OwnershipEvent::DestructorRaises, Call, nullptr, nullptr});
      return;
    }
    if (K == CapsuleCall::GetPointer && RC.IsDestructor &&
        readMayRaise(*Call, Env)) {
      Found.push_back(
          {OwnershipEvent::DestructorReadRaises, Call, nullptr, nullptr});
      return;
    }
    if (K != CapsuleCall::None)
      return;
    // A callee that dereferences its argument first (a callee contract) or
    // a C string function reading it: a use of the pointer here.
    const FunctionDecl *Callee = Call->getDirectCallee();
    for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
      if (Callee && dereferencesBeforeTest(*Callee, I))
        deref(Call->getArg(I), Call->getArg(I), Env, Found);
      else if (readsCString(*Call, I))
        nameRead(Call, Call->getArg(I), Env, Found);
    }
    // An import of a capsule's tensor after the capsule was renamed.
    for (const Expr *Arg : Call->arguments()) {
      int S = siteOf(Arg, Env);
      if (S < 0 || RC.Sites[S].CapsuleId < 0)
        continue;
      Capsule &C = RC.Capsules[RC.Sites[S].CapsuleId];
      if (!RC.takers().matches(Callee) && C.Rename && allows(Env, C.Renamed))
        Found.push_back(
            {OwnershipEvent::RenameBeforeImport, Call, nullptr, C.Rename});
    }
  }

  /// At the claim of capsule C: each call that can throw out of the function
  /// and ran, on a path to here, after a tensor of C escaped (its import)
  /// and before this claim. Had it thrown, the capsule would still own the
  /// tensor its importer owns too.
  void thrownBeforeClaim(int C, const CallExpr *Claim, const Environment &Env,
                         llvm::SmallVectorImpl<OwnershipEvent> &Found) {
    for (const Site &St : RC.Sites) {
      if (St.CapsuleId != C)
        continue;
      for (auto [I, Risk] : llvm::enumerate(St.ThrownBeforeClaim))
        if (allows(Env, Risk))
          Found.push_back({OwnershipEvent::ThrowBeforeClaim,
                           RC.ThrowPoints[I], nullptr, Claim});
    }
  }

  /// In a capsule destructor: is the capsule proven unconsumed here, either
  /// directly or because the tensor came out of PyCapsule_GetPointer with
  /// the unconsumed name and is proven non-NULL?
  /// PyCapsule_GetPointer(capsule, "dltensor") in a destructor, before
  /// which (Env) nothing proves the capsule unconsumed nor saves the
  /// exception in flight: on a renamed capsule it raises ValueError. Not
  /// when the destructor handles that error itself (PyErr_Clear,
  /// PyErr_WriteUnraisable; what a clear discards besides is
  /// DestructorClearsError's).
  bool readMayRaise(const CallExpr &Get, const Environment &Env) {
    auto It = RC.SiteOfStmt.find(&Get);
    if (It == RC.SiteOfStmt.end() || handlesReadError())
      return false;
    const Site &St = RC.Sites[It->second];
    if (St.From != Site::Capsule || !St.UnconsumedName || St.CapsuleId < 0 ||
        proves(Env, RC.Saved))
      return false;
    // A name read NULL is no consumer's rename (consumers rename to the
    // used_ names): only the paths where every name read is set count.
    auto *U = Env.get<BoolValue>(*RC.Capsules[St.CapsuleId].Unconsumed);
    if (!U)
      return true;
    Arena &A = Env.arena();
    const Formula *Named = &A.makeLiteral(true);
    for (const auto &Read : RC.NameResults)
      if (auto *N = dyn_cast_or_null<BoolValue>(Read.first->getProperty(kNull)))
        Named = &A.makeAnd(*Named, A.makeNot(N->formula()));
    return !Env.proves(A.makeImplies(*Named, U->formula()));
  }

  bool handlesReadError() {
    if (!HandlesError) {
      struct Finder : RecursiveASTVisitor<Finder> {
        bool Found = false;
        bool VisitCallExpr(CallExpr *CE) {
          const FunctionDecl *FD = CE->getDirectCallee();
          Found |= classifyCapsuleCall(CE) == CapsuleCall::ErrClear ||
                   (FD && FD->getIdentifier() &&
                    FD->getName() == "PyErr_WriteUnraisable");
          return !Found;
        }
      } F;
      F.TraverseStmt(const_cast<Stmt *>(RC.FD ? RC.FD->getBody() : nullptr));
      HandlesError = F.Found;
    }
    return *HandlesError;
  }

  bool unconsumedProven(int S, const Environment &Env) {
    if (S >= 0) {
      Site &St = RC.Sites[S];
      if (St.From == Site::Capsule && St.UnconsumedName)
        if (Value *V = Env.getValue(*St.Obtained))
          if (auto *N = dyn_cast_or_null<BoolValue>(V->getProperty(kNull)))
            if (Env.proves(Env.arena().makeNot(N->formula())))
              return true;
      if (St.CapsuleId >= 0 &&
          proves(Env, RC.Capsules[St.CapsuleId].Unconsumed))
        return true;
    }
    for (const Capsule &C : RC.Capsules)
      if (isa<ParmVarDecl>(C.Root) && proves(Env, C.Unconsumed))
        return true;
    return false;
  }

  /// The pointer E holds is proven non-NULL on this path (its NULL atom).
  static bool provenNonNull(const Expr *E, const Environment &Env) {
    const Expr *S = stripIdentityCasts(E);
    Value *V = S ? Env.getValue(*S) : nullptr;
    auto *N = V ? dyn_cast_or_null<BoolValue>(V->getProperty(kNull)) : nullptr;
    return N && Env.proves(Env.arena().makeNot(N->formula()));
  }

  /// Use reads the string Name points to: a name from PyCapsule_GetName
  /// must be proven non-NULL first.
  void nameRead(const Expr *Use, const Expr *Name, const Environment &Env,
                llvm::SmallVectorImpl<OwnershipEvent> &Found) {
    const Expr *S = stripIdentityCasts(Name);
    Value *V = S ? Env.getValue(*S) : nullptr;
    auto It = V ? RC.NameResults.find(V) : RC.NameResults.end();
    if (It == RC.NameResults.end() || readsOwnCapsule(RC) ||
        provenNonNull(Name, Env) || !ReportedNames.insert(It->second).second)
      return;
    Found.push_back(
        {OwnershipEvent::CapsuleNameUnchecked, Use, nullptr, It->second});
  }

  void deref(const Expr *Use, const Expr *Base, const Environment &Env,
             llvm::SmallVectorImpl<OwnershipEvent> &Found) {
    nameRead(Use, Base, Env, Found);
    int S = siteOf(Base, Env);
    if (S < 0 || RC.Sites[S].From != Site::Capsule || Reported.contains(S))
      return;
    Site &St = RC.Sites[S];
    // The pointer is known non-NULL on this path: the name matched.
    if (provenNonNull(Base, Env))
      return;
    Reported.insert(S);
    Found.push_back(
        {OwnershipEvent::CapsulePointerUnchecked, Use, nullptr, St.At});
  }

  RunContext &RC;
  /// handlesReadError(), asked once per function.
  std::optional<bool> HandlesError;
  llvm::DenseSet<int> Reported;
  llvm::DenseSet<const Stmt *> ReportedNames;
};

/// Where control leaves the function from a block that precedes the exit.
const Stmt *exitOf(const CFGBlock &B, const FunctionDecl &FD,
                   SourceLocation &Loc, OwnershipEvent::ExitKind &Kind) {
  for (auto It = B.rbegin(); It != B.rend(); ++It) {
    auto CS = It->getAs<CFGStmt>();
    if (!CS)
      continue;
    const Stmt *S = CS->getStmt();
    if (isa<ReturnStmt>(S)) {
      Loc = S->getBeginLoc();
      Kind = OwnershipEvent::Return;
      return S;
    }
    if (isa<CXXThrowExpr>(S)) {
      Loc = S->getBeginLoc();
      Kind = OwnershipEvent::Throw;
      return S;
    }
    break;
  }
  if (const Stmt *T = B.getTerminatorStmt())
    if (isa<CXXThrowExpr>(T)) {
      Loc = T->getBeginLoc();
      Kind = OwnershipEvent::Throw;
      return T;
    }
  Loc = FD.getBody() ? FD.getBody()->getEndLoc() : FD.getEndLoc();
  Kind = OwnershipEvent::FallOff;
  return nullptr;
}

/// A block that leaves the function on one edge of a condition
/// (`if (t) t->deleter(t);` leaves on the false edge) leaves with that
/// condition's outcome assumed.
void assumeExitEdge(const CFGBlock &B, Environment &Env) {
  const Stmt *Cond = B.getTerminatorCondition();
  const auto *CondE = dyn_cast_or_null<Expr>(Cond);
  if (!CondE || B.succ_size() != 2)
    return;
  const CFGBlock *Exit = &B.getParent()->getExit();
  int Index = -1;
  for (auto [I, Succ] : llvm::enumerate(B.succs()))
    if (Succ.getReachableBlock() == Exit)
      Index = static_cast<int>(I);
  if (Index < 0)
    return;
  Arena &A = Env.arena();
  const Formula *F = nullptr;
  if (auto *BV = Env.get<BoolValue>(*CondE)) {
    F = &BV->formula();
  } else if (const Expr *S = stripIdentityCasts(CondE)) {
    // A pointer condition: true when not NULL.
    if (Value *V = Env.getValue(*S))
      if (auto *N = dyn_cast_or_null<BoolValue>(V->getProperty(kNull)))
        F = &A.makeNot(N->formula());
  }
  if (F)
    Env.assume(Index == 0 ? *F : A.makeNot(*F));
}

/// Sites still owned (and not NULL, nor made of a capsule that failed) at
/// the exit.
void judgeLeaks(const RunContext &RC, Environment &Env, SourceLocation Loc,
                OwnershipEvent::ExitKind Kind, const Stmt *ExitAt,
                std::vector<OwnershipEvent> &Out) {
  for (const Site &St : RC.Sites) {
    if (St.From == Site::Unowned)
      continue;
    // Live, and something to free: not a NULL tensor, nor a NULL deleter,
    // nor a capsule that could not be created (out of memory).
    auto *Owed = Env.get<BoolValue>(*St.Owed);
    if (!Owed || !Env.allows(Owed->formula()))
      continue;
    OwnershipEvent E{OwnershipEvent::Leak, St.At, St.Param, nullptr, Loc, Kind};
    E.ExitAt = ExitAt;
    E.Certain = Env.proves(Owed->formula());
    Out.push_back(E);
  }
}

/// Capsules handed to an importer that takes ownership even on failure, and
/// not claimed on some path to the exit.
void judgeUnclaimedImports(const RunContext &RC, Environment &Env,
                           SourceLocation Loc, OwnershipEvent::ExitKind Kind,
                           std::vector<OwnershipEvent> &Out) {
  Arena &A = Env.arena();
  for (const Capsule &Cap : RC.Capsules) {
    auto *Imported = Env.get<BoolValue>(*Cap.TakingImport);
    auto *Claimed = Env.get<BoolValue>(*Cap.Claimed);
    if (!Imported || !Claimed || !Cap.TakingImportCall)
      continue;
    if (Env.allows(
            A.makeAnd(Imported->formula(), A.makeNot(Claimed->formula()))))
      Out.push_back({OwnershipEvent::NotClaimedAfterImport,
                     Cap.TakingImportCall, nullptr, nullptr, Loc, Kind});
  }
}

/// Tensors taken from an unconsumed capsule and deleted, on some path to
/// the exit, while that capsule is still unclaimed: its destructor deletes
/// them again when it dies (a consumer that rejects the tensor and calls
/// its deleter without renaming the capsule). A capsule's own destructor
/// (or a function of its shape) is the release itself.
void judgeDeletedUnclaimed(const RunContext &RC, Environment &Env,
                           SourceLocation Loc, OwnershipEvent::ExitKind Kind,
                           std::vector<OwnershipEvent> &Out) {
  if (readsOwnCapsule(RC))
    return;
  Arena &A = Env.arena();
  for (const Site &St : RC.Sites) {
    if (St.From != Site::Capsule || St.CapsuleId < 0 || !St.UnconsumedName ||
        !St.FirstDelete)
      continue;
    auto *Deleted = Env.get<BoolValue>(*St.Deleted);
    auto *Taken = St.Taken ? Env.get<BoolValue>(*St.Taken) : nullptr;
    auto *Claimed = Env.get<BoolValue>(*RC.Capsules[St.CapsuleId].Claimed);
    if (!Deleted || !Claimed)
      continue;
    const Formula &Owned = Taken
                               ? A.makeAnd(Deleted->formula(), Taken->formula())
                               : Deleted->formula();
    if (Env.allows(A.makeAnd(Owned, A.makeNot(Claimed->formula()))))
      Out.push_back({OwnershipEvent::DeletedWhileCapsuleOwns, St.FirstDelete,
                     nullptr, St.At, Loc, Kind});
  }
}

} // namespace

std::vector<OwnershipEvent> judgeStatements(RunContext &RC,
                                            const LastVisitStates &Recorded,
                                            ASTContext &Ctx) {
  std::vector<OwnershipEvent> Out;
  StatementJudge Judge(RC);
  Recorded.forEach([&](const Stmt *St, const Environment &Env) {
    for (OwnershipEvent &E : Judge.judge(St, Env, Ctx))
      Out.push_back(E);
  });
  // A destructor that deletes without knowing the capsule unconsumed is
  // told so once: the read before the delete raises for the same reason.
  auto Is = [](OwnershipEvent::Kind K) {
    return [K](const OwnershipEvent &E) { return E.K == K; };
  };
  if (llvm::any_of(Out, Is(OwnershipEvent::DestructorUncheckedDelete)))
    llvm::erase_if(Out, Is(OwnershipEvent::DestructorReadRaises));
  return Out;
}

void judgeExit(const RunContext &RC, const FunctionDecl &FD, const CFGBlock &B,
               const Environment &State, std::vector<OwnershipEvent> &Out) {
  if (!RC.Sentinel || !State.getValue(*RC.Sentinel))
    return;
  Environment Env = State.fork();
  assumeExitEdge(B, Env);
  SourceLocation Loc;
  OwnershipEvent::ExitKind Kind;
  const Stmt *ExitAt = exitOf(B, FD, Loc, Kind);
  if (!endsTheProcess(&FD))
    judgeLeaks(RC, Env, Loc, Kind, ExitAt, Out);
  judgeUnclaimedImports(RC, Env, Loc, Kind, Out);
  judgeDeletedUnclaimed(RC, Env, Loc, Kind, Out);
}

} // namespace clang::interop::ownership
