//===--- CallSites.cpp - who calls a function in this TU ------------------===//

#include "lib/engine/CallSites.h"

#include "lib/engine/FactCache.h"
#include "lib/engine/GuardEngine.h"
#include "lib/support/AstHelpers.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"

namespace clang::interop {
namespace {

/// Every reference to a function in the non-system declarations of a
/// translation unit, keyed by the function's canonical declaration.
class ReferenceWalk : public RecursiveASTVisitor<ReferenceWalk> {
public:
  ReferenceWalk(const SourceManager &SM,
                llvm::DenseMap<const FunctionDecl *, FunctionReferences> &Out)
      : SM(SM), Out(Out) {}

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
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (const auto *F = dyn_cast<FunctionDecl>(DRE->getDecl()))
      if (!CalleeNames.erase(DRE))
        ++Out[F->getCanonicalDecl()].OtherReferences;
    return true;
  }

private:
  const SourceManager &SM;
  llvm::DenseMap<const FunctionDecl *, FunctionReferences> &Out;
  llvm::SmallVector<const FunctionDecl *, 8> Callers;
  // A call is visited before its callee expression, so the name it calls by
  // is known when the walk reaches it.
  llvm::SmallPtrSet<const DeclRefExpr *, 8> CalleeNames;
};

} // namespace

namespace {
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

llvm::ArrayRef<const Expr *> CallSite::args() const {
  if (const auto *CE = dyn_cast<CallExpr>(Call))
    return {CE->getArgs(), CE->getNumArgs()};
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(Call))
    return {Construct->getArgs(), Construct->getNumArgs()};
  return {};
}

const FunctionReferences &referencesOf(const FunctionDecl &FD) {
  // One walk per translation unit, kept with lib/'s other per-declaration
  // answers (keyed by the unit's own declaration) until the next reset.
  using ReferenceMap = llvm::DenseMap<const FunctionDecl *, FunctionReferences>;
  static DeclMemo<ReferenceMap> Memo;
  ASTContext &Ctx = FD.getASTContext();
  const ReferenceMap &Map = Memo.get(Ctx.getTranslationUnitDecl(), [&] {
    ReferenceMap Out;
    ReferenceWalk(Ctx.getSourceManager(), Out)
        .TraverseDecl(Ctx.getTranslationUnitDecl());
    return Out;
  });
  static const FunctionReferences None;
  auto It = Map.find(FD.getCanonicalDecl());
  return It == Map.end() ? None : It->second;
}

} // namespace clang::interop
