//===--- LocalStores.cpp - what a body stores into its locals -------------===//

#include "lib/support/LocalStores.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace clang::interop {

const VarDecl *LocalStores::localNamed(const Expr *E) {
  if (!E)
    return nullptr;
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  return VD && VD->hasLocalStorage() ? VD : nullptr;
}

const VarDecl *LocalStores::writeTarget(const Expr *E, bool &Element) {
  Element = false;
  for (int Depth = 0; E && Depth < 4; ++Depth) {
    E = E->IgnoreParenImpCasts();
    if (const VarDecl *VD = localNamed(E))
      return VD;
    Element = true;
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
      E = ASE->getBase();
      continue;
    }
    // v[i] and v.at(i) of a container or array class.
    if (const auto *OCE = dyn_cast<CXXOperatorCallExpr>(E);
        OCE && OCE->getOperator() == OO_Subscript && OCE->getNumArgs() >= 1) {
      E = OCE->getArg(0);
      continue;
    }
    if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(E)) {
      const auto *MD = MCE->getMethodDecl();
      if (MD && MD->getIdentifier() && MD->getName() == "at") {
        E = MCE->getImplicitObjectArgument();
        continue;
      }
      return nullptr;
    }
    // *(v + i), *p
    if (const auto *UO = dyn_cast<UnaryOperator>(E);
        UO && UO->getOpcode() == UO_Deref) {
      const Expr *Sub = UO->getSubExpr()->IgnoreParenImpCasts();
      if (const auto *BO = dyn_cast<BinaryOperator>(Sub);
          BO && BO->isAdditiveOp())
        Sub = BO->getLHS()->getType()->isPointerType() ? BO->getLHS()
                                                       : BO->getRHS();
      E = Sub;
      continue;
    }
    return nullptr;
  }
  return nullptr;
}

namespace {
class Scan : public RecursiveASTVisitor<Scan> {
public:
  explicit Scan(llvm::DenseMap<const VarDecl *, LocalStores::Stores> &Map)
      : Map(Map) {}
  bool shouldVisitLambdaBody() const { return true; }

  bool VisitVarDecl(VarDecl *VD) {
    if (VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) && VD->getInit())
      Map[VD].Whole.push_back(VD->getInit());
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (!BO->isAssignmentOp())
      return true;
    store(BO->getLHS(), BO->getRHS(), BO->isCompoundAssignmentOp());
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OCE) {
    // `v = e`, `v[i] = e` and `v *= e` on class types.
    OverloadedOperatorKind K = OCE->getOperator();
    if (OCE->getNumArgs() == 2 &&
        (K == OO_Equal || (K >= OO_PlusEqual && K <= OO_PipeEqual) ||
         K == OO_LessLessEqual || K == OO_GreaterGreaterEqual))
      store(OCE->getArg(0), OCE->getArg(1), K != OO_Equal);
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf) {
      bool Element = false;
      if (const VarDecl *VD =
              LocalStores::writeTarget(UO->getSubExpr(), Element);
          VD && !Element)
        Map[VD].Opaque = true;
    }
    return true;
  }

private:
  void store(const Expr *LHS, const Expr *RHS, bool Compound) {
    bool Element = false;
    const VarDecl *VD = LocalStores::writeTarget(LHS, Element);
    if (!VD)
      return;
    LocalStores::Stores &S = Map[VD];
    if (Compound || Element)
      S.Partial.push_back(RHS);
    else
      S.Whole.push_back(RHS);
  }

  llvm::DenseMap<const VarDecl *, LocalStores::Stores> &Map;
};
} // namespace

LocalStores::LocalStores(const Stmt *Body) {
  if (Body)
    Scan(Map).TraverseStmt(const_cast<Stmt *>(Body));
}

const LocalStores::Stores *LocalStores::of(const VarDecl *VD) const {
  auto It = Map.find(VD);
  return It == Map.end() ? nullptr : &It->second;
}

const Expr *LocalStores::onlyValue(const VarDecl *VD) const {
  const Stores *S = of(VD);
  if (!S || S->Opaque || !S->Partial.empty() || S->Whole.size() != 1)
    return nullptr;
  return S->Whole.front();
}

const VarDecl *LocalStores::holderOf(const Expr *E, bool ThroughCasts) const {
  if (!E)
    return nullptr;
  auto Strip = [&](const Expr *X) {
    X = X->IgnoreImplicit();
    return ThroughCasts ? X->IgnoreParenCasts() : X;
  };
  const Expr *Want = Strip(E);
  for (const auto &[VD, S] : Map)
    if (const Expr *Only = onlyValue(VD); Only && Strip(Only) == Want)
      return VD;
  return nullptr;
}

} // namespace clang::interop
