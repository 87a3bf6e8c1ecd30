//===--- ArrayDeviceTransfer.cpp - the array/device transfers -------------===//
//
// The array/device model's transfer functions, one per API role and
// statement kind, and their table (makeTransferSwitch() below: the API each
// case handles is named above it). Each transfer function reads and
// changes the facts of the objects a statement involves (ArrayDeviceState.h).
//
//===----------------------------------------------------------------------===//

#include "lib/arraydevice/ArrayDeviceTransfer.h"

#include "lib/arraydevice/ArrayDeviceContainers.h"
#include "lib/arraydevice/ArrayDeviceEquivalentForms.h"
#include "lib/arraydevice/ArrayDeviceMemoryKinds.h"
#include "lib/arraydevice/ArrayDeviceObjects.h"
#include "lib/arraydevice/ArrayDeviceSummaries.h"

#include "lib/engine/LocalValues.h"
#include "lib/engine/ValueFacts.h"
#include "lib/support/AstHelpers.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Analysis/FlowSensitive/Formula.h"
#include "clang/Analysis/FlowSensitive/RecordOps.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdint>
#include <initializer_list>

namespace clang::interop::arraydevice {

using namespace clang::dataflow;

namespace {

//===----------------------------------------------------------------------===//
// What the cases apply to
//===----------------------------------------------------------------------===//

/// A call on a device or array range (container, view, iterator, smart
/// pointer).
bool onRange(const ApiModel &M, const CallExpr &CE) {
  const Expr *R = receiverOf(CE);
  if (!R)
    return false;
  TypeRole Role = M.classifyPointee(R->getType());
  return Role == TypeRole::DeviceRange || Role == TypeRole::ArrayRange ||
         Role == TypeRole::HolderRange;
}

/// operator* / operator-> of a range: an iterator or smart pointer whose
/// dereference is stable until the next non-const call.
bool isDerefOperator(const CallExpr &CE) {
  const auto *OCE = dyn_cast<CXXOperatorCallExpr>(&CE);
  return OCE && OCE->getNumArgs() == 1 &&
         (OCE->getOperator() == OO_Star || OCE->getOperator() == OO_Arrow);
}

/// Copy or move assignment of a modelled value.
bool assignsModelled(const ApiModel &M, const CXXOperatorCallExpr &OCE) {
  return OCE.getOperator() == OO_Equal && OCE.getNumArgs() == 2 &&
         M.classify(OCE.getArg(0)->getType()) != TypeRole::None;
}

bool isZeroParamConstMemberCall(const CallExpr &CE) {
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(CE.getDirectCallee());
  return MD && !MD->isStatic() && MD->isConst() && MD->getNumParams() == 0 &&
         receiverOf(CE);
}

bool hasModelledType(const ApiModel &M, const Expr &E) {
  return M.classifyPointee(E.getType()) != TypeRole::None;
}

/// A member call on an array, device, sharding or range of them.
bool hasModelledReceiver(const ApiModel &M, const CallExpr &CE) {
  const Expr *R = receiverOf(CE);
  return R && hasModelledType(M, *R);
}

bool copiesModelled(const ApiModel &M, const CXXConstructExpr &CCE) {
  const CXXConstructorDecl *Ctor = CCE.getConstructor();
  return Ctor && Ctor->isCopyOrMoveConstructor() && CCE.getNumArgs() >= 1 &&
         M.classify(CCE.getType()) != TypeRole::None;
}

bool declaresRangeForVar(const DeclStmt &DS) {
  if (!DS.isSingleDecl())
    return false;
  const auto *VD = dyn_cast<VarDecl>(DS.getSingleDecl());
  return VD && VD->isCXXForRangeDecl();
}

//===----------------------------------------------------------------------===//
// Transfer functions
//===----------------------------------------------------------------------===//

/// The object a predicate or accessor is about: its receiver, or for a free
/// function its first argument of one of the roles `Of` (as the syntactic
/// proofs read `fits(a)`).
RecordStorageLocation *subjectLoc(const CallExpr &CE, State &S,
                                  std::initializer_list<TypeRole> Of) {
  if (receiverOf(CE))
    return receiverLoc(CE, S.Env);
  for (unsigned I = 0, N = CE.getNumArgs(); I < N; ++I)
    if (llvm::is_contained(Of, S.Model.classifyPointee(paramType(CE, I))))
      return modelledObject(S.Model, objectLoc(*CE.getArg(I), S.Env), S);
  return nullptr;
}

/// is_single_device(), is_addressable(), or a free predicate listed with
/// them: the subject's fact.
void transferPredicate(const CallExpr *CE, State &S, llvm::StringRef Field,
                       std::initializer_list<TypeRole> Of) {
  if (BoolValue *V = getBool(subjectLoc(*CE, S, Of), Field, S.Env))
    S.Env.setValue(*CE, *V);
}

/// std::move(x), std::forward<T>(x), std::as_const(x): x itself, with its
/// facts and where it came from (ASSIGN_OR_RETURN's `std::move(r).value()`).
bool isIdentityCall(const CallExpr &CE) {
  if (CE.getNumArgs() != 1 || !CE.isGLValue())
    return false;
  const FunctionDecl *FD = CE.getDirectCallee();
  if (!FD || !FD->isInStdNamespace() || !FD->getDeclName().isIdentifier())
    return false;
  llvm::StringRef N = FD->getName();
  return N == "move" || N == "forward" || N == "as_const";
}

void transferIdentity(const CallExpr *CE, State &S) {
  if (S.Env.getStorageLocation(*CE))
    return;
  if (StorageLocation *Loc = S.Env.getStorageLocation(*CE->getArg(0)))
    S.Env.setStorageLocation(*CE, *Loc);
}

/// num_devices(), platform(), memory_kind(): an integer or enum value that
/// remembers the receiver's fact it encodes.
void transferLinkedValue(const CallExpr *CE, State &S, llvm::StringRef Field,
                         llvm::StringRef Property) {
  BoolValue *Fact = getBool(receiverLoc(*CE, S.Env), Field, S.Env);
  if (!Fact)
    return;
  Value &V = S.Env.create<IntegerValue>();
  V.setProperty(Property, *Fact);
  S.Env.setValue(*CE, V);
}

/// Array::sharding(): the sharding shares the array's facts.
void transferShardingOf(const CallExpr *CE, State &S) {
  RecordStorageLocation *Array = receiverLoc(*CE, S.Env);
  RecordStorageLocation *Sharding = returnedObject(*CE, S);
  for (llvm::StringRef F : {kSingle, kTpu, kPinned, kDeviceMem})
    copyBool(Array, Sharding, F, S.Env);
}

/// Sharding::devices(): a device list with one entry exactly when the
/// sharding is single-device. Its devices may belong to other processes.
void transferDeviceListOf(const CallExpr *CE, State &S) {
  RecordStorageLocation *Owner = receiverLoc(*CE, S.Env);
  RecordStorageLocation *List = returnedObject(*CE, S);
  copyBool(Owner, List, kSingle, S.Env);
  // One platform for every device of a sharding (sharding.h): the owner's.
  if (BoolValue *Tpu = getBool(Owner, kTpu, S.Env))
    setBool(List, kElemTpu, *Tpu, S.Env);
  setOrigin(S, List, {Origin::GlobalDevices, CE});
}

/// devices() (every process's): a list, or one device, that may not be
/// addressable.
void transferGlobalDevices(const CallExpr *CE, State &S) {
  const ApiModel &M = S.Model;
  RecordStorageLocation *Obj = modelledObject(M, returnedObject(*CE, S), S);
  if (!Obj)
    return;
  setOrigin(S, Obj, {Origin::GlobalDevices, CE});
  forget(Obj, kElemAddressable, S.Env);
  forget(Obj, kAddressable, S.Env);
  applyPlatformArgument(M, *CE, Obj, S.Env);
}

/// local_devices(): every device is addressable.
void transferAddressableDevices(const CallExpr *CE, State &S) {
  const ApiModel &M = S.Model;
  RecordStorageLocation *Obj = modelledObject(M, returnedObject(*CE, S), S);
  if (!Obj)
    return;
  setOrigin(S, Obj, {});
  BoolValue &True = S.Env.getBoolLiteralValue(true);
  setBool(Obj, kElemAddressable, True, S.Env);
  setBool(Obj, kAddressable, True, S.Env);
  applyPlatformArgument(M, *CE, Obj, S.Env);
}

/// addressable_shards(): every shard is on one device.
void transferShardsOf(const CallExpr *CE, State &S) {
  const ApiModel &M = S.Model;
  RecordStorageLocation *Obj = modelledObject(M, returnedObject(*CE, S), S);
  if (!Obj)
    return;
  setOrigin(S, Obj, {});
  BoolValue &True = S.Env.getBoolLiteralValue(true);
  setBool(Obj, kElemSingle, True, S.Env);
  setBool(Obj, kSingle, True, S.Env);
  // Each shard shares the array's memory (array.h): its platform and memory
  // kind, as a list (every element) or one shard.
  RecordStorageLocation *Array = receiverLoc(*CE, S.Env);
  bool List = roleOf(M, Obj) == TypeRole::ArrayRange;
  if (BoolValue *Tpu = getBool(Array, kTpu, S.Env))
    setBool(Obj, List ? kElemTpu : kTpu, *Tpu, S.Env);
  if (BoolValue *Pinned = getBool(Array, kPinned, S.Env))
    setBool(Obj, List ? kElemPinned : kPinned, *Pinned, S.Env);
}

/// gather(array, device, kind), from_dlpack(tensor, device): the result is on
/// that one device (so on TPU exactly when the device is) in that memory kind.
void transferSingleDeviceProducer(const CallExpr *CE, State &S) {
  const ApiModel &M = S.Model;
  RecordStorageLocation *Obj = modelledObject(M, returnedObject(*CE, S), S);
  if (!Obj)
    return;
  setOrigin(S, Obj, {});
  BoolValue &True = S.Env.getBoolLiteralValue(true);
  setBool(Obj, kSingle, True, S.Env);
  // A smart pointer or list of what the producer makes: every element.
  setBool(Obj, kElemSingle, True, S.Env);
  for (unsigned I = 0, N = CE->getNumArgs(); I < N; ++I) {
    const Expr *Arg = CE->getArg(I);
    QualType PT = paramType(*CE, I);
    if (M.classifyPointee(PT) == TypeRole::Device)
      copyBool(objectLoc(*Arg, S.Env), Obj, kTpu, S.Env);
    else if (M.isMemoryKindEnum(PT)) {
      setBool(Obj, kPinned, pinnedOf(M, Arg, S.Env), S.Env);
      setBool(Obj, kDeviceMem, deviceMemOf(M, Arg, S.Env), S.Env);
    }
  }
}


/// value(), *r, r->: the object the Result holds.
void transferResultUnwrap(const CallExpr *CE, State &S) {
  const Expr *Obj = receiverOf(*CE);
  RecordStorageLocation *Result = Obj ? objectLoc(*Obj, S.Env) : nullptr;
  if (!Result)
    return;
  StorageLocation *F = syntheticField(Result, kValue);
  if (!F)
    return;
  if (CE->isGLValue()) {
    S.Env.setStorageLocation(*CE, *F);
    return;
  }
  RecordStorageLocation *Val = resultValue(*Result, S);
  if (!Val)
    return;
  QualType T = CE->getType();
  if (T->isRecordType()) {
    RecordStorageLocation &Dst = S.Env.getResultObjectLocation(*CE);
    copyRecord(*Val, Dst, S.Env);
    setOrigin(S, &Dst, originOf(S.Lattice, Val));
  } else if (T->isPointerType()) {
    if (isa<RecordStorageLocation>(F))
      S.Env.setValue(*CE, S.Env.create<PointerValue>(*Val));
    else if (Value *PV = S.Env.getValue(*F))
      S.Env.setValue(*CE, *PV);
  }
}

/// a = b: the origin moves with the value (the framework copies the fields),
/// and accessors cached on `a` are stale.
void transferAssignment(const CXXOperatorCallExpr *OCE, State &S) {
  RecordStorageLocation *Dst = objectLoc(*OCE->getArg(0), S.Env);
  RecordStorageLocation *Src = objectLoc(*OCE->getArg(1), S.Env);
  if (!Dst)
    return;
  setOrigin(S, Dst, copiedOrigin(S.Lattice, Src, OCE->getArg(1)));
  elementWritten(*Dst, S);
  S.Lattice.forgetAccessors(*Dst);
}

/// A non-const member call may change its receiver: forget what was proven
/// of an array, sharding or device, and what was cached on any object.
void transferNonConstMemberCall(const CallExpr *CE, State &S) {
  const ApiModel &M = S.Model;
  RecordStorageLocation *Recv = receiverLoc(*CE, S.Env);
  if (!Recv)
    return;
  switch (roleOf(M, Recv)) {
  case TypeRole::Array:
  case TypeRole::Sharding:
    for (llvm::StringRef F : {kSingle, kTpu, kPinned, kDeviceMem})
      forget(Recv, F, S.Env);
    break;
  case TypeRole::Device:
    for (llvm::StringRef F : {kAddressable, kTpu})
      forget(Recv, F, S.Env);
    break;
  default:
    break;
  }
  elementWritten(*Recv, S);
  S.Lattice.forgetAccessors(*Recv);
  // A mutating call that returns a modelled value still produces it.
  if (TypeRole R = M.classifyPointee(CE->getType()); R != TypeRole::None)
    setOrigin(S, modelledObject(M, returnedObject(*CE, S), S),
              {Origin::Producer, CE});
}

/// holder.array(), holder.device(): a const getter returns the same object
/// until the holder changes, so a guard on one call covers the next.
void transferConstGetter(const CallExpr *CE, State &S) {
  const ApiModel &M = S.Model;
  RecordStorageLocation *Recv = receiverLoc(*CE, S.Env);
  const FunctionDecl *Callee = CE->getDirectCallee();
  QualType RT = Callee->getReturnType();
  QualType T = RT.getNonReferenceType();
  if (!Recv || !T->isRecordType() ||
      !(RT->isReferenceType() || CE->isPRValue())) {
    if (RecordStorageLocation *Obj = returnedObject(*CE, S))
      setOrigin(S, modelledObject(M, Obj, S), {Origin::Producer, CE});
    return;
  }
  RecordStorageLocation &Loc = cachedAccessor(
      *Recv, Callee->getCanonicalDecl(), CE, T, S,
      [&](RecordStorageLocation &R) {
        setOrigin(S, modelledObject(M, &R, S), {Origin::Producer, CE});
      });
  if (CE->isGLValue()) {
    S.Env.setStorageLocation(*CE, Loc);
    return;
  }
  RecordStorageLocation &Dst = S.Env.getResultObjectLocation(*CE);
  copyRecord(Loc, Dst, S.Env);
  setOrigin(S, modelledObject(M, &Dst, S),
            originOf(S.Lattice, modelledObject(M, &Loc, S)));
}

/// Any other call returning a modelled value: an unknown producer. Two
/// refinements from its arguments: an array made on a given sharding (
/// Array::from_host(..., sharding)) has that sharding's facts, and a sharding
/// made for a memory kind is in that memory kind.
void transferProducer(const CallExpr *CE, State &S) {
  const ApiModel &M = S.Model;
  RecordStorageLocation *Obj = modelledObject(M, returnedObject(*CE, S), S);
  if (!Obj)
    return;
  setOrigin(S, Obj, {Origin::Producer, CE});
  TypeRole Made = roleOf(M, Obj);
  if (Made != TypeRole::Array && Made != TypeRole::Sharding)
    return;
  for (unsigned I = 0, N = CE->getNumArgs(); I < N; ++I) {
    const Expr *Arg = CE->getArg(I);
    QualType PT = paramType(*CE, I);
    if (Made == TypeRole::Array &&
        M.classifyPointee(PT) == TypeRole::Sharding) {
      RecordStorageLocation *Sh = objectLoc(*Arg, S.Env);
      for (llvm::StringRef F : {kSingle, kTpu, kPinned, kDeviceMem})
        copyBool(Sh, Obj, F, S.Env);
      setOrigin(S, Obj, {});
    } else if (Made == TypeRole::Sharding && M.isMemoryKindEnum(PT)) {
      setBool(Obj, kPinned, pinnedOf(M, Arg, S.Env), S.Env);
      setBool(Obj, kDeviceMem, deviceMemOf(M, Arg, S.Env), S.Env);
    }
  }
}

/// Array b(a), Device d = devs[3]: the copy has the source's origin (the
/// framework already copied the fields).
void transferCopy(const CXXConstructExpr *CCE, State &S) {
  RecordStorageLocation *Src = objectLoc(*CCE->getArg(0), S.Env);
  RecordStorageLocation &Dst = S.Env.getResultObjectLocation(*CCE);
  setOrigin(S, &Dst, copiedOrigin(S.Lattice, Src, CCE->getArg(0)));
}

/// Result<Array>(a), `return a;` from a function returning Result<Array>: a
/// Result made from a value holds that value, with its facts and origin.
bool wrapsInResult(const ApiModel &M, const CXXConstructExpr &CCE) {
  if (CCE.getNumArgs() != 1 || M.classify(CCE.getType()) != TypeRole::Result)
    return false;
  TypeRole R = M.classify(CCE.getArg(0)->getType());
  return !CCE.getArg(0)->getType()->isPointerType() &&
         (R == TypeRole::Array || R == TypeRole::Sharding ||
          R == TypeRole::Device);
}

void transferWrapInResult(const CXXConstructExpr *CCE, State &S) {
  RecordStorageLocation *Val =
      resultValue(S.Env.getResultObjectLocation(*CCE), S);
  RecordStorageLocation *Src = objectLoc(*CCE->getArg(0), S.Env);
  if (!Val || !Src)
    return;
  for (const auto &Entry : Val->synthetic_fields())
    if (Entry.getValue()->getType()->isBooleanType())
      copyBool(Src, Val, Entry.getKey(), S.Env);
  setOrigin(S, Val, copiedOrigin(S.Lattice, Src, CCE->getArg(0)));
}

/// `cond ? devices()[1] : local_devices()[0]` as a glvalue: the framework
/// leaves the result without a location when the operands differ. It is one
/// of them: each fact is the chosen operand's, and the origin either's.
void transferConditional(const AbstractConditionalOperator *CO, State &S) {
  Environment &Env = S.Env;
  if (Env.getStorageLocation(*CO) || conditionalFromArms(*CO, S))
    return;
  auto *T = Env.get<RecordStorageLocation>(*CO->getTrueExpr());
  auto *F = Env.get<RecordStorageLocation>(*CO->getFalseExpr());
  if (!T || !F)
    return;
  RecordStorageLocation &Result = S.Ctx.Stable.get(CO, CO->getType(), Env);
  Env.setStorageLocation(*CO, Result);
  // A condition the framework has no value for (`opt ? *opt : a`, through
  // an operator bool it does not model) still picks one of the arms.
  auto *Cond = Env.get<BoolValue>(*CO->getCond());
  if (!Cond)
    Cond = &Env.makeAtomicBoolValue();
  Arena &A = Env.arena();
  for (const auto &Entry : Result.synthetic_fields()) {
    BoolValue *VT = getBool(T, Entry.getKey(), Env);
    BoolValue *VF = getBool(F, Entry.getKey(), Env);
    if (!VT || !VF)
      continue;
    BoolValue &J = Env.makeAtomicBoolValue();
    const Formula &C = Cond->formula();
    Env.assume(A.makeImplies(C, A.makeEquals(J.formula(), VT->formula())));
    Env.assume(
        A.makeImplies(A.makeNot(C), A.makeEquals(J.formula(), VF->formula())));
    Env.setValue(*Entry.getValue(), J);
  }
  setOrigin(S, &Result,
            strongerOrigin(originOf(S.Lattice, T), originOf(S.Lattice, F)));
}

/// MemoryKind::kPinnedHost, Platform::kTpu: an enumerator of the memory-kind
/// or platform enum is a value that knows what it is, so it can be stored in
/// a variable and compared or passed later.
void transferEnumerator(const DeclRefExpr *DRE, State &S) {
  const ApiModel &M = S.Model;
  const auto *E = cast<EnumConstantDecl>(DRE->getDecl());
  Value &V = S.Env.create<IntegerValue>();
  if (M.isMemoryKindEnum(DRE->getType())) {
    V.setProperty(kIsPinned,
                  S.Env.getBoolLiteralValue(M.isPinnedHostMemoryKind(E)));
    linkDeviceMemory(M, E, nullptr, V, S.Env);
  } else if (M.isPlatformEnum(DRE->getType()))
    V.setProperty(kIsTpu, S.Env.getBoolLiteralValue(M.isTpuPlatform(E)));
  else if (M.isShardingKindEnum(DRE->getType()))
    V.setProperty(kIsSingleKind,
                  S.Env.getBoolLiteralValue(M.isSingleDeviceShardingKind(E)));
  else
    return;
  S.Env.setValue(*DRE, V);
}

/// `a.num_devices() == 1`, `n > 1`, `a.platform() == Platform::kTpu`,
/// `kind != MemoryKind::kPinnedHost`: the comparison becomes the fact.
void transferComparison(const BinaryOperator *BO, State &S) {
  const ApiModel &M = S.Model;
  ASTContext &Ctx = S.AST;
  Environment &Env = S.Env;
  Arena &A = Env.arena();
  BinaryOperatorKind Op = BO->getOpcode();
  const Expr *Sides[2] = {BO->getLHS(), BO->getRHS()};
  for (int I = 0; I < 2; ++I) {
    Value *V = valueThroughCasts(Sides[I], Env);
    if (!V)
      continue;
    const Expr *Other = Sides[1 - I];
    BinaryOperatorKind SideOp = I == 0 ? Op : mirroredComparison(Op);
    if (auto *One = dyn_cast_or_null<BoolValue>(V->getProperty(kCountIsOne))) {
      // `n != 1`, or `n != limit` with `limit` a local holding constants.
      std::optional<llvm::SmallVector<llvm::APSInt, 4>> Ks =
          integerChoices(Other, Ctx);
      if (!Ks)
        return;
      llvm::SmallVector<const Formula *, 4> PerChoice;
      for (const llvm::APSInt &K : *Ks)
        PerChoice.push_back(&countRelation(SideOp, K, One->formula(), Env));
      Env.setValue(*BO, A.makeBoolValue(oneOfChoices(PerChoice, Env)));
      return;
    }
    if (Op != BO_EQ && Op != BO_NE)
      return;
    // `kPinnedHost == a.memory_kind()`: the enumerator has a value too (see
    // transferEnumerator), so the side that is not an enumerator may be
    // the second one. `kind != want`: a local holding enumerators.
    std::optional<llvm::SmallVector<const Expr *, 4>> Choices =
        constantChoices(Other, Ctx);
    if (!Choices ||
        !llvm::all_of(*Choices, [](const Expr *C) { return enumerator(C); }))
      continue;
    llvm::StringRef Property;
    BoolValue *Fact = linkedFact(*V, &Property);
    if (!Fact || Property == kCountIsOne)
      continue;
    llvm::SmallVector<const Formula *, 4> PerChoice;
    for (const Expr *Choice : *Choices) {
      const EnumConstantDecl *E = enumerator(Choice);
      const Formula *Eq = &Fact->formula();
      if (!enumeratorMatches(M, Property, E)) {
        // Another enumerator: equal to it means not the one tracked.
        const Formula &C = A.makeAtomRef(A.makeAtom());
        Env.assume(A.makeImplies(C, A.makeNot(Fact->formula())));
        Eq = &C;
      }
      if (Property == kIsPinned)
        compareDeviceMemory(M, *V, E, *Eq, Env);
      PerChoice.push_back(Eq);
    }
    const Formula &Eq = oneOfChoices(PerChoice, Env);
    Env.setValue(*BO, A.makeBoolValue(Op == BO_EQ ? Eq : A.makeNot(Eq)));
    return;
  }
}

/// Status::ok(): the status's synthetic "not an error" field.
void transferStatusOk(const CallExpr *CE, State &S) {
  if (BoolValue *V = getBool(receiverLoc(*CE, S.Env), kOk, S.Env))
    S.Env.setValue(*CE, *V);
}

//===----------------------------------------------------------------------===//
// The table
//===----------------------------------------------------------------------===//

// The transfer functions of the API roles.
void transferSingleDevicePredicate(const CallExpr *CE, State &S) {
  transferPredicate(CE, S, kSingle, {TypeRole::Array, TypeRole::Sharding});
}
/// is_sharded(): the negation of the single-device fact.
void transferShardedPredicate(const CallExpr *CE, State &S) {
  if (BoolValue *V =
          getBool(subjectLoc(*CE, S, {TypeRole::Array, TypeRole::Sharding}),
                  kSingle, S.Env))
    S.Env.setValue(*CE, S.Env.makeNot(*V));
}
void transferAddressablePredicate(const CallExpr *CE, State &S) {
  transferPredicate(CE, S, kAddressable, {TypeRole::Device});
}
void transferDeviceCount(const CallExpr *CE, State &S) {
  transferLinkedValue(CE, S, kSingle, kCountIsOne);
}
void transferPlatformOf(const CallExpr *CE, State &S) {
  transferLinkedValue(CE, S, kTpu, kIsTpu);
}
void transferMemoryKindOf(const CallExpr *CE, State &S) {
  transferLinkedValue(CE, S, kPinned, kIsPinned);
  if (Value *V = S.Env.getValue(*CE))
    linkDeviceMemory(S.Model, nullptr, receiverLoc(*CE, S.Env), *V, S.Env);
}
void transferShardingKindOf(const CallExpr *CE, State &S) {
  transferLinkedValue(CE, S, kSingle, kIsSingleKind);
}

/// The transfer of each API role, in the order a callee listed under
/// several roles is read by (the first wins). Roles not listed here
/// (exports, imports, the CUDA array interface) change nothing: the
/// diagnoser judges them.
struct RoleTransfer {
  FnRole Role;
  void (*Transfer)(const CallExpr *, State &);
};
constexpr RoleTransfer RoleTransfers[] = {
    // Array::is_single_device(), Sharding::is_single_device()
    {FnRole::SingleDevicePredicate, transferSingleDevicePredicate},
    // a project's own is_sharded()
    {FnRole::ShardedPredicate, transferShardedPredicate},
    // Device::is_addressable()
    {FnRole::AddressablePredicate, transferAddressablePredicate},
    // Array::num_devices(), Sharding::num_devices()
    {FnRole::DeviceCount, transferDeviceCount},
    // Array::platform(), Device::platform()
    {FnRole::PlatformOf, transferPlatformOf},
    // Array::memory_kind(), Sharding::memory_kind()
    {FnRole::MemoryKindOf, transferMemoryKindOf},
    // Sharding::kind()
    {FnRole::ShardingKindOf, transferShardingKindOf},
    // Array::sharding()
    {FnRole::ShardingOf, transferShardingOf},
    // Sharding::devices()
    {FnRole::DeviceListOf, transferDeviceListOf},
    // devices(), device_by_id()
    {FnRole::GlobalDeviceSource, transferGlobalDevices},
    // local_devices(), local_device_for()
    {FnRole::AddressableDeviceSource, transferAddressableDevices},
    // Array::addressable_shards(), Array::addressable_data(i)
    {FnRole::ShardsOf, transferShardsOf},
    // gather(), from_dlpack(), Sharding::single_device()
    {FnRole::SingleDeviceProducer, transferSingleDeviceProducer},
    // Status::ok()
    {FnRole::StatusOk, transferStatusOk},
};

/// A call of a function the API model lists: one classification, then the
/// first of its roles' transfers.
void transferApiCall(const CallExpr *CE, State &S) {
  FnRoles Roles = S.Model.classify(CE->getDirectCallee());
  for (const RoleTransfer &T : RoleTransfers)
    if (Roles.has(T.Role)) {
      T.Transfer(CE, S);
      return;
    }
}
void transferRangeForDecl(const DeclStmt *D, State &S) {
  const auto *VD = cast<VarDecl>(D->getSingleDecl());
  if (const VarDecl *Range = S.Ctx.RangeFors.lookup(VD))
    transferRangeForVar(S.Model, VD, Range, S);
}

StmtSwitch<State> makeTransferSwitch() {
  // The cases every family shares first (lib/engine/ValueFacts.h).
  StmtSwitch<State> Switch = valueCases<State>();
  Switch
      // std::move(r), std::forward<T>(r), std::as_const(r)
      .caseOf<CallExpr>(
          [](const CallExpr &CE, State &S) {
            return isIdentityCall(CE) && hasModelledType(S.Model, CE);
          },
          transferIdentity)
      // Device::process_index(), current_topology().process_index
      .caseOf<CallExpr>(
          [](const CallExpr &CE, State &S) {
            return readsProcessIndex(S.Model, CE);
          },
          [](const CallExpr *CE, State &S) { transferProcessIndexRead(CE, S); })
      .caseOf<MemberExpr>(
          [](const MemberExpr &E, State &S) {
            return readsProcessIndex(S.Model, E);
          },
          [](const MemberExpr *E, State &S) { transferProcessIndexRead(E, S); })
      // o = a, o.reset(), o.emplace(a) on a std::optional of a device or an
      // array
      .caseOf<CallExpr>(
          [](const CallExpr &CE, State &S) {
            return changesOptionalContents(S.Model, CE);
          },
          [](const CallExpr *CE, State &S) { transferOptionalContents(CE, S); })
      // std::all_of, none_of, any_of, find_if, find_if_not, find
      .caseOf<CallExpr>([](const CallExpr &CE,
                           State &) { return isStdContainerAlgorithm(CE); },
                        transferStdContainerAlgorithm)
      // Result<T>::value(), operator*, operator->
      .caseOf<CallExpr>([](const CallExpr &CE,
                           State &S) { return isResultUnwrap(S.Model, CE); },
                        transferResultUnwrap)
      // An API call: the transfer of its role (RoleTransfers); other API
      // calls (to_dlpack, cuda_array_interface) change nothing.
      .caseOf<CallExpr>(
          [](const CallExpr &CE, State &S) {
            return !S.Model.classify(CE.getDirectCallee()).empty();
          },
          transferApiCall)
      // A helper of this translation unit with a summary
      .caseOf<CallExpr>([](const CallExpr &CE,
                           State &S) { return mayBeSummarisedCall(&CE, S); },
                        transferSummarisedCall)
      // devs[i], devs.at(i) with i a variable
      .caseOf<CallExpr>(
          [](const CallExpr &CE, State &S) {
            return isIndexedElementAccess(S.Model, CE);
          },
          transferIndexedElement)
      // *it, it->, *smart_ptr on device/array ranges
      .caseOf<CallExpr>(
          [](const CallExpr &CE, State &S) {
            return isDerefOperator(CE) && onRange(S.Model, CE);
          },
          transferRangeDeref)
      // devs[i], devs.at(i), devs.begin(), devs.size(), devs.push_back(d)
      .caseOf<CallExpr>(
          [](const CallExpr &CE, State &S) { return onRange(S.Model, CE); },
          transferRangeCall)
      // a = b
      .caseOf<CXXOperatorCallExpr>(
          [](const CXXOperatorCallExpr &E, State &S) {
            return assignsModelled(S.Model, E);
          },
          transferAssignment)
      // a.mutate(), holder.reset(): of a modelled object, or of any object
      // while getters are cached (its cached getters are stale)
      .caseOf<CallExpr>(
          [](const CallExpr &CE, State &S) {
            return isNonConstMemberCall(CE) &&
                   (!S.Lattice.Accessors.empty() ||
                    hasModelledType(S.Model, CE) ||
                    hasModelledReceiver(S.Model, CE));
          },
          transferNonConstMemberCall)
      // holder.array()
      .caseOf<CallExpr>(
          [](const CallExpr &CE, State &S) {
            return isZeroParamConstMemberCall(CE) &&
                   hasModelledType(S.Model, CE);
          },
          transferConstGetter)
      // make_array(), a helper returning a device
      .caseOf<CallExpr>([](const CallExpr &CE,
                           State &S) { return hasModelledType(S.Model, CE); },
                        transferProducer)
      // if (o), o ? *o : a on a std::optional of a device or an array
      .caseOf<ImplicitCastExpr>(
          [](const ImplicitCastExpr &E, State &S) {
            return isOptionalTestConversion(S.Model, E);
          },
          transferOptionalTestConversion)
      // std::optional<Array> o; std::optional<Array> o = a;
      .caseOf<CXXConstructExpr>(
          [](const CXXConstructExpr &E, State &S) {
            return changesOptionalContents(S.Model, E);
          },
          [](const CXXConstructExpr *E, State &S) {
            transferOptionalContents(E, S);
          })
      // Array b(a), Device d = devs[3]
      .caseOf<CXXConstructExpr>(
          [](const CXXConstructExpr &E, State &S) {
            return copiesModelled(S.Model, E);
          },
          transferCopy)
      // Result<Array> r = a;
      .caseOf<CXXConstructExpr>(
          [](const CXXConstructExpr &E, State &S) {
            return wrapsInResult(S.Model, E);
          },
          transferWrapInResult)
      // MemoryKind::kPinnedHost, Platform::kTpu
      .caseOf<DeclRefExpr>(
          [](const DeclRefExpr &E, State &S) {
            return isa<EnumConstantDecl>(E.getDecl()) &&
                   (S.Model.isMemoryKindEnum(E.getType()) ||
                    S.Model.isPlatformEnum(E.getType()) ||
                    S.Model.isShardingKindEnum(E.getType()));
          },
          transferEnumerator)
      // for (const Device &d : devices())
      .caseOf<DeclStmt>(
          [](const DeclStmt &D, State &) { return declaresRangeForVar(D); },
          transferRangeForDecl)
      // flag ? devices()[1] : local_devices()[0]
      .caseOf<AbstractConditionalOperator>(
          [](const AbstractConditionalOperator &E, State &S) {
            return E.isGLValue() &&
                   S.Model.classify(E.getType()) != TypeRole::None;
          },
          transferConditional)
      // ++i, i = j: elements cached for v[i] are stale
      .caseOf<UnaryOperator>(
          [](const UnaryOperator &E, State &S) {
            return !S.Lattice.Accessors.empty() && writtenIndexVariable(E);
          },
          [](const UnaryOperator *E, State &S) { transferIndexWrite(E, S); })
      .caseOf<BinaryOperator>(
          [](const BinaryOperator &E, State &S) {
            return !S.Lattice.Accessors.empty() && writtenIndexVariable(E);
          },
          [](const BinaryOperator *E, State &S) { transferIndexWrite(E, S); })
      // d.process_index() == current_topology().process_index
      .caseOf<BinaryOperator>(
          [](const BinaryOperator &E, State &S) {
            return comparesProcessIndices(E, S.Env);
          },
          transferProcessIndexComparison)
      // a.num_devices() == 1, p == Platform::kTpu: a value that remembers a
      // fact, compared
      .caseOf<BinaryOperator>(
          [](const BinaryOperator &E, State &S) {
            return E.isComparisonOp() &&
                   (valueThroughCasts(E.getLHS(), S.Env) ||
                    valueThroughCasts(E.getRHS(), S.Env));
          },
          transferComparison);
  return Switch;
}

} // namespace

const StmtSwitch<State> &transferSwitch() {
  static const StmtSwitch<State> Switch = makeTransferSwitch();
  return Switch;
}

} // namespace clang::interop::arraydevice
