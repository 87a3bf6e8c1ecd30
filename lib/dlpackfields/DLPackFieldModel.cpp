//===--- DLPackFieldModel.cpp - what is proven about DLPack fields --------===//
//
// Reads like a table of contents: property names, value recognisers, the
// transfer functions (one per node kind), the branch transfer for C-style
// conditions, the read-only diagnoser that turns states into events, the
// switch-over-device-type proof, then the cached entry point.
//
//===----------------------------------------------------------------------===//

#include "lib/dlpackfields/DLPackFieldModel.h"

#include "lib/dlpackfields/DLPackFieldSyntaxProofs.h"
#include "lib/engine/ModelCache.h"
#include "lib/support/AstHelpers.h"
#include "lib/support/NameLists.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Analysis/CFG.h"
#include "clang/Analysis/FlowSensitive/DataflowAnalysis.h"
#include "clang/Analysis/FlowSensitive/DataflowEnvironment.h"
#include "clang/Analysis/FlowSensitive/MatchSwitch.h"
#include "clang/Analysis/FlowSensitive/NoopLattice.h"
#include "clang/Analysis/FlowSensitive/Value.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"

#include <memory>

namespace clang::interop {

using namespace clang::dataflow;
namespace am = clang::ast_matchers;

namespace {

//===----------------------------------------------------------------------===//
// Properties attached to values read from DLPack fields
//===----------------------------------------------------------------------===//

// Marks a value this function stored itself (a producer's own tensor).
constexpr llvm::StringLiteral kLocal = "interop.local";
// `data`: the tensor it came from, whether byte_offset was added, and the
// versioned managed tensor around it (for READ_ONLY).
constexpr llvm::StringLiteral kDataTensor = "interop.data.tensor";
constexpr llvm::StringLiteral kDataOffset = "interop.data.offset";
constexpr llvm::StringLiteral kDataManaged = "interop.data.managed";
// `strides` and its NULL atom.
constexpr llvm::StringLiteral kStrides = "interop.strides";
constexpr llvm::StringLiteral kNull = "interop.null";
// `byte_offset` and its zero atom.
constexpr llvm::StringLiteral kByteOffset = "interop.bo";
constexpr llvm::StringLiteral kZero = "interop.zero";
// `device_type`, its "host-accessible" atom and one atom per compared value
// ("interop.dt.eq.2" is device_type == kDLCUDA).
constexpr llvm::StringLiteral kDeviceType = "interop.dt";
constexpr llvm::StringLiteral kHost = "interop.dt.host";
// The synthetic field of a DLDevice record set by host-ness guards.
constexpr llvm::StringLiteral kDeviceHostField = "interop_host";
constexpr llvm::StringLiteral kDeviceEqPrefix = "interop.dt.eq.";
// `version.major`: supported (checked by code that stays in release builds)
// and supported-by-assertion (checked only inside a debug-only macro).
constexpr llvm::StringLiteral kMajor = "interop.major";
constexpr llvm::StringLiteral kMajorOk = "interop.major.ok";
constexpr llvm::StringLiteral kMajorAssertOk = "interop.major.aok";
// `flags`, its READ_ONLY atom, and `flags & READ_ONLY` as an integer whose
// non-zero-ness is an atom.
constexpr llvm::StringLiteral kFlags = "interop.flags";
constexpr llvm::StringLiteral kReadOnly = "interop.ro";
constexpr llvm::StringLiteral kReadOnlyBit = "interop.robit";
constexpr llvm::StringLiteral kNonZero = "interop.nz";

bool hasProp(const Value *V, llvm::StringRef Name) {
  return V && V->getProperty(Name) != nullptr;
}

bool isLocal(const Value *V) { return hasProp(V, kLocal); }

/// A value the model tracks (carries one of its markers).
bool isTracked(const Value *V) {
  return V && (hasProp(V, kDataTensor) || hasProp(V, kStrides) ||
               hasProp(V, kByteOffset) || hasProp(V, kDeviceType) ||
               hasProp(V, kMajor) || hasProp(V, kFlags) ||
               hasProp(V, kReadOnlyBit) || hasProp(V, kLocal));
}

BoolValue *boolProp(const Value *V, llvm::StringRef Name) {
  return V ? dyn_cast_or_null<BoolValue>(V->getProperty(Name)) : nullptr;
}

BoolValue &atomProp(Value &V, llvm::StringRef Name, Environment &Env) {
  if (BoolValue *B = boolProp(&V, Name))
    return *B;
  BoolValue &A = Env.makeAtomicBoolValue();
  V.setProperty(Name, A);
  return A;
}

bool provesProp(const Environment &Env, const Value *V, llvm::StringRef Name,
                bool Negated = false) {
  BoolValue *B = boolProp(V, Name);
  if (!B)
    return false;
  const Formula &F = B->formula();
  return Env.proves(Negated ? Env.arena().makeNot(F) : F);
}

//===----------------------------------------------------------------------===//
// Side tables of one run (flow-insensitive facts and note locations)
//===----------------------------------------------------------------------===//

/// The parts of a DLPackModelConfig that are compiled before use.
struct CompiledConfig {
  FunctionNameList HostGuards;
  FunctionNameList Importers;
};

class DLPackEventCollector;

struct RunContext {
  const DLPackModelConfig *Config = nullptr;
  /// Judges statements into events (after the fixpoint).
  DLPackEventCollector *Collector = nullptr;
  /// Where each tracked value was first read.
  llvm::DenseMap<const Value *, const Expr *> ReadSite;
  /// Clones made for casts and arithmetic point back at the value read.
  llvm::DenseMap<const Value *, const Value *> Origin;
  /// Strides whose elements were read or that were passed on.
  llvm::DenseSet<const Value *> SeenStrides;
  /// Tensors passed to a function that may look at their strides.
  llvm::DenseSet<const StorageLocation *> SeenTensors;
  /// Which callees read the strides field (see mayLookAtStrides).
  llvm::DenseMap<const FunctionDecl *, bool> StridesReaders;
  /// HostDeviceGuards and ImportFunctions, compiled once per configuration.
  const CompiledConfig *Compiled = nullptr;
  /// Subscripts/derefs that are assignment targets.
  llvm::DenseSet<const Expr *> WriteTargets;
  /// Member expressions on the left of an assignment (producer writes).
  llvm::DenseSet<const Expr *> WriteChains;
  /// Subscripts under `&` (address arithmetic, not an access).
  llvm::DenseSet<const Expr *> AddressOnly;
  /// DLPack records created in this function (a producer's own).
  llvm::DenseSet<const StorageLocation *> LocalRecords;
  /// Versioned-tensor parameters the function only reads fields of (an
  /// accessor: the version belongs to whoever hands the tensor in).
  llvm::DenseSet<const ValueDecl *> AccessorParams;
  /// The host-ness guard call on a device record.
  llvm::DenseMap<const StorageLocation *, const Expr *> GuardSite;
  /// The comparison that created a device-type or assertion atom.
  llvm::DenseMap<const Value *, const Expr *> AtomSite;
};

const Value *originOf(const RunContext &RC, const Value *V) {
  auto It = RC.Origin.find(V);
  return It == RC.Origin.end() ? V : It->second;
}

const Expr *readSiteOf(const RunContext &RC, const Value *V) {
  return RC.ReadSite.lookup(originOf(RC, V));
}

//===----------------------------------------------------------------------===//
// Recognisers
//===----------------------------------------------------------------------===//

/// The value the model tracks for E: the value of E after identity casts.
Value *trackedValueOf(const Expr *E, const Environment &Env) {
  if (!E)
    return nullptr;
  if (Value *V = Env.getValue(*E->IgnoreParens()))
    if (isTracked(V))
      return V;
  const Expr *S = stripIdentityCasts(E);
  if (!S)
    return nullptr;
  Value *V = Env.getValue(*S);
  return isTracked(V) ? V : nullptr;
}

RecordStorageLocation *recordOfMemberBase(const MemberExpr *ME,
                                          const Environment &Env) {
  const Expr *Base = ME->getBase();
  if (ME->isArrow()) {
    if (auto *PV = Env.get<PointerValue>(*Base))
      return dyn_cast<RecordStorageLocation>(&PV->getPointeeLoc());
    if (auto *PV = dyn_cast_or_null<PointerValue>(
            Env.getValue(*stripIdentityCasts(Base))))
      return dyn_cast<RecordStorageLocation>(&PV->getPointeeLoc());
    return nullptr;
  }
  return dyn_cast_or_null<RecordStorageLocation>(Env.getStorageLocation(*Base));
}

StorageLocation *childOf(const RecordStorageLocation *R, DLPackField F) {
  if (!R)
    return nullptr;
  for (auto [D, Loc] : R->children())
    if (classifyDLPackField(dyn_cast<FieldDecl>(D)) == F)
      return Loc;
  return nullptr;
}

RecordStorageLocation *childRecordOf(const RecordStorageLocation *R,
                                     DLPackField F) {
  return dyn_cast_or_null<RecordStorageLocation>(childOf(R, F));
}

Value *fieldValue(const RecordStorageLocation *R, DLPackField F,
                  const Environment &Env) {
  StorageLocation *L = childOf(R, F);
  return L ? Env.getValue(*L) : nullptr;
}

/// The DLTensor record inside R (R itself for a DLTensor, dl_tensor for a
/// managed tensor).
RecordStorageLocation *tensorRecordOf(RecordStorageLocation *R) {
  if (!R)
    return nullptr;
  DLPackRecord K = classifyDLPackType(R->getType());
  if (K == DLPackRecord::Tensor)
    return R;
  if (isManagedTensor(K))
    return childRecordOf(R, DLPackField::DLTensor);
  return nullptr;
}

Value *deviceTypeValueOf(RecordStorageLocation *TensorRec,
                         const Environment &Env) {
  RecordStorageLocation *Dev = childRecordOf(TensorRec, DLPackField::Device);
  return fieldValue(Dev, DLPackField::DeviceType, Env);
}

/// True when E mentions byte_offset: the field itself, or a variable whose
/// value was read from it (`size_t off = t->byte_offset; ... base + off`).
bool mentionsByteOffset(const Expr *E, const Environment &Env) {
  if (!E)
    return false;
  E = E->IgnoreParens();
  if (dlpackFieldOfMember(E) == DLPackField::ByteOffset)
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (hasProp(Env.getValue(*VD), kByteOffset))
        return true;
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      if (mentionsByteOffset(CE, Env))
        return true;
  return false;
}

/// True when E mentions the layout of a DLTensor (shape, ndim, strides,
/// dtype), directly or through a local initialised from one.
bool mentionsLayout(const Expr *E, int Depth = 0) {
  if (!E || Depth > 2)
    return false;
  E = E->IgnoreParens();
  switch (dlpackFieldOfMember(E)) {
  case DLPackField::Shape:
  case DLPackField::NDim:
  case DLPackField::Strides:
  case DLPackField::DType:
    return true;
  default:
    break;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (VD->hasLocalStorage() && VD->getInit())
        return mentionsLayout(VD->getInit(), Depth + 1);
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      if (mentionsLayout(CE, Depth))
        return true;
  return false;
}

/// True when FD has no body here (its behaviour is unknown) or its body
/// reads the strides field: passing a tensor to it counts as looking at the
/// strides (a compactness check in a helper).
bool mayLookAtStrides(const FunctionDecl *FD,
                      llvm::DenseMap<const FunctionDecl *, bool> &Memo) {
  if (!FD)
    return true;
  const FunctionDecl *Def = FD->getDefinition();
  if (!Def || !Def->getBody())
    return true;
  auto It = Memo.find(Def);
  if (It != Memo.end())
    return It->second;
  struct Finder : RecursiveASTVisitor<Finder> {
    bool Found = false;
    bool VisitMemberExpr(MemberExpr *ME) {
      if (classifyDLPackField(dyn_cast<FieldDecl>(ME->getMemberDecl())) ==
          DLPackField::Strides)
        Found = true;
      return !Found;
    }
  } F;
  F.TraverseStmt(Def->getBody());
  Memo[Def] = F.Found;
  return F.Found;
}

/// The tensor record a call argument designates: `t`, `&mt->dl_tensor`,
/// `*t` passed by reference, a managed tensor's dl_tensor.
RecordStorageLocation *tensorArgRecord(const Expr *Arg,
                                       const Environment &Env) {
  const Expr *S = stripIdentityCasts(Arg);
  if (!S)
    return nullptr;
  QualType T = S->getType();
  if (classifyDLPackPointee(T) != DLPackRecord::None) {
    auto *PV = dyn_cast_or_null<PointerValue>(Env.getValue(*S));
    return PV ? tensorRecordOf(
                    dyn_cast<RecordStorageLocation>(&PV->getPointeeLoc()))
              : nullptr;
  }
  if (classifyDLPackType(T) != DLPackRecord::None && S->isGLValue())
    return tensorRecordOf(
        dyn_cast_or_null<RecordStorageLocation>(Env.getStorageLocation(*S)));
  return nullptr;
}

/// Records the member chain on the left of an assignment as a write.
void markWriteChain(const Expr *LHS, RunContext &RC) {
  const Expr *E = LHS ? LHS->IgnoreParenImpCasts() : nullptr;
  while (E) {
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      RC.WriteChains.insert(ME);
      E = ME->getBase()->IgnoreParenImpCasts();
      continue;
    }
    if (isa<ArraySubscriptExpr>(E) ||
        (isa<UnaryOperator>(E) &&
         cast<UnaryOperator>(E)->getOpcode() == UO_Deref)) {
      RC.WriteTargets.insert(E);
      return;
    }
    return;
  }
}

//===----------------------------------------------------------------------===//
// The analysis
//===----------------------------------------------------------------------===//

using State = TransferState<NoopLattice>;

class DLPackFieldModel
    : public DataflowAnalysis<DLPackFieldModel, NoopLattice> {
public:
  DLPackFieldModel(ASTContext &Ctx, Environment &Env, RunContext &RC)
      : DataflowAnalysis(Ctx), RC(RC) {
    // A host-ness guard over a device (IsHostDevice(t->device)) may name no
    // field at all, so its result lives on the DLDevice record itself.
    QualType BoolTy = Ctx.BoolTy;
    Env.getDataflowAnalysisContext().setSyntheticFieldCallback(
        [BoolTy](QualType T) -> llvm::StringMap<QualType> {
          if (classifyDLPackType(T) == DLPackRecord::Device)
            return {{kDeviceHostField, BoolTy}};
          return {};
        });
  }

  static NoopLattice initialElement() { return {}; }

  void transfer(const CFGElement &Elt, NoopLattice &L, Environment &Env) {
    if (std::optional<CFGStmt> CS = Elt.getAs<CFGStmt>()) {
      State S(L, Env);
      dispatchOnNode<ImplicitCastExpr, ExplicitCastExpr, BinaryOperator,
                     UnaryOperator, ArraySubscriptExpr, CallExpr,
                     CXXConstructExpr, InitListExpr, CXXNewExpr>(
          CS->getStmt(), [&](const auto *E) { transferNode(E, S); });
      record(CS->getStmt(), Env);
    }
  }

  /// The events of every recorded statement, judged in its recorded state.
  /// Called after the fixpoint (the side tables the judgement reads, such as
  /// which subscripts only take an address, are complete only then).
  std::vector<DLPackEvent> judgeRecorded();

  /// Conditions that are not booleans (C's `if (p)`, `if (t->byte_offset)`)
  /// do not get a value the framework can branch on, so their meaning is
  /// assumed on each edge here.
  void transferBranch(bool Branch, const Stmt *Cond, NoopLattice &,
                      Environment &Env) {
    const auto *E = dyn_cast_or_null<Expr>(Cond);
    if (!E || E->getType()->isBooleanType())
      return;
    Value *V = trackedValueOf(E, Env);
    if (!V)
      return;
    BoolValue *IsFalse = nullptr;
    if (hasProp(V, kStrides))
      IsFalse = &atomProp(*V, kNull, Env);
    else if (hasProp(V, kByteOffset))
      IsFalse = &atomProp(*V, kZero, Env);
    else if (hasProp(V, kReadOnlyBit))
      IsFalse = &Env.makeNot(atomProp(*V, kNonZero, Env));
    if (!IsFalse)
      return;
    Env.assume(Branch ? Env.arena().makeNot(IsFalse->formula())
                      : IsFalse->formula());
  }

  /// Keeps the model's facts on values joined at merge points (a pointer
  /// reassigned on one branch and copied on the other).
  void join(QualType, const Value &V1, const Environment &E1, const Value &V2,
            const Environment &E2, Value &Joined,
            Environment &JoinedEnv) override {
    for (llvm::StringRef Marker : {kStrides, kByteOffset, kDeviceType, kMajor,
                                   kFlags, kLocal, kReadOnlyBit}) {
      Value *M1 = V1.getProperty(Marker), *M2 = V2.getProperty(Marker);
      if (M1 && M2)
        Joined.setProperty(Marker, *M1);
    }
    for (llvm::StringRef Name : {kNull, kZero, kHost, kMajorOk, kMajorAssertOk,
                                 kReadOnly, kNonZero, kDataOffset}) {
      BoolValue *B1 = boolProp(&V1, Name), *B2 = boolProp(&V2, Name);
      if (!B1 || !B2)
        continue;
      // Copies of one value share their facts: no new atom, no constraint
      // for the solver.
      if (B1 == B2) {
        Joined.setProperty(Name, *B1);
        continue;
      }
      Arena &A = JoinedEnv.arena();
      BoolValue &J = JoinedEnv.makeAtomicBoolValue();
      const Formula &JF = J.formula();
      JoinedEnv.assume(
          A.makeOr(A.makeAnd(A.makeAtomRef(E1.getFlowConditionToken()),
                             A.makeEquals(JF, B1->formula())),
                   A.makeAnd(A.makeAtomRef(E2.getFlowConditionToken()),
                             A.makeEquals(JF, B2->formula()))));
      Joined.setProperty(Name, J);
    }
    // The tensor a data pointer belongs to survives a join only when both
    // sides agree.
    for (llvm::StringRef Name : {kDataTensor, kDataManaged}) {
      auto *P1 = dyn_cast_or_null<PointerValue>(V1.getProperty(Name));
      auto *P2 = dyn_cast_or_null<PointerValue>(V2.getProperty(Name));
      if (P1 && P2 && &P1->getPointeeLoc() == &P2->getPointeeLoc())
        Joined.setProperty(Name, *P1);
    }
    if (const Expr *Site = readSiteOf(RC, &V1))
      RC.ReadSite.try_emplace(&Joined, Site);
  }

private:
  /// Keeps a copy of the state after St when St may have events: the
  /// fixpoint's last visit of a block sees its final state, so judging these
  /// after the fixpoint finds what a diagnosis pass would, without that
  /// pass re-transferring every block.
  void record(const Stmt *St, const Environment &Env);

  // Transfer functions, one per node kind (see transfer()).
  // Field reads, bool conversions, implicit pointer/integer conversions.
  void transferNode(const ImplicitCastExpr *E, State &S);
  // static_cast<float *>(t->data), (int)t->device.device_type, ...
  void transferNode(const ExplicitCastExpr *E, State &S);
  // Comparisons, pointer arithmetic, flags & READ_ONLY, assignments.
  void transferNode(const BinaryOperator *E, State &S);
  // &p[byte_offset], C's !p, ++/-- targets.
  void transferNode(const UnaryOperator *E, State &S);
  // strides[i] marks the strides as looked at.
  void transferNode(const ArraySubscriptExpr *E, State &S);
  // device-type readers, strides passed on, record assignment.
  void transferNode(const CallExpr *E, State &S);
  void transferNode(const CXXConstructExpr *E, State &S);
  // DLTensor t = {...}: a producer's own tensor.
  void transferNode(const InitListExpr *E, State &S);
  // new DLManagedTensorVersioned: also a producer's own tensor.
  void transferNode(const CXXNewExpr *E, State &S);
  void createdHere(RecordStorageLocation *R, Environment &Env, int Depth = 0);

  // Helpers.
  void initFieldValue(Value &V, DLPackField F, const MemberExpr *ME,
                      const Expr *Site, Environment &Env);
  void propagate(const Expr *To, const Expr *From, Environment &Env);
  Value *cloneTracked(Value &V, QualType NewType, Environment &Env);
  void markLocal(RecordStorageLocation *R, Environment &Env, int Depth = 0);
  /// A producer wrote field F (at Loc): what it holds, or every tracked
  /// field of the record it is, is the producer's own. False for a field
  /// the model does not track.
  bool markMemberLocal(DLPackField F, StorageLocation *Loc, QualType T,
                       Environment &Env, int Depth);
  void markFieldLocal(StorageLocation *Loc, QualType T, Environment &Env);
  void noteStridesSeen(const Expr *E, const Environment &Env);
  BoolValue *deviceEquals(Value &T, std::int64_t K, const Expr *Site,
                          Environment &Env);
  BoolValue *comparisonValue(const BinaryOperator *E, Environment &Env);
  BoolValue *truthValue(Value &V, Environment &Env);
  void assignment(const Expr *LHS, Environment &Env);
  /// `Result` is `Base` moved by `Offset` (`base + n`, `&base[n]`): it
  /// points into the same tensor's data, with byte_offset added when
  /// `Offset` mentions it.
  void derivePointer(const Expr *Result, const Expr *Base, const Expr *Offset,
                     Environment &Env);
  bool hostGuard(const CallExpr *E, Environment &Env);

  RunContext &RC;
  /// The state after each statement that may have events, on its last
  /// visit.
  LastVisitStates Recorded;
};

/// The scalar fields whose values carry the model's facts.
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

void DLPackFieldModel::initFieldValue(Value &V, DLPackField F,
                                      const MemberExpr *ME, const Expr *Site,
                                      Environment &Env) {
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
  RC.ReadSite.try_emplace(&V, Site);
}

Value *DLPackFieldModel::cloneTracked(Value &V, QualType NewType,
                                      Environment &Env) {
  Value *New = nullptr;
  if (isa<PointerValue>(V)) {
    if (!NewType->isPointerType())
      return nullptr;
    New = &Env.create<PointerValue>(
        Env.createStorageLocation(NewType->getPointeeType()));
  } else if (isa<IntegerValue>(V)) {
    New = &Env.create<IntegerValue>();
  } else {
    return nullptr;
  }
  for (const auto &P : V.properties())
    New->setProperty(P.getKey(), *P.getValue());
  RC.Origin[New] = originOf(RC, &V);
  return New;
}

void DLPackFieldModel::propagate(const Expr *To, const Expr *From,
                                 Environment &Env) {
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
  if (Existing && originOf(RC, Existing) == originOf(RC, V) &&
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
    if (Value *C = cloneTracked(*V, T, Env))
      Env.setValue(*To, *C);
    return;
  }
  Env.setValue(*To, *V);
}

void DLPackFieldModel::noteStridesSeen(const Expr *E, const Environment &Env) {
  if (Value *V = trackedValueOf(E, Env))
    if (hasProp(V, kStrides))
      RC.SeenStrides.insert(originOf(RC, V));
}

void DLPackFieldModel::markFieldLocal(StorageLocation *Loc, QualType T,
                                      Environment &Env) {
  if (!Loc)
    return;
  Value *New = Env.createValue(T);
  if (!New)
    return;
  New->setProperty(kLocal, Env.getBoolLiteralValue(true));
  Env.setValue(*Loc, *New);
}

void DLPackFieldModel::markLocal(RecordStorageLocation *R, Environment &Env,
                                 int Depth) {
  if (!R || Depth > 3)
    return;
  for (auto [D, Loc] : R->children()) {
    const auto *FD = dyn_cast<FieldDecl>(D);
    if (!Loc || !FD)
      continue;
    markMemberLocal(classifyDLPackField(FD), Loc, FD->getType(), Env,
                    Depth + 1);
  }
}

bool DLPackFieldModel::markMemberLocal(DLPackField F, StorageLocation *Loc,
                                       QualType T, Environment &Env,
                                       int Depth) {
  if (isTrackedField(F)) {
    markFieldLocal(Loc, T, Env);
    return true;
  }
  if (F == DLPackField::Device || F == DLPackField::DLTensor ||
      F == DLPackField::Version) {
    markLocal(dyn_cast_or_null<RecordStorageLocation>(Loc), Env, Depth);
    return true;
  }
  return false;
}

void DLPackFieldModel::assignment(const Expr *LHS, Environment &Env) {
  markWriteChain(LHS, RC);
  const Expr *L = LHS->IgnoreParenImpCasts();
  // A producer writing its own tensor: t->data = ..., mt->version = ...
  if (const auto *ME = dyn_cast<MemberExpr>(L)) {
    if (markMemberLocal(dlpackFieldOfMember(ME), Env.getStorageLocation(*ME),
                        ME->getType(), Env, /*Depth=*/0))
      return;
  }
  // *mt = ..., tensor = other: a whole DLPack record written.
  if (classifyDLPackType(L->getType()) != DLPackRecord::None)
    markLocal(
        dyn_cast_or_null<RecordStorageLocation>(Env.getStorageLocation(*L)),
        Env);
}

BoolValue *DLPackFieldModel::deviceEquals(Value &T, std::int64_t K,
                                          const Expr *Site, Environment &Env) {
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
  RC.AtomSite.try_emplace(&Eq, Site);
  return &Eq;
}

BoolValue *DLPackFieldModel::comparisonValue(const BinaryOperator *E,
                                             Environment &Env) {
  ASTContext &Ctx = getASTContext();
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
  if (hasProp(LV, kDeviceType) && C && (Op == BO_EQ || Op == BO_NE))
    return Result(*deviceEquals(*LV, C->getExtValue(), E, Env), Op == BO_EQ);
  if (hasProp(LV, kMajor)) {
    // The comparison is read as "is major the supported version": its truth
    // for major == DLPACK_MAJOR_VERSION (1) decides the polarity. Against a
    // non-constant bound, ==, <= and >= accept and the others reject.
    bool AcceptsSupported =
        C ? evaluateComparison<std::int64_t>(Op, 1, C->getExtValue())
          : (Op == BO_EQ || Op == BO_LE || Op == BO_GE);
    bool InAssert =
        isInMacroExpansion(E->getBeginLoc(), Ctx.getSourceManager(),
                           Ctx.getLangOpts(), RC.Config->DebugOnlyAssertMacros);
    BoolValue &Ok = atomProp(*LV, InAssert ? kMajorAssertOk : kMajorOk, Env);
    if (InAssert)
      RC.AtomSite.try_emplace(LV, E);
    return Result(Ok, AcceptsSupported);
  }
  if (hasProp(LV, kReadOnlyBit) && C && C->isZero() &&
      (Op == BO_EQ || Op == BO_NE))
    return Result(atomProp(*LV, kNonZero, Env), Op == BO_NE);
  return nullptr;
}

BoolValue *DLPackFieldModel::truthValue(Value &V, Environment &Env) {
  if (isLocal(&V))
    return nullptr;
  if (hasProp(&V, kStrides))
    return &Env.makeNot(atomProp(V, kNull, Env));
  if (hasProp(&V, kByteOffset))
    return &Env.makeNot(atomProp(V, kZero, Env));
  if (hasProp(&V, kReadOnlyBit))
    return &atomProp(V, kNonZero, Env);
  return nullptr;
}

void DLPackFieldModel::transferNode(const ImplicitCastExpr *E, State &S) {
  Environment &Env = S.Env;
  switch (E->getCastKind()) {
  case CK_LValueToRValue: {
    const auto *ME = dyn_cast<MemberExpr>(E->getSubExpr()->IgnoreParens());
    if (!ME)
      return;
    DLPackField F = dlpackFieldOfMember(ME);
    if (!isTrackedField(F))
      return;
    StorageLocation *Loc = Env.getStorageLocation(*ME);
    if (!Loc)
      return;
    Value *V = Env.getValue(*Loc);
    if (!V) {
      V = Env.createValue(ME->getType());
      if (!V)
        return;
      Env.setValue(*Loc, *V);
    }
    if (Env.getValue(*E) != V)
      Env.setValue(*E, *V);
    initFieldValue(*V, F, ME, E, Env);
    return;
  }
  case CK_PointerToBoolean:
  case CK_IntegralToBoolean:
    if (Value *V = trackedValueOf(E->getSubExpr(), Env))
      if (BoolValue *B = truthValue(*V, Env))
        Env.setValue(*E, *B);
    return;
  case CK_NoOp:
  case CK_BitCast:
  case CK_IntegralCast:
    propagate(E, E->getSubExpr(), Env);
    return;
  default:
    return;
  }
}

void DLPackFieldModel::transferNode(const ExplicitCastExpr *E, State &S) {
  switch (E->getCastKind()) {
  case CK_NoOp:
  case CK_BitCast:
  case CK_IntegralCast:
    propagate(E, E->getSubExpr(), S.Env);
    return;
  case CK_PointerToBoolean:
  case CK_IntegralToBoolean:
    if (Value *V = trackedValueOf(E->getSubExpr(), S.Env))
      if (BoolValue *B = truthValue(*V, S.Env))
        S.Env.setValue(*E, *B);
    return;
  default:
    return;
  }
}

void DLPackFieldModel::transferNode(const BinaryOperator *E, State &S) {
  Environment &Env = S.Env;
  BinaryOperatorKind Op = E->getOpcode();
  if (E->isComparisonOp()) {
    if (BoolValue *B = comparisonValue(E, Env))
      Env.setValue(*E, *B);
    return;
  }
  if (E->isAssignmentOp()) {
    assignment(E->getLHS(), Env);
    // p += t->byte_offset on a pointer derived from data.
    if ((Op == BO_AddAssign || Op == BO_SubAssign) &&
        E->getLHS()->getType()->isPointerType()) {
      Value *P = trackedValueOf(E->getLHS(), Env);
      StorageLocation *Loc = Env.getStorageLocation(*E->getLHS());
      if (P && Loc && hasProp(P, kDataTensor))
        if (Value *New = cloneTracked(*P, E->getLHS()->getType(), Env)) {
          if (mentionsByteOffset(E->getRHS(), Env))
            New->setProperty(kDataOffset, Env.getBoolLiteralValue(true));
          Env.setValue(*Loc, *New);
        }
    }
    return;
  }
  if ((Op == BO_Add || Op == BO_Sub) && E->getType()->isPointerType()) {
    // base + offset, in either order.
    const Expr *Ptr = E->getLHS(), *Int = E->getRHS();
    if (!Ptr->getType()->isPointerType())
      std::swap(Ptr, Int);
    derivePointer(E, Ptr, Int, Env);
    return;
  }
  if (Op == BO_And) {
    // flags & DLPACK_FLAG_BITMASK_READ_ONLY
    const Expr *Flags = E->getLHS(), *Mask = E->getRHS();
    Value *F = trackedValueOf(Flags, Env);
    if (!F || !hasProp(F, kFlags)) {
      std::swap(Flags, Mask);
      F = trackedValueOf(Flags, Env);
    }
    if (!F || !hasProp(F, kFlags) || isLocal(F))
      return;
    std::optional<llvm::APSInt> K = integerConstant(Mask, getASTContext());
    if (!K || !(K->getZExtValue() & 1u))
      return;
    if (Value *Existing = Env.getValue(*E))
      if (hasProp(Existing, kReadOnlyBit))
        return;
    IntegerValue &Bit = Env.create<IntegerValue>();
    Bit.setProperty(kReadOnlyBit, Env.getBoolLiteralValue(true));
    BoolValue &NZ = atomProp(Bit, kNonZero, Env);
    BoolValue &RO = atomProp(*F, kReadOnly, Env);
    Arena &A = Env.arena();
    // Zero means READ_ONLY is clear; with the bare READ_ONLY mask, non-zero
    // means it is set.
    Env.assume(K->getZExtValue() == 1 ? A.makeEquals(NZ.formula(), RO.formula())
                                      : A.makeImplies(A.makeNot(NZ.formula()),
                                                      A.makeNot(RO.formula())));
    Env.setValue(*E, Bit);
  }
}

void DLPackFieldModel::derivePointer(const Expr *Result, const Expr *Base,
                                     const Expr *Offset, Environment &Env) {
  Value *P = trackedValueOf(Base, Env);
  if (!P || !hasProp(P, kDataTensor))
    return;
  if (Value *Existing = Env.getValue(*Result))
    if (originOf(RC, Existing) == originOf(RC, P) && isTracked(Existing))
      return;
  if (Value *New = cloneTracked(*P, Result->getType(), Env)) {
    if (mentionsByteOffset(Offset, Env))
      New->setProperty(kDataOffset, Env.getBoolLiteralValue(true));
    Env.setValue(*Result, *New);
  }
}

void DLPackFieldModel::transferNode(const UnaryOperator *E, State &S) {
  Environment &Env = S.Env;
  switch (E->getOpcode()) {
  case UO_AddrOf: {
    // &static_cast<char *>(t->data)[t->byte_offset]
    const auto *AS =
        dyn_cast<ArraySubscriptExpr>(E->getSubExpr()->IgnoreParens());
    if (!AS)
      return;
    RC.AddressOnly.insert(AS);
    derivePointer(E, AS->getBase(), AS->getIdx(), Env);
    return;
  }
  case UO_Deref:
    noteStridesSeen(E->getSubExpr(), Env);
    return;
  case UO_LNot:
    // C: !p and !t->byte_offset have int type and no bool conversion.
    if (!E->getSubExpr()->getType()->isBooleanType())
      if (Value *V = trackedValueOf(E->getSubExpr(), Env))
        if (BoolValue *B = truthValue(*V, Env))
          Env.setValue(*E, Env.makeNot(*B));
    return;
  case UO_PreInc:
  case UO_PreDec:
  case UO_PostInc:
  case UO_PostDec:
    markWriteChain(E->getSubExpr(), RC);
    return;
  default:
    return;
  }
}

void DLPackFieldModel::transferNode(const ArraySubscriptExpr *E, State &S) {
  noteStridesSeen(E->getBase(), S.Env);
}

void DLPackFieldModel::transferNode(const CallExpr *E, State &S) {
  Environment &Env = S.Env;
  const FunctionDecl *Callee = E->getDirectCallee();
  for (const Expr *Arg : E->arguments()) {
    noteStridesSeen(Arg, Env);
    if (RecordStorageLocation *R = tensorArgRecord(Arg, Env))
      if (mayLookAtStrides(Callee, RC.StridesReaders))
        RC.SeenTensors.insert(R);
  }
  if (hostGuard(E, Env))
    return;

  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
    // A DLPack record assigned through its (implicit) operator=.
    if (Op->getOperator() == OO_Equal && Op->getNumArgs() == 2)
      assignment(Op->getArg(0), Env);
    return;
  }

