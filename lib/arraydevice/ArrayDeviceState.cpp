//===--- ArrayDeviceState.cpp - the model's facts and objects -------------===//

#include "lib/arraydevice/ArrayDeviceState.h"

#include "lib/support/AstHelpers.h"

#include "clang/AST/ExprCXX.h"

namespace clang::interop::arraydevice {

using namespace clang::dataflow;

/// The boolean in field `Name`, created (unconstrained) if it has none yet.
BoolValue *getBool(const RecordStorageLocation *Loc, llvm::StringRef Name,
                   Environment &Env) {
  if (!Loc)
    return nullptr;
  StorageLocation *F = syntheticField(Loc, Name);
  if (!F)
    return nullptr;
  if (auto *V = Env.get<BoolValue>(*F))
    return V;
  BoolValue &V = Env.makeAtomicBoolValue();
  Env.setValue(*F, V);
  return &V;
}

/// Read-only variant for the diagnoser.
BoolValue *peekBool(const RecordStorageLocation *Loc, llvm::StringRef Name,
                    const Environment &Env) {
  if (!Loc)
    return nullptr;
  StorageLocation *F = syntheticField(Loc, Name);
  return F ? Env.get<BoolValue>(*F) : nullptr;
}

void setBool(const RecordStorageLocation *Loc, llvm::StringRef Name,
             BoolValue &V, Environment &Env) {
  if (!Loc)
    return;
  if (StorageLocation *F = syntheticField(Loc, Name))
    Env.setValue(*F, V);
}

/// Copies field `Name` from `From` to `To` (both may lack it).
std::string heldFact(llvm::StringRef Every, const FieldDecl &Field) {
  return (Every + "." + Field.getName()).str();
}

void copyBool(const RecordStorageLocation *From,
              const RecordStorageLocation *To, llvm::StringRef Name,
              Environment &Env) {
  if (BoolValue *V = getBool(From, Name, Env))
    setBool(To, Name, *V, Env);
}

/// Replaces field `Name` by a new unknown (see unknownFacts()): the object
/// may have changed.
void forget(const RecordStorageLocation *Loc, llvm::StringRef Name,
            Environment &Env) {
  setBool(Loc, Name, Env.makeTopBoolValue(), Env);
}

/// The object an expression denotes: the pointee of a pointer, the referent
/// of a glvalue, or the result object of a record prvalue.
RecordStorageLocation *objectLoc(const Expr &E, const Environment &Env) {
  if (E.getType()->isPointerType()) {
    auto *PV = Env.get<PointerValue>(E);
    return PV ? dyn_cast<RecordStorageLocation>(&PV->getPointeeLoc()) : nullptr;
  }
  if (E.isGLValue())
    return Env.get<RecordStorageLocation>(E);
  if (E.getType()->isRecordType())
    return &Env.getResultObjectLocation(E);
  return nullptr;
}

/// A pointer value to a stable object of `Pointee` keyed by `Key`.
PointerValue &stablePointer(const void *Key, QualType Pointee, State &S) {
  return S.Env.create<PointerValue>(S.Ctx.Stable.get(Key, Pointee, S.Env));
}

/// The object a call returns (by value, by reference or through a pointer),
/// creating a location when the framework did not make one.
RecordStorageLocation *returnedObject(const CallExpr &CE, State &S) {
  Environment &Env = S.Env;
  QualType T = CE.getType();
  if (CE.isGLValue()) {
    if (T->isRecordType()) {
      auto *Loc = Env.get<RecordStorageLocation>(CE);
      if (!Loc) {
        Loc = &S.Ctx.Stable.get(&CE, T, Env);
        Env.setStorageLocation(CE, *Loc);
      }
      return Loc;
    }
    // `Device *const &`: the pointee of the pointer stored there.
    if (!T->isPointerType() || !T->getPointeeType()->isRecordType())
      return nullptr;
    StorageLocation *Loc = Env.getStorageLocation(CE);
    if (!Loc) {
      Loc = &Env.createStorageLocation(CE);
      Env.setStorageLocation(CE, *Loc);
    }
    PointerValue &PV = stablePointer(&CE, T->getPointeeType(), S);
    Env.setValue(*Loc, PV);
    return dyn_cast<RecordStorageLocation>(&PV.getPointeeLoc());
  }
  if (T->isRecordType())
    return &Env.getResultObjectLocation(CE);
  if (T->isPointerType() && T->getPointeeType()->isRecordType()) {
    // The framework gives a returned pointer a new pointee on every visit;
    // a stable one keeps loops finite.
    PointerValue &PV = stablePointer(&CE, T->getPointeeType(), S);
    Env.setValue(CE, PV);
    return dyn_cast<RecordStorageLocation>(&PV.getPointeeLoc());
  }
  return nullptr;
}

/// The object held by a Result (or null when its T is not modelled). A
/// Result<Device *> holds a pointer: the object is its pointee.
RecordStorageLocation *resultValue(const RecordStorageLocation &Result,
                                   State &S) {
  StorageLocation *F = syntheticField(&Result, kValue);
  if (!F)
    return nullptr;
  if (auto *R = dyn_cast<RecordStorageLocation>(F))
    return R;
  if (!F->getType()->isPointerType())
    return nullptr;
  auto *PV = S.Env.get<PointerValue>(*F);
  if (!PV) {
    PV = &stablePointer(F, F->getType()->getPointeeType(), S);
    S.Env.setValue(*F, *PV);
  }
  return dyn_cast<RecordStorageLocation>(&PV->getPointeeLoc());
}

/// The object a modelled value denotes: itself, or for a Result the value
/// inside. Lets every rule treat `Array` and `Result<Array>` alike.
RecordStorageLocation *modelledObject(const ApiModel &M,
                                      RecordStorageLocation *Loc, State &S) {
  if (Loc && M.classify(Loc->getType()) == TypeRole::Result)
    return resultValue(*Loc, S);
  return Loc;
}

/// The role of a location's own type, looking into a Result.
TypeRole roleOf(const ApiModel &M, const RecordStorageLocation *Loc) {
  return Loc ? M.classify(Loc->getType()) : TypeRole::None;
}

RecordStorageLocation *receiverLoc(const CallExpr &CE, const Environment &Env) {
  if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(&CE))
    return getImplicitObjectLocation(*MCE, Env);
  if (const Expr *R = receiverOf(CE))
    return objectLoc(*R, Env);
  return nullptr;
}

