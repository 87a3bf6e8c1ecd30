//===--- DeleterCalls.cpp - calls of a DLPack deleter ---------------------===//

#include "lib/abi/DeleterCalls.h"

#include "lib/abi/DLPackFields.h"
#include "lib/abi/DLPackTypes.h"
#include "lib/support/AstHelpers.h"

#include "clang/AST/ExprCXX.h"

namespace clang::interop {

const NamedDecl *byValueManagedTensor(const Expr *Arg) {
  const auto *UO = dyn_cast<UnaryOperator>(Arg->IgnoreParenCasts());
  if (!UO || UO->getOpcode() != UO_AddrOf)
    return nullptr;
  const Expr *Obj = UO->getSubExpr()->IgnoreParenImpCasts();
  if (!isManagedTensor(classifyDLPackType(Obj->getType())))
    return nullptr;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Obj))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (!VD->getType()->isReferenceType())
        return VD;
  if (const auto *ME = dyn_cast<MemberExpr>(Obj))
    if (!ME->isArrow() ||
        isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
      if (const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl()))
        if (!FD->getType()->isReferenceType())
          return FD;
  return nullptr;
}

bool isDeleterCall(const CallExpr *Call, const Expr **DeleterBase) {
  if (!Call || Call->getNumArgs() != 1)
    return false;
  const Expr *Callee = calledPointer(*Call);
  // auto del = t->deleter; ... del(t);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Callee))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (VD->hasLocalStorage() && VD->getInit())
        Callee = VD->getInit()->IgnoreParenImpCasts();
  const auto *ME = dyn_cast<MemberExpr>(Callee);
  if (!ME || dlpackFieldOfMember(ME) != DLPackField::Deleter)
    return false;
  if (DeleterBase)
    *DeleterBase = ME->getBase();
  return true;
}

} // namespace clang::interop