  // A reader of a device's type: int32_t device_type_of(const DLDevice &).
  if (E->getNumArgs() == 1 && E->isPRValue() &&
      E->getType()->isIntegralOrEnumerationType() &&
      !E->getType()->isBooleanType()) {
    const Expr *Arg = E->getArg(0)->IgnoreImplicit();
    if (const auto *CE = dyn_cast<CXXConstructExpr>(Arg))
      if (CE->getNumArgs() == 1)
        Arg = CE->getArg(0)->IgnoreImplicit();
    if (classifyDLPackType(Arg->getType()) == DLPackRecord::Device) {
      auto *Dev =
          dyn_cast_or_null<RecordStorageLocation>(Env.getStorageLocation(*Arg));
      StorageLocation *Loc = childOf(Dev, DLPackField::DeviceType);
      if (!Loc)
        return;
      Value *V = Env.getValue(*Loc);
      if (!V) {
        QualType T = Loc->getType();
        V = Env.createValue(T);
        if (!V)
          return;
        Env.setValue(*Loc, *V);
      }
      if (!isa<IntegerValue>(V))
        return;
      if (!isLocal(V) && !hasProp(V, kDeviceType)) {
        V->setProperty(kDeviceType, Env.getBoolLiteralValue(true));
        atomProp(*V, kHost, Env);
        RC.ReadSite.try_emplace(V, E);
      }
      if (Env.getValue(*E) != V)
        Env.setValue(*E, *V);
    }
  }
}

bool DLPackFieldModel::hostGuard(const CallExpr *E, Environment &Env) {
  const Expr *Arg = hostGuardArgument(*E, RC.Compiled->HostGuards);
  if (!Arg)
    return false;
  RecordStorageLocation *Dev = nullptr;
  if (classifyDLPackType(Arg->getType()) == DLPackRecord::Device)
    Dev = dyn_cast_or_null<RecordStorageLocation>(Env.getStorageLocation(*Arg));
  else
    Dev = childRecordOf(tensorArgRecord(Arg, Env), DLPackField::Device);
  if (!Dev)
    return false;
  auto *Host = Env.get<BoolValue>(Dev->getSyntheticField(kDeviceHostField));
  if (!Host) {
    Host = &Env.makeAtomicBoolValue();
    Env.setValue(Dev->getSyntheticField(kDeviceHostField), *Host);
  }
  RC.GuardSite.try_emplace(Dev, E);
  Env.setValue(*E, *Host);
  return true;
}

void DLPackFieldModel::transferNode(const CXXConstructExpr *E, State &S) {
  for (const Expr *Arg : E->arguments()) {
    noteStridesSeen(Arg, S.Env);
    if (RecordStorageLocation *R = tensorArgRecord(Arg, S.Env))
      if (mayLookAtStrides(E->getConstructor(), RC.StridesReaders))
        RC.SeenTensors.insert(R);
  }
  if (!E->getConstructor()->isCopyOrMoveConstructor() && E->isPRValue() &&
      E->getType()->isRecordType())
    createdHere(&S.Env.getResultObjectLocation(*E), S.Env);
}

void DLPackFieldModel::transferNode(const InitListExpr *E, State &S) {
  if (E->isSemanticForm() && E->isPRValue() && E->getType()->isRecordType())
    createdHere(&S.Env.getResultObjectLocation(*E), S.Env);
}

void DLPackFieldModel::transferNode(const CXXNewExpr *E, State &S) {
  // new DLManagedTensorVersioned (no initialiser): a producer's own tensor.
  if (auto *PV = S.Env.get<PointerValue>(*E))
    createdHere(dyn_cast<RecordStorageLocation>(&PV->getPointeeLoc()), S.Env);
}

void DLPackFieldModel::createdHere(RecordStorageLocation *R, Environment &Env,
                                   int Depth) {
  // A record built in this function: DLPack records in it (itself, or
  // members like ExportBlock::managed) are the producer's own.
  if (!R || Depth > 2)
    return;
  if (classifyDLPackType(R->getType()) != DLPackRecord::None) {
    RC.LocalRecords.insert(R);
    if (RecordStorageLocation *T = tensorRecordOf(R))
      RC.LocalRecords.insert(T);
    markLocal(R, Env);
    return;
  }
  for (auto [D, Loc] : R->children())
    if (auto *Child = dyn_cast_or_null<RecordStorageLocation>(Loc))
      createdHere(Child, Env, Depth + 1);
}

//===----------------------------------------------------------------------===//
// The diagnoser: read-only, turns each element's state into events
//===----------------------------------------------------------------------===//

class DLPackEventCollector {
public:
  explicit DLPackEventCollector(RunContext &RC) : RC(RC) {}

