//===--- OwnershipModel.cpp - who owns a DLPack managed tensor ------------===//
//
// Table of contents: the pre-scan that finds sites and capsules, the ghost
// state, the transfer functions (one per node kind), the read-only diagnoser
// (on the state before each element), the exit judgement, the cache.
//
//===----------------------------------------------------------------------===//

#include "lib/ownership/OwnershipModel.h"

#include "lib/engine/ModelCache.h"

#include "lib/abi/CapsuleAPI.h"
#include "lib/abi/DLPackFields.h"
#include "lib/abi/DLPackTypes.h"
#include "lib/engine/GuardEngine.h"
#include "lib/support/AstHelpers.h"
#include "lib/support/NameLists.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Analysis/FlowSensitive/DataflowAnalysis.h"
#include "clang/Analysis/FlowSensitive/MatchSwitch.h"
#include "clang/Analysis/FlowSensitive/NoopLattice.h"
#include "clang/Analysis/FlowSensitive/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"

#include <memory>

namespace clang::interop {

using namespace clang::dataflow;
namespace am = clang::ast_matchers;

namespace {

constexpr llvm::StringLiteral kNull = "interop.own.null";

bool isManagedPointer(QualType T) {
  return isManagedTensor(classifyDLPackPointee(T));
}

/// The call allocates raw memory (malloc and friends).
bool isRawAllocation(const Expr *E) {
  const auto *Call =
      dyn_cast_or_null<CallExpr>(E ? E->IgnoreParenCasts() : nullptr);
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD || !FD->getIdentifier())
    return false;
  llvm::StringRef N = FD->getName();
  return N == "malloc" || N == "calloc" || N == "PyMem_Malloc" ||
         N == "PyMem_Calloc" || N == "PyMem_RawMalloc" || N == "aligned_alloc";
}

bool isRawDeallocation(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || !FD->getIdentifier())
    return false;
  llvm::StringRef N = FD->getName();
  return N == "free" || N == "PyMem_Free" || N == "PyMem_RawFree";
}

//===----------------------------------------------------------------------===//
// Sites and capsules, found before the run
//===----------------------------------------------------------------------===//

struct Site {
  // Unowned: a variable whose deleter is called but whose origin the
  // function does not see (a cast of a void *, a borrowed parameter); it is
  // tracked for double deletion only, never for leaks.
  enum Source { Created, Produced, Capsule, Parameter, Unowned } From;
  const ValueDecl *Var = nullptr; // for Unowned
  const Stmt *At = nullptr;       // the obtaining expression
  const ParmVarDecl *Param = nullptr;
  int CapsuleId = -1;
  bool UnconsumedName = false; // GetPointer with "dltensor[_versioned]"
  // Ghost locations.
  StorageLocation *Live = nullptr, *Deleted = nullptr, *Handed = nullptr,
                  *Escaped = nullptr;
  // The capsule the tensor was handed to could not be created (an
  // out-of-memory path the leak judgement leaves aside).
  StorageLocation *CapsuleFailed = nullptr;
  // The tensor pointer and its deleter tested NULL (ghosts, so that the
  // facts survive merges with paths that never obtained the tensor).
  StorageLocation *PtrNull = nullptr, *DeleterNull = nullptr;
  // Holds the pointer obtained, per environment (its null atom says whether
  // the tensor is NULL). A location, not a Value *, because the framework
  // re-runs transfers after the fixpoint and may make new values then.
  StorageLocation *Obtained = nullptr;
  const Stmt *FirstDelete = nullptr;
  const Stmt *FirstHandOff = nullptr;
};

struct Capsule {
  const ValueDecl *Root = nullptr;
  StorageLocation *Claimed = nullptr, *Renamed = nullptr, *Unconsumed = nullptr,
                  *TakingImport = nullptr;
  const Stmt *Rename = nullptr;
  const Stmt *TakingImportCall = nullptr;
};

struct RunContext {
  bool IsDestructor = false;
  /// Compiled TensorSources and OwnershipTakingImporters (once per
  /// configuration, see OwnershipCache).
  const FunctionNameList *SourcesP = nullptr, *TakersP = nullptr;
  const FunctionNameList &sources() const { return *SourcesP; }
  const FunctionNameList &takers() const { return *TakersP; }
  std::vector<Site> Sites;
  std::vector<Capsule> Capsules;
  llvm::DenseMap<const Stmt *, unsigned> SiteOfStmt;
  llvm::DenseMap<const ParmVarDecl *, unsigned> SiteOfParam;
  llvm::DenseMap<const ValueDecl *, unsigned> SiteOfVar;
  llvm::DenseMap<const ValueDecl *, unsigned> CapsuleOfRoot;
  llvm::DenseMap<const Value *, unsigned> SiteOfValue;
  llvm::DenseMap<const StorageLocation *, unsigned> SiteOfLoc;
  StorageLocation *Saved = nullptr;    // destructor: exception saved
  StorageLocation *Sentinel = nullptr; // ghosts initialised
  int DestructorCapsule = -1;
  /// Capsules created in this function (their NULL-ness matters).
  llvm::DenseSet<const Value *> CapsuleResults;
  const FunctionDecl *FD = nullptr;
};

/// The tracked site E evaluates to (through parentheses and identity casts),
/// or -1.
int siteOfExpr(const RunContext &RC, const Expr *E, const Environment &Env) {
  if (!E)
    return -1;
  for (const Expr *X : {E->IgnoreParens(), stripIdentityCasts(E)}) {
    if (!X)
      continue;
    Value *V = Env.getValue(*X);
    if (!V)
      continue;
    auto It = RC.SiteOfValue.find(V);
    if (It != RC.SiteOfValue.end())
      return It->second;
    if (auto *PV = dyn_cast<PointerValue>(V)) {
      auto L = RC.SiteOfLoc.find(&PV->getPointeeLoc());
      if (L != RC.SiteOfLoc.end())
        return L->second;
    }
  }
  return -1;
}

/// Finds sites and capsules in a body (lambdas included, for owned
/// parameters deleted inside them).
class PreScan : public RecursiveASTVisitor<PreScan> {
public:
  PreScan(RunContext &RC, ASTContext &Ctx) : RC(RC), Ctx(Ctx) {}
  bool shouldVisitLambdaBody() const { return true; }

