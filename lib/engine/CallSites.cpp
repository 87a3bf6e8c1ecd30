//===--- CallSites.cpp - who calls a function in this TU ------------------===//

#include "lib/engine/CallSites.h"

#include "lib/engine/FactCache.h"
#include "lib/engine/GuardEngine.h"
#include "lib/support/AstHelpers.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::interop {
namespace {

/// Every reference to a function in the non-system declarations of a
/// translation unit, keyed by the function's canonical declaration.
using ReferenceMap = llvm::DenseMap<const FunctionDecl *, FunctionReferences>;

/// What one walk of a translation unit learns.
struct UnitReferences {
  ReferenceMap Functions;
  /// The fields whose value some code reads (fieldReadHere).
  llvm::DenseSet<const FieldDecl *> ReadFields;
};

class ReferenceWalk : public RecursiveASTVisitor<ReferenceWalk> {
public:
  ReferenceWalk(const SourceManager &SM, UnitReferences &Unit)
      : SM(SM), Out(Unit.Functions), ReadFields(Unit.ReadFields) {}

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return false; }

  bool TraverseDecl(Decl *D) {
    if (!D)
      return true;
    if (!isa<TranslationUnitDecl>(D) && SM.isInSystemHeader(D->getLocation()))
      return true;
    auto *FD = dyn_cast<FunctionDecl>(D);
    if (FD)
      Callers.push_back(FD);
    bool Result = RecursiveASTVisitor::TraverseDecl(D);
    if (FD)
      Callers.pop_back();
    return Result;
  }
  bool TraverseLambdaExpr(LambdaExpr *L) {
    Callers.push_back(L->getCallOperator());
    bool Result = RecursiveASTVisitor::TraverseLambdaExpr(L);
    Callers.pop_back();
    return Result;
  }
  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *Callee = CE->getDirectCallee();
    if (!Callee || Callers.empty())
      return true;
    Out[Callee->getCanonicalDecl()].Calls.push_back({CE, Callers.back()});
    if (const CXXConstructorDecl *Made = forwardedConstructor(*CE))
      Out[Made->getCanonicalDecl()].Calls.push_back({CE, Callers.back()});
    // The callee's own name is part of the call, not another reference.
    if (const auto *DRE =
            dyn_cast<DeclRefExpr>(CE->getCallee()->IgnoreParenImpCasts()))
      CalleeNames.insert(DRE);
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *CE) {
    if (!Callers.empty())
      Out[CE->getConstructor()->getCanonicalDecl()].Calls.push_back(
          {CE, Callers.back()});
    return true;
  }
  // An assignment is visited before its target, so the store is known
  // when the walk reaches the member.
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->getOpcode() == BO_Assign)
      if (const auto *ME = dyn_cast<MemberExpr>(BO->getLHS()->IgnoreParens()))
        StoreTargets.insert(ME);
    return true;
  }
  bool VisitMemberExpr(MemberExpr *ME) {
    if (const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl()))
      if (!StoreTargets.erase(ME))
        ReadFields.insert(F);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (const auto *F = dyn_cast<FunctionDecl>(DRE->getDecl()))
      if (!CalleeNames.erase(DRE))
        ++Out[F->getCanonicalDecl()].OtherReferences;
    return true;
  }

private:
  const SourceManager &SM;
  ReferenceMap &Out;
  llvm::DenseSet<const FieldDecl *> &ReadFields;
  llvm::SmallVector<const FunctionDecl *, 8> Callers;
  // A call is visited before its callee expression, so the name it calls by
  // is known when the walk reaches it.
  llvm::SmallPtrSet<const DeclRefExpr *, 8> CalleeNames;
  llvm::SmallPtrSet<const MemberExpr *, 8> StoreTargets;
};

/// The walk of FD's translation unit, made once and kept with lib/'s other
/// per-declaration answers (keyed by the unit's own declaration) until the
/// next reset.
const UnitReferences &unitReferences(const ASTContext &Ctx) {
  static DeclMemo<UnitReferences> Memo;
  return Memo.get(Ctx.getTranslationUnitDecl(), [&] {
    UnitReferences Out;
    ReferenceWalk(Ctx.getSourceManager(), Out)
        .TraverseDecl(Ctx.getTranslationUnitDecl());
    return Out;
  });
}

} // namespace

