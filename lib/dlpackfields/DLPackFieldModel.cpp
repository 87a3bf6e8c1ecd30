//===--- DLPackFieldModel.cpp - what is proven of DLPack fields -----------===//
//
// Reads like a table of contents: the per-function run, the recognisers and
// helpers of the transfer functions, the transfer functions (one per
// statement kind) and their table, then the analysis class.
//
//===----------------------------------------------------------------------===//

#include "lib/dlpackfields/DLPackFieldModel.h"
#include "lib/dlpackfields/DLPackAllocations.h"
#include "lib/dlpackfields/DLPackOwnMembers.h"

#include "lib/dlpackfields/DLPackFieldMarks.h"
#include "lib/dlpackfields/DLPackHelperSummaries.h"
#include "lib/dlpackfields/DLPackHostGuards.h"
#include "lib/dlpackfields/DLPackWrittenDeviceTypes.h"

#include "lib/abi/DLPackTypes.h"
#include "lib/abi/MemoryCalls.h"
#include "lib/abi/ReturnedTensors.h"
#include "lib/engine/CallResults.h"
#include "lib/engine/StmtSwitch.h"
#include "lib/engine/ValueFacts.h"
#include "lib/support/AstHelpers.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Analysis/FlowSensitive/Value.h"
#include "clang/Basic/Builtins.h"
#include "llvm/ADT/StringMap.h"