  /// Whether St can have events in this state, without any SAT query: what
  /// decides whether the state is kept for judge().
  bool mayReport(const Stmt *St, const Environment &Env) {
    DryRun = true;
    bool Any = !judge(St, Env).empty();
    DryRun = false;
    return Any;
  }

  /// The events at St, in the state after it.
  llvm::SmallVector<DLPackEvent> judge(const Stmt *St, const Environment &Env) {
    llvm::SmallVector<DLPackEvent> Out;
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(St)) {
      if (!RC.AddressOnly.contains(AS))
        accessed(AS, AS->getBase(), Env, Out);
    } else if (const auto *UO = dyn_cast<UnaryOperator>(St)) {
      if (UO->getOpcode() == UO_Deref)
        accessed(UO, UO->getSubExpr(), Env, Out);
    } else if (const auto *Call = dyn_cast<CallExpr>(St)) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      auto Args = llvm::ArrayRef(Call->getArgs(), Call->getNumArgs());
      // The object argument of a member operator is not a memory argument.
      called(Call, Callee, Args, Env, Out);
    } else if (const auto *Ctor = dyn_cast<CXXConstructExpr>(St)) {
      if (!Ctor->getConstructor()->isCopyOrMoveConstructor())
        called(Ctor, Ctor->getConstructor(),
               llvm::ArrayRef(Ctor->getArgs(), Ctor->getNumArgs()), Env, Out);
    } else if (const auto *ME = dyn_cast<MemberExpr>(St)) {
      versionedAccess(ME, Env, Out);
    }
    return Out;
  }

