//===--- DLPackEventCollector.cpp - the field model's judge ---------------===//

#include "lib/dlpackfields/DLPackEventCollector.h"

#include "lib/abi/DLPackTypes.h"
#include "lib/abi/MemoryCalls.h"
#include "lib/dlpackfields/DLPackCallerGuards.h"
#include "lib/dlpackfields/DLPackFieldSyntaxProofs.h"
#include "lib/dlpackfields/DLPackHelperSummaries.h"
#include "lib/dlpackfields/DLPackWrittenDeviceTypes.h"
#include "lib/support/AstHelpers.h"
#include "lib/support/LLVMCompat.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace clang::interop {

using namespace clang::dataflow;
using namespace dlpackfield;

namespace {

/// A class that derives from DLTensor without being one: a library's own
/// tensor object, whose constructors fill in its strides.
bool derivesFromDLTensor(QualType T, int Depth = 0) {
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition() || Depth > 4)
    return false;
  for (const CXXBaseSpecifier &B : RD->bases())
    if (classifyDLPackType(B.getType()) == DLPackRecord::Tensor ||
        derivesFromDLTensor(B.getType(), Depth + 1))
      return true;
  return false;
}

/// The object expression E (`obj` of `obj.strides`, `p` of `p->strides`)
/// designates an object of a class deriving from DLTensor: directly
/// (`this`, a pointer or reference of that class) or through a local
/// reference or pointer initialised from one (`const DLTensor &t =
/// *get_mutable();`).
bool designatesOwnTensorObject(const Expr *E, bool Arrow) {
  E = E->IgnoreParenImpCasts();
  auto Of = [](QualType T, bool Ptr) {
    return derivesFromDLTensor(Ptr ? T->getPointeeType() : T);
  };
  if (Of(E->getType(), Arrow))
    return true;
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || isa<ParmVarDecl>(VD) || !VD->hasLocalStorage() || !VD->getInit())
    return false;
  if (!VD->getType()->isReferenceType() && !VD->getType()->isPointerType())
    return false;
  return Of(VD->getInit()->IgnoreParenImpCasts()->getType(),
            VD->getType()->isPointerType());
}

/// An event about argument I of a call (or construction) to Callee.
DLPackEvent callArgEvent(DLPackEvent::Kind K, const Expr *Arg, const Expr *Call,
                         const FunctionDecl *Callee, unsigned I) {
  DLPackEvent E;
  E.K = K;
  E.Use = Arg;
  E.Call = Call;
  E.Callee = Callee;
  E.ArgIndex = I;
  return E;
}

/// The strides read at Site (`t->strides`) are those of a library's own
/// tensor object (designatesOwnTensorObject): an invariant its constructors
/// keep, not a producer's input (tvm-ffi's TensorObj always has strides).
bool readsOwnTensorStrides(const Expr *Site) {
  if (!Site)
    return false;
  const auto *ME = dyn_cast<MemberExpr>(Site->IgnoreParenImpCasts());
  return ME && designatesOwnTensorObject(ME->getBase(), ME->isArrow());
}

/// Next, the argument after a strides pointer, makes the pair an array
/// the callee reads: an element count that is the tensor's ndim
/// (`Span(t->strides, t->ndim)`), or the end of a range over the same
/// strides (`vector(s, s + t->ndim)`).
bool boundsArray(const Value *Strides, const Expr *Next,
                 const Environment &Env) {
  const Expr *N = stripIdentityCasts(Next);
  if (!N)
    return false;
  N = N->IgnoreParenImpCasts();
  if (N->getType()->isIntegerType())
    return dlpackFieldOfMember(N) == DLPackField::NDim;
  const auto *BO = dyn_cast<BinaryOperator>(N);
  if (!BO || BO->getOpcode() != BO_Add || !BO->getType()->isPointerType())
    return false;
  for (const Expr *Side : {BO->getLHS(), BO->getRHS()})
    if (trackedValueOf(Side, Env) == Strides)
      return true;
  return false;
}