  bool VisitCallExpr(CallExpr *Call) {
    CapsuleCall K = classifyCapsuleCall(Call);
    if (K != CapsuleCall::None && K != CapsuleCall::ErrFetch &&
        K != CapsuleCall::ErrRestore && K != CapsuleCall::ErrClear &&
        K != CapsuleCall::New && Call->getNumArgs() >= 1)
      capsuleOf(Call->getArg(0));
    if (K == CapsuleCall::GetPointer && Call->getNumArgs() == 2 && !InLambda) {
      Site S;
      S.From = Site::Capsule;
      S.At = Call;
      S.CapsuleId = capsuleOf(Call->getArg(0));
      S.UnconsumedName =
          isUnconsumedName(classifyCapsuleName(Call->getArg(1), Ctx));
      add(S);
      return true;
    }
    const Expr *Base = nullptr;
    if (isDeleterCall(Call, &Base)) {
      if (const ValueDecl *V = referencedDecl(Call->getArg(0)))
        if (isManagedPointer(V->getType()) && !InLambda)
          DeletedVars.insert(V);
      // A parameter whose deleter the function calls is owned by it.
      if (const auto *P = dyn_cast_or_null<ParmVarDecl>(referencedDecl(Base)))
        if (P->getDeclContext() == RC.FD && isManagedPointer(P->getType()))
          DeletedParams.insert(P);
      if (const auto *P =
              dyn_cast_or_null<ParmVarDecl>(referencedDecl(Call->getArg(0))))
        if (P->getDeclContext() == RC.FD && isManagedPointer(P->getType()))
          DeletedParams.insert(P);
      return true;
    }
    if (RC.takers().matches(Call->getDirectCallee()))
      for (const Expr *Arg : Call->arguments())
        if (const auto *P = dyn_cast_or_null<ParmVarDecl>(referencedDecl(Arg)))
          KeptParams.insert(P);
    // guard.release(); with the result dropped disarms a guard whose
    // tensor was already handed on: nothing is obtained.
    if (!InLambda && isManagedPointer(Call->getType()) &&
        !Discarded.contains(Call) &&
        RC.sources().matches(Call->getDirectCallee())) {
      add(Site::Produced, Call);
    }
    return true;
  }

  bool VisitCompoundStmt(CompoundStmt *CS) {
    for (Stmt *S : CS->body()) {
      const auto *E = dyn_cast<Expr>(S);
      if (!E)
        continue;
      E = E->IgnoreImplicit();
      if (const auto *Cast = dyn_cast<CStyleCastExpr>(E))
        if (Cast->getType()->isVoidType())
          E = Cast->getSubExpr()->IgnoreImplicit();
      if (const auto *Call = dyn_cast<CallExpr>(E))
        Discarded.insert(Call);
    }
    return true;
  }

  bool VisitCXXNewExpr(CXXNewExpr *New) {
    if (!InLambda && isManagedPointer(New->getType())) {
      add(Site::Created, New);
    }
    return true;
  }

  bool VisitExplicitCastExpr(ExplicitCastExpr *Cast) {
    if (!InLambda && isManagedPointer(Cast->getType()) &&
        isRawAllocation(Cast->getSubExpr())) {
      add(Site::Created, Cast);
    }
    return true;
  }

  bool TraverseLambdaExpr(LambdaExpr *L) {
    bool Saved = InLambda;
    InLambda = true;
    bool R = RecursiveASTVisitor::TraverseLambdaExpr(L);
    InLambda = Saved;
    return R;
  }

  int capsuleOf(const Expr *E) {
    const ValueDecl *Root = capsuleRoot(E);
    if (!Root)
      return -1;
    auto [It, New] = RC.CapsuleOfRoot.try_emplace(Root, RC.Capsules.size());
    if (New) {
      Capsule C;
      C.Root = Root;
      RC.Capsules.push_back(C);
    }
    return It->second;
  }

  void add(Site S) {
    RC.SiteOfStmt.try_emplace(S.At, RC.Sites.size());
    RC.Sites.push_back(S);
  }
  void add(Site::Source From, const Stmt *At) {
    Site S;
    S.From = From;
    S.At = At;
    add(S);
  }

  bool VisitLambdaExpr(LambdaExpr *L) {
    for (const LambdaCapture &C : L->captures())
      if (C.capturesVariable())
        if (const auto *P = dyn_cast<ParmVarDecl>(C.getCapturedVar()))
          KeptParams.insert(P);
    return true;
  }
  bool VisitReturnStmt(ReturnStmt *R) {
    if (const auto *P =
            dyn_cast_or_null<ParmVarDecl>(referencedDecl(R->getRetValue())))
      KeptParams.insert(P);
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    for (const Expr *Arg : E->arguments())
      if (const auto *P = dyn_cast_or_null<ParmVarDecl>(referencedDecl(Arg)))
        KeptParams.insert(P);
    return true;
  }
  bool VisitInitListExpr(InitListExpr *E) {
    for (const Expr *Init : E->inits())
      if (const auto *P = dyn_cast_or_null<ParmVarDecl>(referencedDecl(Init)))
        KeptParams.insert(P);
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->getOpcode() == BO_Assign)
      if (const auto *P =
              dyn_cast_or_null<ParmVarDecl>(referencedDecl(BO->getRHS())))
        if (!isa<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
          KeptParams.insert(P);
    return true;
  }

  /// Variables whose deleter the function calls (outside lambdas).
  llvm::SmallPtrSet<const ValueDecl *, 4> DeletedVars;
  /// Calls whose result is dropped (expression statements).
  llvm::SmallPtrSet<const CallExpr *, 8> Discarded;
  /// Parameters whose deleter the function calls.
  llvm::SmallPtrSet<const ParmVarDecl *, 2> DeletedParams;
  /// Parameters the function hands on for good somewhere (captured,
  /// returned, stored, wrapped, given to an ownership-taking importer).
  llvm::SmallPtrSet<const ParmVarDecl *, 2> KeptParams;

private:
  RunContext &RC;
  ASTContext &Ctx;
  bool InLambda = false;
};

//===----------------------------------------------------------------------===//
// Releases that end the function
//===----------------------------------------------------------------------===//

/// Whether every release in a body (a deleter call, free(), delete) is an
/// expression statement after which the function ends: the next statement
/// returns (or throws, or calls a noreturn function, in a function with no
/// try block to catch it), or the release is the last thing the body does,
/// through the arms of ifs. Then no path releases anything after a release,
/// so no path can delete twice or delete after a hand-off that follows a
/// delete.
class ReleaseScan : public GuardScan {
public:
  /// False once a release may be followed by more of the function.
  bool OnlyAtExit = true;
  /// Some release relies on a throw or noreturn call to end the function.
  bool EndsByThrow = false;
  bool HasTry = false;
  const Stmt *Body = nullptr;

private:
  void inspect(const Stmt *S) override {
    if (isa<CXXTryStmt>(S))
      HasTry = true;
    const auto *Call = dyn_cast<CallExpr>(S);
    bool Release = isa<CXXDeleteExpr>(S) ||
                   (Call && (isDeleterCall(Call) || isRawDeallocation(Call)));
    if (Release && OnlyAtExit && !endsFunction(S))
      OnlyAtExit = false;
  }
  bool capturedByRef(const VarDecl &) override { return true; }

