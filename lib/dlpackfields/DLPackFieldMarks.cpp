//===--- DLPackFieldMarks.cpp - field values and what they carry ---------===//

#include "lib/dlpackfields/DLPackFieldMarks.h"

#include "lib/abi/DLPackTypes.h"
#include "lib/engine/LocalValues.h"
#include "lib/engine/ValueFacts.h"
#include "lib/support/AstHelpers.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Analysis/FlowSensitive/RecordOps.h"
#include "clang/Analysis/FlowSensitive/Value.h"

namespace clang::interop::dlpackfield {

using namespace clang::dataflow;

namespace {
/// A producer wrote field F (at Loc): what it holds, or every tracked field
/// of the record it is, is the producer's own. False for a field the model
/// does not track.
bool markMemberLocal(DLPackField F, StorageLocation *Loc, QualType T,
                     FieldState &S, int Depth);
} // namespace

/// The scalar fields whose values carry the model's facts.
const ExitConditions &exitConditionsOf(const FieldState &S) {
  static const ExitConditions BodiesOnly;
  return S.RC.Compiled ? S.RC.Compiled->Exits : BodiesOnly;
}

bool isTrackedField(DLPackField F) {
  switch (F) {
  case DLPackField::Data:
  case DLPackField::Strides:
  case DLPackField::ByteOffset:
  case DLPackField::DeviceType:
  case DLPackField::Major:
  case DLPackField::Flags:
    return true;
  default:
    return false;
  }
}

/// Marks V as the value of a field (Marker) and gives it the atoms the
/// model's conditions constrain, once.
void markField(Value &V, llvm::StringRef Marker,
               std::initializer_list<llvm::StringRef> Atoms, Environment &Env) {
  if (V.getProperty(Marker))
    return;
  V.setProperty(Marker, Env.getBoolLiteralValue(true));
  for (llvm::StringRef A : Atoms)
    atomProp(V, A, Env);
}

void initFieldValue(Value &V, DLPackField F, const MemberExpr *ME,
                    const Expr *Site, FieldState &S) {
  Environment &Env = S.Env;
  if (isLocal(&V))
    return;
  switch (F) {
  case DLPackField::Data:
    if (!V.getProperty(kDataTensor)) {
      RecordStorageLocation *R = recordOfMemberBase(ME, Env);
      if (!R)
        return;
      V.setProperty(kDataTensor, Env.create<PointerValue>(*R));
      V.setProperty(kDataOffset, Env.getBoolLiteralValue(false));
      // t->dl_tensor.data of a versioned managed tensor.
      if (const auto *Inner =
              dyn_cast<MemberExpr>(ME->getBase()->IgnoreParenImpCasts()))
        if (classifyDLPackField(dyn_cast<FieldDecl>(Inner->getMemberDecl())) ==
                DLPackField::DLTensor &&
            dlpackOwnerOf(cast<FieldDecl>(Inner->getMemberDecl())) ==
                DLPackRecord::ManagedTensorVersioned)
          if (RecordStorageLocation *M = recordOfMemberBase(Inner, Env))
            V.setProperty(kDataManaged, Env.create<PointerValue>(*M));
    }
    break;
  case DLPackField::Strides:
    markField(V, kStrides, {kNull}, Env);
    break;
  case DLPackField::ByteOffset:
    markField(V, kByteOffset, {kZero}, Env);
    break;
  case DLPackField::DeviceType:
    markField(V, kDeviceType, {kHost}, Env);
    break;
  case DLPackField::Major:
    markField(V, kMajor, {kMajorOk, kMajorAssertOk}, Env);
    break;
  case DLPackField::Flags:
    markField(V, kFlags, {kReadOnly}, Env);
    break;
  default:
    return;
  }
  S.RC.ReadSite.try_emplace(&V, Site);
}

Value *cloneTracked(Value &V, QualType NewType, FieldState &S) {
  Environment &Env = S.Env;
  Value *New = nullptr;
  if (!isa<PointerValue>(V) && !isa<IntegerValue>(V))
    return nullptr;
  // The kind follows the new type: a data pointer turned into an address
  // (`reinterpret_cast<uintptr_t>(t->data)`) and back keeps its facts.
  if (NewType->isPointerType())
    New = &Env.create<PointerValue>(
        Env.createStorageLocation(NewType->getPointeeType()));
  else if (NewType->isIntegralOrEnumerationType() &&
           (isa<IntegerValue>(V) || hasProp(&V, kDataTensor)))
    New = &Env.create<IntegerValue>();
  else
    return nullptr;
  for (const auto &P : V.properties())
    New->setProperty(P.getKey(), *P.getValue());
  S.RC.Origin[New] = originOf(S.RC, &V);
  return New;
}

void propagate(const Expr *To, const Expr *From, FieldState &S) {
  Environment &Env = S.Env;
  if (!To->isPRValue())
    return;
  QualType T = To->getType();
  if (!T->isPointerType() && !T->isIntegralOrEnumerationType())
    return;
  Value *V = trackedValueOf(From, Env);
  if (!V || Env.getValue(*To) == V)
    return;
  Value *Existing = Env.getValue(*To);
  // A clone made on an earlier visit of this element already carries V's
  // facts; making another would only grow the state.
  if (Existing && originOf(S.RC, Existing) == originOf(S.RC, V) &&
      isTracked(Existing))
    return;
  // Keep the value itself when its kind fits, so that identity (and with it
  // every fact) survives `int64_t *s = (int64_t *)t->strides;`.
  bool SameKind = (isa<PointerValue>(V) && T->isPointerType()) ||
                  (isa<IntegerValue>(V) && T->isIntegralOrEnumerationType());
  if (!SameKind)
    return;
  if (isa<PointerValue>(V) &&
      cast<PointerValue>(V)->getPointeeLoc().getType().getCanonicalType() !=
          T->getPointeeType().getCanonicalType()) {
    if (Value *C = cloneTracked(*V, T, S))
      Env.setValue(*To, *C);
    return;
  }
  Env.setValue(*To, *V);
}

void noteStridesSeen(const Expr *E, FieldState &S) {
  Environment &Env = S.Env;
  if (Value *V = trackedValueOf(E, Env))
    if (hasProp(V, kStrides))
      S.RC.SeenStrides.insert(originOf(S.RC, V));
}

namespace {
void markFieldLocal(StorageLocation *Loc, QualType T, FieldState &S) {
  Environment &Env = S.Env;
  if (!Loc)
    return;
  Value *New = Env.createValue(T);
  if (!New)
    return;
  New->setProperty(kLocal, Env.getBoolLiteralValue(true));
  Env.setValue(*Loc, *New);
}
} // namespace

void markLocal(RecordStorageLocation *R, FieldState &S, int Depth) {
  if (!R || Depth > 3)
    return;
  for (auto [D, Loc] : R->children()) {
    const auto *FD = dyn_cast<FieldDecl>(D);
    if (!Loc || !FD)
      continue;
    markMemberLocal(classifyDLPackField(FD), Loc, FD->getType(), S, Depth + 1);
  }
}

namespace {
bool markMemberLocal(DLPackField F, StorageLocation *Loc, QualType T,
                     FieldState &S, int Depth) {
  if (isTrackedField(F)) {
    markFieldLocal(Loc, T, S);
    return true;
  }
  if (F == DLPackField::Device || F == DLPackField::DLTensor ||
      F == DLPackField::Version) {
    markLocal(dyn_cast_or_null<RecordStorageLocation>(Loc), S, Depth);
    return true;
  }
  return false;
}
} // namespace

namespace {
/// `m.dl_tensor = *t`, `c = mt->dl_tensor`: L, a DLPack record, is made a
/// copy of another record of its type, and then holds what that one held
/// (an import's fields included), as a copy made where it is declared
/// does. False (nothing done) for any other write.
bool copiesRecord(const Expr *L, const Expr *RHS, FieldState &S) {
  Environment &Env = S.Env;
  const Expr *R = RHS ? RHS->IgnoreParenImpCasts() : nullptr;
  if (!R || !R->isGLValue() ||
      classifyDLPackType(L->getType()) == DLPackRecord::None ||
      R->getType().getCanonicalType().getUnqualifiedType() !=
          L->getType().getCanonicalType().getUnqualifiedType())
    return false;
  auto *To =
      dyn_cast_or_null<RecordStorageLocation>(Env.getStorageLocation(*L));
  auto *From =
      dyn_cast_or_null<RecordStorageLocation>(Env.getStorageLocation(*R));
  if (!To || !From)
    return false;
  if (From != To)
    copyRecord(*From, *To, Env);
  S.RC.CopiedInto.insert(To);
  if (RecordStorageLocation *T = tensorRecordOf(To))
    S.RC.CopiedInto.insert(T);
  return true;
}
} // namespace

void assignment(const Expr *LHS, const Expr *RHS, FieldState &S) {
  Environment &Env = S.Env;
  markWriteChain(LHS, S.RC);
  const Expr *L = LHS->IgnoreParenImpCasts();
  if (copiesRecord(L, RHS, S))
    return;
  // A producer writing its own tensor: t->data = ..., mt->version = ...
  if (const auto *ME = dyn_cast<MemberExpr>(L)) {
    if (markMemberLocal(dlpackFieldOfMember(ME), Env.getStorageLocation(*ME),
                        ME->getType(), S, /*Depth=*/0))
      return;
  }
  // *mt = ..., tensor = other: a whole DLPack record written.
  if (classifyDLPackType(L->getType()) != DLPackRecord::None)
    markLocal(
        dyn_cast_or_null<RecordStorageLocation>(Env.getStorageLocation(*L)), S);
}

namespace {
BoolValue *deviceEquals(Value &T, std::int64_t K, const Expr *Site,
                        FieldState &S) {
  Environment &Env = S.Env;
  std::string Name = (kDeviceEqPrefix + llvm::Twine(K)).str();
  if (BoolValue *B = boolProp(&T, Name))
    return B;
  BoolValue &Eq = Env.makeAtomicBoolValue();
  Arena &A = Env.arena();
  DataflowAnalysisContext &DACtx = Env.getDataflowAnalysisContext();
  // device_type == K decides whether the memory is host-accessible...
  BoolValue &Host = atomProp(T, kHost, Env);
  DACtx.addInvariant(A.makeImplies(
      Eq.formula(), isHostAccessibleDeviceType(K) ? Host.formula()
                                                  : A.makeNot(Host.formula())));
  // ...and excludes every other value compared so far.
  for (const auto &P : T.properties())
    if (P.getKey().starts_with(kDeviceEqPrefix))
      if (auto *Other = dyn_cast<BoolValue>(P.getValue()))
        DACtx.addInvariant(
            A.makeNot(A.makeAnd(Eq.formula(), Other->formula())));
  T.setProperty(Name, Eq);
  S.RC.AtomSite.try_emplace(&Eq, Site);
  return &Eq;
}

/// device_type == K, where K may hold several constants (a local chosen
/// between them: LocalValues.h). Null when K is not known to be a constant.
BoolValue *deviceEqualsOneOf(Value &T, const Expr *K, const Expr *Site,
                             FieldState &S) {
  std::optional<llvm::SmallVector<llvm::APSInt, 4>> Choices =
      integerChoices(K, S.Ctx);
  if (!Choices)
    return nullptr;
  if (Choices->size() == 1)
    return deviceEquals(T, Choices->front().getExtValue(), Site, S);
  llvm::SmallVector<const Formula *, 4> PerChoice;
  for (const llvm::APSInt &C : *Choices)
    PerChoice.push_back(&deviceEquals(T, C.getExtValue(), Site, S)->formula());
  BoolValue &Eq = S.Env.arena().makeBoolValue(oneOfChoices(PerChoice, S.Env));
  S.RC.AtomSite.try_emplace(&Eq, Site);
  return &Eq;
}
} // namespace

BoolValue *comparisonValue(const BinaryOperator *E, FieldState &S) {
  Environment &Env = S.Env;
  ASTContext &Ctx = S.Ctx;
  BinaryOperatorKind Op = E->getOpcode();
  const Expr *LHS = E->getLHS(), *RHS = E->getRHS();
  Value *LV = trackedValueOf(LHS, Env);
  Value *RV = trackedValueOf(RHS, Env);
  if ((!LV || isLocal(LV)) && RV && !isLocal(RV)) {
    std::swap(LHS, RHS);
    std::swap(LV, RV);
    Op = mirroredComparison(Op);
  }
  if (!LV || isLocal(LV))
    return nullptr;
  auto Result = [&](BoolValue &B, bool Positive) -> BoolValue * {
    return Positive ? &B : &Env.makeNot(B);
  };
  std::optional<llvm::APSInt> C = integerConstant(RHS, Ctx);

  if (hasProp(LV, kStrides) && isNullConstant(RHS, Ctx)) {
    if (Op != BO_EQ && Op != BO_NE)
      return nullptr;
    S.RC.NullTested.insert(originOf(S.RC, LV));
    return Result(atomProp(*LV, kNull, Env), Op == BO_EQ);
  }
  if (hasProp(LV, kByteOffset) && C && C->isZero()) {
    BoolValue &Z = atomProp(*LV, kZero, Env);
    switch (Op) {
    case BO_EQ:
    case BO_LE: // unsigned
      return &Z;
    case BO_NE:
    case BO_GT:
      return &Env.makeNot(Z);
    default:
      return nullptr;
    }
  }
  if (hasProp(LV, kDeviceType) && (Op == BO_EQ || Op == BO_NE))
    if (BoolValue *Eq = deviceEqualsOneOf(*LV, RHS, E, S))
      return Result(*Eq, Op == BO_EQ);
  if (hasProp(LV, kMajor)) {
    // The comparison is read as "is major the supported version": its truth
    // for major == DLPACK_MAJOR_VERSION (1) decides the polarity. Against a
    // non-constant bound, ==, <= and >= accept and the others reject.
    bool AcceptsSupported = majorComparisonAccepts(
        Op, C ? std::optional(C->getExtValue()) : std::nullopt);
    bool InAssert = isInMacroExpansion(E->getBeginLoc(), Ctx.getSourceManager(),
                                       Ctx.getLangOpts(),
                                       S.RC.Config->DebugOnlyAssertMacros);
    BoolValue &Ok = atomProp(*LV, InAssert ? kMajorAssertOk : kMajorOk, Env);
    if (InAssert)
      S.RC.AtomSite.try_emplace(LV, E);
    return Result(Ok, AcceptsSupported);
  }
  if (hasProp(LV, kReadOnlyBit) && C && C->isZero() &&
      (Op == BO_EQ || Op == BO_NE))
    return Result(atomProp(*LV, kNonZero, Env), Op == BO_NE);
  return nullptr;
}

const Formula *caseFormula(const SwitchStmt &Sw, const SwitchCase *Label,
                           Value &V, FieldState &S) {
  bool Device = hasProp(&V, kDeviceType), Major = hasProp(&V, kMajor);
  if ((!Device && !Major) || isLocal(&V))
    return nullptr;
  Arena &A = S.Env.arena();
  auto ConstantOf = [&](const SwitchCase *L) -> std::optional<llvm::APSInt> {
    const auto *C = dyn_cast_or_null<CaseStmt>(L);
    if (!C || C->getRHS())
      return std::nullopt; // default, or a GNU case range
    return integerConstant(C->getLHS(), S.Ctx);
  };
  if (isa_and_nonnull<CaseStmt>(Label)) {
    std::optional<llvm::APSInt> K = ConstantOf(Label);
    if (!K)
      return &A.makeLiteral(true);
    if (Device)
      return &deviceEquals(V, K->getExtValue(), cast<CaseStmt>(Label)->getLHS(),
                           S)
                  ->formula();
    const Formula &Ok = atomProp(V, kMajorOk, S.Env).formula();
    return K->getExtValue() == 1 ? &Ok : &A.makeNot(Ok);
  }
  // default, written or implicit: none of the listed constants.
  const Formula *None = &A.makeLiteral(true);
  for (const SwitchCase *L = Sw.getSwitchCaseList(); L;
       L = L->getNextSwitchCase()) {
    std::optional<llvm::APSInt> K = ConstantOf(L);
    if (!K)
      continue;
    if (Device)
      None = &A.makeAnd(*None,
                        A.makeNot(deviceEquals(V, K->getExtValue(),
                                               cast<CaseStmt>(L)->getLHS(), S)
                                      ->formula()));
    else if (K->getExtValue() == 1)
      return &A.makeNot(atomProp(V, kMajorOk, S.Env).formula());
  }
  return None;
}

BoolValue *truthValue(Value &V, FieldState &S) {
  Environment &Env = S.Env;
  if (isLocal(&V))
    return nullptr;
  if (hasProp(&V, kStrides)) {
    S.RC.NullTested.insert(originOf(S.RC, &V));
    return &Env.makeNot(atomProp(V, kNull, Env));
  }
  if (hasProp(&V, kByteOffset))
    return &Env.makeNot(atomProp(V, kZero, Env));
  if (hasProp(&V, kReadOnlyBit))
    return &atomProp(V, kNonZero, Env);
  return nullptr;
}

BoolValue *operandTruth(const Expr *Operand, FieldState &S) {
  Value *V = trackedValueOf(Operand, S.Env);
  return V ? truthValue(*V, S) : nullptr;
}

} // namespace clang::interop::dlpackfield