/// The pointer member of an object that the assignment's left side names
/// (`data_`, `this->ptr`, `cursor.base`, `view->ptr`), not a DLPack field
/// nor a member of a DLPack record; ByThis: the object is `this`.
const FieldDecl *keepingMember(const Expr *LHS, bool &ByThis) {
  const auto *ME = dyn_cast<MemberExpr>(LHS->IgnoreParenImpCasts());
  const auto *FD = ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
  if (!FD || !FD->getType()->isPointerType() ||
      classifyDLPackField(FD) != DLPackField::None ||
      classifyDLPackType(compat::recordType(
          FD->getASTContext(), FD->getParent())) != DLPackRecord::None)
    return nullptr;
  ByThis = isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts());
  return FD;
}

} // namespace

bool DLPackEventCollector::mayReport(const Stmt *St, const Environment &Env) {
  DryRun = true;
  bool Any = !judge(St, Env).empty();
  DryRun = false;
  return Any;
}

llvm::SmallVector<DLPackEvent>
DLPackEventCollector::judge(const Stmt *St, const Environment &Env) {
  llvm::SmallVector<DLPackEvent> Out;
  if (const FieldDecl *M = initialisedMember(St, Env))
    kept(cast<Expr>(St), M, /*ByThis=*/true, Env, Out);
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
  } else if (const auto *BO = dyn_cast<BinaryOperator>(St)) {
    addressTest(BO, Env, Out);
  }
  return Out;
}

void DLPackEventCollector::accessed(const Expr *Use, const Expr *Base,
                                    const Environment &Env,
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
    // `t->strides[i] = n`: a function that fills the strides array is the
    // producer laying out its own tensor (NumPy's exporter fills the array
    // its caller allocated); a consumer only reads them.
    if (RC.WriteTargets.contains(Use))
      return;
    DLPackEvent E;
    E.K = DLPackEvent::StridesDeref;
    E.Use = Use;
    E.FieldRead = readSiteOf(RC, V);
    E.NonNullProven = stridesNonNull(*V, E.FieldRead, Env);
    Out.push_back(E);
  }
}

void DLPackEventCollector::addressTest(
    const BinaryOperator *BO, const Environment &Env,
    llvm::SmallVectorImpl<DLPackEvent> &Out) {
  // other->data = t->data: another tensor made to alias this one's base.
  if (BO->getOpcode() == BO_Assign &&
      dlpackFieldOfMember(BO->getLHS()->IgnoreParenImpCasts()) ==
          DLPackField::Data) {
    Value *V = trackedValueOf(BO->getRHS(), Env);
    if (!V || isLocal(V) || !hasProp(V, kDataTensor))
      return;
    DLPackEvent E;
    E.K = DLPackEvent::DataStored;
    E.Use = BO->getRHS();
    dataFacts(E, *V, Env);
    // Copying byte_offset along, before or after, is the fix: a function
    // that names byte_offset anywhere is not reported.
    if (functionNamesByteOffset(Env))
      E.OffsetApplied = true;
    if (!E.Local)
      Out.push_back(E);
    return;
  }
  if (BO->getOpcode() == BO_Assign)
    if (bool ByThis = false;
        const FieldDecl *M = keepingMember(BO->getLHS(), ByThis)) {
      kept(BO->getRHS(), M, ByThis, Env, Out);
      return;
    }
  // addr % 64, addr & 63: the alignment of the address the integer holds.
  if ((BO->getOpcode() != BO_Rem && BO->getOpcode() != BO_And) ||
      !BO->getType()->isIntegerType())
    return;
  for (const Expr *Side : {BO->getLHS(), BO->getRHS()}) {
    Value *V = trackedValueOf(Side, Env);
    if (!V || !isa<IntegerValue>(V) || isLocal(V) || !hasProp(V, kDataTensor))
      continue;
    DLPackEvent E;
    E.K = DLPackEvent::DataAddressTest;
    E.Use = BO;
    dataFacts(E, *V, Env);
    if (!E.Local)
      Out.push_back(E);
    return;
  }
}