private:
  void accessed(const Expr *Use, const Expr *Base, const Environment &Env,
                llvm::SmallVectorImpl<DLPackEvent> &Out) {
    Value *V = trackedValueOf(Base, Env);
    if (!V || isLocal(V))
      return;
    if (hasProp(V, kDataTensor)) {
      DLPackEvent E;
      E.K = DLPackEvent::DataDeref;
      E.Use = Use;
      E.IsWrite = RC.WriteTargets.contains(Use);
      dataFacts(E, *V, Env);
      if (!E.Local)
        Out.push_back(E);
    } else if (hasProp(V, kStrides)) {
      DLPackEvent E;
      E.K = DLPackEvent::StridesDeref;
      E.Use = Use;
      E.FieldRead = readSiteOf(RC, V);
      E.NonNullProven = propHolds(Env, V, kNull, /*Negated=*/true);
      Out.push_back(E);
    }
  }

  void called(const Expr *Call, const FunctionDecl *Callee,
              llvm::ArrayRef<const Expr *> Args, const Environment &Env,
              llvm::SmallVectorImpl<DLPackEvent> &Out) {
    for (unsigned I = 0; I < Args.size(); ++I) {
      const Expr *Arg = Args[I];
      if (!Arg)
        continue;
      Value *V = trackedValueOf(Arg, Env);
      if (V && !isLocal(V) && hasProp(V, kDataTensor)) {
        DLPackEvent E;
        E.K = DLPackEvent::DataCallArg;
        E.Use = Arg;
        E.Call = Call;
        E.Callee = Callee;
        E.ArgIndex = I;
        E.IsWrite = isCopyDestination(Callee, I);
        dataFacts(E, *V, Env);
        for (unsigned J = 0; J < Args.size(); ++J) {
          if (J == I || !Args[J])
            continue;
          if (mentionsLayout(Args[J]))
            E.CallPassesLayout = true;
          // copy(dst, t->data, t->byte_offset, n): the callee adds it.
          if (mentionsByteOffset(Args[J], Env))
            E.OffsetApplied = true;
        }
        if (!E.Local)
          Out.push_back(E);
        continue;
      }
      tensorArgument(Call, Callee, I, Arg, Env, Out);
    }
  }

  void tensorArgument(const Expr *Call, const FunctionDecl *Callee, unsigned I,
                      const Expr *Arg, const Environment &Env,
                      llvm::SmallVectorImpl<DLPackEvent> &Out) {
    if (!Callee || !RC.Compiled->Importers.matches(Callee))
      return;
    QualType T = Arg->IgnoreParenImpCasts()->getType();
    DLPackRecord K = classifyDLPackPointee(T);
    if (K != DLPackRecord::Tensor && !isManagedTensor(K))
      return;
    auto *PV =
        dyn_cast_or_null<PointerValue>(Env.getValue(*stripIdentityCasts(Arg)));
    if (!PV)
      return;
    auto *Rec = dyn_cast<RecordStorageLocation>(&PV->getPointeeLoc());
    Value *DT = deviceTypeValueOf(tensorRecordOf(Rec), Env);
    if (!DT || isLocal(DT))
      return;
    for (const auto &P : DT->properties()) {
      if (!P.getKey().starts_with(kDeviceEqPrefix))
        continue;
      auto *B = dyn_cast<BoolValue>(P.getValue());
      if (!B || !holds(Env, B->formula()))
        continue;
      std::int64_t Raw;
      if (P.getKey().drop_front(kDeviceEqPrefix.size()).getAsInteger(10, Raw))
        continue;
      DLPackEvent E;
      E.K = DLPackEvent::TensorCallArg;
      E.Use = Arg;
      E.Call = Call;
      E.Callee = Callee;
      E.ArgIndex = I;
      E.ProvenDeviceType = Raw;
      E.DeviceCheck = RC.AtomSite.lookup(B);
      E.FieldRead = readSiteOf(RC, DT);
      Out.push_back(E);
      return;
    }
  }

  void dataFacts(DLPackEvent &E, Value &D, const Environment &Env) {
    E.FieldRead = readSiteOf(RC, &D);
    E.OffsetApplied = propHolds(Env, &D, kDataOffset);
    auto *TP = dyn_cast_or_null<PointerValue>(D.getProperty(kDataTensor));
    auto *R =
        TP ? dyn_cast<RecordStorageLocation>(&TP->getPointeeLoc()) : nullptr;
    if (R && RC.LocalRecords.contains(R))
      E.Local = true;
    if (R) {
      // SAT queries dominate the diagnosis: ask only what can change a
      // finding.
      if (!E.OffsetApplied)
        E.OffsetZeroProven =
            propHolds(Env, fieldValue(R, DLPackField::ByteOffset, Env), kZero);
      Value *T = deviceTypeValueOf(R, Env);
      RecordStorageLocation *Dev = childRecordOf(R, DLPackField::Device);
      auto *Guard =
          Dev ? Env.get<BoolValue>(Dev->getSyntheticField(kDeviceHostField))
              : nullptr;
      E.HostProven = isLocal(T) || propHolds(Env, T, kHost) ||
                     (Guard && holds(Env, Guard->formula()));
      E.DeviceTypeChecked =
          hasProp(T, kDeviceType) || (Dev && RC.GuardSite.count(Dev));
      Value *St = fieldValue(R, DLPackField::Strides, Env);
      E.StridesConsidered = isLocal(St) ||
                            (St && RC.SeenStrides.contains(originOf(RC, St))) ||
                            RC.SeenTensors.contains(R);
      E.StridesNullProven =
          isLocal(St) || (!E.StridesConsidered && propHolds(Env, St, kNull));
    }
    if (auto *MP = dyn_cast_or_null<PointerValue>(D.getProperty(kDataManaged)))
      if (auto *M = dyn_cast<RecordStorageLocation>(&MP->getPointeeLoc())) {
        E.FromVersioned = true;
        Value *F = fieldValue(M, DLPackField::Flags, Env);
        E.FlagsNeverRead = !F || (!isLocal(F) && !hasProp(F, kFlags));
        E.ReadOnlyClearProven =
            isLocal(F) ||
            (E.IsWrite && propHolds(Env, F, kReadOnly, /*Negated=*/true));
      }
  }

  void versionedAccess(const MemberExpr *ME, const Environment &Env,
                       llvm::SmallVectorImpl<DLPackEvent> &Out) {
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (dlpackOwnerOf(FD) != DLPackRecord::ManagedTensorVersioned)
      return;
    DLPackField F = classifyDLPackField(FD);
    if (F != DLPackField::DLTensor && F != DLPackField::Flags)
      return;
    if (RC.WriteChains.contains(ME))
      return;
    RecordStorageLocation *M = recordOfMemberBase(ME, Env);
    if (!M || RC.LocalRecords.contains(M))
      return;
    // Tensors held in members or globals are checked where they were
    // stored; accessors of a parameter leave the check to their caller.
    const Expr *Root = ME->getBase()->IgnoreParenImpCasts();
    while (const auto *Inner = dyn_cast<MemberExpr>(Root))
      Root = Inner->getBase()->IgnoreParenImpCasts();
    if (const auto *UO = dyn_cast<UnaryOperator>(Root))
      Root = UO->getSubExpr()->IgnoreParenImpCasts();
    if (isa<CXXThisExpr>(Root))
      return;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Root)) {
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        if (VD->hasGlobalStorage())
          return;
      if (RC.AccessorParams.contains(DRE->getDecl()))
        return;
    }
    Value *Major = fieldValue(childRecordOf(M, DLPackField::Version),
                              DLPackField::Major, Env);
    DLPackEvent E;
    E.K = DLPackEvent::VersionedAccess;
    E.Use = ME;
    if (isLocal(Major)) {
      E.MajorChecked = true;
    } else {
      E.MajorChecked = propHolds(Env, Major, kMajorOk);
      E.MajorAssertedOnly =
          !E.MajorChecked && propHolds(Env, Major, kMajorAssertOk);
      if (E.MajorAssertedOnly)
        E.AssertCheck = RC.AtomSite.lookup(Major);
    }
    Out.push_back(E);
  }

  /// Proofs are SAT queries; a dry run answers "maybe" without asking.
  bool holds(const Environment &Env, const Formula &F) const {
    return DryRun || Env.proves(F);
  }
  bool propHolds(const Environment &Env, const Value *V, llvm::StringRef Name,
                 bool Negated = false) const {
    if (DryRun)
      return boolProp(V, Name) != nullptr;
    return provesProp(Env, V, Name, Negated);
  }

  bool DryRun = false;
  RunContext &RC;
};

