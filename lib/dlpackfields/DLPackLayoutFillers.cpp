//===--- DLPackLayoutFillers.cpp - locals a helper fills with a layout ----===//

#include "lib/dlpackfields/DLPackLayoutFillers.h"

#include "lib/abi/DLPackTypes.h"
#include "lib/dlpackfields/DLPackFieldValues.h"

#include "clang/AST/RecursiveASTVisitor.h"

namespace clang::interop {

namespace {

/// The local array or pointer variable E names, or null.
const VarDecl *localBuffer(const Expr *E) {
  const auto *DRE = E ? dyn_cast<DeclRefExpr>(E->IgnoreParenCasts()) : nullptr;
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || isa<ParmVarDecl>(VD) || !VD->hasLocalStorage())
    return nullptr;
  QualType T = VD->getType();
  return T->isArrayType() || T->isPointerType() ? VD : nullptr;
}

/// The body of H writes through its parameter P (`P[i] = ...`, `*P = ...`)
/// a value that reads a layout field.
bool writesLayoutInto(const FunctionDecl &H, const ParmVarDecl *P) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const ParmVarDecl *P;
    bool Found = false;
    bool VisitBinaryOperator(BinaryOperator *BO) {
      if (BO->getOpcode() != BO_Assign ||
          !dlpackfield::mentionsLayout(BO->getRHS()))
        return true;
      const Expr *L = BO->getLHS()->IgnoreParenImpCasts();
      const Expr *Base = nullptr;
      if (const auto *AS = dyn_cast<ArraySubscriptExpr>(L))
        Base = AS->getBase();
      else if (const auto *UO = dyn_cast<UnaryOperator>(L))
        if (UO->getOpcode() == UO_Deref)
          Base = UO->getSubExpr();
      const auto *DRE =
          Base ? dyn_cast<DeclRefExpr>(Base->IgnoreParenImpCasts()) : nullptr;
      Found |= DRE && DRE->getDecl() == P;
      return !Found;
    }
  } F;
  F.P = P;
  F.TraverseStmt(H.getBody());
  return F.Found;
}

/// A DeclRefExpr of a DLTensor (or a pointer to one), or null.
const DeclRefExpr *tensorRef(const Expr *E) {
  const Expr *S = E->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(S))
    if (UO->getOpcode() == UO_AddrOf || UO->getOpcode() == UO_Deref)
      S = UO->getSubExpr()->IgnoreParenImpCasts();
  const auto *DRE = dyn_cast<DeclRefExpr>(S);
  if (!DRE || !isa<VarDecl>(DRE->getDecl()))
    return nullptr;
  QualType T = DRE->getType();
  return classifyDLPackType(T) == DLPackRecord::Tensor ||
                 classifyDLPackPointee(T) == DLPackRecord::Tensor
             ? DRE
             : nullptr;
}

} // namespace

DLPackLayoutFillers::DLPackLayoutFillers(const FunctionDecl &FD) {
  struct Calls : RecursiveASTVisitor<Calls> {
    DLPackLayoutFillers &Out;
    explicit Calls(DLPackLayoutFillers &Out) : Out(Out) {}
    bool VisitCallExpr(CallExpr *CE) {
      const FunctionDecl *Callee = CE->getDirectCallee();
      const FunctionDecl *Def = Callee ? Callee->getDefinition() : nullptr;
      if (!Def || !Def->getBody() || isa<CXXOperatorCallExpr>(CE) ||
          CE->getNumArgs() > Def->getNumParams())
        return true;
      llvm::SmallVector<const DeclRefExpr *, 1> Tensors;
      for (const Expr *A : CE->arguments())
        if (const DeclRefExpr *T = tensorRef(A))
          Tensors.push_back(T);
      if (Tensors.empty())
        return true;
      for (unsigned I = 0; I < CE->getNumArgs(); ++I)
        if (const VarDecl *V = localBuffer(CE->getArg(I)))
          if (writesLayoutInto(*Def, Def->getParamDecl(I)))
            Out.Filled[V].append(Tensors.begin(), Tensors.end());
      return true;
    }
  } C(*this);
  C.TraverseStmt(FD.getBody());
}

llvm::ArrayRef<const DeclRefExpr *>
DLPackLayoutFillers::tensorsFilling(const Expr *E) const {
  const VarDecl *V = localBuffer(E);
  auto It = V ? Filled.find(V) : Filled.end();
  if (It == Filled.end())
    return {};
  return It->second;
}

} // namespace clang::interop