  /// Whether the function ends right after the release S (Stack: what
  /// encloses it).
  bool endsFunction(const Stmt *S) {
    size_t I = Stack.size();
    // The release is the whole statement: only parentheses, cleanups,
    // implicit casts and a cast to void around it.
    while (I > 0 &&
           isa<ParenExpr, ExprWithCleanups, ImplicitCastExpr>(Stack[I - 1]))
      S = Stack[--I];
    if (I > 0)
      if (const auto *Cast = dyn_cast<CStyleCastExpr>(Stack[I - 1]);
          Cast && Cast->getType()->isVoidType())
        S = Stack[--I];
    for (; I > 0; S = Stack[--I]) {
      const Stmt *Parent = Stack[I - 1];
      if (const auto *If = dyn_cast<IfStmt>(Parent)) {
        if (S != If->getThen() && S != If->getElse())
          return false;
        continue;
      }
      const auto *CS = dyn_cast<CompoundStmt>(Parent);
      if (!CS)
        return false;
      const Stmt *const *It = llvm::find(CS->body(), S);
      if (It == CS->body_end())
        return false;
      if (++It == CS->body_end())
        continue; // the last statement of this block
      if (isa<ReturnStmt>(*It))
        return true;
      if (const auto *E = dyn_cast<Expr>(*It);
          E && isJump(ignoreTemporaries(E))) {
        EndsByThrow = true;
        return true;
      }
      return false;
    }
    // Past the outermost block: the function falls off its end.
    return S == Body;
  }
};

/// True when no path of FD can release a tensor after releasing one.
bool releasesOnlyAtExit(const FunctionDecl &FD) {
  ReleaseScan Scan;
  Scan.Body = FD.getBody();
  Scan.walk(FD.getBody());
  return !Scan.Refused && Scan.OnlyAtExit && !(Scan.EndsByThrow && Scan.HasTry);
}

//===----------------------------------------------------------------------===//
// The analysis
//===----------------------------------------------------------------------===//

using State = TransferState<NoopLattice>;

/// The statements OwnershipDiagnoser::judge() looks at: calls (deleters,
/// capsule calls, importers) and dereferences of a tracked pointer.
bool isJudged(const Stmt *St) {
  if (isa<CallExpr>(St))
    return true;
  if (const auto *ME = dyn_cast<MemberExpr>(St))
    return ME->isArrow();
  if (const auto *UO = dyn_cast<UnaryOperator>(St))
    return UO->getOpcode() == UO_Deref;
  return false;
}

class OwnershipAnalysis
    : public DataflowAnalysis<OwnershipAnalysis, NoopLattice> {
public:
  OwnershipAnalysis(ASTContext &Ctx, Environment &Env, RunContext &RC)
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
      S.Obtained = &Env.createStorageLocation(Ctx.VoidPtrTy);
    }
    for (Capsule &C : RC.Capsules) {
      C.Claimed = Ghost();
      C.Renamed = Ghost();
      C.Unconsumed = Ghost();
      C.TakingImport = Ghost();
    }
    RC.Saved = Ghost();
    RC.Sentinel = Ghost();
  }

  static NoopLattice initialElement() { return {}; }

  void transfer(const CFGElement &Elt, NoopLattice &L, Environment &Env) {
    if (std::optional<CFGStmt> CS = Elt.getAs<CFGStmt>())
      record(CS->getStmt(), Env);
    initialiseGhosts(Env);
    // Deleter and capsule calls, producers and hand-offs through calls;
    // new/delete; casts (malloc results, null tests); returns; assignments
    // into holders and null comparisons; lambda captures; declarations of
    // tracked variables; RAII guards (std::unique_ptr<DLManagedTensor, D>).
    if (std::optional<CFGStmt> CS = Elt.getAs<CFGStmt>()) {
      State S(L, Env);
      dispatchOnNode<CallExpr, CXXNewExpr, CXXDeleteExpr, CastExpr, ReturnStmt,
                     BinaryOperator, LambdaExpr, DeclStmt, CXXConstructExpr>(
          CS->getStmt(), [&](const auto *E) { transferNode(E, S); });
    }
  }

  /// The state before each statement the diagnoser judges, as of its last
  /// visit (see getOwnershipFacts).
  LastVisitStates Recorded;

  /// C-style conditions on pointers (`if (p)`) in C++ go through a bool
  /// conversion; this covers the rest.
  void transferBranch(bool Branch, const Stmt *Cond, NoopLattice &,
                      Environment &Env) {
    const auto *E = dyn_cast_or_null<Expr>(Cond);
    if (!E || !E->getType()->isPointerType())
      return;
    if (BoolValue *N = nullAtom(E, Env))
      Env.assume(Branch ? Env.arena().makeNot(N->formula()) : N->formula());
  }

private:
  void record(const Stmt *St, const Environment &Env) {
    // Before the ghosts exist there is nothing to judge (the diagnoser
    // would skip the state too).
    if (isJudged(St))
      Recorded.record(St, Env, Env.getValue(*RC.Sentinel) != nullptr);
  }
  void initialiseGhosts(Environment &Env);
  void setGhost(Environment &Env, StorageLocation *L, bool V) {
    Env.setValue(*L, Env.getBoolLiteralValue(V));
  }
  void setGhost(Environment &Env, StorageLocation *L, BoolValue &V) {
    Env.setValue(*L, V);
  }

  int siteOf(const Expr *E, const Environment &Env) const;
  int adoptUnowned(const Expr *E, Environment &Env);
  void resetVar(const ValueDecl *V, Environment &Env);
  void transferNode(const DeclStmt *E, State &S);
  void mapValue(Value *V, unsigned Site);
  /// E produces a tracked tensor (a producer's call, new, a cast of an
  /// allocation): its site is live again and holds E's value. False when E
  /// is not a site.
  bool obtainedAt(const Expr *E, Environment &Env);
  BoolValue *nullAtom(const Expr *E, Environment &Env);
  void handOff(unsigned S, const Stmt *Where, Environment &Env,
               const FunctionDecl *Callee, bool Strong = true);
  void deleted(unsigned S, const Stmt *Where, Environment &Env);
  void claim(int C, const Stmt *Where, bool IsRename, Environment &Env);

  BoolValue *namesDiffer(const Expr *StrcmpCall, Environment &Env);
  BoolValue *namePointerEquals(const Expr *L, const Expr *R, Environment &Env);
  int capsuleOfName(const Expr *E) const;
  BoolValue *comparedCapsule(const Expr *L, const Expr *R, Environment &Env,
                             CapsuleName &N);
  void transferNode(const CallExpr *E, State &S);
  void transferNode(const CXXNewExpr *E, State &S);
  void transferNode(const CXXDeleteExpr *E, State &S);
  void transferNode(const CastExpr *E, State &S);
  void transferNode(const ReturnStmt *E, State &S);
  void transferNode(const BinaryOperator *E, State &S);
  void transferNode(const LambdaExpr *E, State &S);
  void transferNode(const CXXConstructExpr *E, State &S);

  RunContext &RC;
};

void OwnershipAnalysis::initialiseGhosts(Environment &Env) {
  if (Env.getValue(*RC.Sentinel))
    return;
  setGhost(Env, RC.Sentinel, true);
  for (Site &S : RC.Sites) {
    setGhost(Env, S.Live, S.From == Site::Parameter);
    setGhost(Env, S.Deleted, false);
    setGhost(Env, S.Handed, false);
    setGhost(Env, S.Escaped, false);
    setGhost(Env, S.CapsuleFailed, false);
    setGhost(Env, S.PtrNull, false);
    setGhost(Env, S.DeleterNull, false);
    if (S.From == Site::Parameter)
      if (Value *V = Env.getValue(*S.Param)) {
        Env.setValue(*S.Obtained, *V);
        mapValue(V, &S - RC.Sites.data());
      }
  }
  for (Capsule &C : RC.Capsules) {
    setGhost(Env, C.Claimed, false);
    setGhost(Env, C.Renamed, false);
    setGhost(Env, C.TakingImport, false);
    // Whether a capsule is unconsumed is unknown on entry.
    setGhost(Env, C.Unconsumed, Env.makeAtomicBoolValue());
  }
  setGhost(Env, RC.Saved, false);
}