void DLPackFieldModel::record(const Stmt *St, const Environment &Env) {
  if (RC.Collector)
    Recorded.record(St, Env, RC.Collector->mayReport(St, Env));
}

std::vector<DLPackEvent> DLPackFieldModel::judgeRecorded() {
  std::vector<DLPackEvent> Out;
  Recorded.forEach([&](const Stmt *St, const Environment &Env) {
    for (DLPackEvent &E : RC.Collector->judge(St, Env))
      Out.push_back(std::move(E));
  });
  Recorded.clear();
  return Out;
}

//===----------------------------------------------------------------------===//
// Switches over a device type
//===----------------------------------------------------------------------===//

// The framework does not carry switch cases into the flow condition, so a
// host access inside `case kDLCPU:` (or after a switch whose other arms all
// leave) is proven on the CFG instead: the access is host-safe when no path
// from the entry reaches it without taking a host-accessible case edge of a
// switch over a device type.

class SwitchHostProof {
public:
  SwitchHostProof(const FunctionDecl &FD, ASTContext &Ctx) {
    CFG::BuildOptions Opts;
    Opts.setAllAlwaysAdd();
    Cfg = CFG::buildCFG(&FD, FD.getBody(), &Ctx, Opts);
    if (!Cfg)
      return;
    for (const CFGBlock *B : *Cfg) {
      if (!B)
        continue;
      for (const CFGElement &E : *B)
        if (auto CS = E.getAs<CFGStmt>())
          StmtBlock.try_emplace(CS->getStmt(), B);
      const auto *SW = dyn_cast_or_null<SwitchStmt>(B->getTerminatorStmt());
      if (!SW || !readsDLPackDeviceType(SW->getCond()))
        continue;
      HasDeviceSwitch = true;
      for (const CFGBlock::AdjacentBlock &Succ : B->succs()) {
        const CFGBlock *T = Succ.getReachableBlock();
        if (!T)
          continue;
        const auto *Case = dyn_cast_or_null<CaseStmt>(T->getLabel());
        if (!Case || Case->getRHS())
          continue;
        std::optional<llvm::APSInt> V = integerConstant(Case->getLHS(), Ctx);
        if (V && isHostAccessibleDeviceType(V->getExtValue()))
          HostEdges.insert({B, T});
      }
    }
  }

