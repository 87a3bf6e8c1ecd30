//===--- ArrayDeviceModel.cpp - flow-sensitive facts about arrays/devices -===//

#include "lib/arraydevice/ArrayDeviceModel.h"

#include "lib/engine/FlowRunner.h"
#include "lib/support/AstHelpers.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Analysis/FlowSensitive/Formula.h"
#include "clang/Analysis/FlowSensitive/RecordOps.h"
#include "clang/Analysis/FlowSensitive/SmartPointerAccessorCaching.h"
#include "clang/Analysis/FlowSensitive/StorageLocation.h"
#include "clang/Analysis/FlowSensitive/Value.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <vector>

namespace clang::interop {

using namespace dataflow;

//===----------------------------------------------------------------------===//
// Provenance lattice
//===----------------------------------------------------------------------===//

/// The stronger of two origins: GlobalDevices over Producer over Parameter
/// over None, then the earlier site.
static const Origin &stronger(const Origin &A, const Origin &B) {
  if (A.K != B.K)
    return A.K > B.K ? A : B;
  if (!A.Site || !B.Site)
    return A.Site ? A : B;
  return A.Site->getBeginLoc().getRawEncoding() <=
                 B.Site->getBeginLoc().getRawEncoding()
             ? A
             : B;
}

LatticeEffect InteropLattice::join(const InteropLattice &O) {
  LatticeEffect Effect = LatticeEffect::Unchanged;
  for (const auto &[Loc, Org] : O.Origins) {
    auto [It, Inserted] = Origins.try_emplace(Loc, Org);
    if (Inserted) {
      Effect = LatticeEffect::Changed;
      continue;
    }
    Origin Joined = stronger(It->second, Org);
    if (Joined != It->second) {
      It->second = Joined;
      Effect = LatticeEffect::Changed;
    }
  }
  // Keep a cached accessor only where both sides agree on it.
  for (auto It = Accessors.begin(); It != Accessors.end();) {
    auto Other = O.Accessors.find(It->first);
    if (Other == O.Accessors.end() || Other->second != It->second) {
      Accessors.erase(It++);
      Effect = LatticeEffect::Changed;
    } else {
      ++It;
    }
  }
  return Effect;
}

void InteropLattice::forgetAccessors(const StorageLocation &Obj) {
  for (auto It = Accessors.begin(); It != Accessors.end();) {
    if (It->first.first == &Obj)
      Accessors.erase(It++);
    else
      ++It;
  }
}

/// Objects the model creates itself (pointees it gives to pointers, results
/// of cached accessors, elements of range-based for loops), one per program
/// point and type: a loop that revisits the point gets the same location
/// back, so the provenance map stays finite and the fixpoint is reached.
class StableObjects {
public:
  /// `Fresh`: give the fields new (unknown) values on every visit, as for
  /// a value computed anew each time; otherwise keep what the object has.
  RecordStorageLocation &get(const void *Key, QualType T, Environment &Env,
                             bool Fresh = true) {
    T = T.getCanonicalType().getUnqualifiedType();
    RecordStorageLocation *&Slot = Locs[{Key, T.getTypePtr()}];
    if (!Slot) {
      Slot = &cast<RecordStorageLocation>(Env.createObject(T));
    } else if (Fresh) {
      Env.initializeFieldsWithValues(*Slot);
      unknownFacts(*Slot, Env);
    }
    return *Slot;
  }

