//===--- ValueFacts.cpp - what values mean to every family ----------------===//

#include "lib/engine/ValueFacts.h"

#include "clang/AST/ExprCXX.h"

namespace clang::interop {

using namespace dataflow;

namespace {

/// Whether E is the constant 0 (or `false`), through parentheses and
/// implicit conversions.
bool isZeroConstant(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *IL = dyn_cast<IntegerLiteral>(E))
    return IL->getValue().isZero();
  if (const auto *BL = dyn_cast<CXXBoolLiteralExpr>(E))
    return !BL->getValue();
  return false;
}

/// The truth an integer operand holds (its value is a BoolValue), or null.
BoolValue *truthOf(const Expr *E, const Environment &Env) {
  if (!E->getType()->isIntegerType() || E->getType()->isBooleanType())
    return nullptr;
  return dyn_cast_or_null<BoolValue>(Env.getValue(*E));
}

/// The truth operand's value and whether the other operand is 0.
BoolValue *truthCompared(const BinaryOperator &E, const Environment &Env) {
  if (E.getOpcode() != BO_EQ && E.getOpcode() != BO_NE)
    return nullptr;
  if (isZeroConstant(E.getRHS()))
    return truthOf(E.getLHS(), Env);
  if (isZeroConstant(E.getLHS()))
    return truthOf(E.getRHS(), Env);
  return nullptr;
}

} // namespace

bool isTruthComparison(const BinaryOperator &E, const Environment &Env) {
  return truthCompared(E, Env) != nullptr;
}

void transferTruthComparison(const BinaryOperator &E, Environment &Env) {
  BoolValue *T = truthCompared(E, Env);
  if (!T)
    return;
  // `flag != 0` is the truth itself, `flag == 0` its negation.
  Env.setValue(E, E.getOpcode() == BO_NE ? *T : Env.makeNot(*T));
}

} // namespace clang::interop
