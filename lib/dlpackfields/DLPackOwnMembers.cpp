//===--- DLPackOwnMembers.cpp - tensors a class builds itself -------------===//

#include "lib/dlpackfields/DLPackOwnMembers.h"

#include "lib/abi/DLPackFields.h"
#include "lib/engine/FactCache.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace clang::interop {
namespace {

/// A write of the layout: the field written is the shape or the strides.
bool isLayoutField(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  // `dl.strides[i] = ...`: an element of the array.
  while (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    E = AS->getBase()->IgnoreParenImpCasts();
  DLPackField F = dlpackFieldOfMember(E);
  return F == DLPackField::Shape || F == DLPackField::Strides;
}

/// The argument a copy or fill call writes: the last of std::copy's, the
/// first of memcpy's and std::fill's.
const Expr *destinationOf(const CallExpr &Call) {
  const FunctionDecl *F = Call.getDirectCallee();
  if (!F || !F->getIdentifier() || Call.getNumArgs() < 2)
    return nullptr;
  llvm::StringRef N = F->getName();
  if (N == "copy" || N == "copy_n" || N == "copy_backward")
    return Call.getArg(Call.getNumArgs() - 1);
  if (N == "memcpy" || N == "memmove" || N == "memset" || N == "fill" ||
      N == "fill_n")
    return Call.getArg(0);
  return nullptr;
}

class LayoutWrites : public RecursiveASTVisitor<LayoutWrites> {
public:
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp())
      wrote(BO->getLHS());
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *E) {
    if (E->isAssignmentOp() && E->getNumArgs() == 2)
      wrote(E->getArg(0));
    return true;
  }
  bool VisitCallExpr(CallExpr *Call) {
    if (const Expr *Dest = destinationOf(*Call))
      wrote(Dest);
    return true;
  }
  llvm::SmallPtrSet<const FieldDecl *, 2> Members;

private:
  void wrote(const Expr *E) {
    if (!isLayoutField(E))
      return;
    E = E->IgnoreParenImpCasts();
    while (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
      E = AS->getBase()->IgnoreParenImpCasts();
    if (const FieldDecl *M = thisMemberRootOf(E))
      Members.insert(M);
  }
};

} // namespace

const FieldDecl *thisMemberRootOf(const Expr *E) {
  constexpr int MaxSteps = 16, MaxHops = 4;
  int Hops = 0;
  for (int Step = 0; E && Step < MaxSteps; ++Step) {
    E = E->IgnoreParenImpCasts();
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      const Expr *Base = ME->getBase()->IgnoreParenImpCasts();
      if (isa<CXXThisExpr>(Base))
        return dyn_cast<FieldDecl>(ME->getMemberDecl());
      E = Base;
      continue;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E);
        UO && (UO->getOpcode() == UO_Deref || UO->getOpcode() == UO_AddrOf)) {
      E = UO->getSubExpr();
      continue;
    }
    // A smart pointer's `*` and `->`, and its get().
    if (const auto *OCE = dyn_cast<CXXOperatorCallExpr>(E);
        OCE && OCE->getNumArgs() == 1 &&
        (OCE->getOperator() == OO_Star || OCE->getOperator() == OO_Arrow)) {
      E = OCE->getArg(0);
      continue;
    }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E);
        MC && MC->getNumArgs() == 0 && MC->getMethodDecl() &&
        MC->getMethodDecl()->getIdentifier() &&
        MC->getMethodDecl()->getName() == "get") {
      E = MC->getImplicitObjectArgument();
      continue;
    }
    // A local reference bound to the member's tensor.
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (!VD || isa<ParmVarDecl>(VD) || !VD->hasLocalStorage() ||
          !VD->getType()->isReferenceType() || !VD->getInit() ||
          ++Hops > MaxHops)
        return nullptr;
      E = VD->getInit();
      continue;
    }
    return nullptr;
  }
  return nullptr;
}

bool isOwnTensorMember(const FieldDecl &M) {
  const auto *Parent = dyn_cast<CXXRecordDecl>(M.getParent());
  const CXXRecordDecl *Class = Parent ? Parent->getDefinition() : nullptr;
  if (!Class)
    return false;
  using MemberSet = llvm::SmallPtrSet<const FieldDecl *, 2>;
  static DeclMemo<MemberSet> Memo;
  const MemberSet &Own = Memo.get(Class->getCanonicalDecl(), [&] {
    LayoutWrites Walk;
    for (const CXXMethodDecl *MD : Class->methods()) {
      const FunctionDecl *Def = nullptr;
      if (MD->hasBody(Def) && Def)
        Walk.TraverseStmt(Def->getBody());
    }
    return Walk.Members;
  });
  return Own.contains(&M);
}

} // namespace clang::interop