namespace clang::interop {

using namespace clang::dataflow;
using namespace dlpackfield;

DLPackFieldRun::DLPackFieldRun(const FunctionDecl &FD,
                               const DLPackFieldConfig &Config,
                               const DLPackFieldCompiled &Compiled) {
  RC.Config = &Config;
  RC.Compiled = &Compiled;
}

namespace {

/// Versioned-tensor parameters used only to read their fields (as a
/// member base, in a NULL test, or as what is deleted or freed).
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
  // Freeing the tensor itself (`delete self`, `free(self)`: a producer's
  // deleter releasing what its library allocated) reads none of its fields,
  // so it leaves a parameter an accessor. Handing the tensor to its own
  // deleter or to any other call does not.
  bool VisitCXXDeleteExpr(CXXDeleteExpr *E) {
    countField(E->getArgument());
    return true;
  }
  bool VisitCallExpr(CallExpr *E) {
    const FunctionDecl *Callee = E->getDirectCallee();
    if (Callee && Callee->getBuiltinID() == Builtin::BIfree &&
        E->getNumArgs() == 1)
      countField(E->getArg(0));
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

/// T is std::shared_ptr<R> or std::unique_ptr<R, D> of a DLPack record R
/// (the standard library's owning pointers): the type of the raw pointer
/// it holds, or a null type.
QualType heldDLPackPointer(QualType T, const ASTContext &Ctx) {
  const ClassTemplateSpecializationDecl *RD =
      stdSmartPointer(T->getAsCXXRecordDecl());
  if (!RD)
    return {};
  const TemplateArgumentList &Args = RD->getTemplateArgs();
  if (Args.size() == 0 || Args[0].getKind() != TemplateArgument::Type ||
      classifyDLPackType(Args[0].getAsType()) == DLPackRecord::None)
    return {};
  return Ctx.getPointerType(Args[0].getAsType());
}

// Helpers that call each other.
/// `Result` is `Base` moved by `Offset` (`base + n`, `&base[n]`): it points
/// into the same tensor's data, with byte_offset added when `Offset`
/// mentions it.
void derivePointer(const Expr *Result, const Expr *Base, const Expr *Offset,
                   FieldState &S);
/// IsHostDevice(t->device): the call's value is the device's host-ness.
bool hostGuard(const CallExpr *E, FieldState &S);
/// A same-TU helper read from its body (DLPackHelperSummaries.h) returning
/// the tensor's data, or testing its strides for NULL.
bool helperCall(const CallExpr *E, FieldState &S);
/// A record built in this function: DLPack records in it are a producer's.
void createdHere(RecordStorageLocation *R, FieldState &S, int Depth = 0);

//===----------------------------------------------------------------------===//
// Transfer functions and their helpers
//===----------------------------------------------------------------------===//

/// The pointer a raw allocation returns (malloc, PyMem_Malloc: a C
/// producer's block for the managed tensor and its shape), through any
/// variable that holds it.
constexpr llvm::StringLiteral kRawAllocation = "interop.rawalloc";

/// `(DLManagedTensorVersioned *)ptr` or `(ctx_t *)ptr` where ptr is a raw
/// allocation made here: the record, or the DLPack records it holds (a
/// context struct with the managed tensor inside), is the producer's own,
/// as `new` would make it.
void adoptAllocation(const CastExpr *E, FieldState &S) {
  QualType Pointee = E->getType()->getPointeeType();
  if (Pointee.isNull() || !Pointee->isRecordType())
    return;
  Value *Sub = S.Env.getValue(*E->getSubExpr());
  if (!Sub || !Sub->getProperty(kRawAllocation))
    return;
  if (auto *PV = dyn_cast_or_null<PointerValue>(valueOrFresh(*E, S.Env)))
    createdHere(dyn_cast<RecordStorageLocation>(&PV->getPointeeLoc()), S);
}

void transferImplicitCast(const ImplicitCastExpr *E, FieldState &S) {
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
    // A tensor the class builds in a member is its own (a producer's).
    if (const FieldDecl *M = thisMemberRootOf(ME->getBase());
        M && isOwnTensorMember(*M))
      if (RecordStorageLocation *R = recordOfMemberBase(ME, Env);
          R && !S.RC.LocalRecords.contains(R))
        createdHere(R, S);
    Value *V = S.RC.Joins.valueAt(*Loc, Env);
    if (!V)
      return;
    if (Env.getValue(*E) != V)
      Env.setValue(*E, *V);
    initFieldValue(*V, F, ME, E, S);
    return;
  }
  case CK_PointerToBoolean:
  case CK_IntegralToBoolean:
    if (BoolValue *B = operandTruth(E->getSubExpr(), S))
      Env.setValue(*E, *B);
    return;
  case CK_NoOp:
  case CK_BitCast:
  case CK_IntegralCast:
    adoptAllocation(E, S);
    propagate(E, E->getSubExpr(), S);
    return;
  default:
    return;
  }
}

/// `reinterpret_cast<uintptr_t>(t->data)` and back to a pointer: the
/// address of the data keeps its facts (cudf computed each column's address
/// as an integer).
void convertAddress(const Expr *E, const Expr *Sub, FieldState &S) {
  Value *V = trackedValueOf(Sub, S.Env);
  if (!V || !hasProp(V, kDataTensor) || !E->isPRValue())
    return;
  if (Value *Existing = S.Env.getValue(*E))
    if (originOf(S.RC, Existing) == originOf(S.RC, V) && isTracked(Existing))
      return;
  if (Value *New = cloneTracked(*V, E->getType(), S))
    S.Env.setValue(*E, *New);
}

void transferExplicitCast(const ExplicitCastExpr *E, FieldState &S) {
  switch (E->getCastKind()) {
  case CK_NoOp:
  case CK_BitCast:
  case CK_IntegralCast:
    adoptAllocation(E, S);
    propagate(E, E->getSubExpr(), S);
    return;
  case CK_PointerToIntegral:
  case CK_IntegralToPointer:
    convertAddress(E, E->getSubExpr(), S);
    return;
  case CK_PointerToBoolean:
  case CK_IntegralToBoolean:
    if (BoolValue *B = operandTruth(E->getSubExpr(), S))
      S.Env.setValue(*E, *B);
    return;
  default:
    return;
  }
}

void transferBinaryOperator(const BinaryOperator *E, FieldState &S) {
  Environment &Env = S.Env;
  BinaryOperatorKind Op = E->getOpcode();
  if (E->isComparisonOp()) {
    if (BoolValue *B = comparisonValue(E, S))
      Env.setValue(*E, *B);
    return;
  }
  if (E->isAssignmentOp()) {
    assignment(E->getLHS(), E->getRHS(), S);
    if (Op == BO_Assign)
      noteWrittenDeviceType(E->getLHS(), E->getRHS(), E, Env, S.RC, S.Ctx);
    // p += t->byte_offset on a pointer derived from data, or on its
    // address as an integer.
    if ((Op == BO_AddAssign || Op == BO_SubAssign) &&
        (E->getLHS()->getType()->isPointerType() ||
         E->getLHS()->getType()->isIntegerType())) {
      Value *P = trackedValueOf(E->getLHS(), Env);
      StorageLocation *Loc = Env.getStorageLocation(*E->getLHS());
      if (P && Loc && hasProp(P, kDataTensor))
        if (Value *New = cloneTracked(*P, E->getLHS()->getType(), S)) {
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
    derivePointer(E, Ptr, Int, S);
    return;
  }
  if ((Op == BO_Add || Op == BO_Sub) && E->getType()->isIntegerType()) {
    // The address of the data as an integer, moved: addr + t->byte_offset.
    const Expr *Addr = E->getLHS(), *Int = E->getRHS();
    Value *A = trackedValueOf(Addr, Env);
    if ((!A || !hasProp(A, kDataTensor)) && Op == BO_Add)
      std::swap(Addr, Int);
    derivePointer(E, Addr, Int, S);
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
    std::optional<llvm::APSInt> K = integerConstant(Mask, S.Ctx);
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

void derivePointer(const Expr *Result, const Expr *Base, const Expr *Offset,
                   FieldState &S) {
  Environment &Env = S.Env;
  Value *P = trackedValueOf(Base, Env);
  if (!P || !hasProp(P, kDataTensor))
    return;
  if (Value *Existing = Env.getValue(*Result))
    if (originOf(S.RC, Existing) == originOf(S.RC, P) && isTracked(Existing))
      return;
  if (Value *New = cloneTracked(*P, Result->getType(), S)) {
    if (mentionsByteOffset(Offset, Env))
      New->setProperty(kDataOffset, Env.getBoolLiteralValue(true));
    Env.setValue(*Result, *New);
  }
}

void transferUnaryOperator(const UnaryOperator *E, FieldState &S) {
  switch (E->getOpcode()) {
  case UO_AddrOf: {
    // &static_cast<char *>(t->data)[t->byte_offset]
    const auto *AS =
        dyn_cast<ArraySubscriptExpr>(E->getSubExpr()->IgnoreParens());
    if (!AS)
      return;
    S.RC.AddressOnly.insert(AS);
    derivePointer(E, AS->getBase(), AS->getIdx(), S);
    return;
  }
  case UO_Deref:
    noteStridesSeen(E->getSubExpr(), S);
    return;
  case UO_PreInc:
  case UO_PreDec:
  case UO_PostInc:
  case UO_PostDec:
    markWriteChain(E->getSubExpr(), S.RC);
    return;
  default:
    return;
  }
}

void transferSubscript(const ArraySubscriptExpr *E, FieldState &S) {
  if (!S.RC.UncomparedStrideReads.contains(E))
    noteStridesSeen(E->getBase(), S);
}

/// std::shared_ptr<DLManagedTensorVersioned> owner(mt, deleter): the smart
/// pointer holds mt (copies and moves keep it: the framework copies the
/// synthetic field with the record).
void heldPointerMade(const CXXConstructExpr *E, FieldState &S) {
  if (E->getConstructor()->isCopyOrMoveConstructor() || E->getNumArgs() == 0 ||
      !E->isPRValue() || heldDLPackPointer(E->getType(), S.Ctx).isNull())
    return;
  auto *Raw = S.Env.get<PointerValue>(*E->getArg(0));
  if (!Raw)
    return;
  RecordStorageLocation &Owner = S.Env.getResultObjectLocation(*E);
  if (StorageLocation *Held = syntheticField(&Owner, kHeldPointerField))
    S.Env.setValue(*Held, *Raw);
}

/// owner->f, *owner and owner.get(): the raw pointer owner was made from, so
/// that the tensor read through it is the one the function received.
bool heldPointerRead(const CallExpr *E, FieldState &S) {
  const Expr *Obj = nullptr;
  bool Deref = false;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
    if ((Op->getOperator() != OO_Arrow && Op->getOperator() != OO_Star) ||
        Op->getNumArgs() != 1)
      return false;
    Obj = Op->getArg(0);
    Deref = Op->getOperator() == OO_Star;
  } else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
    const auto *M = MC->getMethodDecl();
    if (!M || !M->getIdentifier() || M->getName() != "get" ||
        MC->getNumArgs() != 0)
      return false;
    Obj = MC->getImplicitObjectArgument();
  }
  // libstdc++ declares operator-> and get() in a base of std::shared_ptr:
  // the object is the derived-to-base cast of the smart pointer.
  if (Obj)
    Obj = Obj->IgnoreParenImpCasts();
  if (!Obj || !Obj->isGLValue() ||
      heldDLPackPointer(Obj->getType(), S.Ctx).isNull())
    return false;
  auto *Owner =
      dyn_cast_or_null<RecordStorageLocation>(S.Env.getStorageLocation(*Obj));
  StorageLocation *Held = syntheticField(Owner, kHeldPointerField);
  auto *Raw = Held ? S.Env.get<PointerValue>(*Held) : nullptr;
  if (!Raw)
    return false;
  if (Deref && E->isGLValue())
    S.Env.setStorageLocation(*E, Raw->getPointeeLoc());
  else if (!Deref && E->isPRValue())
    S.Env.setValue(*E, *Raw);
  return true;
}

/// `mt->deleter(mt)`: the tensor handed back to its producer to be freed,
/// not inspected.
bool callsOwnDeleter(const CallExpr *E) {
  return dlpackFieldOfMember(E->getCallee()->IgnoreParenImpCasts()) ==
         DLPackField::Deleter;
}

/// The tensor a runtime handle's `operator->` (Accessor) gives, for a
/// member call on the handle (`h.IsContiguous()`): the one `h->data` reads.
RecordStorageLocation *handleTensor(const CXXMemberCallExpr &MC,
                                    const CXXMethodDecl &Accessor,
                                    Environment &Env) {
  const StorageLocation *Object = getImplicitObjectLocation(MC, Env);
  auto *PV = Object ? dyn_cast_or_null<PointerValue>(
                          accessorResult(*Object, Accessor, Env))
                    : nullptr;
  return PV ? tensorRecordOf(
                  dyn_cast<RecordStorageLocation>(&PV->getPointeeLoc()))
            : nullptr;
}

void transferCall(const CallExpr *E, FieldState &S) {
  Environment &Env = S.Env;
  const FunctionDecl *Callee = E->getDirectCallee();
  bool Releases = callsOwnDeleter(E);
  for (const Expr *Arg : E->arguments()) {
    noteStridesSeen(Arg, S);
    if (RecordStorageLocation *R = tensorArgRecord(Arg, Env))
      if (!Releases && mayLookAtStrides(Callee, S.RC.StridesReaders))
        S.RC.SeenTensors.insert(R);
  }
  // A method of a tensor handle that looks at its tensor's strides
  // (`TVM_FFI_ICHECK(h.IsContiguous())`) looks at the tensor `h->` gives.
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E);
      MC && MC->getMethodDecl() && MC->getRecordDecl())
    if (auto Accessors = tensorHandleAccessors(*MC->getRecordDecl());
        !Accessors.empty() &&
        mayConsiderStrides(*MC->getMethodDecl(), S.RC.StridesReaders))
      if (RecordStorageLocation *R = handleTensor(*MC, *Accessors.front(), Env))
        S.RC.SeenTensors.insert(R);
  if (hostGuard(E, S) || heldPointerRead(E, S) || helperCall(E, S) ||
      allocatedOnDevice(E, S))
    return;
  // std::make_unique<Export>(): the object it holds is made here.
  if (RecordStorageLocation *Made = smartPointerMade(*E, Env)) {
    createdHere(Made, S);
    return;
  }
  if (isRawAllocation(E)) {
    if (Value *V = valueOrFresh(*E, Env))
      V->setProperty(kRawAllocation, Env.getBoolLiteralValue(true));
    return;
  }

  // A library's own export (TensorSources: `t.ToDLPack()`), or a function
  // of this file that builds the tensor it returns: the tensor is the
  // producer's, read where it is made.
  if (Callee &&
      (E->getType()->isPointerType() || E->getType()->isRecordType()) &&
      (exitConditionsOf(S).isTensorSource(Callee) ||
       returnsOwnTensor(*Callee))) {
    if (E->getType()->isPointerType()) {
      if (auto *PV = dyn_cast_or_null<PointerValue>(valueOrFresh(*E, Env)))
        createdHere(dyn_cast<RecordStorageLocation>(&PV->getPointeeLoc()), S);
    } else if (E->isPRValue() && E->getType()->isRecordType()) {
      createdHere(&Env.getResultObjectLocation(*E), S);
    }
  }

  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E)) {
    // A DLPack record assigned through its (implicit) operator=.
    if (Op->getOperator() == OO_Equal && Op->getNumArgs() == 2) {
      assignment(Op->getArg(0), Op->getArg(1), S);
      noteWrittenDeviceType(Op->getArg(0), Op->getArg(1), E, Env, S.RC, S.Ctx);
    }
    return;
  }

  // A writer of a device's type, read from its body: set_device_type(d, k).
  if (noteDeviceTypeWriterCall(*E, Env, S.RC, S.Ctx))
    return;

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
      StorageLocation *Loc = deviceTypeLoc(Dev);
      if (!Loc)
        return;
      Value *V = S.RC.Joins.valueAt(*Loc, Env);
      if (!V || !isa<IntegerValue>(V))
        return;
      if (!isLocal(V) && !hasProp(V, kDeviceType)) {
        V->setProperty(kDeviceType, Env.getBoolLiteralValue(true));
        atomProp(*V, kHost, Env);
        S.RC.ReadSite.try_emplace(V, E);
      }
      if (Env.getValue(*E) != V)
        Env.setValue(*E, *V);
    }
  }
}