void OwnershipAnalysis::mapValue(Value *V, unsigned S) {
  if (!V)
    return;
  RC.SiteOfValue[V] = S;
  if (auto *PV = dyn_cast<PointerValue>(V))
    RC.SiteOfLoc[&PV->getPointeeLoc()] = S;
}

void OwnershipAnalysis::resetVar(const ValueDecl *V, Environment &Env) {
  auto It = RC.SiteOfVar.find(V);
  if (It == RC.SiteOfVar.end())
    return;
  Site &S = RC.Sites[It->second];
  setGhost(Env, S.Deleted, false);
  setGhost(Env, S.Handed, false);
}

void OwnershipAnalysis::transferNode(const DeclStmt *E, State &St) {
  for (const Decl *D : E->decls())
    if (const auto *VD = dyn_cast<VarDecl>(D))
      resetVar(VD, St.Env);
}

/// The first deleter call on a variable the function did not obtain the
/// tensor into: from here on its value is tracked (for double deletion).
int OwnershipAnalysis::adoptUnowned(const Expr *E, Environment &Env) {
  auto It = RC.SiteOfVar.find(referencedDecl(E));
  if (It == RC.SiteOfVar.end())
    return -1;
  const Expr *S = stripIdentityCasts(E);
  Value *V = S ? Env.getValue(*S) : nullptr;
  if (!V)
    return -1;
  mapValue(V, It->second);
  return It->second;
}

int OwnershipAnalysis::siteOf(const Expr *E, const Environment &Env) const {
  return siteOfExpr(RC, E, Env);
}

BoolValue *OwnershipAnalysis::nullAtom(const Expr *E, Environment &Env) {
  const Expr *S = stripIdentityCasts(E);
  Value *V = S ? Env.getValue(*S) : nullptr;
  if (!V || !isa<PointerValue>(V))
    return nullptr;
  // Only pointers the model cares about: tensors, their deleters, capsule
  // pointers.
  bool Relevant = siteOf(E, Env) >= 0 || RC.CapsuleResults.contains(V) ||
                  dlpackFieldOfMember(S) == DLPackField::Deleter;
  if (!Relevant)
    return nullptr;
  auto *B = dyn_cast_or_null<BoolValue>(V->getProperty(kNull));
  if (!B) {
    B = &Env.makeAtomicBoolValue();
    V->setProperty(kNull, *B);
  }
  // Keep the test on the site's ghosts too.
  if (dlpackFieldOfMember(S) == DLPackField::Deleter) {
    int Site = siteOf(cast<MemberExpr>(S)->getBase(), Env);
    if (Site >= 0)
      setGhost(Env, RC.Sites[Site].DeleterNull, *B);
  } else if (int Site = siteOf(E, Env); Site >= 0) {
    setGhost(Env, RC.Sites[Site].PtrNull, *B);
  }
  return B;
}

void OwnershipAnalysis::handOff(unsigned S, const Stmt *Where, Environment &Env,
                                const FunctionDecl *Callee, bool Strong) {
  Site &St = RC.Sites[S];
  // Any escape ends this function's duty to delete (precision: the callee
  // may take ownership). Only a certain transfer (returned, stored, wrapped,
  // an importer that always takes it) makes a later deleter call wrong.
  setGhost(Env, St.Live, false);
  setGhost(Env, St.Escaped, true);
  if (Strong || (Callee && RC.takers().matches(Callee))) {
    setGhost(Env, St.Handed, true);
    if (!St.FirstHandOff)
      St.FirstHandOff = Where;
  }
  if (St.CapsuleId >= 0 && Callee && RC.takers().matches(Callee)) {
    Capsule &C = RC.Capsules[St.CapsuleId];
    setGhost(Env, C.TakingImport, true);
    if (!C.TakingImportCall)
      C.TakingImportCall = Where;
  }
}

void OwnershipAnalysis::deleted(unsigned S, const Stmt *Where,
                                Environment &Env) {
  Site &St = RC.Sites[S];
  setGhost(Env, St.Live, false);
  setGhost(Env, St.Deleted, true);
  if (!St.FirstDelete)
    St.FirstDelete = Where;
}

void OwnershipAnalysis::claim(int C, const Stmt *Where, bool IsRename,
                              Environment &Env) {
  if (C < 0)
    return;
  Capsule &Cap = RC.Capsules[C];
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
  for (Site &S : RC.Sites) {
    if (S.CapsuleId != C)
      continue;
    auto *Escaped = Env.get<BoolValue>(*S.Escaped);
    auto *Deleted = Env.get<BoolValue>(*S.Deleted);
    if (!Escaped || !Deleted)
      continue;
    const Formula *Live = &A.makeAnd(A.makeNot(Escaped->formula()),
                                     A.makeNot(Deleted->formula()));
    if (Value *V = Env.getValue(*S.Obtained))
      if (auto *N = dyn_cast_or_null<BoolValue>(V->getProperty(kNull)))
        Live = &A.makeAnd(*Live, A.makeNot(N->formula()));
    setGhost(Env, S.Live, A.makeBoolValue(*Live));
  }
}