bool DLPackEventCollector::functionNamesByteOffset(const Environment &Env) {
  if (!RC.MentionsByteOffset) {
    const FunctionDecl *FD = Env.getCurrentFunc();
    RC.MentionsByteOffset =
        FD && mentionsDLPackField(*FD, {DLPackField::ByteOffset});
  }
  return *RC.MentionsByteOffset;
}

const FieldDecl *
DLPackEventCollector::initialisedMember(const Stmt *St,
                                        const Environment &Env) {
  if (!RC.KeptInits) {
    RC.KeptInits.emplace();
    if (const auto *Ctor =
            dyn_cast_or_null<CXXConstructorDecl>(Env.getCurrentFunc()))
      for (const CXXCtorInitializer *Init : Ctor->inits())
        if (const FieldDecl *M = Init->getMember();
            M && Init->getInit() && M->getType()->isPointerType() &&
            classifyDLPackField(M) == DLPackField::None)
          RC.KeptInits->try_emplace(Init->getInit(), M);
  }
  return RC.KeptInits->lookup(dyn_cast<Expr>(St));
}

void DLPackEventCollector::kept(const Expr *Stored, const FieldDecl *Member,
                                bool ByThis, const Environment &Env,
                                llvm::SmallVectorImpl<DLPackEvent> &Out) {
  Value *V = trackedValueOf(Stored, Env);
  if (!V || isLocal(V) || !hasProp(V, kDataTensor))
    return;
  DLPackEvent E;
  E.K = DLPackEvent::DataKept;
  E.Use = Stored;
  E.KeptIn = Member;
  E.KeptByThis = ByThis;
  dataFacts(E, *V, Env);
  if (E.Local)
    return;
  // As for a stored `data`: an object that keeps byte_offset too (in
  // another member, or applied later) is not judged by this store.
  const FunctionDecl *FD = Env.getCurrentFunc();
  if (functionNamesByteOffset(Env))
    E.OffsetApplied = true;
  if (!RC.MentionsShape)
    RC.MentionsShape =
        FD && mentionsDLPackField(*FD, {DLPackField::Shape, DLPackField::NDim});
  E.KeptWithShape = *RC.MentionsShape;
  Out.push_back(E);
}

