//===--- OwnershipSites.cpp - what a function obtains and touches ---------===//

#include "lib/ownership/OwnershipSites.h"

#include "lib/abi/CapsuleAPI.h"
#include "lib/abi/DLPackTypes.h"
#include "lib/abi/ReturnedTensors.h"
#include "lib/support/AstHelpers.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <utility>

namespace clang::interop::ownership {

using namespace clang::dataflow;

/// The tracked site E evaluates to (through parentheses and identity casts),
/// or -1.
int siteOfValue(const RunContext &RC, const Value &V) {
  auto It = RC.SiteOfValue.find(&V);
  if (It != RC.SiteOfValue.end())
    return static_cast<int>(It->second);
  if (const auto *PV = dyn_cast<PointerValue>(&V)) {
    auto L = RC.SiteOfLoc.find(&PV->getPointeeLoc());
    if (L != RC.SiteOfLoc.end())
      return static_cast<int>(L->second);
  }
  return -1;
}

int siteOfExpr(const RunContext &RC, const Expr *E, const Environment &Env) {
  if (!E)
    return -1;
  for (const Expr *X : {E->IgnoreParens(), stripIdentityCasts(E)})
    if (Value *V = X ? Env.getValue(*X) : nullptr)
      if (int S = siteOfValue(RC, *V); S >= 0)
        return S;
  return -1;
}

SiteChoices sitesOfValue(const RunContext &RC, const Value &V) {
  SiteChoices Out;
  if (int S = siteOfValue(RC, V); S >= 0) {
    Out.push_back({static_cast<unsigned>(S), nullptr});
    return Out;
  }
  for (const ValueChoices::Choice &C : RC.Choices.of(V))
    if (int S = siteOfValue(RC, *C.V); S >= 0)
      Out.push_back({static_cast<unsigned>(S), C.When});
  return Out;
}

SiteChoices sitesOfExpr(const RunContext &RC, const Expr *E,
                        const Environment &Env) {
  if (int S = siteOfExpr(RC, E, Env); S >= 0)
    return {{static_cast<unsigned>(S), nullptr}};
  const Expr *X = E ? stripIdentityCasts(E) : nullptr;
  Value *V = X ? Env.getValue(*X) : nullptr;
  return V ? sitesOfValue(RC, *V) : SiteChoices();
}

namespace {

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
    // A tensor this function exports in a capsule of its own is its
    // library's: a producer's.
    if (K == CapsuleCall::New && Call->getNumArgs() >= 1)
      if (const ValueDecl *V = referencedDecl(Call->getArg(0)))
        Exported.insert(V);
    if (K == CapsuleCall::GetPointer && Call->getNumArgs() == 2 && !InLambda) {
      Site S;
      S.From = Site::Capsule;
      S.At = Call;
      S.CapsuleId = capsuleOf(Call->getArg(0));
      CapsuleName Name = classifyCapsuleName(Call->getArg(1), Ctx);
      S.UnconsumedName = checksOwnName(Name, RC);
      S.OwnName = Name == CapsuleName::FromGetName;
      add(S);
      return true;
    }
    const Expr *Base = nullptr;
    if (RC.Releases.isReleaseCall(Call)) {
      // A release function's call has no deleter field: its argument is
      // what it releases.
      if (!isDeleterCall(Call, &Base))
        Base = Call->getArg(0);
      else if (Lambdas.empty())
        DirectDeleterCalls.push_back(Call);
      if (const ValueDecl *V = referencedDecl(Call->getArg(0)))
        if (isManagedPointer(V->getType()) && !InLambda)
          DeletedVars.insert(V);
      // A parameter whose deleter the function calls is owned by it; one
      // whose deleter a lambda calls, when the function makes the lambda on
      // every path that returns (see findSites).
      for (const Expr *E : {Base, static_cast<const Expr *>(Call->getArg(0))})
        if (const auto *P = dyn_cast_or_null<ParmVarDecl>(referencedDecl(E)))
          if (P->getDeclContext() == RC.FD && isManagedPointer(P->getType())) {
            if (Lambdas.empty())
              DeletedParams.insert(P);
            else
              DeletedInLambda.push_back({P, Lambdas.front()});
          }
      return true;
    }
    if (RC.takers().matches(Call->getDirectCallee()))
      for (const Expr *Arg : Call->arguments())
        if (const auto *P = dyn_cast_or_null<ParmVarDecl>(referencedDecl(Arg)))
          KeptParams.insert(P);
    // guard.release(); with the result dropped disarms a guard whose
    // tensor was already handed on: nothing is obtained.
    // A producer's call: named by TensorSources, or a function of the file
    // that hands over a fresh managed tensor (ReturnedTensors.h).
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!InLambda && isManagedPointer(Call->getType()) &&
        !Discarded.contains(Call) &&
        (RC.sources().matches(Callee) ||
         (Callee && returnedTensorOf(*Callee).Fresh))) {
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
    Lambdas.push_back(L);
    bool R = RecursiveASTVisitor::TraverseLambdaExpr(L);
    Lambdas.pop_back();
    InLambda = Saved;
    return R;
  }