void OwnershipAnalysis::transferNode(const CallExpr *E, State &St) {
  Environment &Env = St.Env;
  ASTContext &Ctx = getASTContext();

  // Deleter calls and raw deallocation.
  if (isDeleterCall(E) || (isRawDeallocation(E) && E->getNumArgs() == 1)) {
    int S = siteOf(E->getArg(0), Env);
    if (S < 0)
      S = adoptUnowned(E->getArg(0), Env);
    if (S >= 0)
      deleted(S, E, Env);
    return;
  }

  switch (classifyCapsuleCall(E)) {
  case CapsuleCall::GetPointer: {
    auto It = RC.SiteOfStmt.find(E);
    if (It == RC.SiteOfStmt.end())
      return;
    Site &S = RC.Sites[It->second];
    Value *V = Env.getValue(*E);
    if (!V) {
      V = Env.createValue(E->getType());
      if (!V)
        return;
      Env.setValue(*E, *V);
    }
    Env.setValue(*S.Obtained, *V);
    mapValue(V, It->second);
    auto *NP = dyn_cast_or_null<BoolValue>(V->getProperty(kNull));
    if (!NP) {
      NP = &Env.makeAtomicBoolValue();
      V->setProperty(kNull, *NP);
    }
    BoolValue &N = *NP;
    setGhost(Env, S.PtrNull, N);
    Arena &A = Env.arena();
    // With the unconsumed name, the pointer is non-NULL exactly when the
    // capsule is unconsumed.
    if (S.UnconsumedName && S.CapsuleId >= 0)
      if (auto *U = Env.get<BoolValue>(*RC.Capsules[S.CapsuleId].Unconsumed))
        Env.assume(A.makeEquals(A.makeNot(N.formula()), U->formula()));
    setGhost(Env, S.Deleted, false);
    setGhost(Env, S.Handed, false);
    setGhost(Env, S.Escaped, false);
    // A destructor owns the tensor of an unconsumed capsule; a consumer owns
    // it only once it claims the capsule.
    if (RC.IsDestructor && S.UnconsumedName)
      setGhost(Env, S.Live, Env.makeNot(N));
    else
      setGhost(Env, S.Live, false);
    return;
  }
  case CapsuleCall::SetName:
    if (E->getNumArgs() == 2 &&
        isUsedName(classifyCapsuleName(E->getArg(1), Ctx))) {
      auto It = RC.CapsuleOfRoot.find(capsuleRoot(E->getArg(0)));
      if (It != RC.CapsuleOfRoot.end())
        claim(It->second, E, /*IsRename=*/true, Env);
    }
    return;
  case CapsuleCall::SetDestructor:
    if (E->getNumArgs() == 2 &&
        classifyCapsuleName(E->getArg(1), Ctx) == CapsuleName::Null) {
      auto It = RC.CapsuleOfRoot.find(capsuleRoot(E->getArg(0)));
      if (It != RC.CapsuleOfRoot.end())
        claim(It->second, E, /*IsRename=*/false, Env);
    }
    return;
  case CapsuleCall::IsValid: {
    if (E->getNumArgs() != 2)
      return;
    auto It = RC.CapsuleOfRoot.find(capsuleRoot(E->getArg(0)));
    if (It == RC.CapsuleOfRoot.end())
      return;
    auto *U = Env.get<BoolValue>(*RC.Capsules[It->second].Unconsumed);
    if (!U)
      return;
    CapsuleName N = classifyCapsuleName(E->getArg(1), Ctx);
    if (isUnconsumedName(N))
      Env.setValue(*E, *U);
    else if (isUsedName(N))
      Env.setValue(*E, Env.makeNot(*U));
    return;
  }
  case CapsuleCall::ErrFetch:
    setGhost(Env, RC.Saved, true);
    return;
  case CapsuleCall::ErrRestore:
    setGhost(Env, RC.Saved, false);
    return;
  case CapsuleCall::GetName:
  case CapsuleCall::ErrClear:
    return;
  case CapsuleCall::New: {
    // The capsule takes the tensor only when it was created: on failure
    // (NULL) the caller still owns it.
    if (E->getNumArgs() < 1)
      return;
    int S = siteOf(E->getArg(0), Env);
    if (S < 0)
      return;
    Value *Cap = Env.getValue(*E);
    if (!Cap) {
      Cap = Env.createValue(E->getType());
      if (!Cap)
        return;
      Env.setValue(*E, *Cap);
    }
    RC.CapsuleResults.insert(Cap);
    auto *N = dyn_cast_or_null<BoolValue>(Cap->getProperty(kNull));
    if (!N) {
      N = &Env.makeAtomicBoolValue();
      Cap->setProperty(kNull, *N);
    }
    Site &St = RC.Sites[S];
    auto *Live = Env.get<BoolValue>(*St.Live);
    auto *Handed = Env.get<BoolValue>(*St.Handed);
    if (!Live || !Handed)
      return;
    Arena &A = Env.arena();
    setGhost(Env, St.Live,
             A.makeBoolValue(A.makeAnd(Live->formula(), N->formula())));
    setGhost(
        Env, St.Handed,
        A.makeBoolValue(A.makeOr(Handed->formula(), A.makeNot(N->formula()))));
    setGhost(Env, St.CapsuleFailed, *N);
    if (auto *Esc = Env.get<BoolValue>(*St.Escaped))
      setGhost(
          Env, St.Escaped,
          A.makeBoolValue(A.makeOr(Esc->formula(), A.makeNot(N->formula()))));
    if (!St.FirstHandOff)
      St.FirstHandOff = E;
    return;
  }
  case CapsuleCall::None:
    break;
  }

  // A producer: the caller owns what it returns.
  obtainedAt(E, Env);

  // strcmp(PyCapsule_GetName(c), "dltensor") == 0 is handled where the
  // result is compared; here only hand-offs remain.
  const FunctionDecl *Callee = E->getDirectCallee();
  for (unsigned I = 0; I < E->getNumArgs(); ++I) {
    const Expr *Arg = E->getArg(I);
    int S = siteOf(Arg, Env);
    // consume(&mt): the callee may take the pointer out of the variable.
    if (S < 0)
      if (const auto *UO = dyn_cast<UnaryOperator>(Arg->IgnoreParenImpCasts()))
        if (UO->getOpcode() == UO_AddrOf)
          S = siteOf(UO->getSubExpr(), Env);
    if (S >= 0)
      handOff(S, E, Env, Callee, /*Strong=*/false);
  }
}

/// The capsule whose name E is: PyCapsule_GetName(c), or a local variable
/// initialised with it.
int OwnershipAnalysis::capsuleOfName(const Expr *E) const {
  for (int Depth = 0; E && Depth < 4; ++Depth) {
    E = E->IgnoreParenImpCasts();
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      if (classifyCapsuleCall(Call) != CapsuleCall::GetName ||
          Call->getNumArgs() != 1)
        return -1;
      auto It = RC.CapsuleOfRoot.find(capsuleRoot(Call->getArg(0)));
      return It == RC.CapsuleOfRoot.end() ? -1 : int(It->second);
    }
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!VD || !VD->hasLocalStorage() || !VD->getInit())
      return -1;
    E = VD->getInit();
  }
  return -1;
}

/// For a comparison of a capsule's name with a name (either side first):
/// the capsule's "unconsumed" ghost, and in N what the other side names;
/// null when neither side is a tracked capsule's name.
BoolValue *OwnershipAnalysis::comparedCapsule(const Expr *L, const Expr *R,
                                              Environment &Env,
                                              CapsuleName &N) {
  int C = capsuleOfName(L);
  if (C < 0) {
    std::swap(L, R);
    C = capsuleOfName(L);
  }
  if (C < 0)
    return nullptr;
  auto *U = Env.get<BoolValue>(*RC.Capsules[C].Unconsumed);
  if (U)
    N = classifyCapsuleName(R, getASTContext());
  return U;
}

/// strcmp(name-of(c), "dltensor") as "the names differ": not unconsumed
/// (for an unconsumed name) or unconsumed (for a used_ name).
BoolValue *OwnershipAnalysis::namesDiffer(const Expr *E, Environment &Env) {
  const auto *Call = dyn_cast<CallExpr>(E->IgnoreParenImpCasts());
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD || !FD->getIdentifier() ||
      (FD->getName() != "strcmp" && FD->getName() != "__builtin_strcmp") ||
      Call->getNumArgs() != 2)
    return nullptr;
  CapsuleName N;
  BoolValue *U = comparedCapsule(Call->getArg(0), Call->getArg(1), Env, N);
  if (!U)
    return nullptr;
  if (isUnconsumedName(N))
    return &Env.makeNot(*U);
  if (isUsedName(N))
    return U;
  return nullptr;
}