void DLPackEventCollector::called(const Expr *Call, const FunctionDecl *Callee,
                                  llvm::ArrayRef<const Expr *> Args,
                                  const Environment &Env,
                                  llvm::SmallVectorImpl<DLPackEvent> &Out) {
  for (unsigned I = 0; I < Args.size(); ++I) {
    const Expr *Arg = Args[I];
    if (!Arg)
      continue;
    Value *V = trackedValueOf(Arg, Env);
    if (V && !isLocal(V) && hasProp(V, kDataTensor)) {
      DLPackEvent E =
          callArgEvent(DLPackEvent::DataCallArg, Arg, Call, Callee, I);
      E.IsWrite = isCopyDestination(Callee, I);
      dataFacts(E, *V, Env);
      auto *TP = dyn_cast_or_null<PointerValue>(V->getProperty(kDataTensor));
      const StorageLocation *Owner = TP ? &TP->getPointeeLoc() : nullptr;
      llvm::SmallVector<const Expr *, 8> Others;
      for (unsigned J = 0; J < Args.size(); ++J)
        if (J != I && Args[J])
          Others.push_back(Args[J]);
      // One scan per function and TU (localStoresOf memoises it).
      static const LocalStores NoStores(nullptr);
      const LocalStores &Locals = Env.getCurrentFunc()
                                      ? localStoresOf(*Env.getCurrentFunc())
                                      : NoStores;
      besideData(E, Others, Owner, Locals, Env);
      // `std::shared_ptr<void> p{t->data, del}; make_view(p, shape)`: the
      // object holding the pointer is what goes with the layout; so is one
      // made in place and handed straight on (OneFlow's
      // `blob.set(std::unique_ptr<char, D>(t.data, free), bytes)`).
      const VarDecl *Holder =
          E.CallPassesLayout ? nullptr : Locals.holderOf(Call);
      if (Holder || (!E.CallPassesLayout && isa<CXXConstructExpr>(Call))) {
        auto IsHolder = [&](const Expr *A) {
          return Holder ? namedVar(A) == Holder
                        : ignoreTemporaries(A)->IgnoreParenCasts() == Call;
        };
        for (llvm::SmallVector<const Expr *, 8> &Beside :
             argumentsBeside(IsHolder, Env.getCurrentFunc()))
          besideData(E, Beside, Owner, Locals, Env);
      }
      if (!E.Local)
        Out.push_back(E);
      continue;
    }
    // Only a construction (a view, a container): a function taking
    // (strides, ndim) may well be a compactness test that handles NULL.
    if (V && !isLocal(V) && hasProp(V, kStrides) &&
        isa<CXXConstructExpr>(Call) && I + 1 < Args.size() &&
        boundsArray(V, Args[I + 1], Env)) {
      DLPackEvent E =
          callArgEvent(DLPackEvent::StridesDeref, Arg, Call, Callee, I);
      E.StridesAsRange = true;
      E.FieldRead = readSiteOf(RC, V);
      // Strides tested for NULL on the way here without being proven
      // non-NULL (`assert(t.strides || t.ndim == 0)`): NULL is left to an
      // array of no elements, which reads nothing (tvm-ffi's
      // TensorView::strides).
      E.NonNullProven = RC.NullTested.contains(originOf(RC, V)) ||
                        stridesNonNull(*V, E.FieldRead, Env);
      Out.push_back(E);
      continue;
    }
    tensorArgument(Call, Callee, I, Arg, Env, Out);
  }
}

void DLPackEventCollector::tensorArgument(
    const Expr *Call, const FunctionDecl *Callee, unsigned I, const Expr *Arg,
    const Environment &Env, llvm::SmallVectorImpl<DLPackEvent> &Out) {
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
  if (!DT)
    return;
  if (isLocal(DT)) {
    // Written by this function: a constant written on every path is known.
    const Expr *Site = nullptr;
    if (std::optional<std::int64_t> Raw =
            writtenDeviceType(*DT, Env, RC, &Site)) {
      DLPackEvent E =
          callArgEvent(DLPackEvent::TensorCallArg, Arg, Call, Callee, I);
      E.ProvenDeviceType = Raw;
      E.DeviceCheck = Site;
      Out.push_back(E);
    }
    return;
  }
  for (const auto &P : DT->properties()) {
    if (!P.getKey().starts_with(kDeviceEqPrefix))
      continue;
    auto *B = dyn_cast<BoolValue>(P.getValue());
    if (!B || !holds(Env, B->formula()))
      continue;
    std::int64_t Raw;
    if (P.getKey().drop_front(kDeviceEqPrefix.size()).getAsInteger(10, Raw))
      continue;
    DLPackEvent E =
        callArgEvent(DLPackEvent::TensorCallArg, Arg, Call, Callee, I);
    E.ProvenDeviceType = Raw;
    E.DeviceCheck = RC.AtomSite.lookup(B);
    E.FieldRead = readSiteOf(RC, DT);
    Out.push_back(E);
    return;
  }
}