  /// True when every path from the entry to S takes a host case edge.
  bool proves(const Stmt *S) const {
    if (!HasDeviceSwitch || HostEdges.empty())
      return false;
    const CFGBlock *Target = StmtBlock.lookup(S);
    if (!Target)
      return false;
    llvm::SmallVector<const CFGBlock *> Work{&Cfg->getEntry()};
    llvm::DenseSet<const CFGBlock *> Seen{&Cfg->getEntry()};
    while (!Work.empty()) {
      const CFGBlock *B = Work.pop_back_val();
      if (B == Target)
        return false;
      for (const CFGBlock::AdjacentBlock &Succ : B->succs()) {
        const CFGBlock *T = Succ.getReachableBlock();
        if (!T || HostEdges.contains({B, T}))
          continue;
        if (Seen.insert(T).second)
          Work.push_back(T);
      }
    }
    return true;
  }

private:
  std::unique_ptr<CFG> Cfg;
  llvm::DenseMap<const Stmt *, const CFGBlock *> StmtBlock;
  llvm::DenseSet<std::pair<const CFGBlock *, const CFGBlock *>> HostEdges;
  bool HasDeviceSwitch = false;
};

/// The same proof for `switch (mt->version.major) { case 1: ... }`: every
/// statement from a `case 1:` label to the next label, when nothing else can
/// reach it: the label heads no chain of labels (`case 1: case 2:` and
/// `case 2: case 1:` reach it with major 2), and the statement before it
/// cannot fall through into it. Collected top-down once per function, so
/// that no parent map is built (building one costs as much as parsing the
/// translation unit again).
class SupportedMajorCases : public RecursiveASTVisitor<SupportedMajorCases> {
public:
  SupportedMajorCases(const FunctionDecl &FD, ASTContext &Ctx) : Ctx(Ctx) {
    TraverseStmt(FD.getBody());
  }
  bool contains(const Stmt *S) const { return Inside.contains(S); }