  int capsuleOf(const Expr *E) {
    const ValueDecl *Root = RC.capsuleRootOf(E);
    if (!Root)
      return -1;
    auto [It, New] = RC.CapsuleOfRoot.try_emplace(Root, RC.Capsules.size());
    if (New) {
      Capsule C;
      C.Root = Root;
      RC.Capsules.push_back(C);
    }
    return static_cast<int>(It->second);
  }

  void add(Site S) {
    RC.SiteOfStmt.try_emplace(S.At, RC.Sites.size());
    RC.Sites.push_back(std::move(S));
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
  llvm::SmallPtrSet<const ValueDecl *, 2> Exported;
  /// Calls whose result is dropped (expression statements).
  llvm::SmallPtrSet<const CallExpr *, 8> Discarded;
  /// Parameters whose deleter the function calls.
  llvm::SmallPtrSet<const ParmVarDecl *, 2> DeletedParams;
  /// Deleter calls outside lambdas.
  std::vector<const CallExpr *> DirectDeleterCalls;
  /// Parameters whose deleter a lambda calls, with the outermost lambda.
  std::vector<std::pair<const ParmVarDecl *, const LambdaExpr *>>
      DeletedInLambda;
  /// Parameters the function hands on for good somewhere (captured,
  /// returned, stored, wrapped, given to an ownership-taking importer).
  llvm::SmallPtrSet<const ParmVarDecl *, 2> KeptParams;

private:
  RunContext &RC;
  ASTContext &Ctx;
  bool InLambda = false;
  /// The lambdas being traversed, outermost first.
  std::vector<const LambdaExpr *> Lambdas;
};

/// Whether evaluating S always evaluates L: L is S or inside it, and no
/// branch (an if, a loop, a switch, ?:, && or ||, a try) or other lambda
/// lies between them.
bool evaluatesUnconditionally(const Stmt *S, const LambdaExpr *L) {
  if (S == L)
    return true;
  if (!S || isa<LambdaExpr, IfStmt, ForStmt, WhileStmt, DoStmt, SwitchStmt,
                CXXForRangeStmt, CXXTryStmt, AbstractConditionalOperator>(S))
    return false;
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isLogicalOp())
    return false;
  return llvm::any_of(S->children(), [&](const Stmt *C) {
    return evaluatesUnconditionally(C, L);
  });
}

/// Whether S contains a return statement (outside lambdas).
bool containsReturn(const Stmt *S) {
  if (!S || isa<LambdaExpr>(S))
    return false;
  if (isa<ReturnStmt>(S))
    return true;
  return llvm::any_of(S->children(),
                      [](const Stmt *C) { return containsReturn(C); });
}

/// Whether Body makes the lambda L on every path that returns: L is
/// evaluated unconditionally by a statement of the body's outermost block,
/// and no statement before that one returns (a path that throws may still
/// leave before it).
bool madeOnEveryReturn(const Stmt *Body, const LambdaExpr *L) {
  const auto *CS = dyn_cast_or_null<CompoundStmt>(Body);
  if (!CS)
    return false;
  for (const Stmt *S : CS->body()) {
    if (evaluatesUnconditionally(S, L))
      return true;
    if (containsReturn(S))
      return false;
  }
  return false;
}

} // namespace

const ValueDecl *RunContext::capsuleRootOf(const Expr *E) const {
  if (!Roots)
    Roots.emplace(FD ? FD->getBody() : nullptr);
  return Roots->of(E);
}

void findSites(RunContext &RC, const FunctionDecl &FD, ASTContext &Ctx) {
  if (FD.getBody()) {
    PreScan Scan(RC, Ctx);
    Scan.TraverseStmt(FD.getBody());
    // A lambda made only on some paths (a default callback when the caller
    // gave none) releases the tensor only there: the caller's callback
    // owns it on the others.
    for (auto [P, L] : Scan.DeletedInLambda)
      if (madeOnEveryReturn(FD.getBody(), L))
        Scan.DeletedParams.insert(P);
    for (const ParmVarDecl *P : FD.parameters())
      // Owned: the function deletes it on some path and hands it on for
      // good on another (an importer); a helper that only deletes on error
      // leaves the tensor to its caller otherwise.
      if (Scan.DeletedParams.contains(P) && Scan.KeptParams.contains(P)) {
        Site S;
        S.From = Site::Parameter;
        S.Param = P;
        S.Exported = Scan.Exported.contains(P);
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
      S.Exported = Scan.Exported.contains(V);
      RC.SiteOfVar.try_emplace(V, RC.Sites.size());
      RC.Sites.push_back(S);
    }
    RC.Exports = findExportCalls(FD.getBody(), Ctx);
    if (RC.Exports.Calls.size() > MaxExportCalls)
      RC.Exports = ExportUses();
    for (auto [I, C] : llvm::enumerate(RC.Exports.Calls))
      RC.ExportOfCall[C.Call] = I;
  }
}

} // namespace clang::interop::ownership