void setOrigin(State &S, const StorageLocation *Loc, Origin O) {
  if (!Loc)
    return;
  if (O.K == Origin::None)
    S.Lattice.Origins.erase(Loc);
  else
    S.Lattice.Origins[Loc] = O;
}

Origin originOf(const ArrayDeviceLattice &L, const StorageLocation *Loc) {
  if (!Loc)
    return {};
  auto It = L.Origins.find(Loc);
  return It == L.Origins.end() ? Origin() : It->second;
}

/// The origin a copy of `Src` gets: the source's, or the parameter the
/// source expression names.
Origin copiedOrigin(const ArrayDeviceLattice &L,
                    const RecordStorageLocation *Src, const Expr *SrcExpr) {
  Origin O = originOf(L, Src);
  if (O.K != Origin::None || !SrcExpr)
    return O;
  const Expr *E = SrcExpr->IgnoreParenImpCasts();
  if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
    E = M->getSubExpr()->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (isa<ParmVarDecl>(DRE->getDecl()))
      return {Origin::Parameter, DRE};
  return O;
}

BoolValue *linkedFact(const Value &V, llvm::StringRef *Property) {
  for (llvm::StringRef P : {kCountIsOne, kIsTpu, kIsPinned, kIsSingleKind})
    if (auto *B = dyn_cast_or_null<BoolValue>(V.getProperty(P))) {
      if (Property)
        *Property = P;
      return B;
    }
  return nullptr;
}

Value *valueThroughCasts(const Expr *E, const Environment &Env) {
  return valueThroughCasts(
      E, Env, [](const Value &V) { return linkedFact(V) != nullptr; });
}

Value *valueThroughCasts(const Expr *E, const Environment &Env,
                         llvm::function_ref<bool(const Value &)> Wanted) {
  while (E) {
    if (Value *V = Env.getValue(*E))
      if (Wanted(*V))
        return V;
    const auto *ICE = dyn_cast<ImplicitCastExpr>(E->IgnoreParens());
    if (!ICE)
      return nullptr;
    E = ICE->getSubExpr();
  }
  return nullptr;
}

BoolValue &
enumeratorFact(const Expr *Arg, Environment &Env,
               llvm::function_ref<bool(const EnumConstantDecl *)> Has,
               llvm::StringRef Prop) {
  if (const EnumConstantDecl *E = enumerator(Arg))
    return Env.getBoolLiteralValue(Has(E));
  if (Value *V = valueThroughCasts(Arg, Env))
    if (auto *P = dyn_cast_or_null<BoolValue>(V->getProperty(Prop)))
      return *P;
  return Env.makeAtomicBoolValue();
}

/// The "pinned host" formula of a memory-kind argument: a literal for an
/// enumerator, the accessor's fact for a value read from memory_kind(), a
/// fresh unknown otherwise.
BoolValue &pinnedOf(const ApiModel &M, const Expr *Arg, Environment &Env) {
  return enumeratorFact(
      Arg, Env,
      [&](const EnumConstantDecl *E) { return M.isPinnedHostMemoryKind(E); },
      kIsPinned);
}

/// The "is TPU" formula of a platform argument, like pinnedOf().
BoolValue &tpuOf(const ApiModel &M, const Expr *Arg, Environment &Env) {
  return enumeratorFact(
      Arg, Env, [&](const EnumConstantDecl *E) { return M.isTpuPlatform(E); },
      kIsTpu);
}

/// devices(Platform::kTpu), local_devices(Platform::kCpu): a platform
/// argument says what platform the devices are on.
void applyPlatformArgument(const ApiModel &M, const CallExpr &CE,
                           const RecordStorageLocation *Obj, Environment &Env) {
  for (unsigned I = 0, N = CE.getNumArgs(); I < N; ++I) {
    if (!M.isPlatformEnum(paramType(CE, I)))
      continue;
    BoolValue &Tpu = tpuOf(M, CE.getArg(I), Env);
    setBool(Obj, kElemTpu, Tpu, Env);
    setBool(Obj, kTpu, Tpu, Env);
  }
}

} // namespace clang::interop::arraydevice
