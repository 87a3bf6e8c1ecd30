//===--- NullContracts.cpp - callees that need a non-NULL argument --------===//

#include "lib/engine/NullContracts.h"

#include "lib/engine/FactCache.h"

#include "clang/AST/Expr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"

#include <cstdint>

namespace clang::interop {

namespace {

/// The first use of P in a statement, in source order: whether it is a
/// dereference (the operand of `->`, unary `*` or a subscript), or any
/// other use (a test, a store, an argument, a copy).
class FirstUse : public RecursiveASTVisitor<FirstUse> {
public:
  explicit FirstUse(const ParmVarDecl *P) : P(P) {}
  bool shouldVisitLambdaBody() const { return false; }

  bool TraverseMemberExpr(MemberExpr *ME) {
    if (ME->isArrow() && names(ME->getBase()))
      return found(true);
    return RecursiveASTVisitor::TraverseMemberExpr(ME);
  }
  bool TraverseUnaryOperator(UnaryOperator *UO) {
    if (UO->getOpcode() == UO_Deref && names(UO->getSubExpr()))
      return found(true);
    return RecursiveASTVisitor::TraverseUnaryOperator(UO);
  }
  bool TraverseArraySubscriptExpr(ArraySubscriptExpr *AS) {
    if (names(AS->getBase()))
      return found(true);
    return RecursiveASTVisitor::TraverseArraySubscriptExpr(AS);
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    return DRE->getDecl() == P ? found(false) : true;
  }
  // What only some evaluations reach (the right of `&&` and `||`, the arms
  // of `?:`) is no unconditional dereference.
  bool TraverseBinaryOperator(BinaryOperator *BO) {
    if (!BO->isLogicalOp())
      return RecursiveASTVisitor::TraverseBinaryOperator(BO);
    return TraverseStmt(BO->getLHS()) && conditionally(BO->getRHS());
  }
  bool TraverseConditionalOperator(ConditionalOperator *CO) {
    return TraverseStmt(CO->getCond()) && conditionally(CO->getTrueExpr()) &&
           conditionally(CO->getFalseExpr());
  }

  const ParmVarDecl *P;
  bool Seen = false, Deref = false;

private:
  bool names(const Expr *E) const {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE && DRE->getDecl() == P;
  }
  bool conditionally(Expr *E) {
    ++Conditional;
    bool Go = TraverseStmt(E);
    --Conditional;
    return Go;
  }
  bool found(bool IsDeref) {
    Seen = true;
    Deref = IsDeref && Conditional == 0;
    return false;
  }
  int Conditional = 0;
};

/// The parameters (a bit per index, the first 64) FD dereferences first.
std::uint64_t derefsFirst(const FunctionDecl &FD) {
  const FunctionDecl *Def = FD.getDefinition();
  const auto *Body = Def ? dyn_cast_or_null<CompoundStmt>(Def->getBody())
                         : nullptr;
  std::uint64_t Out = 0;
  if (!Body)
    return Out;
  for (unsigned I = 0; I < Def->getNumParams() && I < 64; ++I) {
    const ParmVarDecl *P = Def->getParamDecl(I);
    if (!P->getType()->isPointerType())
      continue;
    for (const Stmt *S : Body->body()) {
      FirstUse U(P);
      U.TraverseStmt(const_cast<Stmt *>(S));
      if (!U.Seen)
        continue;
      // Only a statement that runs whole, unconditionally, says which use
      // comes first; a branch on anything may skip the dereference.
      if (U.Deref && (isa<Expr>(S) || isa<DeclStmt>(S) || isa<ReturnStmt>(S)))
        Out |= std::uint64_t(1) << I;
      break;
    }
  }
  return Out;
}

} // namespace

bool dereferencesBeforeTest(const FunctionDecl &Callee, unsigned I) {
  static const DeclMemo<std::uint64_t> Memo;
  if (I >= 64)
    return false;
  std::uint64_t Bits = Memo.get(Callee.getCanonicalDecl(),
                                [&] { return derefsFirst(Callee); });
  return (Bits >> I) & 1;
}

} // namespace clang::interop
