//===--- ArrayDeviceEquivalentForms.cpp - other spellings of a fact -------===//

#include "lib/arraydevice/ArrayDeviceEquivalentForms.h"

#include "lib/support/AstHelpers.h"

#include "clang/AST/Expr.h"

namespace clang::interop::arraydevice {

using namespace clang::dataflow;

namespace {

/// Properties of an integer value: the device's addressability, for the
/// index of the process owning it; literal true, for this process's index.
constexpr llvm::StringLiteral kProcessOf = "process_of";
constexpr llvm::StringLiteral kIsCurrentProcess = "is_current_process";

const FieldDecl *memberField(const Stmt &St) {
  const auto *ME = dyn_cast<MemberExpr>(&St);
  return ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
}

/// The value of an operand with one of the two properties, looking through
/// implicit casts and parentheses.
Value *indexValue(const Expr *E, const Environment &Env) {
  return valueThroughCasts(E, Env, [](const Value &V) {
    return V.getProperty(kProcessOf) || V.getProperty(kIsCurrentProcess);
  });
}

/// The device a process-index accessor is about: its receiver, or for a free
/// function its first device argument.
RecordStorageLocation *deviceOf(const CallExpr &CE, State &S) {
  if (receiverOf(CE))
    return receiverLoc(CE, S.Env);
  for (unsigned I = 0, N = CE.getNumArgs(); I < N; ++I)
    if (S.Model.classifyPointee(paramType(CE, I)) == TypeRole::Device)
      return modelledObject(S.Model, objectLoc(*CE.getArg(I), S.Env), S);
  return nullptr;
}

} // namespace

bool readsProcessIndex(const ApiModel &M, const Stmt &St) {
  if (const auto *CE = dyn_cast<CallExpr>(&St)) {
    FnRoles R = M.classify(CE->getDirectCallee());
    return R.has(FnRole::ProcessIndexOf) || R.has(FnRole::CurrentProcessIndex);
  }
  return M.isCurrentProcessIndexField(memberField(St));
}

void transferProcessIndexRead(const Stmt *St, State &S) {
  Environment &Env = S.Env;
  if (const auto *CE = dyn_cast<CallExpr>(St)) {
    if (!CE->getType()->isIntegralOrEnumerationType())
      return;
    Value &V = Env.create<IntegerValue>();
    if (S.Model.classify(CE->getDirectCallee()).has(FnRole::ProcessIndexOf)) {
      BoolValue *Addressable = getBool(deviceOf(*CE, S), kAddressable, Env);
      if (!Addressable)
        return;
      V.setProperty(kProcessOf, *Addressable);
    } else {
      V.setProperty(kIsCurrentProcess, Env.getBoolLiteralValue(true));
    }
    Env.setValue(*CE, V);
    return;
  }
  // A field holding this process's index (current_topology().process_index):
  // what a read of it gives.
  const auto *ME = cast<MemberExpr>(St);
  if (!ME->isGLValue() || !ME->getType()->isIntegralOrEnumerationType())
    return;
  StorageLocation *Loc = Env.getStorageLocation(*ME);
  if (!Loc)
    return;
  if (Value *Old = Env.getValue(*Loc);
      Old && Old->getProperty(kIsCurrentProcess))
    return;
  Value &V = Env.create<IntegerValue>();
  V.setProperty(kIsCurrentProcess, Env.getBoolLiteralValue(true));
  Env.setValue(*Loc, V);
}

bool holdsCurrentProcessIndex(const VarDecl &V, const Environment &Env) {
  Value *Val = Env.getValue(V);
  return Val && Val->getProperty(kIsCurrentProcess);
}

void setCurrentProcessIndex(const VarDecl &V, Environment &Env) {
  StorageLocation *Loc = Env.getStorageLocation(V);
  if (!Loc || !V.getType()->isIntegralOrEnumerationType())
    return;
  Value &Val = Env.create<IntegerValue>();
  Val.setProperty(kIsCurrentProcess, Env.getBoolLiteralValue(true));
  Env.setValue(*Loc, Val);
}

bool comparesProcessIndices(const BinaryOperator &BO, const Environment &Env) {
  if (BO.getOpcode() != BO_EQ && BO.getOpcode() != BO_NE)
    return false;
  Value *L = indexValue(BO.getLHS(), Env);
  Value *R = indexValue(BO.getRHS(), Env);
  if (!L || !R)
    return false;
  auto Owner = [](Value *V) { return V->getProperty(kProcessOf) != nullptr; };
  return Owner(L) != Owner(R);
}

void transferProcessIndexComparison(const BinaryOperator *BO, State &S) {
  Environment &Env = S.Env;
  Value *L = indexValue(BO->getLHS(), Env);
  Value *R = indexValue(BO->getRHS(), Env);
  auto *Addressable = dyn_cast_or_null<BoolValue>(L->getProperty(kProcessOf));
  if (!Addressable)
    Addressable = dyn_cast_or_null<BoolValue>(R->getProperty(kProcessOf));
  if (!Addressable)
    return;
  Env.setValue(*BO, BO->getOpcode() == BO_EQ ? *Addressable
                                             : Env.makeNot(*Addressable));
}

namespace {

/// A conditional whose arms are calls or name objects (their statements are
/// where noteConditionalArm() sees each arm end), one of them a call: two
/// named objects keep their facts through the join on their own.
bool armsAreNoted(const AbstractConditionalOperator &CO) {
  const Expr *T = CO.getTrueExpr()->IgnoreParenImpCasts();
  const Expr *F = CO.getFalseExpr()->IgnoreParenImpCasts();
  auto Noted = [](const Expr *E) {
    return isa<CallExpr, DeclRefExpr, MemberExpr>(E);
  };
  return Noted(T) && Noted(F) && (isa<CallExpr>(T) || isa<CallExpr>(F));
}

} // namespace

void noteConditionalArm(const Stmt &St, State &S) {
  // The conditional the arm belongs to, through the casts to the arms'
  // common type (`const Device &` and `Device &` arms) and parentheses, as
  // the function's body scan recorded it (asking the AST for parents would
  // build the parent map of the whole translation unit).
  const auto *E = dyn_cast<Expr>(&St);
  const AbstractConditionalOperator *CO =
      E ? S.Ctx.ConditionalArms.lookup(E) : nullptr;
  if (!CO || !E->isGLValue() ||
      S.Model.classify(E->getType()) == TypeRole::None)
    return;
  if (!CO->isGLValue() || !armsAreNoted(*CO) ||
      (CO->getTrueExpr()->IgnoreParenImpCasts() != E &&
       CO->getFalseExpr()->IgnoreParenImpCasts() != E))
    return;
  Environment &Env = S.Env;
  auto *Arm = Env.get<RecordStorageLocation>(*E);
  if (!Arm)
    return;
  RecordStorageLocation &Result =
      S.Ctx.Stable.get(CO, CO->getType(), Env, /*Fresh=*/false);
  for (const auto &Entry : Result.synthetic_fields()) {
    if (!Entry.getValue()->getType()->isBooleanType())
      continue;
    BoolValue *V = getBool(Arm, Entry.getKey(), Env);
    if (!V)
      continue;
    // A plain value of the same formula: the join of two arms correlates
    // plain values with each arm's path, and gives up on a top value.
    Env.setValue(*Entry.getValue(), Env.arena().makeBoolValue(V->formula()));
  }
  setOrigin(S, &Result, originOf(S.Lattice, Arm));
}

bool conditionalFromArms(const AbstractConditionalOperator &CO, State &S) {
  if (!armsAreNoted(CO))
    return false;
  Environment &Env = S.Env;
  RecordStorageLocation &Result =
      S.Ctx.Stable.get(&CO, CO.getType(), Env, /*Fresh=*/false);
  for (const auto &Entry : Result.synthetic_fields())
    if (Entry.getValue()->getType()->isBooleanType() &&
        !Env.getValue(*Entry.getValue()))
      return false;
  Env.setStorageLocation(CO, Result);
  return true;
}

} // namespace clang::interop::arraydevice