namespace clang::interop {

std::vector<const CallExpr *> borrowedTensorDeletions(const FunctionDecl &FD) {
  std::vector<const CallExpr *> Out;
  auto IsConstTensor = [](const ParmVarDecl *P) {
    QualType T = P->getType();
    return T->isPointerType() && T->getPointeeType().isConstQualified() &&
           isManagedPointer(T);
  };
  if (!FD.getBody() || llvm::none_of(FD.parameters(), IsConstTensor))
    return Out;
  ownership::RunContext RC;
  RC.FD = &FD;
  static const NameList None;
  RC.SourcesP = RC.TakersP = &None;
  if (RC.Releases.isReleaseFunction(&FD))
    return Out;
  ownership::PreScan Scan(RC, FD.getASTContext());
  Scan.TraverseStmt(FD.getBody());
  for (const CallExpr *Call : Scan.DirectDeleterCalls) {
    const Expr *Base = nullptr;
    isDeleterCall(Call, &Base);
    const auto *P = dyn_cast_or_null<ParmVarDecl>(referencedDecl(Base));
    if (P && P->getDeclContext() == &FD && IsConstTensor(P) &&
        !Scan.KeptParams.contains(P))
      Out.push_back(Call);
  }
  return Out;
}

} // namespace clang::interop

namespace clang::interop::ownership {

const Expr *copiedManagedTensor(const Expr *E) {
  if (!isManagedTensor(classifyDLPackType(E->getType())))
    return nullptr;
  const auto *UO = dyn_cast<UnaryOperator>(underCopies(E));
  return UO && UO->getOpcode() == UO_Deref ? UO->getSubExpr() : nullptr;
}

llvm::SmallVector<unsigned, 2> RunContext::aliasesOf(unsigned S) const {
  llvm::SmallVector<unsigned, 2> Out;
  const Site &Of = Sites[S];
  if (Of.CapsuleId < 0 || Of.From != Site::Capsule)
    return Out;
  for (unsigned I = 0; I < Sites.size(); ++I)
    if (I != S && Sites[I].CapsuleId == Of.CapsuleId &&
        Sites[I].From == Site::Capsule)
      Out.push_back(I);
  return Out;
}

bool mentionsOwnershipIn(const Stmt *Body) {
  class Finder : public RecursiveASTVisitor<Finder> {
  public:
    bool Found = false;
    bool shouldVisitLambdaBody() const { return true; }
    bool VisitCallExpr(CallExpr *E) {
      if (viewCapsuleCall(E).Op != CapsuleCall::None ||
          isManagedPointer(E->getType()) || isDeleterCall(E) ||
          mayBeReleaseCall(E))
        Found = true;
      return !Found;
    }
    bool VisitCXXNewExpr(CXXNewExpr *E) {
      if (isManagedPointer(E->getType()))
        Found = true;
      return !Found;
    }
    bool VisitCXXConstructExpr(CXXConstructExpr *E) {
      if (makesCapsuleWithDestructor(*E))
        Found = true;
      return !Found;
    }
    bool VisitExplicitCastExpr(ExplicitCastExpr *E) {
      if (isManagedPointer(E->getType()) && isRawAllocation(E->getSubExpr()))
        Found = true;
      return !Found;
    }
    // obj.attr("__dlpack__")(): a producer asked for a capsule.
    bool VisitStringLiteral(StringLiteral *E) {
      Found = isExportMethodName(*E);
      return !Found;
    }
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      Found = isExportMethodName(*E);
      return !Found;
    }
  } F;
  F.TraverseStmt(const_cast<Stmt *>(Body));
  return F.Found;
}

int claimedCapsule(const CallExpr &Call, const RunContext &RC, ASTContext &Ctx,
                    bool &IsRename) {
  IsRename = false;
  // In every spelling: PyCapsule_SetName(c, name), pybind11's
  // c.set_name(name).
  CapsuleCallView V = viewCapsuleCall(&Call);
  if (!V.Capsule)
    return -1;
  switch (V.Op) {
  case CapsuleCall::SetName:
    if (!V.Name || !isUsedName(classifyCapsuleName(V.Name, Ctx)))
      return -1;
    IsRename = true;
    return RC.capsuleIdOf(V.Capsule);
  case CapsuleCall::SetDestructor:
    return Call.getNumArgs() == 2 &&
                   classifyCapsuleName(Call.getArg(1), Ctx) == CapsuleName::Null
               ? RC.capsuleIdOf(V.Capsule)
               : -1;
  default:
    return -1;
  }
}

} // namespace clang::interop::ownership
