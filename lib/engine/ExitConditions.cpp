//===--- DLPackValidators.cpp - helpers that throw on a false bool --------===//

#include "lib/dlpackfields/DLPackValidators.h"

#include "lib/support/AstHelpers.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"

namespace clang::interop {

namespace {

/// S never completes normally: a throw, a call of a noreturn function, or
/// a block whose last non-empty statement is one of those.
bool alwaysExits(const Stmt *S) {
  if (!S)
    return false;
  // The last statement that is not empty (`{ throw e; };` from a macro).
  if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
    for (auto It = CS->body_rbegin(); It != CS->body_rend(); ++It)
      if (!isa<NullStmt>(*It))
        return alwaysExits(*It);
    return false;
  }
  if (const auto *E = dyn_cast<Expr>(S)) {
    E = E->IgnoreParenImpCasts();
    if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
      E = EWC->getSubExpr()->IgnoreParenImpCasts();
    return neverReturns(*E);
  }
  return false;
}

} // namespace

std::optional<unsigned> requiredTrueParam(const FunctionDecl *Callee) {
  const FunctionDecl *Def = Callee ? Callee->getDefinition() : nullptr;
  const auto *Body =
      Def ? dyn_cast_or_null<CompoundStmt>(Def->getBody()) : nullptr;
  if (!Body || Body->body_empty())
    return std::nullopt;
  const auto *If = dyn_cast<IfStmt>(Body->body_front());
  if (!If || If->getInit() || If->getConditionVariable() || If->getElse() ||
      If->isConsteval() || !alwaysExits(If->getThen()))
    return std::nullopt;
  const auto *Not = dyn_cast<UnaryOperator>(If->getCond()->IgnoreParens());
  if (!Not || Not->getOpcode() != UO_LNot)
    return std::nullopt;
  const auto *DRE =
      dyn_cast<DeclRefExpr>(Not->getSubExpr()->IgnoreParenImpCasts());
  const auto *P = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
  // A by-value bool: what the caller passed is what the body tests.
  if (!P || !P->getType()->isBooleanType())
    return std::nullopt;
  return P->getFunctionScopeIndex();
}

} // namespace clang::interop