  /// Gives every boolean synthetic field of `Loc` a new unknown. Top values,
  /// not fresh atoms: on a path that tests one it is an atom like any other,
  /// but joins and loop widening take it as "anything" without asking the
  /// solver, which keeps loops over new objects cheap.
  static void unknownFacts(const RecordStorageLocation &Loc, Environment &Env) {
    for (const auto &Entry : Loc.synthetic_fields())
      if (Entry.getValue()->getType()->isBooleanType())
        Env.setValue(*Entry.getValue(), Env.makeTopBoolValue());
  }

private:
  llvm::DenseMap<std::pair<const void *, const Type *>, RecordStorageLocation *>
      Locs;
};

/// What a sink call's subject is, before any SAT query: its facts' values
/// and where it came from.
struct SinkSubject {
  SinkFact Fact;
  const BoolValue *Single = nullptr, *Tpu = nullptr, *Pinned = nullptr,
                  *Addressable = nullptr;
};

/// A sink call's subject with the state it was last reached in.
struct PendingSink {
  SinkSubject Subject;
  Environment Env;
};

struct ArrayDeviceAnalysis::Context {
  /// Collecting mode: per sink call, its last visit.
  llvm::MapVector<const CallExpr *, PendingSink> Pending;
  /// Loop variable of each range-based for -> the variable bound to its
  /// range (`for (const Device &d : devices())`).
  llvm::DenseMap<const VarDecl *, const VarDecl *> RangeFors;
  StableObjects Stable;
};

namespace {

using State = ArrayDeviceAnalysis::State;
using DiagState = const TransferStateForDiagnostics<InteropLattice>;

//===----------------------------------------------------------------------===//
// Synthetic fields and state accessors
//===----------------------------------------------------------------------===//

// Arrays and shardings: on one device; on TPU; in pinned host memory.
constexpr llvm::StringLiteral kSingle = "single";
constexpr llvm::StringLiteral kTpu = "tpu";
constexpr llvm::StringLiteral kPinned = "pinned";
// Devices: addressable by this process (and kTpu).
constexpr llvm::StringLiteral kAddressable = "addressable";
// Device ranges: kSingle (exactly one device), every element addressable,
// every element a TPU device.
constexpr llvm::StringLiteral kElemAddressable = "elem_addressable";
constexpr llvm::StringLiteral kElemTpu = "elem_tpu";
// Array ranges: every element on one device (an array's shards).
constexpr llvm::StringLiteral kElemSingle = "elem_single";
// Result<T>: the value it holds.
constexpr llvm::StringLiteral kValue = "value";

// Properties of integer/enum values returned by accessors, linking the value
// back to the fact it encodes: a device count (is it one?), a platform (is it
// TPU?), a memory kind (is it pinned host?).
constexpr llvm::StringLiteral kCountIsOne = "count_is_one";
constexpr llvm::StringLiteral kIsTpu = "is_tpu";
constexpr llvm::StringLiteral kIsPinned = "is_pinned";

/// The synthetic field `Name` of `Loc`, or null when its type has none (a
/// location of an unmodelled type reached through a cast, for instance).
StorageLocation *field(const RecordStorageLocation &Loc, llvm::StringRef Name) {
  for (const auto &Entry : Loc.synthetic_fields())
    if (Entry.getKey() == Name)
      return Entry.getValue();
  return nullptr;
}

/// The boolean in field `Name`, created (unconstrained) if it has none yet.
BoolValue *getBool(const RecordStorageLocation *Loc, llvm::StringRef Name,
                   Environment &Env) {
  if (!Loc)
    return nullptr;
  StorageLocation *F = field(*Loc, Name);
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
  StorageLocation *F = field(*Loc, Name);
  return F ? Env.get<BoolValue>(*F) : nullptr;
}

void setBool(const RecordStorageLocation *Loc, llvm::StringRef Name,
             BoolValue &V, Environment &Env) {
  if (!Loc)
    return;
  if (StorageLocation *F = field(*Loc, Name))
    Env.setValue(*F, V);
}

/// Copies field `Name` from `From` to `To` (both may lack it).
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
  StorageLocation *F = field(Result, kValue);
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

Origin originOf(const InteropLattice &L, const StorageLocation *Loc) {
  if (!Loc)
    return {};
  auto It = L.Origins.find(Loc);
  return It == L.Origins.end() ? Origin() : It->second;
}

/// The origin a copy of `Src` gets: the source's, or the parameter the
/// source expression names.
Origin copiedOrigin(const InteropLattice &L, const RecordStorageLocation *Src,
                    const Expr *SrcExpr) {
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

/// The value of an expression, looking through implicit casts when the
/// framework did not carry it over.
Value *valueThroughCasts(const Expr *E, const Environment &Env) {
  while (E) {
    if (Value *V = Env.getValue(*E))
      if (V->getProperty(kCountIsOne) || V->getProperty(kIsTpu) ||
          V->getProperty(kIsPinned))
        return V;
    const auto *ICE = dyn_cast<ImplicitCastExpr>(E->IgnoreParens());
    if (!ICE)
      return nullptr;
    E = ICE->getSubExpr();
  }
  return nullptr;
}

/// The "pinned host" formula of a memory-kind argument: a literal for an
/// enumerator, the accessor's fact for a value read from memory_kind(), a
/// fresh unknown otherwise.
BoolValue &pinnedOf(const ApiModel &M, const Expr *Arg, Environment &Env) {
  if (const EnumConstantDecl *E = enumerator(Arg))
    return Env.getBoolLiteralValue(M.isPinnedHostMemoryKind(E));
  if (Value *V = valueThroughCasts(Arg, Env))
    if (auto *P = dyn_cast_or_null<BoolValue>(V->getProperty(kIsPinned)))
      return *P;
  return Env.makeAtomicBoolValue();
}

/// The "is TPU" formula of a platform argument, like pinnedOf().
BoolValue &tpuOf(const ApiModel &M, const Expr *Arg, Environment &Env) {
  if (const EnumConstantDecl *E = enumerator(Arg))
    return Env.getBoolLiteralValue(M.isTpuPlatform(E));
  if (Value *V = valueThroughCasts(Arg, Env))
    if (auto *P = dyn_cast_or_null<BoolValue>(V->getProperty(kIsTpu)))
      return *P;
  return Env.makeAtomicBoolValue();
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

//===----------------------------------------------------------------------===//
// Dispatch
//===----------------------------------------------------------------------===//

/// A switch over statements in the shape of clang's CFGMatchSwitch (ordered
/// cases, the first that applies wins), with plain C++ predicates instead of
/// AST matchers: CFGMatchSwitch builds a MatchFinder for every statement it
/// looks at, which made it a third of this model's cost.
template <typename StateT, typename ResultT> class StmtSwitchBuilder {
public:
  using Switch =
      std::function<ResultT(const CFGElement &, ASTContext &, StateT &)>;

  template <typename NodeT>
  StmtSwitchBuilder &&
  CaseOf(std::function<bool(const NodeT &)> Applies,
         std::function<ResultT(const NodeT *, ASTContext &, StateT &)> Act) && {
    Cases.push_back([Applies = std::move(Applies),
                     Act = std::move(Act)](const Stmt &S, ASTContext &Ctx,
                                           StateT &St, ResultT &Out) {
      const auto *N = dyn_cast<NodeT>(&S);
      if (!N || !Applies(*N))
        return false;
      Out = Act(N, Ctx, St);
      return true;
    });
    return std::move(*this);
  }

  Switch Build() && {
    return [Cases = std::move(Cases)](const CFGElement &Elt, ASTContext &Ctx,
                                      StateT &St) -> ResultT {
      ResultT Out{};
      if (auto CS = Elt.getAs<CFGStmt>())
        for (const auto &Case : Cases)
          if (Case(*CS->getStmt(), Ctx, St, Out))
            break;
      return Out;
    };
  }

private:
  std::vector<
      std::function<bool(const Stmt &, ASTContext &, StateT &, ResultT &)>>
      Cases;
};

bool calleeHasRole(const ApiModel &M, const CallExpr &CE, FnRole R) {
  return M.classify(CE.getDirectCallee()).has(R);
}

/// A call on a device or array range (container, view, iterator, smart
/// pointer).
bool onRange(const ApiModel &M, const CallExpr &CE) {
  const Expr *R = receiverOf(CE);
  if (!R)
    return false;
  TypeRole Role = M.classifyPointee(R->getType());
  return Role == TypeRole::DeviceRange || Role == TypeRole::ArrayRange;
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

/// is_single_device(): the receiver's "single" fact.
void transferPredicate(const CallExpr *CE, State &S, llvm::StringRef Field) {
  if (BoolValue *V = getBool(receiverLoc(*CE, S.Env), Field, S.Env))
    S.Env.setValue(*CE, *V);
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
  for (llvm::StringRef F : {kSingle, kTpu, kPinned})
    copyBool(Array, Sharding, F, S.Env);
}

/// Sharding::devices(): a device list with one entry exactly when the
/// sharding is single-device. Its devices may belong to other processes.
void transferDeviceListOf(const CallExpr *CE, State &S) {
  RecordStorageLocation *Owner = receiverLoc(*CE, S.Env);
  RecordStorageLocation *List = returnedObject(*CE, S);
  copyBool(Owner, List, kSingle, S.Env);
  setOrigin(S, List, {Origin::GlobalDevices, CE});
}

/// devices() (every process's): a list, or one device, that may not be
/// addressable.
void transferGlobalDevices(const ApiModel &M, const CallExpr *CE, State &S) {
  RecordStorageLocation *Obj = modelledObject(M, returnedObject(*CE, S), S);
  if (!Obj)
    return;
  setOrigin(S, Obj, {Origin::GlobalDevices, CE});
  forget(Obj, kElemAddressable, S.Env);
  forget(Obj, kAddressable, S.Env);
  applyPlatformArgument(M, *CE, Obj, S.Env);
}

/// local_devices(): every device is addressable.
void transferAddressableDevices(const ApiModel &M, const CallExpr *CE,
                                State &S) {
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
void transferShardsOf(const ApiModel &M, const CallExpr *CE, State &S) {
  RecordStorageLocation *Obj = modelledObject(M, returnedObject(*CE, S), S);
  if (!Obj)
    return;
  setOrigin(S, Obj, {});
  BoolValue &True = S.Env.getBoolLiteralValue(true);
  setBool(Obj, kElemSingle, True, S.Env);
  setBool(Obj, kSingle, True, S.Env);
}

/// gather(array, device, kind), from_dlpack(tensor, device): the result is on
/// that one device (so on TPU exactly when the device is) in that memory kind.
void transferSingleDeviceProducer(const ApiModel &M, const CallExpr *CE,
                                  State &S) {
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
    else if (M.isMemoryKindEnum(PT))
      setBool(Obj, kPinned, pinnedOf(M, Arg, S.Env), S.Env);
  }
}

/// An element of a range: inherits what is proven of every element, and the
/// range's provenance.
void initElement(State &S, const RecordStorageLocation *Range,
                 const RecordStorageLocation *Elem) {
  if (!Range || !Elem)
    return;
  Environment &Env = S.Env;
  // Only a fact proven for every element carries over; a guard on one
  // element (devs[0].is_addressable()) says nothing about another.
  if (BoolValue *All = peekBool(Range, kElemAddressable, Env))
    if (All->formula().isLiteral(true))
      setBool(Elem, kAddressable, *All, Env);
  if (BoolValue *All = peekBool(Range, kElemSingle, Env))
    if (All->formula().isLiteral(true))
      setBool(Elem, kSingle, *All, Env);
  if (BoolValue *All = peekBool(Range, kElemTpu, Env))
    if (All->formula().isLiteral(true) || All->formula().isLiteral(false))
      setBool(Elem, kTpu, *All, Env);
  setOrigin(S, Elem, originOf(S.Lattice, Range));
}

/// A range derived from a range (an iterator, a subspan, the pointee of a
/// smart pointer to a list) shares its facts.
void initDerivedRange(State &S, const RecordStorageLocation *From,
                      const RecordStorageLocation *To) {
  if (!From || !To || From == To)
    return;
  for (llvm::StringRef F : {kSingle, kElemAddressable, kElemSingle, kElemTpu})
    copyBool(From, To, F, S.Env);
  setOrigin(S, To, originOf(S.Lattice, From));
}

/// Applies the element/derived-range rule to whatever `Loc` holds.
void initFromRange(const ApiModel &M, State &S,
                   const RecordStorageLocation *Range,
                   const RecordStorageLocation *Loc) {
  switch (roleOf(M, Loc)) {
  case TypeRole::Device:
  case TypeRole::Array:
    initElement(S, Range, Loc);
    break;
  case TypeRole::DeviceRange:
  case TypeRole::ArrayRange:
    initDerivedRange(S, Range, Loc);
    break;
  default:
    break;
  }
}

/// The object cached for accessor `Key` on `Obj`, or a stable new one
/// (initialised by `Init`) entered in the cache.
RecordStorageLocation &
cachedAccessor(const StorageLocation &Obj, const FunctionDecl *Key,
               const CallExpr *Site, QualType T, State &S,
               llvm::function_ref<void(RecordStorageLocation &)> Init) {
  StorageLocation *&Slot = S.Lattice.Accessors[{&Obj, Key}];
  if (auto *R = dyn_cast_or_null<RecordStorageLocation>(Slot))
    return *R;
  RecordStorageLocation &Loc = S.Ctx.Stable.get(Site, T, S.Env);
  // Init may touch the lattice; take the slot again afterwards.
  S.Lattice.Accessors[{&Obj, Key}] = &Loc;
  Init(Loc);
  return Loc;
}

/// `*it`, `it->`, `*ptr`: cached per range object, so repeated dereferences
/// see the same element until the iterator or pointer changes.
void transferRangeDeref(const ApiModel &M, const CallExpr *CE, State &S) {
  RecordStorageLocation *Range = objectLoc(*CE->getArg(0), S.Env);
  if (!Range)
    return;
  const FunctionDecl *Callee = CE->getDirectCallee();
  QualType RT = Callee->getReturnType();
  QualType Pointee =
      RT->isPointerType() ? RT->getPointeeType() : RT.getNonReferenceType();
  if (!Pointee->isRecordType() ||
      !(RT->isReferenceType() || RT->isPointerType())) {
    initFromRange(M, S, Range, returnedObject(*CE, S));
    return;
  }
  // * and -> share one element: key both by the canonical operator.
  const FunctionDecl *Key = getCanonicalSmartPointerLikeOperatorCallee(CE);
  if (!Key)
    Key = Callee;
  RecordStorageLocation &Elem = cachedAccessor(
      *Range, Key->getCanonicalDecl(), CE, Pointee, S,
      [&](RecordStorageLocation &Loc) { initFromRange(M, S, Range, &Loc); });
  if (RT->isReferenceType())
    S.Env.setStorageLocation(*CE, Elem);
  else
    S.Env.setValue(*CE, S.Env.create<PointerValue>(Elem));
}

/// Any other call on a range: element access (devs[3], at, front), derived
/// ranges (begin, subspan), size(); other mutations forget its facts.
void transferRangeCall(const ApiModel &M, const CallExpr *CE, State &S) {
  RecordStorageLocation *Range = receiverLoc(*CE, S.Env);
  if (!Range)
    return;
  QualType T = CE->getType();
  TypeRole Ret = M.classifyPointee(T);
  if (Ret != TypeRole::None) {
    initFromRange(M, S, Range, returnedObject(*CE, S));
    return;
  }
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(CE->getDirectCallee());
  if (T->isIntegerType() && MD && MD->getDeclName().isIdentifier() &&
      MD->getName() == "size") {
    if (BoolValue *One = getBool(Range, kSingle, S.Env)) {
      Value &V = S.Env.create<IntegerValue>();
      V.setProperty(kCountIsOne, *One);
      S.Env.setValue(*CE, V);
    }
    return;
  }
  if (MD && !MD->isConst()) {
    for (llvm::StringRef F : {kSingle, kElemAddressable, kElemSingle, kElemTpu})
      forget(Range, F, S.Env);
    S.Lattice.forgetAccessors(*Range);
  }
}

/// value(), *r, r->: the object the Result holds.
void transferResultUnwrap(const CallExpr *CE, State &S) {
  const Expr *Obj = receiverOf(*CE);
  RecordStorageLocation *Result = Obj ? objectLoc(*Obj, S.Env) : nullptr;
  if (!Result)
    return;
  StorageLocation *F = field(*Result, kValue);
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
  S.Lattice.forgetAccessors(*Dst);
}

/// A non-const member call may change its receiver: forget what was proven
/// of an array, sharding or device, and what was cached on any object.
void transferNonConstMemberCall(const ApiModel &M, const CallExpr *CE,
                                State &S) {
  RecordStorageLocation *Recv = receiverLoc(*CE, S.Env);
  if (!Recv)
    return;
  switch (roleOf(M, Recv)) {
  case TypeRole::Array:
  case TypeRole::Sharding:
    for (llvm::StringRef F : {kSingle, kTpu, kPinned})
      forget(Recv, F, S.Env);
    break;
  case TypeRole::Device:
    for (llvm::StringRef F : {kAddressable, kTpu})
      forget(Recv, F, S.Env);
    break;
  default:
    break;
  }
  S.Lattice.forgetAccessors(*Recv);
  // A mutating call that returns a modelled value still produces it.
  if (TypeRole R = M.classifyPointee(CE->getType()); R != TypeRole::None)
    setOrigin(S, modelledObject(M, returnedObject(*CE, S), S),
              {Origin::Producer, CE});
}

/// holder.array(), holder.device(): a const getter returns the same object
/// until the holder changes, so a guard on one call covers the next.
void transferConstGetter(const ApiModel &M, const CallExpr *CE, State &S) {
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
void transferProducer(const ApiModel &M, const CallExpr *CE, State &S) {
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
      for (llvm::StringRef F : {kSingle, kTpu, kPinned})
        copyBool(Sh, Obj, F, S.Env);
      setOrigin(S, Obj, {});
    } else if (Made == TypeRole::Sharding && M.isMemoryKindEnum(PT)) {
      setBool(Obj, kPinned, pinnedOf(M, Arg, S.Env), S.Env);
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

/// `cond ? devices()[1] : local_devices()[0]` as a glvalue: the framework
/// leaves the result without a location when the operands differ. It is one
/// of them: each fact is the chosen operand's, and the origin either's.
void transferConditional(const AbstractConditionalOperator *CO, State &S) {
  Environment &Env = S.Env;
  if (Env.getStorageLocation(*CO))
    return;
  auto *T = Env.get<RecordStorageLocation>(*CO->getTrueExpr());
  auto *F = Env.get<RecordStorageLocation>(*CO->getFalseExpr());
  if (!T || !F)
    return;
  RecordStorageLocation &Result = S.Ctx.Stable.get(CO, CO->getType(), Env);
  Env.setStorageLocation(*CO, Result);
  auto *Cond = Env.get<BoolValue>(*CO->getCond());
  Arena &A = Env.arena();
  for (const auto &Entry : Result.synthetic_fields()) {
    BoolValue *VT = getBool(T, Entry.getKey(), Env);
    BoolValue *VF = getBool(F, Entry.getKey(), Env);
    if (!VT || !VF || !Cond)
      continue;
    BoolValue &J = Env.makeAtomicBoolValue();
    const Formula &C = Cond->formula();
    Env.assume(A.makeImplies(C, A.makeEquals(J.formula(), VT->formula())));
    Env.assume(
        A.makeImplies(A.makeNot(C), A.makeEquals(J.formula(), VF->formula())));
    Env.setValue(*Entry.getValue(), J);
  }
  setOrigin(S, &Result,
            stronger(originOf(S.Lattice, T), originOf(S.Lattice, F)));
}

/// How a comparison of a device count with a constant relates to "exactly
/// one device". Counts are at least one.
const Formula &countRelation(BinaryOperatorKind Op, const llvm::APSInt &K,
                             const Formula &One, Environment &Env) {
  Arena &A = Env.arena();
  auto Eval = [&](int64_t N) {
    llvm::APSInt V(llvm::APInt(128, N, /*isSigned=*/true),
                   /*isUnsigned=*/false);
    llvm::APSInt KK = K.extend(128);
    KK.setIsSigned(true);
    return evaluateComparison(Op, V, KK);
  };
  bool AtOne = Eval(1);
  bool AllTrue = true, AllFalse = true;
  int64_t KV = K.isRepresentableByInt64() ? K.getExtValue() : INT64_MAX / 4;
  for (int64_t N : {int64_t(2), KV - 1, KV, KV + 1, INT64_MAX / 2}) {
    if (N < 2)
      continue;
    bool B = Eval(N);
    AllTrue &= B;
    AllFalse &= !B;
  }
  if (AtOne && AllFalse)
    return One;
  if (!AtOne && AllTrue)
    return A.makeNot(One);
  if (AtOne && AllTrue)
    return A.makeLiteral(true);
  if (!AtOne && AllFalse)
    return A.makeLiteral(false);
  // Mixed above one (n < 3, n == 2): only one direction is known.
  const Formula &C = A.makeAtomRef(A.makeAtom());
  Env.assume(AtOne ? A.makeImplies(One, C) : A.makeImplies(One, A.makeNot(C)));
  return C;
}

/// MemoryKind::kPinnedHost, Platform::kTpu: an enumerator of the memory-kind
/// or platform enum is a value that knows what it is, so it can be stored in
/// a variable and compared or passed later.
void transferEnumerator(const ApiModel &M, const DeclRefExpr *DRE, State &S) {
  const auto *E = cast<EnumConstantDecl>(DRE->getDecl());
  Value &V = S.Env.create<IntegerValue>();
  if (M.isMemoryKindEnum(DRE->getType()))
    V.setProperty(kIsPinned,
                  S.Env.getBoolLiteralValue(M.isPinnedHostMemoryKind(E)));
  else if (M.isPlatformEnum(DRE->getType()))
    V.setProperty(kIsTpu, S.Env.getBoolLiteralValue(M.isTpuPlatform(E)));
  else
    return;
  S.Env.setValue(*DRE, V);
}

/// `for (const Device &d : devices())`: the loop variable is an element of
/// the range, whatever the iterator type (pointers lose their pointee at the
/// loop head, so the rule keys on the declaration instead).
void transferRangeForVar(const ApiModel &M, const VarDecl *LoopVar,
                         const VarDecl *RangeVar, State &S) {
  RecordStorageLocation *Range = S.Env.get<RecordStorageLocation>(*RangeVar);
  RecordStorageLocation *Elem = nullptr;
  QualType T = LoopVar->getType();
  if (T->isPointerType() && T->getPointeeType()->isRecordType()) {
    // `for (Device *d : list)`: give the variable a pointee that is the same
    // on every iteration, so its facts can be tracked and the loop converges.
    StorageLocation *VarLoc = S.Env.getStorageLocation(*LoopVar);
    if (!VarLoc)
      return;
    PointerValue &PV = stablePointer(LoopVar, T->getPointeeType(), S);
    S.Env.setValue(*VarLoc, PV);
    Elem = dyn_cast<RecordStorageLocation>(&PV.getPointeeLoc());
  } else if (T->isReferenceType() && T.getNonReferenceType()->isRecordType()) {
    // `for (const Array &a : arrays)`: bind the variable to one element
    // object per loop instead of the fresh object the iterator yields on
    // every visit, whose fresh facts would keep the loop from converging.
    Elem = &S.Ctx.Stable.get(LoopVar, T.getNonReferenceType(), S.Env,
                             /*Fresh=*/true);
    S.Env.setStorageLocation(*LoopVar, *Elem);
  } else {
    Elem = S.Env.get<RecordStorageLocation>(*LoopVar);
  }
  initFromRange(M, S, Range, Elem);
}

/// `a.num_devices() == 1`, `n > 1`, `a.platform() == Platform::kTpu`,
/// `kind != MemoryKind::kPinnedHost`: the comparison becomes the fact.
void transferComparison(const ApiModel &M, const BinaryOperator *BO,
                        ASTContext &Ctx, State &S) {
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
      Expr::EvalResult K;
      if (Other->isValueDependent() ||
          !Other->EvaluateAsInt(K, Ctx, Expr::SE_AllowSideEffects))
        return;
      Env.setValue(*BO, Env.arena().makeBoolValue(countRelation(
                            SideOp, K.Val.getInt(), One->formula(), Env)));
      return;
    }
    if (Op != BO_EQ && Op != BO_NE)
      return;
    // `kPinnedHost == a.memory_kind()`: the enumerator has a value too (see
    // transferEnumerator), so the side that is not an enumerator may be
    // the second one.
    const EnumConstantDecl *E = enumerator(Other);
    if (!E)
      continue;
    BoolValue *Fact = nullptr;
    bool Matches = false;
    if ((Fact = dyn_cast_or_null<BoolValue>(V->getProperty(kIsTpu))))
      Matches = M.isTpuPlatform(E);
    else if ((Fact = dyn_cast_or_null<BoolValue>(V->getProperty(kIsPinned))))
      Matches = M.isPinnedHostMemoryKind(E);
    if (!Fact)
      continue;
    const Formula *Eq = &Fact->formula();
    if (!Matches) {
      // Another enumerator: equal to it means not the one tracked.
      const Formula &C = A.makeAtomRef(A.makeAtom());
      Env.assume(A.makeImplies(C, A.makeNot(Fact->formula())));
      Eq = &C;
    }
    Env.setValue(*BO, A.makeBoolValue(Op == BO_EQ ? *Eq : A.makeNot(*Eq)));
    return;
  }
}

/// Cheap gate in front of the match switch: only calls, constructions and
/// comparisons can matter, and a call only when it involves the model.
bool mayMatter(const ApiModel &M, const Stmt *S, const InteropLattice &L,
               const Environment &Env) {
  if (const auto *CE = dyn_cast<CallExpr>(S)) {
    if (!M.classify(CE->getDirectCallee()).empty())
      return true;
    if (M.classifyPointee(CE->getType()) != TypeRole::None)
      return true;
    if (const Expr *R = receiverOf(*CE)) {
      if (M.classifyPointee(R->getType()) != TypeRole::None)
        return true;
      // A mutation of any holder invalidates its cached getters, if any.
      const auto *MD = dyn_cast_or_null<CXXMethodDecl>(CE->getDirectCallee());
      return MD && !MD->isConst() && !MD->isStatic() && !L.Accessors.empty();
    }
    return false;
  }
  if (const auto *CCE = dyn_cast<CXXConstructExpr>(S))
    return CCE->getNumArgs() >= 1 &&
           M.classify(CCE->getType()) != TypeRole::None;
  // Only comparisons of a value that remembers a fact.
  if (const auto *BO = dyn_cast<BinaryOperator>(S))
    return BO->isComparisonOp() && (valueThroughCasts(BO->getLHS(), Env) ||
                                    valueThroughCasts(BO->getRHS(), Env));
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    return DS->isSingleDecl() && isa<VarDecl>(DS->getSingleDecl()) &&
           cast<VarDecl>(DS->getSingleDecl())->isCXXForRangeDecl();
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(S))
    return CO->isGLValue() && M.classify(CO->getType()) != TypeRole::None;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    return isa<EnumConstantDecl>(DRE->getDecl()) &&
           (M.isMemoryKindEnum(DRE->getType()) ||
            M.isPlatformEnum(DRE->getType()));
  return false;
}

ArrayDeviceAnalysis::TransferSwitch makeTransferSwitch(const ApiModel &M) {
  using Builder = StmtSwitchBuilder<State, bool>;
  const ApiModel *P = &M;
  // A case that applies to calls of one API role.
  auto Role = [P](FnRole R) {
    return std::function<bool(const CallExpr &)>(
        [P, R](const CallExpr &CE) { return calleeHasRole(*P, CE, R); });
  };
  using Call = const CallExpr *;
  auto Done = [](auto F) {
    return [F](auto *N, ASTContext &C, State &S) {
      F(N, C, S);
      return true;
    };
  };
  auto Build =
      Builder()
          // Result<T>::value(), operator*, operator->
          .CaseOf<CallExpr>(
              [P](const CallExpr &CE) { return isResultUnwrap(*P, CE); },
              Done([](Call E, ASTContext &, State &S) {
                transferResultUnwrap(E, S);
              }))
          // Array::is_single_device(), Sharding::is_single_device()
          .CaseOf<CallExpr>(Role(FnRole::SingleDevicePredicate),
                            Done([](Call E, ASTContext &, State &S) {
                              transferPredicate(E, S, kSingle);
                            }))
          // Device::is_addressable()
          .CaseOf<CallExpr>(Role(FnRole::AddressablePredicate),
                            Done([](Call E, ASTContext &, State &S) {
                              transferPredicate(E, S, kAddressable);
                            }))
          // Array::num_devices(), Sharding::num_devices()
          .CaseOf<CallExpr>(Role(FnRole::DeviceCount),
                            Done([](Call E, ASTContext &, State &S) {
                              transferLinkedValue(E, S, kSingle, kCountIsOne);
                            }))
          // Array::platform(), Device::platform()
          .CaseOf<CallExpr>(Role(FnRole::PlatformOf),
                            Done([](Call E, ASTContext &, State &S) {
                              transferLinkedValue(E, S, kTpu, kIsTpu);
                            }))
          // Array::memory_kind(), Sharding::memory_kind()
          .CaseOf<CallExpr>(Role(FnRole::MemoryKindOf),
                            Done([](Call E, ASTContext &, State &S) {
                              transferLinkedValue(E, S, kPinned, kIsPinned);
                            }))
          // Array::sharding()
          .CaseOf<CallExpr>(Role(FnRole::ShardingOf),
                            Done([](Call E, ASTContext &, State &S) {
                              transferShardingOf(E, S);
                            }))
          // Sharding::devices()
          .CaseOf<CallExpr>(Role(FnRole::DeviceListOf),
                            Done([](Call E, ASTContext &, State &S) {
                              transferDeviceListOf(E, S);
                            }))
          // devices(), device_by_id()
          .CaseOf<CallExpr>(Role(FnRole::GlobalDeviceSource),
                            Done([P](Call E, ASTContext &, State &S) {
                              transferGlobalDevices(*P, E, S);
                            }))
          // local_devices(), local_device_for()
          .CaseOf<CallExpr>(Role(FnRole::AddressableDeviceSource),
                            Done([P](Call E, ASTContext &, State &S) {
                              transferAddressableDevices(*P, E, S);
                            }))
          // Array::addressable_shards(), Array::addressable_data(i)
          .CaseOf<CallExpr>(Role(FnRole::ShardsOf),
                            Done([P](Call E, ASTContext &, State &S) {
                              transferShardsOf(*P, E, S);
                            }))
          // gather(), from_dlpack(), Sharding::single_device()
          .CaseOf<CallExpr>(Role(FnRole::SingleDeviceProducer),
                            Done([P](Call E, ASTContext &, State &S) {
                              transferSingleDeviceProducer(*P, E, S);
                            }))
          // Other API calls (to_dlpack, cuda_array_interface) change nothing.
          .CaseOf<CallExpr>(
              [P](const CallExpr &CE) {
                return !P->classify(CE.getDirectCallee()).empty();
              },
              Done([](Call, ASTContext &, State &) {}))
          // *it, it->, *smart_ptr on device/array ranges
          .CaseOf<CallExpr>(
              [P](const CallExpr &CE) {
                return isDerefOperator(CE) && onRange(*P, CE);
              },
              Done([P](Call E, ASTContext &, State &S) {
                transferRangeDeref(*P, E, S);
              }))
          // devs[i], devs.at(i), devs.begin(), devs.size(), devs.push_back(d)
          .CaseOf<CallExpr>([P](const CallExpr &CE) { return onRange(*P, CE); },
                            Done([P](Call E, ASTContext &, State &S) {
                              transferRangeCall(*P, E, S);
                            }))
          // a = b
          .CaseOf<CXXOperatorCallExpr>(
              [P](const CXXOperatorCallExpr &E) {
                return assignsModelled(*P, E);
              },
              Done([](const CXXOperatorCallExpr *E, ASTContext &, State &S) {
                transferAssignment(E, S);
              }))
          // a.mutate(), holder.reset()
          .CaseOf<CallExpr>(isNonConstMemberCall,
                            Done([P](Call E, ASTContext &, State &S) {
                              transferNonConstMemberCall(*P, E, S);
                            }))
          // holder.array()
          .CaseOf<CallExpr>(
              [P](const CallExpr &CE) {
                return isZeroParamConstMemberCall(CE) &&
                       hasModelledType(*P, CE);
              },
              Done([P](Call E, ASTContext &, State &S) {
                transferConstGetter(*P, E, S);
              }))
          // make_array(), a helper returning a device
          .CaseOf<CallExpr>(
              [P](const CallExpr &CE) { return hasModelledType(*P, CE); },
              Done([P](Call E, ASTContext &, State &S) {
                transferProducer(*P, E, S);
              }))
          // Array b(a), Device d = devs[3]
          .CaseOf<CXXConstructExpr>(
              [P](const CXXConstructExpr &E) { return copiesModelled(*P, E); },
              Done([](const CXXConstructExpr *E, ASTContext &, State &S) {
                transferCopy(E, S);
              }))
          // MemoryKind::kPinnedHost, Platform::kTpu
          .CaseOf<DeclRefExpr>(
              [](const DeclRefExpr &E) {
                return isa<EnumConstantDecl>(E.getDecl());
              },
              Done([P](const DeclRefExpr *E, ASTContext &, State &S) {
                transferEnumerator(*P, E, S);
              }))
          // for (const Device &d : devices())
          .CaseOf<DeclStmt>(
              declaresRangeForVar,
              Done([P](const DeclStmt *D, ASTContext &, State &S) {
                const auto *VD = cast<VarDecl>(D->getSingleDecl());
                if (const VarDecl *Range = S.Ctx.RangeFors.lookup(VD))
                  transferRangeForVar(*P, VD, Range, S);
              }))
          // flag ? devices()[1] : local_devices()[0]
          .CaseOf<AbstractConditionalOperator>(
              [](const AbstractConditionalOperator &) { return true; },
              Done([](const AbstractConditionalOperator *E, ASTContext &,
                      State &S) { transferConditional(E, S); }))
          // a.num_devices() == 1, p == Platform::kTpu
          .CaseOf<BinaryOperator>(
              [](const BinaryOperator &E) { return E.isComparisonOp(); },
              Done([P](const BinaryOperator *E, ASTContext &C, State &S) {
                transferComparison(*P, E, C, S);
              }))
          .Build();
  return [Build](const CFGElement &Elt, ASTContext &Ctx, State &S) {
    Build(Elt, Ctx, S);
  };
}

//===----------------------------------------------------------------------===//
// Diagnoser
//===----------------------------------------------------------------------===//

/// Holds, Refuted or Unknown: one SAT query when the fact holds (the common
/// case in correct code), two otherwise. `AskRefuted` false saves the second
/// query when only "holds or not" matters.
Proof prove(const Environment &Env, const BoolValue *V,
            bool AskRefuted = true) {
  if (!V)
    return Proof::Unknown;
  const Formula &F = V->formula();
  if (F.isLiteral(true))
    return Proof::Holds;
  if (F.isLiteral(false))
    return Proof::Refuted;
  if (Env.proves(F))
    return Proof::Holds;
  if (AskRefuted && Env.proves(Env.arena().makeNot(F)))
    return Proof::Refuted;
  return Proof::Unknown;
}

SinkSubject gatherSink(const ApiModel &M, const CallExpr *CE, SinkKind Kind,
                       const InteropLattice &Lattice, const Environment &Env) {
  SinkSubject Out;
  SinkFact &F = Out.Fact;
  F.Kind = Kind;
  F.Call = CE;
  F.Subject = sinkSubject(M, *CE, Kind);
  if (!F.Subject)
    return Out;
  RecordStorageLocation *Loc = objectLoc(*F.Subject, Env);
  if (!Loc)
    return Out;
  F.From = originOf(Lattice, Loc);
  if (Kind == SinkKind::Import) {
    Out.Addressable = peekBool(Loc, kAddressable, Env);
    F.Modelled = Out.Addressable != nullptr;
    return Out;
  }
  Out.Single = peekBool(Loc, kSingle, Env);
  if (Kind == SinkKind::Export) {
    Out.Tpu = peekBool(Loc, kTpu, Env);
    Out.Pinned = peekBool(Loc, kPinned, Env);
  }
  F.Modelled = Out.Single || Out.Tpu;
  return Out;
}

/// The proofs, in the environment the subject was gathered in.
SinkFact proveSink(const SinkSubject &S, const Environment &Env) {
  SinkFact F = S.Fact;
  if (!F.Modelled)
    return F;
  if (F.Kind == SinkKind::Import) {
    F.Addressable = prove(Env, S.Addressable);
    return F;
  }
  F.SingleDevice = prove(Env, S.Single);
  // Only a TPU fact that holds matters (to interop-tpu-dlpack-memory-kind).
  F.Tpu = prove(Env, S.Tpu, /*AskRefuted=*/false);
  if (F.Tpu == Proof::Holds)
    F.PinnedHost = prove(Env, S.Pinned);
  return F;
}

} // namespace

/// value(), operator* or operator-> of a modelled Result.
bool isResultUnwrap(const ApiModel &M, const CallExpr &CE) {
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(CE.getDirectCallee());
  if (!MD ||
      M.classify(MD->getThisType()->getPointeeType()) != TypeRole::Result)
    return false;
  if (MD->getOverloadedOperator() == OO_Star ||
      MD->getOverloadedOperator() == OO_Arrow)
    return true;
  return MD->getDeclName().isIdentifier() && MD->getName() == "value";
}

std::optional<SinkKind> sinkKindOf(const ApiModel &Model,
                                   const FunctionDecl *Callee) {
  FnRoles R = Model.classify(Callee);
  if (R.has(FnRole::Export))
    return SinkKind::Export;
  if (R.has(FnRole::Import))
    return SinkKind::Import;
  if (R.has(FnRole::CudaArrayInterface))
    return SinkKind::CudaArrayInterface;
  return std::nullopt;
}

const Expr *sinkSubject(const ApiModel &Model, const CallExpr &Call,
                        SinkKind Kind) {
  TypeRole Want = Kind == SinkKind::Import ? TypeRole::Device : TypeRole::Array;
  unsigned First = isa<CXXOperatorCallExpr>(Call) && receiverOf(Call) ? 1 : 0;
  for (unsigned I = First, N = Call.getNumArgs(); I < N; ++I)
    if (Model.classifyPointee(paramType(Call, I)) == Want)
      return Call.getArg(I);
  if (const Expr *R = receiverOf(Call))
    if (Model.classifyPointee(R->getType()) == Want)
      return R;
  return nullptr;
}

namespace {
/// Collects the range-based for loops of a function body (not of the
/// lambdas in it, which are analysed as functions of their own).
class RangeForCollector : public RecursiveASTVisitor<RangeForCollector> {
public:
  explicit RangeForCollector(
      llvm::DenseMap<const VarDecl *, const VarDecl *> &Map)
      : Map(Map) {}
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool VisitCXXForRangeStmt(CXXForRangeStmt *S) {
    const VarDecl *Loop = S->getLoopVariable();
    const auto *RangeDS = dyn_cast_or_null<DeclStmt>(S->getRangeStmt());
    if (Loop && RangeDS && RangeDS->isSingleDecl())
      if (const auto *RangeVar = dyn_cast<VarDecl>(RangeDS->getSingleDecl()))
        Map[Loop] = RangeVar;
    return true;
  }

private:
  llvm::DenseMap<const VarDecl *, const VarDecl *> &Map;
};

} // namespace

std::shared_ptr<const ArrayDeviceAnalysis::TransferSwitch>
ArrayDeviceAnalysis::buildTransferSwitch(const ApiModel &Model) {
  return std::make_shared<const TransferSwitch>(makeTransferSwitch(Model));
}

ArrayDeviceAnalysis::ArrayDeviceAnalysis(
    ASTContext &Ctx, Environment &Env, const ApiModel &M, unsigned Facts,
    std::shared_ptr<const TransferSwitch> Prebuilt, bool Collect)
    : DataflowAnalysis(Ctx), Model(M), Collecting(Collect),
      Per(std::make_shared<Context>()),
      Switch(Prebuilt ? std::move(Prebuilt) : buildTransferSwitch(M)) {
  if (const FunctionDecl *FD = Env.getCurrentFunc())
    if (Stmt *Body = FD->getBody())
      RangeForCollector(Per->RangeFors).TraverseStmt(Body);
  const ApiModel *P = &M;
  bool Single = Facts & SingleDeviceFacts, Tpu = Facts & TpuMemoryFacts,
       Addressable = Facts & AddressableFacts;
  Env.getDataflowAnalysisContext().setSyntheticFieldCallback(
      [P, &Ctx, Single, Tpu,
       Addressable](QualType Ty) -> llvm::StringMap<QualType> {
        llvm::StringMap<QualType> Fields;
        auto Add = [&](bool Tracked, llvm::StringRef Name) {
          if (Tracked)
            Fields[Name] = Ctx.BoolTy;
        };
        switch (P->classify(Ty)) {
        case TypeRole::Array:
        case TypeRole::Sharding:
          Add(Single, kSingle);
          Add(Tpu, kTpu);
          Add(Tpu, kPinned);
          break;
        case TypeRole::Device:
          Add(Addressable, kAddressable);
          Add(Tpu, kTpu);
          break;
        case TypeRole::DeviceRange:
          Add(Single, kSingle);
          Add(Addressable, kElemAddressable);
          Add(Tpu, kElemTpu);
          break;
        case TypeRole::ArrayRange:
          Add(Single, kSingle);
          Add(Single, kElemSingle);
          break;
        case TypeRole::Result: {
          const auto *CTSD = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
              Ty->getAsCXXRecordDecl());
          if (!CTSD || CTSD->getTemplateArgs().size() < 1 ||
              CTSD->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
            break;
          QualType T = CTSD->getTemplateArgs()[0].getAsType();
          TypeRole Inner = P->classifyPointee(T);
          if (Inner != TypeRole::None && Inner != TypeRole::Result)
            Fields[kValue] = T;
          break;
        }
        case TypeRole::None:
          break;
        }
        return Fields;
      });
}

llvm::SmallVector<SinkFact> ArrayDeviceAnalysis::provePending() {
  llvm::SmallVector<SinkFact> Facts;
  for (auto &[Call, P] : Per->Pending)
    Facts.push_back(proveSink(P.Subject, P.Env));
  Per->Pending.clear();
  return Facts;
}

void ArrayDeviceAnalysis::transfer(const CFGElement &Elt, InteropLattice &L,
                                   Environment &Env) {
  auto CS = Elt.getAs<CFGStmt>();
  if (!CS || !mayMatter(Model, CS->getStmt(), L, Env))
    return;
  State S{L, Env, *Per};
  (*Switch)(Elt, getASTContext(), S);
  // Collecting mode: remember each sink's subject and a fork of the state as
  // the fixpoint reaches it. The last visit of a block sees its fixpoint
  // state, so what is left per call when the run ends is what the
  // diagnoser's extra pass over every block would judge; provePending()
  // then asks the solver once per call instead of once per visit.
  if (Collecting)
    if (const auto *CE = dyn_cast<CallExpr>(CS->getStmt()))
      if (std::optional<SinkKind> K =
              sinkKindOf(Model, CE->getDirectCallee())) {
        SinkSubject Sub = gatherSink(Model, CE, *K, L, Env);
        PendingSink Visit{std::move(Sub), Env.fork()};
        auto Found = Per->Pending.find(CE);
        if (Found != Per->Pending.end())
          Found->second = std::move(Visit);
        else
          Per->Pending.insert(std::make_pair(CE, std::move(Visit)));
      }
}

ArrayDeviceDiagnoser::ArrayDeviceDiagnoser(const ApiModel &M) : Model(M) {
  const ApiModel *P = &M;
  auto Sink = [P](SinkKind K) {
    return std::function<bool(const CallExpr &)>([P, K](const CallExpr &CE) {
      std::optional<SinkKind> Found = sinkKindOf(*P, CE.getDirectCallee());
      return Found && *Found == K;
    });
  };
  auto Judge = [P](SinkKind K) {
    return [P, K](const CallExpr *E, ASTContext &, DiagState &S) {
      return llvm::SmallVector<SinkFact>{
          proveSink(gatherSink(*P, E, K, S.Lattice, S.Env), S.Env)};
    };
  };
  using Result = llvm::SmallVector<SinkFact>;
  Switch =
      StmtSwitchBuilder<DiagState, Result>()
          // to_dlpack, dlpack_device
          .CaseOf<CallExpr>(Sink(SinkKind::Export), Judge(SinkKind::Export))
          // from_dlpack
          .CaseOf<CallExpr>(Sink(SinkKind::Import), Judge(SinkKind::Import))
          // cuda_array_interface, Array::unsafe_buffer_pointer
          .CaseOf<CallExpr>(Sink(SinkKind::CudaArrayInterface),
                            Judge(SinkKind::CudaArrayInterface))
          .Build();
}

llvm::SmallVector<SinkFact> ArrayDeviceDiagnoser::operator()(
    const CFGElement &Elt, ASTContext &Ctx,
    const TransferStateForDiagnostics<InteropLattice> &S) {
  // Only sink calls are judged; skip the matcher for everything else.
  auto CS = Elt.getAs<CFGStmt>();
  if (!CS)
    return {};
  const auto *CE = dyn_cast<CallExpr>(CS->getStmt());
  if (!CE || !sinkKindOf(Model, CE->getDirectCallee()))
    return {};
  return Switch(Elt, Ctx, S);
}

} // namespace clang::interop
