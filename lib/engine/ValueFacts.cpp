//===--- ValueFacts.cpp - what values mean to every family ----------------===//

#include "lib/engine/ValueFacts.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Analysis/FlowSensitive/Arena.h"
#include "clang/Analysis/FlowSensitive/Formula.h"

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

BoolValue &nullAtomOf(Value &V, Environment &Env) {
  if (auto *B = dyn_cast_or_null<BoolValue>(V.getProperty(kNull)))
    return *B;
  BoolValue &B = Env.makeAtomicBoolValue();
  V.setProperty(kNull, B);
  return B;
}

Value *valueOrFresh(const Expr &E, Environment &Env) {
  if (Value *V = Env.getValue(E))
    return V;
  Value *V = Env.createValue(E.getType());
  if (V)
    Env.setValue(E, *V);
  return V;
}

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

void ValueChoices::join(const Value &V1, const Environment &E1,
                        const Value &V2, const Environment &E2, Value &Joined,
                        Environment &JoinedEnv,
                        llvm::function_ref<bool(const Value &)> Tracked) {
  auto Expand = [&](const Value &V, llvm::SmallVectorImpl<Choice> &Out) {
    auto It = Map.find(&V);
    if (It != Map.end()) {
      Out.append(It->second.begin(), It->second.end());
      return true;
    }
    if (!Tracked(V))
      return false;
    Out.push_back({&V, nullptr});
    return true;
  };
  llvm::SmallVector<Choice, 2> From1, From2;
  bool Any1 = Expand(V1, From1), Any2 = Expand(V2, From2);
  if (!Any1 && !Any2)
    return;
  // C: "the joined value came from the first side", true on E1's paths and
  // false on E2's (the flow conditions of the two sides, as a family's
  // joined facts are kept).
  Arena &A = JoinedEnv.arena();
  const Formula &C = A.makeAtomRef(A.makeAtom());
  JoinedEnv.assume(A.makeOr(
      A.makeAnd(A.makeAtomRef(E1.getFlowConditionToken()), C),
      A.makeAnd(A.makeAtomRef(E2.getFlowConditionToken()), A.makeNot(C))));
  llvm::SmallVector<Choice, 2> &Out = Map[&Joined];
  Out.clear();
  for (const Choice &X : From1)
    Out.push_back({X.V, X.When ? &A.makeAnd(C, *X.When) : &C});
  const Formula &NotC = A.makeNot(C);
  for (const Choice &X : From2)
    Out.push_back({X.V, X.When ? &A.makeAnd(NotC, *X.When) : &NotC});
}

llvm::ArrayRef<ValueChoices::Choice>
ValueChoices::of(const Value &V) const {
  auto It = Map.find(&V);
  if (It == Map.end())
    return {};
  return It->second;
}

} // namespace clang::interop