/// name-of(c) == "dltensor" compared as pointers: equal pointers mean equal
/// names (the converse does not hold, so the result is an atom that only
/// implies the name).
BoolValue *OwnershipAnalysis::namePointerEquals(const Expr *L, const Expr *R,
                                                Environment &Env) {
  CapsuleName N;
  BoolValue *U = comparedCapsule(L, R, Env, N);
  if (!U || (!isUnconsumedName(N) && !isUsedName(N)))
    return nullptr;
  BoolValue &Eq = Env.makeAtomicBoolValue();
  Arena &A = Env.arena();
  Env.assume(A.makeImplies(Eq.formula(), isUnconsumedName(N)
                                             ? U->formula()
                                             : A.makeNot(U->formula())));
  return &Eq;
}

void OwnershipAnalysis::transferNode(const CXXNewExpr *E, State &St) {
  obtainedAt(E, St.Env);
}

bool OwnershipAnalysis::obtainedAt(const Expr *E, Environment &Env) {
  auto It = RC.SiteOfStmt.find(E);
  if (It == RC.SiteOfStmt.end())
    return false;
  Site &S = RC.Sites[It->second];
  Value *V = Env.getValue(*E);
  if (!V && E->isPRValue()) {
    V = Env.createValue(E->getType());
    if (V)
      Env.setValue(*E, *V);
  }
  if (V)
    Env.setValue(*S.Obtained, *V);
  mapValue(V, It->second);
  setGhost(Env, S.Live, true);
  setGhost(Env, S.Deleted, false);
  setGhost(Env, S.Handed, false);
  setGhost(Env, S.Escaped, false);
  return true;
}

void OwnershipAnalysis::transferNode(const CXXDeleteExpr *E, State &St) {
  int S = siteOf(E->getArgument(), St.Env);
  if (S >= 0)
    deleted(S, E, St.Env);
}

void OwnershipAnalysis::transferNode(const CastExpr *E, State &St) {
  Environment &Env = St.Env;
  switch (E->getCastKind()) {
  case CK_PointerToBoolean:
    if (BoolValue *N = nullAtom(E->getSubExpr(), Env))
      Env.setValue(*E, Env.makeNot(*N));
    return;
  case CK_IntegralToBoolean:
    // if (strcmp(PyCapsule_GetName(c), "dltensor")): the names differ.
    if (BoolValue *Differ = namesDiffer(E->getSubExpr(), Env))
      Env.setValue(*E, *Differ);
    return;
  case CK_LValueToRValue:
    return;
  default:
    break;
  }
  if (!E->getType()->isPointerType())
    return;
  // (DLManagedTensor *)malloc(sizeof(DLManagedTensor))
  if (obtainedAt(E, Env))
    return;
  // Casts keep the site: static_cast<DLManagedTensor *>(PyCapsule_GetPointer
  // (...)) names the same tensor.
  int S = siteOf(E->getSubExpr(), Env);
  if (S < 0 || !E->isPRValue())
    return;
  Value *V = Env.getValue(*E);
  if (!V) {
    V = Env.createValue(E->getType());
    if (!V)
      return;
    Env.setValue(*E, *V);
  }
  mapValue(V, S);
  // The null atom belongs to the pointer, whatever its static type.
  Value *From = Env.getValue(*stripIdentityCasts(E->getSubExpr()));
  if (From && From != V)
    if (Value *N = From->getProperty(kNull))
      V->setProperty(kNull, *N);
}

void OwnershipAnalysis::transferNode(const ReturnStmt *E, State &St) {
  if (!E->getRetValue())
    return;
  int S = siteOf(E->getRetValue(), St.Env);
  if (S >= 0)
    handOff(S, E, St.Env, nullptr);
}

void OwnershipAnalysis::transferNode(const BinaryOperator *E, State &St) {
  Environment &Env = St.Env;
  if (E->getOpcode() == BO_EQ || E->getOpcode() == BO_NE) {
    const Expr *P = E->getLHS(), *Other = E->getRHS();
    ASTContext &Ctx = getASTContext();
    if (isNullConstant(P, Ctx))
      std::swap(P, Other);
    if (P->getType()->isPointerType() && isNullConstant(Other, Ctx)) {
      if (BoolValue *N = nullAtom(P, Env))
        Env.setValue(*E, E->getOpcode() == BO_EQ ? *N : Env.makeNot(*N));
      return;
    }
    // strcmp(PyCapsule_GetName(c), "dltensor") == 0
    for (auto [Cmp, Zero] : {std::pair(E->getLHS(), E->getRHS()),
                             std::pair(E->getRHS(), E->getLHS())}) {
      std::optional<llvm::APSInt> Z = integerConstant(Zero, Ctx);
      if (!Z || !Z->isZero())
        continue;
      if (BoolValue *Differ = namesDiffer(Cmp, Env)) {
        Env.setValue(*E,
                     E->getOpcode() == BO_NE ? *Differ : Env.makeNot(*Differ));
        return;
      }
    }
    // name == kDLTensorName, comparing the pointers.
    if (BoolValue *Eq = namePointerEquals(E->getLHS(), E->getRHS(), Env))
      Env.setValue(*E, E->getOpcode() == BO_EQ ? *Eq : Env.makeNot(*Eq));
    return;
  }
  if (E->getOpcode() != BO_Assign)
    return;
  // A tracked variable given a new value holds a new tensor.
  if (const auto *DRE =
          dyn_cast<DeclRefExpr>(E->getLHS()->IgnoreParenImpCasts()))
    resetVar(DRE->getDecl(), Env);
  int S = siteOf(E->getRHS(), Env);
  if (S < 0)
    return;
  // Copying into a local pointer keeps the site; storing anywhere else
  // (a field, a global, through a pointer) hands it on.
  if (const auto *DRE =
          dyn_cast<DeclRefExpr>(E->getLHS()->IgnoreParenImpCasts()))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (VD->hasLocalStorage() && !VD->getType()->isReferenceType())
        return;
  handOff(S, E, Env, nullptr);
}

void OwnershipAnalysis::transferNode(const LambdaExpr *E, State &St) {
  Environment &Env = St.Env;
  for (const LambdaCapture &C : E->captures()) {
    if (!C.capturesVariable())
      continue;
    const auto *VD = dyn_cast<VarDecl>(C.getCapturedVar());
    if (!VD)
      continue;
    Value *V = Env.getValue(*VD);
    if (!V)
      continue;
    auto It = RC.SiteOfValue.find(V);
    int S = It == RC.SiteOfValue.end() ? -1 : int(It->second);
    if (S < 0)
      if (auto *PV = dyn_cast<PointerValue>(V)) {
        auto L = RC.SiteOfLoc.find(&PV->getPointeeLoc());
        if (L != RC.SiteOfLoc.end())
          S = L->second;
      }
    if (S >= 0)
      handOff(S, E, Env, nullptr);
  }
}

