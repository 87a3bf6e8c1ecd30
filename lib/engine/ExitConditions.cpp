//===--- ExitConditions.cpp - calls that return only on a condition ------===//

#include "lib/engine/ExitConditions.h"

#include "lib/engine/FactCache.h"
#include "lib/support/AstHelpers.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"

namespace clang::interop {

namespace {

/// A by-value bool parameter of FD named by E (through parentheses and
/// implicit casts): what the caller passed is what the body tests.
const ParmVarDecl *boolParam(const Expr *E) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *P = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
  return P && P->getType()->isBooleanType() ? P : nullptr;
}

} // namespace

std::string ExitConditionNames::key() const {
  std::string K;
  appendListToKey(K, ThrowIfFunctions);
  appendListToKey(K, RequireFunctions);
  appendListToKey(K, TensorSources);
  return K;
}

ExitConditions::ExitConditions(const ExitConditionNames &Names)
    : ThrowIf(Names.ThrowIfFunctions), Require(Names.RequireFunctions),
      Sources(Names.TensorSources) {}

std::optional<ExitCondition> exitConditionOfBody(const FunctionDecl *Callee) {
  const FunctionDecl *Def = Callee ? Callee->getDefinition() : nullptr;
  const auto *Body =
      Def ? dyn_cast_or_null<CompoundStmt>(Def->getBody()) : nullptr;
  if (!Body || Body->body_empty())
    return std::nullopt;
  const auto *If = dyn_cast<IfStmt>(Body->body_front());
  if (!If || If->getInit() || If->getConditionVariable() || If->getElse() ||
      If->isConsteval() || !alwaysExits(If->getThen()))
    return std::nullopt;
  const Expr *Cond = If->getCond()->IgnoreParens();
  bool Negated = false;
  if (const auto *Not = dyn_cast<UnaryOperator>(Cond);
      Not && Not->getOpcode() == UO_LNot) {
    Negated = true;
    Cond = Not->getSubExpr();
  }
  const ParmVarDecl *P = boolParam(Cond);
  if (!P)
    return std::nullopt;
  // `if (!p) exit`: returns when p is true; `if (p) exit`: when false.
  return ExitCondition{P->getFunctionScopeIndex(), Negated};
}

std::optional<ExitCondition>
ExitConditions::ofCallee(const FunctionDecl &Callee) const {
  std::optional<ExitCondition> C = exitConditionOfBody(&Callee);
  if (!C && Callee.getNumParams() > 0 &&
      Callee.getParamDecl(0)->getType()->isBooleanType()) {
    if (ThrowIf.matches(&Callee))
      C = ExitCondition{0, false};
    else if (Require.matches(&Callee))
      C = ExitCondition{0, true};
  }
  return C;
}

std::optional<ExitCondition> ExitConditions::of(const CallExpr &Call) const {
  const FunctionDecl *Callee = Call.getDirectCallee();
  if (!Callee || isa<CXXOperatorCallExpr>(Call))
    return std::nullopt;
  std::optional<ExitCondition> C = Memo.get(
      Callee->getCanonicalDecl(), [&] { return ofCallee(*Callee); });
  if (C && C->Arg >= Call.getNumArgs())
    return std::nullopt;
  return C;
}

bool assumeExitCondition(const CallExpr &Call, const ExitConditions &Exits,
                         dataflow::Environment &Env) {
  std::optional<ExitCondition> C = Exits.of(Call);
  if (!C)
    return false;
  auto *B = Env.get<dataflow::BoolValue>(*Call.getArg(C->Arg));
  if (!B)
    return false;
  Env.assume(C->ReturnsWhen ? B->formula() : Env.arena().makeNot(B->formula()));
  return true;
}

} // namespace clang::interop