  bool VisitSwitchStmt(SwitchStmt *SW) {
    if (dlpackFieldOfMember(stripIdentityCasts(SW->getCond())) !=
        DLPackField::Major)
      return true;
    const auto *Body = dyn_cast_or_null<CompoundStmt>(SW->getBody());
    if (!Body) {
      // switch (major) case 1: stmt;
      if (const auto *C = dyn_cast_or_null<SwitchCase>(SW->getBody()))
        if (isSupportedLabel(C))
          collect(C->getSubStmt());
      return true;
    }
    // Labels nested deeper than the body's statements (Duff's device) are
    // not looked at: they prove nothing here.
    const Stmt *Prev = nullptr;
    bool InCase = false;
    for (const Stmt *S : Body->body()) {
      if (const auto *C = dyn_cast<SwitchCase>(S)) {
        InCase = isSupportedLabel(C) && (!Prev || endsInJump(Prev));
        if (InCase)
          collect(C->getSubStmt());
      } else if (InCase) {
        collect(S);
      }
      Prev = S;
    }
    return true;
  }

private:
  /// `case 1:` alone: not a range, not chained with another label.
  bool isSupportedLabel(const SwitchCase *C) const {
    const auto *Case = dyn_cast<CaseStmt>(C);
    if (!Case || Case->getRHS() || isa<SwitchCase>(Case->getSubStmt()))
      return false;
    std::optional<llvm::APSInt> V = integerConstant(Case->getLHS(), Ctx);
    return V && V->getExtValue() == 1;
  }
  /// The statement never falls through to the next one: it ends (through
  /// braces and labels) in a jump.
  static bool endsInJump(const Stmt *S) {
    if (const auto *CS = dyn_cast<CompoundStmt>(S))
      return !CS->body_empty() && endsInJump(CS->body_back());
    if (const auto *C = dyn_cast<SwitchCase>(S))
      return endsInJump(C->getSubStmt());
    return isJump(S);
  }
  void collect(const Stmt *S) {
    if (!S || !Inside.insert(S).second)
      return;
    for (const Stmt *Child : S->children())
      collect(Child);
  }
  ASTContext &Ctx;
  llvm::DenseSet<const Stmt *> Inside;
};

//===----------------------------------------------------------------------===//
// The pre-filter
//===----------------------------------------------------------------------===//

/// Versioned-tensor parameters used only to read their fields (as a
/// member base, or in a NULL test).
class AccessorParamFinder : public RecursiveASTVisitor<AccessorParamFinder> {
public:
  llvm::DenseMap<const ValueDecl *, unsigned> Uses, FieldUses;
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl());
    if (P && (classifyDLPackPointee(P->getType()) ==
                  DLPackRecord::ManagedTensorVersioned ||
              classifyDLPackType(P->getType()) ==
                  DLPackRecord::ManagedTensorVersioned))
      ++Uses[P];
    return true;
  }
  bool VisitMemberExpr(MemberExpr *ME) {
    countField(ME->getBase());
    return true;
  }
  bool VisitImplicitCastExpr(ImplicitCastExpr *E) {
    if (E->getCastKind() == CK_PointerToBoolean)
      countField(E->getSubExpr());
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isEqualityOp()) {
      countField(BO->getLHS());
      countField(BO->getRHS());
    }
    return true;
  }
  void countField(const Expr *E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *UO = dyn_cast<UnaryOperator>(E))
      if (UO->getOpcode() == UO_Deref)
        E = UO->getSubExpr()->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      ++FieldUses[DRE->getDecl()];
  }
};

/// Finds a read the model can turn into an event: data, strides, the device
/// type (imports of a known type), or dl_tensor/flags of a versioned tensor.
/// A function that only writes fields (a producer) or only passes tensors
/// around has nothing to report and is not analysed.
class DLPackUseScan : public RecursiveASTVisitor<DLPackUseScan> {
public:
  DLPackUse Use;

  /// An event needs a read of data or strides, or an access to a versioned
  /// tensor; a device-type read only matters with a tensor passed to a call
  /// (a proven device type at an import). A producer that only fills in a
  /// tensor's fields has nothing to judge.
  void finish() {
    Use.ReadsModelledFields =
        ReadsPointerField || (ReadsDeviceType && PassesTensor);
  }

  bool VisitBinaryOperator(BinaryOperator *BO) {
    // Visited before its operands: `t.data = p` writes the field.
    if (BO->getOpcode() == BO_Assign)
      if (const auto *ME = dyn_cast<MemberExpr>(BO->getLHS()->IgnoreParens()))
        Written.insert(ME);
    return true;
  }
  bool VisitMemberExpr(MemberExpr *ME) {
    if (Written.contains(ME))
      return true;
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    switch (classifyDLPackField(FD)) {
    case DLPackField::Data:
    case DLPackField::Strides:
      ReadsPointerField = true;
      break;
    case DLPackField::DeviceType:
      ReadsDeviceType = true;
      break;
    case DLPackField::DLTensor:
    case DLPackField::Flags:
      if (dlpackOwnerOf(FD) == DLPackRecord::ManagedTensorVersioned)
        ReadsPointerField = true;
      break;
    default:
      break;
    }
    return true;
  }
  bool VisitCallExpr(CallExpr *Call) {
    for (const Expr *Arg : Call->arguments())
      notePassed(Arg);
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *Ctor) {
    for (const Expr *Arg : Ctor->arguments())
      notePassed(Arg);
    return true;
  }
  bool VisitSwitchStmt(SwitchStmt *SW) {
    if (!Use.MapsDeviceTypes && readsDLPackDeviceType(SW->getCond()))
      Use.MapsDeviceTypes = true;
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Op) {
    if (!Use.MapsDeviceTypes && Op->getOperator() == OO_Subscript &&
        Op->getNumArgs() == 2 && readsDLPackDeviceType(Op->getArg(1)))
      Use.MapsDeviceTypes = true;
    return true;
  }
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *MC) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    if (!Use.MapsDeviceTypes && MD && MD->getIdentifier() &&
        (MD->getName() == "find" || MD->getName() == "lookup") &&
        MC->getNumArgs() >= 1 && readsDLPackDeviceType(MC->getArg(0)))
      Use.MapsDeviceTypes = true;
    return true;
  }

private:
  void notePassed(const Expr *Arg) {
    if (!Arg || PassesTensor)
      return;
    DLPackRecord K =
        classifyDLPackPointee(Arg->IgnoreParenImpCasts()->getType());
    PassesTensor = K == DLPackRecord::Tensor || isManagedTensor(K);
  }
  llvm::DenseSet<const MemberExpr *> Written;
  bool ReadsPointerField = false;
  bool ReadsDeviceType = false;
  bool PassesTensor = false;
};

} // namespace

//===----------------------------------------------------------------------===//
// Public entry points
//===----------------------------------------------------------------------===//

std::string DLPackModelConfig::key() const {
  return modelConfigKey(
      {&DebugOnlyAssertMacros, &HostDeviceGuards, &ImportFunctions}, Bounds,
      SyntacticProofs);
}

const Expr *hostGuardArgument(const CallExpr &E,
                              const FunctionNameList &HostGuards) {
  // bool is_host(const DLDevice &), bool IsCPU(const DLTensor *), ...
  const FunctionDecl *Callee = E.getDirectCallee();
  if (!Callee || !Callee->getIdentifier() || E.getNumArgs() != 1 ||
      !E.getType()->isBooleanType() || !E.isPRValue())
    return nullptr;
  if (!HostGuards.matches(Callee))
    return nullptr;
  // A DLDevice passed by value is a copy of the device the guard tests.
  const Expr *Arg = E.getArg(0)->IgnoreImplicit();
  if (const auto *CE = dyn_cast<CXXConstructExpr>(Arg))
    if (CE->getNumArgs() == 1)
      Arg = CE->getArg(0)->IgnoreImplicit();
  return Arg;
}