void OwnershipAnalysis::transferNode(const CXXConstructExpr *E, State &St) {
  for (const Expr *Arg : E->arguments()) {
    int S = siteOf(Arg, St.Env);
    if (S >= 0)
      handOff(S, E, St.Env, E->getConstructor());
  }
}

//===----------------------------------------------------------------------===//
// The diagnoser: the state before each element
//===----------------------------------------------------------------------===//

class OwnershipDiagnoser {
public:
  explicit OwnershipDiagnoser(RunContext &RC) : RC(RC) {}

  /// The events at St in the state just before it.
  llvm::SmallVector<OwnershipEvent>
  judge(const Stmt *St, const Environment &Env, ASTContext &Ctx) {
    llvm::SmallVector<OwnershipEvent> Found;
    if (!Env.getValue(*RC.Sentinel))
      return Found;
    if (const auto *Call = dyn_cast<CallExpr>(St)) {
      call(Call, Env, Ctx, Found);
    } else if (const auto *ME = dyn_cast<MemberExpr>(St)) {
      if (ME->isArrow())
        deref(ME, ME->getBase(), Env, Found);
    } else if (const auto *UO = dyn_cast<UnaryOperator>(St)) {
      if (UO->getOpcode() == UO_Deref)
        deref(UO, UO->getSubExpr(), Env, Found);
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

  void call(const CallExpr *Call, const Environment &Env, ASTContext &Ctx,
            llvm::SmallVectorImpl<OwnershipEvent> &Found) {
    if (isDeleterCall(Call)) {
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
      return;
    }
    CapsuleCall K = classifyCapsuleCall(Call);
    if (K == CapsuleCall::ErrClear && RC.IsDestructor &&
        !proves(Env, RC.Saved)) {
      Found.push_back(
          {OwnershipEvent::DestructorClearsError, Call, nullptr, nullptr});
      return;
    }
    if (K != CapsuleCall::None)
      return;
    // An import of a capsule's tensor after the capsule was renamed.
    for (const Expr *Arg : Call->arguments()) {
      int S = siteOf(Arg, Env);
      if (S < 0 || RC.Sites[S].CapsuleId < 0)
        continue;
      Capsule &C = RC.Capsules[RC.Sites[S].CapsuleId];
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (!RC.takers().matches(Callee) && C.Rename && allows(Env, C.Renamed))
        Found.push_back(
            {OwnershipEvent::RenameBeforeImport, Call, nullptr, C.Rename});
    }
  }

  /// In a capsule destructor: is the capsule proven unconsumed here, either
  /// directly or because the tensor came out of PyCapsule_GetPointer with
  /// the unconsumed name and is proven non-NULL?
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

  void deref(const Expr *Use, const Expr *Base, const Environment &Env,
             llvm::SmallVectorImpl<OwnershipEvent> &Found) {
    int S = siteOf(Base, Env);
    if (S < 0 || RC.Sites[S].From != Site::Capsule || Reported.contains(S))
      return;
    Site &St = RC.Sites[S];
    // The pointer is known non-NULL on this path: the name matched.
    Value *V = Env.getValue(*stripIdentityCasts(Base));
    auto *N = V ? dyn_cast_or_null<BoolValue>(V->getProperty(kNull)) : nullptr;
    if (N && Env.proves(Env.arena().makeNot(N->formula())))
      return;
    Reported.insert(S);
    Found.push_back(
        {OwnershipEvent::CapsulePointerUnchecked, Use, nullptr, St.At});
  }

  RunContext &RC;
  llvm::DenseSet<int> Reported;
};

/// Where control leaves the function from a block that precedes the exit.
void exitOf(const CFGBlock &B, const FunctionDecl &FD, SourceLocation &Loc,
            OwnershipEvent::ExitKind &Kind) {
  for (auto It = B.rbegin(); It != B.rend(); ++It) {
    auto CS = It->getAs<CFGStmt>();
    if (!CS)
      continue;
    const Stmt *S = CS->getStmt();
    if (isa<ReturnStmt>(S)) {
      Loc = S->getBeginLoc();
      Kind = OwnershipEvent::Return;
      return;
    }
    if (isa<CXXThrowExpr>(S)) {
      Loc = S->getBeginLoc();
      Kind = OwnershipEvent::Throw;
      return;
    }
    break;
  }
  if (const Stmt *T = B.getTerminatorStmt())
    if (isa<CXXThrowExpr>(T)) {
      Loc = T->getBeginLoc();
      Kind = OwnershipEvent::Throw;
      return;
    }
  Loc = FD.getBody() ? FD.getBody()->getEndLoc() : FD.getEndLoc();
  Kind = OwnershipEvent::FallOff;
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
      Index = I;
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

/// Something the ownership model can report on: a deleter call, the capsule
/// API, or a managed tensor being obtained (new, a cast of malloc, a call
/// that returns one). Functions that only read fields are not analysed.
bool mentionsOwnershipImpl(const Stmt *Body) {
  class Finder : public RecursiveASTVisitor<Finder> {
  public:
    bool Found = false;
    bool shouldVisitLambdaBody() const { return true; }
    bool VisitCallExpr(CallExpr *E) {
      if (classifyCapsuleCall(E) != CapsuleCall::None ||
          isManagedPointer(E->getType()) || isDeleterCall(E))
        Found = true;
      return !Found;
    }
    bool VisitCXXNewExpr(CXXNewExpr *E) {
      if (isManagedPointer(E->getType()))
        Found = true;
      return !Found;
    }
    bool VisitExplicitCastExpr(ExplicitCastExpr *E) {
      if (isManagedPointer(E->getType()) && isRawAllocation(E->getSubExpr()))
        Found = true;
      return !Found;
    }
  } F;
  F.TraverseStmt(const_cast<Stmt *>(Body));
  return F.Found;
}

} // namespace

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

std::string OwnershipModelConfig::key() const {
  return modelConfigKey({&TensorSources, &OwnershipTakingImporters}, Bounds,
                        SyntacticProofs);
}

namespace {
/// TensorSources and OwnershipTakingImporters, compiled.
struct CompiledConfig {
  FunctionNameList Sources, Takers;
};
/// Facts per function and role (capsule destructor or not).
using OwnershipCache =
    ModelCache<bool, std::pair<const FunctionDecl *, unsigned>, OwnershipFacts,
               CompiledConfig>;
OwnershipCache &ownershipCache() {
  static OwnershipCache C;
  return C;
}
} // namespace

void clearOwnershipFactsCache() { ownershipCache().clear(); }

bool mentionsOwnership(const FunctionDecl &FD) {
  if (!FD.hasBody())
    return false;
  return ownershipCache().use(FD, [](const FunctionDecl &FD) {
    return mentionsOwnershipImpl(FD.getBody());
  });
}

const OwnershipFacts &getOwnershipFacts(const FunctionDecl &FD, ASTContext &Ctx,
                                        bool IsCapsuleDestructor,
                                        const OwnershipModelConfig &Config,
                                        llvm::StringRef ConfigKey) {
  OwnershipCache &C = ownershipCache();
  C.enter(Ctx);
  std::string Computed = ConfigKey.empty() ? Config.key() : std::string();
  llvm::StringRef Key =
      ConfigKey.empty() ? llvm::StringRef(Computed) : ConfigKey;
  std::unique_ptr<OwnershipFacts> &Slot =
      C.facts(Key, {&FD, unsigned(IsCapsuleDestructor)});
  if (Slot)
    return *Slot;
  Slot = std::make_unique<OwnershipFacts>();
  OwnershipFacts &Facts = *Slot;

  RunContext RC;
  RC.FD = &FD;
  RC.IsDestructor = IsCapsuleDestructor;
  const CompiledConfig &Compiled = C.compiled(Key, [&Config] {
    return CompiledConfig{FunctionNameList(Config.TensorSources),
                          FunctionNameList(Config.OwnershipTakingImporters)};
  });
  RC.SourcesP = &Compiled.Sources;
  RC.TakersP = &Compiled.Takers;

  if (FD.getBody()) {
    PreScan Scan(RC, Ctx);
    Scan.TraverseStmt(FD.getBody());
    for (const ParmVarDecl *P : FD.parameters())
      // Owned: the function deletes it on some path and hands it on for
      // good on another (an importer); a helper that only deletes on error
      // leaves the tensor to its caller otherwise.
      if (Scan.DeletedParams.contains(P) && Scan.KeptParams.contains(P)) {
        Site S;
        S.From = Site::Parameter;
        S.Param = P;
        RC.SiteOfParam.try_emplace(P, RC.Sites.size());
        RC.Sites.push_back(S);
      }
    for (const ValueDecl *V : Scan.DeletedVars) {
      const auto *P = dyn_cast<ParmVarDecl>(V);
      if (P && RC.SiteOfParam.count(P))
        continue;
      Site S;
      S.From = Site::Unowned;
      S.Var = V;
      RC.SiteOfVar.try_emplace(V, RC.Sites.size());
      RC.Sites.push_back(S);
    }
  }

  // Only a capsule, an owned tensor (one whose leak is judged) or a capsule
  // destructor's checks need the flow analysis to be judged: a tensor the
  // function only releases can only be released twice, or after a hand-off
  // that follows the release, and neither can happen when every release
  // ends the function.
  if (Config.SyntacticProofs && whyNotAnalysable(FD) == SkipReason::None &&
      !IsCapsuleDestructor && RC.Capsules.empty() &&
      llvm::all_of(RC.Sites,
                   [](const Site &S) { return S.From == Site::Unowned; }) &&
      releasesOnlyAtExit(FD)) {
    Facts.BySyntax = true;
    return Facts;
  }

  std::vector<OwnershipEvent> Exits, Judged;
  OwnershipDiagnoser Diagnoser(RC);
  // Judged from the states recorded during the fixpoint (see
  // OwnershipAnalysis::Recorded) rather than by a diagnosis pass.
  auto JudgeRecorded = [&](OwnershipAnalysis &A) {
    A.Recorded.forEach([&](const Stmt *St, const Environment &Env) {
      for (OwnershipEvent &E : Diagnoser.judge(St, Env, Ctx))
        Judged.push_back(E);
    });
  };
  FlowResult<OwnershipEvent> R =
      runFlowAnalysisWith<OwnershipAnalysis, OwnershipEvent>(
          FD, Ctx,
          [&RC](ASTContext &C, Environment &Env) {
            return OwnershipAnalysis(C, Env, RC);
          },
          DiagnosisCallbacks<OwnershipAnalysis, OwnershipEvent>{nullptr,
                                                                nullptr},
          Config.Bounds,
          [&](const CFGBlock &B, const TypeErasedDataflowAnalysisState &S) {
            if (!RC.Sentinel || !S.Env.getValue(*RC.Sentinel))
              return;
            Environment Env = S.Env.fork();
            assumeExitEdge(B, Env);
            Arena &A = Env.arena();
            SourceLocation Loc;
            OwnershipEvent::ExitKind Kind;
            exitOf(B, FD, Loc, Kind);
            for (Site &St : RC.Sites) {
              if (St.From == Site::Unowned)
                continue;
              auto *Live = Env.get<BoolValue>(*St.Live);
              if (!Live)
                continue;
              const Formula *Leak = &Live->formula();
              // Nothing to free: a NULL tensor, a NULL deleter, or a
              // capsule that could not be created (out of memory).
              for (StorageLocation *G :
                   {St.CapsuleFailed, St.PtrNull, St.DeleterNull})
                if (auto *B = Env.get<BoolValue>(*G))
                  Leak = &A.makeAnd(*Leak, A.makeNot(B->formula()));
              if (!Env.allows(*Leak))
                continue;
              OwnershipEvent E{
                  OwnershipEvent::Leak, St.At, St.Param, nullptr, Loc, Kind};
              Exits.push_back(E);
            }
            for (Capsule &Cap : RC.Capsules) {
              auto *Imported = Env.get<BoolValue>(*Cap.TakingImport);
              auto *Claimed = Env.get<BoolValue>(*Cap.Claimed);
              if (!Imported || !Claimed || !Cap.TakingImportCall)
                continue;
              if (Env.allows(A.makeAnd(Imported->formula(),
                                       A.makeNot(Claimed->formula()))))
                Exits.push_back({OwnershipEvent::NotClaimedAfterImport,
                                 Cap.TakingImportCall, nullptr, nullptr, Loc,
                                 Kind});
            }
          },
          JudgeRecorded);
  Facts.Skipped = R.Skipped;
  Facts.Detail = R.Detail;
  if (R.Skipped != SkipReason::None) {
    Facts.Events.clear();
    return Facts;
  }
  Facts.Events.assign(Judged.begin(), Judged.end());
  Facts.Events.insert(Facts.Events.end(), Exits.begin(), Exits.end());
  // Elements are diagnosed once per visit of the final states; keep one
  // event per kind and place (and per exit for leaks).
  llvm::DenseSet<std::tuple<unsigned, const Stmt *, const void *, unsigned>>
      Seen;
  llvm::erase_if(Facts.Events, [&](const OwnershipEvent &E) {
    const void *Who = E.Param ? static_cast<const void *>(E.Param)
                              : static_cast<const void *>(E.At);
    return !Seen.insert(
                    {unsigned(E.K), E.Related, Who, E.ExitLoc.getRawEncoding()})
                .second;
  });
  const SourceManager &SM = Ctx.getSourceManager();
  auto LocOf = [](const OwnershipEvent &E) {
    return E.At ? E.At->getBeginLoc()
                : (E.Param ? E.Param->getLocation() : SourceLocation());
  };
  llvm::sort(Facts.Events,
             [&](const OwnershipEvent &A, const OwnershipEvent &B) {
               if (LocOf(A) != LocOf(B))
                 return SM.isBeforeInTranslationUnit(LocOf(A), LocOf(B));
               if (A.ExitLoc != B.ExitLoc)
                 return SM.isBeforeInTranslationUnit(A.ExitLoc, B.ExitLoc);
               return A.K < B.K;
             });
  return Facts;
}

} // namespace clang::interop