void DLPackEventCollector::dataFacts(DLPackEvent &E, Value &D,
                                     const Environment &Env) {
  // The use's own read of `data` (`f(t.data)`), so that two reads of one
  // value are two findings; else where the value was first read.
  const Expr *Own = E.Use ? stripIdentityCasts(E.Use) : nullptr;
  E.FieldRead = Own && dlpackFieldOfMember(Own) == DLPackField::Data
                    ? Own
                    : readSiteOf(RC, &D);
  E.OffsetApplied = propHolds(Env, &D, kDataOffset);
  auto *TP = dyn_cast_or_null<PointerValue>(D.getProperty(kDataTensor));
  auto *R =
      TP ? dyn_cast<RecordStorageLocation>(&TP->getPointeeLoc()) : nullptr;
  if (R && RC.LocalRecords.contains(R) && !RC.CopiedInto.contains(R))
    E.Local = true;
  if (R) {
    // SAT queries dominate the diagnosis: ask only what can change a
    // finding.
    if (!E.OffsetApplied)
      E.OffsetZeroProven =
          propHolds(Env, fieldValue(R, DLPackField::ByteOffset, Env), kZero);
    Value *T = deviceTypeValueOf(R, Env);
    StorageLocation *Slot = hostGuardSlot(R);
    auto *Guard = Slot ? Env.get<BoolValue>(*Slot) : nullptr;
    E.HostProven = isLocal(T) || propHolds(Env, T, kHost) ||
                   (Guard && holds(Env, Guard->formula())) ||
                   (!DryRun &&
                    guardedByCallers(E.FieldRead, CallerTest::HostDevice, Env));
    E.DeviceTypeChecked =
        hasProp(T, kDeviceType) || (Slot && RC.GuardSite.count(Slot));
    Value *St = fieldValue(R, DLPackField::Strides, Env);
    E.StridesConsidered = isLocal(St) ||
                          (St && RC.SeenStrides.contains(originOf(RC, St))) ||
                          RC.SeenTensors.contains(R);
    E.StridesNullProven =
        isLocal(St) || (!E.StridesConsidered && propHolds(Env, St, kNull));
    if (auto It = RC.Allocated.find(R); It != RC.Allocated.end()) {
      // The device given to the allocation: one whose type this function
      // wrote is its own choice, as a producer's is, or one tested.
      E.OffsetZeroProven = E.StridesConsidered = true;
      E.HostProven |= It->second && (isLocal(It->second) ||
                                     propHolds(Env, It->second, kHost));
    }
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

void DLPackEventCollector::versionedAccess(
    const MemberExpr *ME, const Environment &Env,
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
    E.MajorChecked =
        propHolds(Env, Major, kMajorOk) ||
        (!DryRun && guardedByCallers(ME, CallerTest::MajorSupported, Env));
    E.MajorAssertedOnly =
        !E.MajorChecked && propHolds(Env, Major, kMajorAssertOk);
    if (E.MajorAssertedOnly)
      E.AssertCheck = RC.AtomSite.lookup(Major);
  }
  Out.push_back(E);
}

bool DLPackEventCollector::stridesNonNull(const Value &V, const Expr *Read,
                                          const Environment &Env) {
  return readsOwnTensorStrides(Read) ||
         propHolds(Env, &V, kNull, /*Negated=*/true) ||
         (!DryRun && guardedByCallers(Read, CallerTest::StridesNonNull, Env)) ||
         (!DryRun && Env.getCurrentFunc() &&
          RC.Compiled->Captures->nonNull(
              Read, *Env.getCurrentFunc(), *RC.Config, *RC.Compiled));
}

bool DLPackEventCollector::guardedByCallers(const Expr *Read,
                                            CallerTest Test,
                                            const Environment &Env) {
  const auto *FD = dyn_cast_or_null<FunctionDecl>(Env.getCurrentFunc());
  if (!FD || !Read)
    return false;
  auto [It, New] = RC.CallerGuarded.try_emplace(Read, false);
  if (New)
    It->second = callerGuards(*FD, Read, Test, RC.Compiled);
  return It->second;
}

void DLPackEventCollector::besideData(DLPackEvent &E,
                                      llvm::ArrayRef<const Expr *> Others,
                                      const StorageLocation *Owner,
                                      const LocalStores &Locals,
                                      const Environment &Env) {
  bool PassesShape = false, PassesTensor = false;
  for (const Expr *Arg : Others) {
    if (mentionsLayout(Arg, &Locals) || filledWithLayoutOf(Arg, Owner, Env))
      E.CallPassesLayout = true;
    if (mentionsShape(Arg, &Locals))
      PassesShape = true;
    if (receivesTensor(Arg))
      PassesTensor = true;
    // copy(dst, t->data, t->byte_offset, n): the callee adds it; so it
    // can when it also receives, as a DLTensor (by value, reference or
    // pointer), the whole tensor the data came from: byte_offset is in
    // it (tvm-ffi's views, which copy their prototype's header). The
    // tensor as an opaque `void *` (a deleter's context) is not read.
    if (mentionsByteOffset(Arg, Env, &Locals) ||
        (Owner && receivesTensor(Arg) && tensorArgRecord(Arg, Env) == Owner))
      E.OffsetApplied = true;
  }
  if (PassesShape && !PassesTensor)
    E.CallPassesShapeOnly = true;
}

llvm::SmallVector<llvm::SmallVector<const Expr *, 8>, 2>
DLPackEventCollector::argumentsBeside(
    llvm::function_ref<bool(const Expr *)> Names, const Decl *Func) {
  llvm::SmallVector<llvm::SmallVector<const Expr *, 8>, 2> Out;
  const Stmt *Body = Func ? Func->getBody() : nullptr;
  auto Visit = [&](llvm::ArrayRef<const Expr *> Args) {
    if (llvm::none_of(Args, [&](const Expr *A) { return A && Names(A); }))
      return;
    llvm::SmallVector<const Expr *, 8> Beside;
    for (const Expr *A : Args)
      if (A && !Names(A))
        Beside.push_back(A);
    Out.push_back(std::move(Beside));
  };
  struct Calls : RecursiveASTVisitor<Calls> {
    std::function<void(llvm::ArrayRef<const Expr *>)> Visit;
    bool VisitCallExpr(CallExpr *CE) {
      Visit({CE->getArgs(), CE->getNumArgs()});
      return true;
    }
    bool VisitCXXConstructExpr(CXXConstructExpr *CE) {
      Visit({CE->getArgs(), CE->getNumArgs()});
      return true;
    }
  } Walk;
  Walk.Visit = Visit;
  if (Body)
    Walk.TraverseStmt(const_cast<Stmt *>(Body));
  return Out;
}

bool DLPackEventCollector::filledWithLayoutOf(const Expr *Arg,
                                              const StorageLocation *Owner,
                                              const Environment &Env) {
  const auto *FD = dyn_cast_or_null<FunctionDecl>(Env.getCurrentFunc());
  if (!Owner || !FD)
    return false;
  if (!Fillers)
    Fillers.emplace(*FD);
  for (const DeclRefExpr *T : Fillers->tensorsFilling(Arg)) {
    StorageLocation *L = Env.getStorageLocation(*T->getDecl());
    if (L && T->getType()->isPointerType())
      if (auto *PV = Env.get<PointerValue>(*L))
        L = &PV->getPointeeLoc();
    if (tensorRecordOf(dyn_cast_or_null<RecordStorageLocation>(L)) == Owner)
      return true;
  }
  return false;
}

bool DLPackEventCollector::holds(const Environment &Env,
                                 const Formula &F) const {
  return DryRun || Env.proves(F);
}

bool DLPackEventCollector::propHolds(const Environment &Env, const Value *V,
                                     llvm::StringRef Name, bool Negated) const {
  if (DryRun)
    return boolProp(V, Name) != nullptr;
  return provesProp(Env, V, Name, Negated);
}

} // namespace clang::interop