bool hostGuard(const CallExpr *E, FieldState &S) {
  Environment &Env = S.Env;
  std::optional<HostGuardCall> G = hostGuardCall(
      *E, S.RC.Compiled->HostGuards, S.RC.Compiled->Summaries.get(), S.Ctx);
  if (!G || !G->Arg)
    return false;
  const Expr *Arg = G->Arg;
  RecordStorageLocation *Rec = nullptr;
  if (classifyDLPackType(Arg->getType()) == DLPackRecord::Device)
    Rec = dyn_cast_or_null<RecordStorageLocation>(Env.getStorageLocation(*Arg));
  else
    Rec = tensorArgRecord(Arg, Env);
  StorageLocation *Slot = hostGuardSlot(Rec);
  if (!Slot)
    return false;
  auto *Host = Env.get<BoolValue>(*Slot);
  if (!Host) {
    Host = &Env.makeAtomicBoolValue();
    Env.setValue(*Slot, *Host);
  }
  S.RC.GuardSite.try_emplace(Slot, E);
  if (G->ByName) {
    Env.setValue(*E, *Host);
    return true;
  }
  // A validator read from its body: past the call, the memory is host's.
  if (G->IfReturns) {
    Env.assume(Host->formula());
    return true;
  }
  // A helper read from its body: one of its results implies host memory.
  Arena &A = Env.arena();
  BoolValue &Result = Env.makeAtomicBoolValue();
  if (G->IfTrue)
    Env.assume(A.makeImplies(Result.formula(), Host->formula()));
  if (G->IfFalse)
    Env.assume(A.makeImplies(A.makeNot(Result.formula()), Host->formula()));
  Env.setValue(*E, Result);
  return true;
}

