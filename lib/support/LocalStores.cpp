//===--- LocalStores.cpp - what a body stores into its locals -------------===//

#include "lib/support/LocalStores.h"

#include "lib/support/AstHelpers.h"
#include "lib/support/DeclMemo.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

#include <memory>

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
    if (VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) && VD->getInit()) {
      Map[VD].Whole.push_back(VD->getInit());
      bindTo(VD->getType(), VD->getInit());
    }
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
  // A non-const reference bound to a scalar local lets code no expression
  // here shows change it: `read_kind(kind)` with an `int &` parameter,
  // `std::tie(a, b) = ...`, `int &r = kind;`.
  bool VisitCallExpr(CallExpr *CE) {
    // A member operator's object is its first argument, not a parameter.
    const FunctionDecl *FD = CE->getDirectCallee();
    bindArguments(FD, CE->arguments(),
                  isa<CXXOperatorCallExpr>(CE) &&
                      isa_and_present<CXXMethodDecl>(FD));
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *CE) {
    bindArguments(CE->getConstructor(), CE->arguments(), 0);
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
  template <typename Range>
  void bindArguments(const FunctionDecl *FD, Range Args, unsigned Shift) {
    if (!FD)
      return;
    // A forwarding reference (`template <class U> Result(U &&v)`, the
    // std::move of a pointer) hands the value on; it is not a place the
    // callee stores into.
    const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern();
    unsigned I = 0;
    for (const Expr *Arg : Args) {
      unsigned P = I++;
      if (P < Shift || P - Shift >= FD->getNumParams())
        continue;
      P -= Shift;
      if (Pattern && P < Pattern->getNumParams() &&
          Pattern->getParamDecl(P)->getType()->isRValueReferenceType())
        continue;
      bindTo(FD->getParamDecl(P)->getType(), Arg);
    }
  }
  void bindTo(QualType Target, const Expr *E) {
    // An rvalue reference takes a value being handed on (`return p;`
    // moving into the result, `std::move(p)`).
    if (!Target->isLValueReferenceType() ||
        Target.getNonReferenceType().isConstQualified())
      return;
    // Only scalars: an object handed on by reference (`std::move(holder)`)
    // keeps the value it was made with, as far as its holders go.
    if (const VarDecl *VD = LocalStores::localNamed(E);
        VD && VD->getType()->isScalarType())
      Map[VD].Opaque = true;
  }
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

const Expr *LocalStores::valueOf(const Expr *E, bool ThroughCasts) const {
  for (int Depth = 0; E && Depth < 4; ++Depth) {
    const Expr *Named = ThroughCasts ? ignoreTemporaries(E)->IgnoreParenCasts()
                                     : stripIdentityCasts(E);
    const VarDecl *V = localNamed(Named);
    const Expr *Only = V ? onlyValue(V) : nullptr;
    if (!Only)
      return E;
    E = Only;
  }
  return E;
}

const LocalStores &localStoresOf(const FunctionDecl &FD) {
  static DeclMemo<std::unique_ptr<LocalStores>> Memo;
  return *Memo.get(&FD,
                   [&] { return std::make_unique<LocalStores>(FD.getBody()); });
}

} // namespace clang::interop
