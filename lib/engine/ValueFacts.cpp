//===--- ValueFacts.cpp - what values mean to every family ----------------===//

#include "lib/engine/ValueFacts.h"

#include "lib/support/LLVMCompat.h"

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

void markNullPointer(const CastExpr &E, Environment &Env) {
  auto *P = dyn_cast_or_null<PointerValue>(Env.getValue(E));
  if (P && !P->getProperty(kNull))
    P->setProperty(kNull, Env.getBoolLiteralValue(true));
}

void joinBoolProperty(llvm::StringRef Name, const Value &V1,
                      const Environment &E1, const Value &V2,
                      const Environment &E2, Value &Joined,
                      Environment &JoinedEnv, bool NeedBoth) {
  auto *B1 = dyn_cast_or_null<BoolValue>(V1.getProperty(Name));
  auto *B2 = dyn_cast_or_null<BoolValue>(V2.getProperty(Name));
  if (NeedBoth ? !B1 || !B2 : !B1 && !B2)
    return;
  if (B1 == B2) {
    Joined.setProperty(Name, *B1);
    return;
  }
  Arena &A = JoinedEnv.arena();
  BoolValue &J = JoinedEnv.makeAtomicBoolValue();
  auto Side = [&](const Environment &E, BoolValue *B) -> const Formula & {
    const Formula &Token = A.makeAtomRef(E.getFlowConditionToken());
    return B ? A.makeAnd(Token, A.makeEquals(J.formula(), B->formula()))
             : Token;
  };
  JoinedEnv.assume(A.makeOr(Side(E1, B1), Side(E2, B2)));
  Joined.setProperty(Name, J);
}

llvm::StringMap<QualType> syntheticFieldsWithBases(
    QualType T, ASTContext &Ctx,
    llvm::function_ref<llvm::StringMap<QualType>(QualType)> Own) {
  llvm::StringMap<QualType> Out = Own(T);
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition())
    return Out;
  // Every base, direct or not: the framework flattens them into the object.
  RD->forallBases([&](const CXXRecordDecl *Base) {
    for (const auto &Entry : Own(compat::recordType(Ctx, Base)))
      Out.try_emplace(Entry.getKey(), Entry.getValue());
    return true;
  });
  return Out;
}

StorageLocation *syntheticField(const RecordStorageLocation *Loc,
                                llvm::StringRef Name) {
  if (!Loc)
    return nullptr;
  for (const auto &Entry : Loc->synthetic_fields())
    if (Entry.getKey() == Name)
      return Entry.getValue();
  return nullptr;
}

const Formula &oneOfChoices(llvm::ArrayRef<const Formula *> PerChoice,
                            Environment &Env) {
  assert(!PerChoice.empty() && "a comparison with no choice");
  if (PerChoice.size() == 1)
    return *PerChoice.front();
  Arena &A = Env.arena();
  const Formula *Some = PerChoice.front();
  const Formula *SomeFails = &A.makeNot(*Some);
  for (const Formula *F : PerChoice.drop_front()) {
    Some = &A.makeOr(*Some, *F);
    SomeFails = &A.makeOr(*SomeFails, A.makeNot(*F));
  }
  const Formula &Truth = A.makeAtomRef(A.makeAtom());
  DataflowAnalysisContext &DACtx = Env.getDataflowAnalysisContext();
  DACtx.addInvariant(A.makeImplies(Truth, *Some));
  DACtx.addInvariant(A.makeImplies(A.makeNot(Truth), *SomeFails));
  return Truth;
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

namespace {

/// Fields of a record reached through a joined pointer that a join keeps,
/// at most: a DLPack record has about ten.
constexpr unsigned MaxJoinedFields = 32;

} // namespace

void JoinedFields::joinRecords(
    const RecordStorageLocation &R1, const Environment &E1,
    const RecordStorageLocation &R2, const Environment &E2,
    RecordStorageLocation &Joined, unsigned Depth, unsigned &Budget,
    llvm::function_ref<Value *(QualType, Value &, Value &)> Merge) {
  for (auto [Field, JoinedLoc] : Joined.children()) {
    if (!Field || !JoinedLoc || Budget == 0)
      continue;
    StorageLocation *L1 = R1.getChild(*Field), *L2 = R2.getChild(*Field);
    if (!L1 || !L2)
      continue;
    --Budget;
    if (auto *Sub = dyn_cast<RecordStorageLocation>(JoinedLoc)) {
      if (Depth < 2)
        joinRecords(cast<RecordStorageLocation>(*L1), E1,
                    cast<RecordStorageLocation>(*L2), E2, *Sub, Depth + 1,
                    Budget, Merge);
      continue;
    }
    // A side that is itself a joined record may not have read the field
    // yet: its kept value stands for it.
    Value *F1 = E1.getValue(*L1), *F2 = E2.getValue(*L2);
    if (!F1)
      F1 = Kept.lookup(L1);
    if (!F2)
      F2 = Kept.lookup(L2);
    if (!F1 || !F2)
      continue;
    if (Value *F = F1 == F2 ? F1 : Merge(Field->getType(), *F1, *F2))
      Kept[JoinedLoc] = F;
  }
}

void JoinedFields::join(
    const Value &V1, const Environment &E1, const Value &V2,
    const Environment &E2, Value &Joined,
    llvm::function_ref<Value *(QualType, Value &, Value &)> Merge) {
  const auto *P1 = dyn_cast<PointerValue>(&V1);
  const auto *P2 = dyn_cast<PointerValue>(&V2);
  const auto *PJ = dyn_cast<PointerValue>(&Joined);
  if (!P1 || !P2 || !PJ)
    return;
  auto *R1 = dyn_cast<RecordStorageLocation>(&P1->getPointeeLoc());
  auto *R2 = dyn_cast<RecordStorageLocation>(&P2->getPointeeLoc());
  auto *RJ = dyn_cast<RecordStorageLocation>(&PJ->getPointeeLoc());
  if (!R1 || !R2 || !RJ || R1 == R2 || RJ == R1 || RJ == R2)
    return;
  unsigned Budget = MaxJoinedFields;
  joinRecords(*R1, E1, *R2, E2, *RJ, 0, Budget, Merge);
}

Value *JoinedFields::valueAt(StorageLocation &L, Environment &Env) const {
  if (Value *V = Env.getValue(L))
    return V;
  auto It = Kept.find(&L);
  Value *V = It != Kept.end() ? It->second : Env.createValue(L.getType());
  if (V)
    Env.setValue(L, *V);
  return V;
}

bool ValueChoices::cast(const Value &From, const Value &To) {
  auto It = Map.find(&From);
  if (It == Map.end() || &From == &To)
    return false;
  // Copied first: inserting To may move the map's storage.
  llvm::SmallVector<Choice, 2> Same = It->second;
  Map[&To] = std::move(Same);
  return true;
}

llvm::ArrayRef<ValueChoices::Choice>
ValueChoices::of(const Value &V) const {
  auto It = Map.find(&V);
  if (It == Map.end())
    return {};
  return It->second;
}

} // namespace clang::interop