bool helperCall(const CallExpr *E, FieldState &S) {
  Environment &Env = S.Env;
  DLPackHelperSummaries *Summaries = S.RC.Compiled->Summaries.get();
  const DLPackHelperSummary *Sum =
      Summaries ? Summaries->of(*E, S.Ctx) : nullptr;
  if (!Sum)
    return false;
  RecordStorageLocation *R = tensorArgRecord(helperArgument(*E), Env);
  if (!R)
    return false;
  if (Sum->ReturnsData && E->isPRValue() && E->getType()->isPointerType()) {
    // What the helper returns is the tensor's data: judged like t.data.
    if (Value *Existing = Env.getValue(*E))
      if (hasProp(Existing, kDataTensor))
        return true;
    auto &P = Env.create<PointerValue>(
        Env.createStorageLocation(E->getType()->getPointeeType()));
    if (isLocal(fieldValue(R, DLPackField::Data, Env)))
      P.setProperty(kLocal, Env.getBoolLiteralValue(true));
    P.setProperty(kDataTensor, Env.create<PointerValue>(*R));
    P.setProperty(kDataOffset, Env.getBoolLiteralValue(Sum->AddsByteOffset));
    S.RC.ReadSite.try_emplace(&P, E);
    Env.setValue(*E, P);
    return true;
  }
  bool Validator = Sum->StridesNonNullIfReturns && E->getType()->isVoidType();
  if (!Validator &&
      (!(Sum->StridesNonNullIfTrue || Sum->StridesNonNullIfFalse) ||
       !E->getType()->isBooleanType()))
    return false;
  // is_compact(t), true on NULL strides: its other result implies strides.
  StorageLocation *Loc = childOf(R, DLPackField::Strides);
  if (!Loc)
    return false;
  Value *St = S.RC.Joins.valueAt(*Loc, Env);
  if (!St)
    return false;
  if (isLocal(St))
    return false;
  markField(*St, kStrides, {kNull}, Env);
  Arena &A = Env.arena();
  const Formula &NonNull = A.makeNot(atomProp(*St, kNull, Env).formula());
  // check_compact(t, "name"): past the call, the strides are not NULL.
  if (Validator) {
    Env.assume(NonNull);
    return true;
  }
  BoolValue &Result = Env.makeAtomicBoolValue();
  if (Sum->StridesNonNullIfTrue)
    Env.assume(A.makeImplies(Result.formula(), NonNull));
  if (Sum->StridesNonNullIfFalse)
    Env.assume(A.makeImplies(A.makeNot(Result.formula()), NonNull));
  Env.setValue(*E, Result);
  return true;
}