bool readsOnlyFirstElement(const Expr *Use, const ASTContext &Ctx) {
  if (isa<UnaryOperator>(Use))
    return true;
  const auto *AS = dyn_cast<ArraySubscriptExpr>(Use);
  if (!AS)
    return false;
  std::optional<llvm::APSInt> Index = integerConstant(AS->getIdx(), Ctx);
  return Index && Index->isZero();
}

bool isFullyProven(const DLPackEvent &E, const ASTContext &Ctx) {
  switch (E.K) {
  case DLPackEvent::DataDeref:
  case DLPackEvent::DataCallArg:
    return E.Local ||
           ((E.OffsetApplied || E.OffsetZeroProven) && E.HostProven &&
            (E.StridesConsidered || E.StridesNullProven ||
             (E.K == DLPackEvent::DataDeref &&
              readsOnlyFirstElement(E.Use, Ctx))) &&
            !(E.IsWrite && E.FromVersioned && !E.ReadOnlyClearProven));
  case DLPackEvent::StridesDeref:
    return E.NonNullProven;
  case DLPackEvent::VersionedAccess:
    return E.MajorChecked;
  case DLPackEvent::TensorCallArg:
    return !E.ProvenDeviceType;
  }
  return false;
}

namespace {
using FactsCache =
    ModelCache<DLPackUse, const FunctionDecl *, DLPackFacts, CompiledConfig>;
FactsCache &cache() {
  static FactsCache C;
  return C;
}
} // namespace

void clearDLPackFactsCache() { cache().clear(); }

const DLPackUse &dlpackUseOf(const FunctionDecl &FD) {
  static const DLPackUse None;
  if (!FD.hasBody())
    return None;
  return cache().use(FD, [](const FunctionDecl &FD) {
    DLPackUseScan V;
    V.TraverseStmt(FD.getBody());
    V.finish();
    return V.Use;
  });
}

const DLPackFacts &getDLPackFacts(const FunctionDecl &FD, ASTContext &Ctx,
                                  const DLPackModelConfig &Config,
                                  llvm::StringRef ConfigKey) {
  FactsCache &C = cache();
  C.enter(Ctx);
  std::string Computed = ConfigKey.empty() ? Config.key() : std::string();
  llvm::StringRef Key =
      ConfigKey.empty() ? llvm::StringRef(Computed) : ConfigKey;
  std::unique_ptr<DLPackFacts> &Slot = C.facts(Key, &FD);
  if (Slot)
    return *Slot;
  Slot = std::make_unique<DLPackFacts>();
  DLPackFacts &Facts = *Slot;

  const CompiledConfig &Compiled = C.compiled(Key, [&Config] {
    CompiledConfig Out;
    Out.HostGuards =
        FunctionNameList(Config.HostDeviceGuards, NameSpelling::Identifier);
    Out.Importers = FunctionNameList(Config.ImportFunctions);
    return Out;
  });
  if (Config.SyntacticProofs) {
    DLPackSyntaxConfig Syntax{Config.DebugOnlyAssertMacros,
                              &Compiled.HostGuards, &Compiled.Importers};
    if (whyNotAnalysable(FD) == SkipReason::None &&
        proveDLPackFieldsBySyntax(FD, Ctx, Syntax)) {
      Facts.BySyntax = true;
      return Facts;
    }
  }

  RunContext RC;
  RC.Config = &Config;
  RC.Compiled = &Compiled;
  {
    AccessorParamFinder Finder;
    Finder.TraverseStmt(FD.getBody());
    for (auto [P, N] : Finder.Uses)
      if (Finder.FieldUses.lookup(P) >= N)
        RC.AccessorParams.insert(P);
  }
  DLPackEventCollector Collector(RC);
  RC.Collector = &Collector;
  std::vector<DLPackEvent> Judged;
  FlowResult<DLPackEvent> R =
      runFlowAnalysisWith<DLPackFieldModel, DLPackEvent>(
          FD, Ctx,
          [&RC](ASTContext &C, Environment &Env) {
            return DLPackFieldModel(C, Env, RC);
          },
          DiagnosisCallbacks<DLPackFieldModel, DLPackEvent>{nullptr, nullptr},
          Config.Bounds, /*OnExit=*/nullptr,
          [&Judged](DLPackFieldModel &M) { Judged = M.judgeRecorded(); });

  Facts.Skipped = R.Skipped;
  Facts.Detail = R.Detail;
  if (R.Skipped == SkipReason::None)
    Facts.Events = std::move(Judged);

  // Proofs the flow condition cannot carry: switch cases.
  std::unique_ptr<SwitchHostProof> Switches;
  std::unique_ptr<SupportedMajorCases> MajorCases;
  for (DLPackEvent &E : Facts.Events) {
    if ((E.K == DLPackEvent::DataDeref || E.K == DLPackEvent::DataCallArg) &&
        !E.HostProven) {
      if (!Switches)
        Switches = std::make_unique<SwitchHostProof>(FD, Ctx);
      const Stmt *At = E.K == DLPackEvent::DataCallArg ? E.Call : E.Use;
      E.HostProven = Switches->proves(At);
    }
    if (E.K == DLPackEvent::VersionedAccess && !E.MajorChecked) {
      if (!MajorCases)
        MajorCases = std::make_unique<SupportedMajorCases>(FD, Ctx);
      E.MajorChecked = MajorCases->contains(E.Use);
    }
  }
  // The diagnoser runs once per CFG element after the fixpoint, but an
  // element can be reported from both a Before and an After state in other
  // configurations; keep one event per (kind, use).
  llvm::DenseSet<std::pair<unsigned, const Expr *>> Seen;
  llvm::erase_if(Facts.Events, [&](const DLPackEvent &E) {
    return !Seen.insert({unsigned(E.K), E.Use}).second;
  });
  // Source order, so that "the first use" means what a reader expects.
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::sort(Facts.Events, [&](const DLPackEvent &A, const DLPackEvent &B) {
    if (A.Use->getBeginLoc() != B.Use->getBeginLoc())
      return SM.isBeforeInTranslationUnit(A.Use->getBeginLoc(),
                                          B.Use->getBeginLoc());
    return A.K < B.K;
  });
  return Facts;
}

MemoryCallKind classifyMemoryCall(const FunctionDecl *Callee) {
  if (!Callee)
    return MemoryCallKind::None;
  if (Callee->getOverloadedOperator() == OO_Delete ||
      Callee->getOverloadedOperator() == OO_Array_Delete)
    return MemoryCallKind::Dealloc;
  if (!Callee->getIdentifier())
    return MemoryCallKind::None;
  llvm::StringRef N = Callee->getName();
  if (N.starts_with("cudaMemcpy") || N.starts_with("cudaMemset") ||
      N.starts_with("cuMemcpy") || N.starts_with("cuMemset") ||
      N.starts_with("hipMemcpy") || N.starts_with("hipMemset"))
    return MemoryCallKind::DeviceCopy;
  return llvm::StringSwitch<MemoryCallKind>(N)
      .Cases({"memcpy", "memmove", "memset", "memcmp", "bcopy"},
             MemoryCallKind::HostCopy)
      .Cases({"__builtin_memcpy", "__builtin_memmove", "__builtin_memset",
              "__builtin_memcmp"},
             MemoryCallKind::HostCopy)
      .Cases({"copy", "copy_n", "fill", "fill_n"},
             Callee->isInStdNamespace() ? MemoryCallKind::HostCopy
                                        : MemoryCallKind::None)
      .Cases({"free", "cudaFree", "cudaFreeHost", "cudaFreeAsync", "hipFree",
              "hipHostFree", "PyMem_Free", "PyMem_RawFree", "PyObject_Free",
              "_aligned_free", "munmap"},
             MemoryCallKind::Dealloc)
      .Default(MemoryCallKind::None);
}

bool isCopyDestination(const FunctionDecl *Callee, unsigned ArgIndex) {
  if (!Callee || !Callee->getIdentifier())
    return false;
  llvm::StringRef N = Callee->getName();
  if (Callee->isInStdNamespace() && (N == "copy" || N == "copy_n"))
    return ArgIndex == 2;
  switch (classifyMemoryCall(Callee)) {
  case MemoryCallKind::HostCopy:
  case MemoryCallKind::DeviceCopy:
    return ArgIndex == 0 && N != "memcmp" && N != "__builtin_memcmp";
  default:
    return false;
  }
}

} // namespace clang::interop