namespace {
/// A C++ function of the main file that no header declares and that is
/// not exported on purpose (C linkage, a visibility or dllexport
/// attribute): another translation unit could call it only by declaring it
/// again itself, which is how a helper that merely lacks `static` is never
/// used.
bool declaredOnlyHere(const FunctionDecl &FD) {
  const ASTContext &Ctx = FD.getASTContext();
  if (!Ctx.getLangOpts().CPlusPlus || FD.isExternC() || FD.isMain() ||
      FD.getTemplatedKind() != FunctionDecl::TK_NonTemplate)
    return false;
  const SourceManager &SM = Ctx.getSourceManager();
  for (const FunctionDecl *D : FD.redecls())
    if (!SM.isInMainFile(SM.getExpansionLoc(D->getLocation())) ||
        D->hasAttr<VisibilityAttr>() || D->hasAttr<DLLExportAttr>() ||
        D->hasAttr<UsedAttr>())
      return false;
  return true;
}

/// Collects what a body may change, and nothing else.
class ChangeScan : public GuardScan {
  void inspect(const Stmt *) override {}
  bool capturedByRef(const VarDecl &) override { return true; }
};
} // namespace

bool forwardsOwnParameter(const CallSite &Site, unsigned Index) {
  const FunctionDecl *Caller = Site.Caller;
  const auto *Call = dyn_cast<CallExpr>(Site.Call);
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  if (!Caller || !Callee ||
      Callee->getCanonicalDecl() != Caller->getCanonicalDecl() ||
      Index >= Site.args().size() || Index >= Caller->getNumParams() ||
      !Caller->getBody())
    return false;
  const ParmVarDecl *Param = Caller->getParamDecl(Index);
  const auto *Named = dyn_cast<DeclRefExpr>(
      underCopies(Site.args()[Index])->IgnoreParenImpCasts());
  if (!Named || Named->getDecl() != Param)
    return false;
  ChangeScan Scan;
  Scan.walk(Caller->getBody());
  return !Scan.Refused && !Scan.Written.contains(Param);
}

bool callsHereAreAll(const FunctionDecl &FD) {
  if (const auto *M = dyn_cast<CXXMethodDecl>(&FD)) {
    const CXXRecordDecl *Class = M->getParent();
    if (M->isVirtual() || M->isOverloadedOperator() ||
        isa<CXXConversionDecl, CXXDestructorDecl>(M) || Class->isLambda())
      return false;
    if (!Class->isExternallyVisible())
      return true;
    const SourceManager &SM = FD.getASTContext().getSourceManager();
    return llvm::all_of(Class->redecls(), [&](const TagDecl *D) {
      return SM.isInMainFile(SM.getExpansionLoc(D->getLocation()));
    });
  }
  if (!FD.isExternallyVisible())
    return FD.getTemplatedKind() == FunctionDecl::TK_NonTemplate;
  return FD.isInlined() || FD.isTemplateInstantiation() || declaredOnlyHere(FD);
}

bool everyCallVouches(
    const FunctionDecl &FD, unsigned Index,
    llvm::function_ref<bool(const CallSite &, const Expr *Arg)> Vouches,
    llvm::function_ref<bool(const CallSite &)> Forwarded) {
  if (!callsHereAreAll(FD))
    return false;
  const FunctionReferences &Refs = referencesOf(FD);
  if (Refs.Calls.empty() || Refs.Calls.size() > MaxGuardedCallSites ||
      Refs.OtherReferences != 0)
    return false;
  bool Outside = false;
  for (const CallSite &Site : Refs.Calls) {
    if (Index >= Site.args().size())
      return false;
    if (forwardsOwnParameter(Site, Index)) {
      if (!Forwarded(Site))
        return false;
      continue;
    }
    Outside = true;
    if (!Vouches(Site, Site.args()[Index]))
      return false;
  }
  return Outside;
}

llvm::ArrayRef<const Expr *> CallSite::args() const {
  if (const auto *CE = dyn_cast<CallExpr>(Call))
    return {CE->getArgs(), CE->getNumArgs()};
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(Call))
    return {Construct->getArgs(), Construct->getNumArgs()};
  return {};
}

const FunctionReferences &referencesOf(const FunctionDecl &FD) {
  const ReferenceMap &Map = unitReferences(FD.getASTContext()).Functions;
  static const FunctionReferences None;
  auto It = Map.find(FD.getCanonicalDecl());
  return It == Map.end() ? None : It->second;
}

bool fieldReadHere(const FieldDecl &F) {
  return unitReferences(F.getASTContext()).ReadFields.contains(&F);
}

} // namespace clang::interop