void transferConstruct(const CXXConstructExpr *E, FieldState &S) {
  heldPointerMade(E, S);
  for (const Expr *Arg : E->arguments()) {
    noteStridesSeen(Arg, S);
    if (RecordStorageLocation *R = tensorArgRecord(Arg, S.Env))
      if (mayLookAtStrides(E->getConstructor(), S.RC.StridesReaders))
        S.RC.SeenTensors.insert(R);
  }
  if (!E->getConstructor()->isCopyOrMoveConstructor() && E->isPRValue() &&
      E->getType()->isRecordType())
    createdHere(&S.Env.getResultObjectLocation(*E), S);
}

void transferInitList(const InitListExpr *E, FieldState &S) {
  if (E->isSemanticForm() && E->isPRValue() && E->getType()->isRecordType())
    createdHere(&S.Env.getResultObjectLocation(*E), S);
}

void transferNew(const CXXNewExpr *E, FieldState &S) {
  // new DLManagedTensorVersioned (no initialiser): a producer's own tensor.
  if (auto *PV = S.Env.get<PointerValue>(*E))
    createdHere(dyn_cast<RecordStorageLocation>(&PV->getPointeeLoc()), S);
}

void createdHere(RecordStorageLocation *R, FieldState &S, int Depth) {
  // A record built in this function: DLPack records in it (itself, or
  // members like ExportBlock::managed) are the producer's own.
  if (!R || Depth > 2)
    return;
  if (classifyDLPackType(R->getType()) != DLPackRecord::None) {
    S.RC.LocalRecords.insert(R);
    if (RecordStorageLocation *T = tensorRecordOf(R))
      S.RC.LocalRecords.insert(T);
    markLocal(R, S);
    return;
  }
  for (auto [D, Loc] : R->children())
    if (auto *Child = dyn_cast_or_null<RecordStorageLocation>(Loc))
      createdHere(Child, S, Depth + 1);
}

