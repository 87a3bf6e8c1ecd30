//===--- ReturnedTensors.cpp - tensors a function builds and returns ------===//

#include "lib/abi/ReturnedTensors.h"

#include "lib/abi/DLPackFields.h"
#include "lib/abi/DLPackTypes.h"
#include "lib/abi/MemoryCalls.h"
#include "lib/support/AstHelpers.h"
#include "lib/support/DeclMemo.h"
#include "lib/support/LocalStores.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::interop {
namespace {

/// The local E names, through parentheses and implicit casts.
const DeclRefExpr *localRef(const Expr *E) {
  const auto *DRE =
      E ? dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()) : nullptr;
  return DRE && LocalStores::localNamed(DRE) ? DRE : nullptr;
}

/// One walk of a body (not its lambdas: their returns are theirs): the
/// returned expressions, the locals it writes a DLPack field of, every
/// reference to a local, and the references that only reach the local's
/// fields, test it, return it, store into it or free it.
class Walk : public RecursiveASTVisitor<Walk> {
public:
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }

  bool VisitReturnStmt(ReturnStmt *R) {
    Returns.push_back(R->getRetValue());
    inert(R->getRetValue());
    return true;
  }
  bool VisitMemberExpr(MemberExpr *ME) {
    inert(ME->getBase());
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->getOpcode() == BO_Assign) {
      inert(BO->getLHS());
      // `m.dl_tensor.data = p`, `m->deleter = d`: the root of the chain.
      const Expr *E = BO->getLHS()->IgnoreParenImpCasts();
      if (dlpackFieldOfMember(E) != DLPackField::None) {
        while (const auto *ME = dyn_cast<MemberExpr>(E))
          E = ME->getBase()->IgnoreParenImpCasts();
        if (const DeclRefExpr *DRE = localRef(E))
          Built.insert(cast<VarDecl>(DRE->getDecl()));
      }
    } else if (BO->isEqualityOp() || BO->isLogicalOp()) {
      inert(BO->getLHS());
      inert(BO->getRHS());
    }
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->getOpcode() == UO_LNot)
      inert(UO->getSubExpr());
    return true;
  }
  bool VisitIfStmt(IfStmt *S) {
    inert(S->getCond());
    return true;
  }
  bool VisitCXXDeleteExpr(CXXDeleteExpr *D) {
    inert(D->getArgument());
    return true;
  }
  bool VisitCallExpr(CallExpr *C) {
    // free(m) on a path that returns NULL; memset(m, 0, ...) filling it.
    for (unsigned I = 0; I < C->getNumArgs(); ++I)
      if ((I == 0 && isRawDeallocation(C)) ||
          isCopyDestination(C->getDirectCallee(), I))
        inert(C->getArg(I));
    return true;
  }
  // `sizeof(*m)`: not evaluated.
  bool TraverseUnaryExprOrTypeTraitExpr(UnaryExprOrTypeTraitExpr *) {
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (LocalStores::localNamed(DRE))
      Refs.push_back(DRE);
    return true;
  }

  llvm::SmallVector<const Expr *, 4> Returns;
  llvm::SmallPtrSet<const VarDecl *, 4> Built;
  llvm::SmallVector<const DeclRefExpr *, 16> Refs;
  llvm::SmallPtrSet<const DeclRefExpr *, 16> Inert;

private:
  void inert(const Expr *E) {
    if (const DeclRefExpr *DRE = localRef(E))
      Inert.insert(DRE);
  }
};

/// E makes a fresh record: `new DLManagedTensor...`, `(T *)malloc(...)`.
bool isAllocation(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (isa<CXXNewExpr>(E))
    return true;
  const auto *Cast = dyn_cast<ExplicitCastExpr>(E);
  return Cast && isRawAllocation(Cast->getSubExpr());
}

ReturnedTensor read(const FunctionDecl &Def, bool ByValue) {
  Walk W;
  W.TraverseStmt(Def.getBody());
  ASTContext &Ctx = Def.getASTContext();
  const LocalStores &Stores = localStoresOf(Def);
  llvm::SmallPtrSet<const VarDecl *, 4> Returned;
  bool Some = false;
  for (const Expr *R : W.Returns) {
    if (!R)
      return {};
    R = ignoreTemporaries(R)->IgnoreParenImpCasts();
    if (const auto *Copy = dyn_cast<CXXConstructExpr>(R);
        Copy && Copy->getNumArgs() == 1)
      R = Copy->getArg(0)->IgnoreParenImpCasts();
    if (isNullConstant(R, Ctx))
      continue;
    Some = true;
    if (isAllocation(R))
      continue;
    const VarDecl *V = LocalStores::localNamed(R);
    if (!V || isa<ParmVarDecl>(V) || !W.Built.contains(V))
      return {};
    Returned.insert(V);
    if (ByValue)
      continue;
    const LocalStores::Stores *S = Stores.of(V);
    if (!S || S->Opaque || !S->Partial.empty() || S->Whole.empty() ||
        !llvm::all_of(S->Whole, [&](const Expr *W) {
          return isAllocation(W) || isNullConstant(W, Ctx);
        }))
      return {};
  }
  if (!Some)
    return {};
  ReturnedTensor Out;
  Out.Built = true;
  DLPackRecord Pointee = classifyDLPackPointee(Def.getReturnType());
  Out.Fresh = !ByValue &&
              (Pointee == DLPackRecord::ManagedTensor ||
               Pointee == DLPackRecord::ManagedTensorVersioned) &&
              llvm::all_of(W.Refs, [&](const DeclRefExpr *DRE) {
                return !Returned.contains(cast<VarDecl>(DRE->getDecl())) ||
                       W.Inert.contains(DRE);
              });
  return Out;
}

} // namespace

const ReturnedTensor &returnedTensorOf(const FunctionDecl &Callee) {
  static const ReturnedTensor None;
  const FunctionDecl *Def = Callee.getDefinition();
  if (!Def || !Def->getBody())
    return None;
  QualType RT = Def->getReturnType();
  bool ByValue = classifyDLPackType(RT) != DLPackRecord::None;
  if (!ByValue && classifyDLPackPointee(RT) == DLPackRecord::None)
    return None;
  static DeclMemo<ReturnedTensor> Memo;
  return Memo.get(Def->getCanonicalDecl(), [&] { return read(*Def, ByValue); });
}

} // namespace clang::interop