//===----------------------------------------------------------------------===//
// The table
//===----------------------------------------------------------------------===//

const StmtSwitch<FieldState> &transferSwitch() {
  // The cases every family shares first (lib/engine/ValueFacts.h).
  static const StmtSwitch<FieldState> Switch =
      valueCases<FieldState>()
          // Field reads (t->data), bool conversions, implicit pointer and
          // integer conversions.
          .caseOf<ImplicitCastExpr>(transferImplicitCast)
          // static_cast<float *>(t->data), (int)t->device.device_type
          .caseOf<ExplicitCastExpr>(transferExplicitCast)
          // Comparisons, pointer arithmetic, flags & READ_ONLY, assignments.
          .caseOf<BinaryOperator>(transferBinaryOperator)
          // &p[byte_offset], ++/-- targets, *strides.
          .caseOf<UnaryOperator>(transferUnaryOperator)
          // strides[i] marks the strides as looked at.
          .caseOf<ArraySubscriptExpr>(transferSubscript)
          // Host guards (IsHostDevice(t->device)), device-type readers,
          // strides passed on, DLPack records assigned.
          .caseOf<CallExpr>(transferCall)
          // Strides passed on; a record built here is a producer's own.
          .caseOf<CXXConstructExpr>(transferConstruct)
          // DLTensor t = {...}: a producer's own tensor.
          .caseOf<InitListExpr>(transferInitList)
          // new DLManagedTensorVersioned: also a producer's own tensor.
          .caseOf<CXXNewExpr>(transferNew);
  return Switch;
}

} // namespace

//===----------------------------------------------------------------------===//
// The analysis
//===----------------------------------------------------------------------===//

DLPackFieldModel::DLPackFieldModel(ASTContext &Ctx, Environment &Env,
                                   DLPackFieldRun &Run)
    : DataflowAnalysis(Ctx), RC(Run.RC) {
  if (const FunctionDecl *FD = Env.getCurrentFunc()) {
    AccessorParamFinder Finder;
    Finder.TraverseStmt(FD->getBody());
    for (auto [P, N] : Finder.Uses)
      if (Finder.FieldUses.lookup(P) >= N)
        RC.AccessorParams.insert(P);
    RC.UncomparedStrideReads = uncomparedStrideElements(FD->getBody());
  }
  Run.Collector = std::make_unique<DLPackEventCollector>(RC);
  RC.Collector = Run.Collector.get();
  // A host-ness guard over a device (IsHostDevice(t->device)) may name no
  // field at all, so its result lives on the DLDevice record itself (on the
  // DLTensor record for a guard given the tensor: hostGuardSlot); so does
  // a device type read only through an accessor (device_type_of(t.device)).
  // A smart pointer of a DLPack record holds the raw pointer it was made
  // from (heldPointerMade).
  QualType BoolTy = Ctx.BoolTy;
  QualType IntTy = Ctx.IntTy;
  Env.getDataflowAnalysisContext().setSyntheticFieldCallback(
      [BoolTy, IntTy, &Ctx](QualType Ty) {
        return syntheticFieldsWithBases(
            Ty, Ctx, [&](QualType T) -> llvm::StringMap<QualType> {
              DLPackRecord Kind = classifyDLPackType(T);
              if (Kind == DLPackRecord::Device)
                return {{kDeviceHostField, BoolTy}, {kDeviceTypeField, IntTy}};
              if (Kind == DLPackRecord::Tensor)
                return {{kDeviceHostField, BoolTy}};
              if (QualType Held = heldDLPackPointer(T, Ctx); !Held.isNull())
                return {{kHeldPointerField, Held}};
              return {};
            });
      });
}

void DLPackFieldModel::transfer(const CFGElement &Elt, NoopLattice &,
                                Environment &Env) {
  std::optional<CFGStmt> CS = Elt.getAs<CFGStmt>();
  if (!CS)
    return;
  FieldState S{Env, RC, getASTContext()};
  transferSwitch()(*CS->getStmt(), S);
  // The state after a statement that may have events, for judgeRecorded().
  if (RC.Collector)
    Recorded.record(CS->getStmt(), Env,
                    RC.Collector->mayReport(CS->getStmt(), Env));
}

BoolValue *DLPackFieldModel::truthOfOperand(const Expr &E, Environment &Env) {
  FieldState S{Env, RC, getASTContext()};
  return operandTruth(&E, S);
}

const Formula *DLPackFieldModel::caseFormula(const SwitchStmt &Sw,
                                             const SwitchCase *Label, Value &V,
                                             Environment &Env) {
  FieldState S{Env, RC, getASTContext()};
  return dlpackfield::caseFormula(Sw, Label, V, S);
}

void DLPackFieldModel::join(QualType, const Value &V1, const Environment &E1,
                            const Value &V2, const Environment &E2,
                            Value &Joined, Environment &JoinedEnv) {
  // t made afresh in each iteration of a loop: the fields of the tensor it
  // points to, with their facts, survive the join.
  RC.Joins.joinWith(*this, V1, E1, V2, E2, Joined, JoinedEnv);
  for (llvm::StringRef Marker : {kStrides, kByteOffset, kDeviceType, kMajor,
                                 kFlags, kLocal, kReadOnlyBit}) {
    Value *M1 = V1.getProperty(Marker), *M2 = V2.getProperty(Marker);
    if (M1 && M2)
      Joined.setProperty(Marker, *M1);
  }
  for (llvm::StringRef Name : {kNull, kZero, kHost, kMajorOk, kMajorAssertOk,
                               kReadOnly, kNonZero, kDataOffset})
    joinBoolProperty(Name, V1, E1, V2, E2, Joined, JoinedEnv,
                     /*NeedBoth=*/true);
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

std::vector<DLPackEvent> DLPackFieldModel::judgeRecorded() {
  std::vector<DLPackEvent> Out;
  Recorded.forEach([&](const Stmt *St, const Environment &Env) {
    for (DLPackEvent &E : RC.Collector->judge(St, Env))
      Out.push_back(E);
  });
  Recorded.clear();
  return Out;
}

} // namespace clang::interop
