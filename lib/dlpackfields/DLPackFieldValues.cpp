//===--- DLPackFieldValues.cpp - what the field model keeps ---------------===//

#include "lib/dlpackfields/DLPackFieldValues.h"

#include "lib/abi/DeleterCalls.h"
#include "lib/engine/JudgedFunctions.h"
#include "lib/support/AstHelpers.h"
#include "lib/support/LocalStores.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"

#include <optional>

namespace clang::interop::dlpackfield {

using namespace clang::dataflow;

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
                bool Negated) {
  BoolValue *B = boolProp(V, Name);
  if (!B)
    return false;
  const Formula &F = B->formula();
  return Env.proves(Negated ? Env.arena().makeNot(F) : F);
}

const Value *originOf(const RunContext &RC, const Value *V) {
  auto It = RC.Origin.find(V);
  return It == RC.Origin.end() ? V : It->second;
}

const Expr *readSiteOf(const RunContext &RC, const Value *V) {
  return RC.ReadSite.lookup(originOf(RC, V));
}

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

StorageLocation *deviceTypeLoc(const RecordStorageLocation *Dev) {
  if (StorageLocation *Field = childOf(Dev, DLPackField::DeviceType))
    return Field;
  return syntheticField(Dev, kDeviceTypeField);
}

Value *deviceTypeValueOf(RecordStorageLocation *TensorRec,
                         const Environment &Env) {
  RecordStorageLocation *Dev = childRecordOf(TensorRec, DLPackField::Device);
  StorageLocation *L = deviceTypeLoc(Dev);
  return L ? Env.getValue(*L) : nullptr;
}

StorageLocation *hostGuardSlot(const RecordStorageLocation *Rec) {
  if (RecordStorageLocation *Dev = childRecordOf(Rec, DLPackField::Device))
    Rec = Dev;
  return syntheticField(Rec, kDeviceHostField);
}

namespace {
bool mentionsFields(const Expr *E, const LocalStores *Stores, int Depth,
                    llvm::function_ref<bool(DLPackField)> Wanted,
                    bool AsNumber = false, const Environment *Env = nullptr,
                    llvm::StringRef Prop = {});

/// Returns of a helper's body, lambdas aside; at most this many (a helper
/// that computes a count returns once or twice).
constexpr unsigned kMaxHelperReturns = 8;

/// A call of a helper of this translation unit that is passed a tensor and
/// returns what it reads of it (`size_t n = calc_size(&t);`, whose every
/// return is computed from `t->shape`): a callee's contract read from its
/// body, through its own locals.
bool helperReturnsFields(const CallExpr &CE, int Depth,
                         llvm::function_ref<bool(DLPackField)> Wanted) {
  // The cheap test first: this runs for every call a mention walk meets.
  if (llvm::none_of(CE.arguments(),
                    [](const Expr *A) { return receivesTensor(A); }))
    return false;
  const FunctionDecl *Callee = CE.getDirectCallee();
  const FunctionDecl *Def = nullptr;
  if (!Callee || !Callee->hasBody(Def) || !Def ||
      !isSameTUHelper(*Def, Def->getASTContext().getSourceManager()))
    return false;
  struct Returns : RecursiveASTVisitor<Returns> {
    llvm::SmallVector<const ReturnStmt *, 2> Found;
    bool Over = false;
    bool TraverseLambdaExpr(LambdaExpr *) { return true; }
    bool VisitReturnStmt(ReturnStmt *R) {
      Over |= Found.size() == kMaxHelperReturns;
      Found.push_back(R);
      return !Over;
    }
  } R;
  R.TraverseStmt(Def->getBody());
  if (R.Over || R.Found.empty())
    return false;
  const LocalStores &Stores = localStoresOf(*Def);
  return llvm::all_of(R.Found, [&](const ReturnStmt *Ret) {
    return mentionsFields(Ret->getRetValue(), &Stores, Depth + 1, Wanted);
  });
}

/// True when E mentions a field Wanted accepts, directly or through locals:
/// one initialised from it, and with Stores (the function's LocalStores) one
/// assigned, multiplied up or filled element by element from it; with Env,
/// also a variable whose value a read of such a field flowed into (Prop).
/// AsNumber: the field's value as a number, followed only through numeric
/// locals and only with Stores (an object built from it is something else:
/// a view whose offset it sets).
bool mentionsFields(const Expr *E, const LocalStores *Stores, int Depth,
                    llvm::function_ref<bool(DLPackField)> Wanted, bool AsNumber,
                    const Environment *Env, llvm::StringRef Prop) {
  if (!E || Depth > 4)
    return false;
  E = E->IgnoreParens();
  if (DLPackField F = dlpackFieldOfMember(E); F != DLPackField::None)
    if (Wanted(F))
      return true;
  if (const auto *CE = dyn_cast<CallExpr>(E))
    if (helperReturnsFields(*CE, Depth, Wanted))
      return true;
  auto Again = [&](const Expr *X, int D) {
    return mentionsFields(X, Stores, D, Wanted, AsNumber, Env, Prop);
  };
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl())) {
      if (Env && !Prop.empty() && hasProp(Env->getValue(*VD), Prop))
        return true;
      if (!VD->hasLocalStorage() ||
          (AsNumber && (!Stores || !VD->getType()->isArithmeticType())))
        return false;
      const LocalStores::Stores *S = Stores ? Stores->of(VD) : nullptr;
      if (!S)
        return VD->getInit() && Again(VD->getInit(), Depth + 1);
      for (const auto *List : {&S->Whole, &S->Partial})
        for (const Expr *V : *List)
          if (Again(V, Depth + 1))
            return true;
      return false;
    }
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      if (Again(CE, Depth))
        return true;
  return false;
}

bool isLayoutField(DLPackField F) {
  return F == DLPackField::Shape || F == DLPackField::NDim ||
         F == DLPackField::Strides || F == DLPackField::DType;
}
bool isShapeField(DLPackField F) {
  return F == DLPackField::Shape || F == DLPackField::NDim;
}
} // namespace

bool mentionsByteOffset(const Expr *E, const Environment &Env,
                        const LocalStores *Stores) {
  return mentionsFields(
      E, Stores, 0, [](DLPackField F) { return F == DLPackField::ByteOffset; },
      /*AsNumber=*/true, &Env, kByteOffset);
}

bool mentionsLayout(const Expr *E, const LocalStores *Stores, int Depth) {
  return mentionsFields(E, Stores, Depth, isLayoutField);
}

bool mentionsShape(const Expr *E, const LocalStores *Stores) {
  return mentionsFields(E, Stores, 0, isShapeField);
}

bool receivesTensor(const Expr *Arg) {
  QualType T = Arg->getType();
  return classifyDLPackType(T) != DLPackRecord::None ||
         classifyDLPackPointee(T) != DLPackRecord::None;
}

bool mayConsiderStrides(const FunctionDecl &FD,
                        llvm::DenseMap<const FunctionDecl *, bool> &Memo) {
  struct Finder : RecursiveASTVisitor<Finder> {
    llvm::DenseMap<const FunctionDecl *, bool> &Memo;
    bool Found = false;
    explicit Finder(llvm::DenseMap<const FunctionDecl *, bool> &Memo)
        : Memo(Memo) {}
    bool VisitMemberExpr(MemberExpr *ME) {
      Found |= dlpackFieldOfMember(ME) == DLPackField::Strides;
      return !Found;
    }
    bool VisitCallExpr(CallExpr *CE) {
      // A tensor's deleter frees it; it does not read its layout.
      if (isDeleterCall(CE))
        return true;
      for (const Expr *Arg : CE->arguments())
        if (receivesTensor(Arg->IgnoreParenImpCasts()) &&
            mayLookAtStrides(CE->getDirectCallee(), Memo))
          Found = true;
      return !Found;
    }
  } F(Memo);
  F.TraverseStmt(FD.getBody());
  return F.Found;
}

namespace {
/// Whether Pred holds for one of the member functions and constructors RD
/// declares, each asked with its definition in this translation unit (for
/// a member of a class template's instantiation that was not instantiated,
/// the template's; null when there is none): the instantiated bodies call
/// what the pattern's dependent calls name. A member template is asked for
/// each of its specialisations, and for its pattern.
template <typename Fn> bool anyMember(const CXXRecordDecl &RD, Fn Pred) {
  auto Ask = [&](const FunctionDecl *M) {
    if (M->isImplicit())
      return false;
    const FunctionDecl *Def = M->getDefinition();
    if (!Def || !Def->getBody())
      if (const FunctionDecl *P = M->getTemplateInstantiationPattern())
        Def = P->getDefinition();
    return Pred(M, Def && Def->getBody() ? Def : nullptr);
  };
  for (const Decl *D : RD.decls()) {
    if (const auto *T = dyn_cast<FunctionTemplateDecl>(D)) {
      for (const FunctionDecl *S : T->specializations())
        if (Ask(S))
          return true;
      if (T->specializations().empty() && Ask(T->getTemplatedDecl()))
        return true;
    } else if (const auto *M = dyn_cast<FunctionDecl>(D); M && Ask(M)) {
      return true;
    }
  }
  return false;
}
} // namespace

bool classReadsField(const CXXRecordDecl &RD, DLPackField F) {
  return anyMember(RD, [&](const FunctionDecl *, const FunctionDecl *Def) {
    return Def && mentionsDLPackField(*Def, {F}, /*ReadsOnly=*/true);
  });
}

bool classMayConsiderStrides(const CXXRecordDecl &RD,
                             llvm::DenseMap<const FunctionDecl *, bool> &Memo) {
  return anyMember(RD, [&](const FunctionDecl *M, const FunctionDecl *Def) {
    if (M->isDeleted() || M->isDefaulted())
      return false;
    // A tensor handed out (not its device or dtype, which carry no layout).
    QualType Ret = M->getReturnType().getNonReferenceType();
    for (DLPackRecord R : {classifyDLPackType(Ret), classifyDLPackPointee(Ret)})
      if (R == DLPackRecord::Tensor || isManagedTensor(R))
        return true;
    if (!Def)
      return true;
    return mayConsiderStrides(*Def, Memo) ||
           mentionsDLPackField(*Def, {DLPackField::Strides});
  });
}

namespace {
/// The nearest parent of S that is not a paren or implicit cast.
const Stmt *semanticParent(const ParentMap &PM, const Stmt *S) {
  const Stmt *P = PM.getParent(S);
  while (P && (isa<ParenExpr>(P) || isa<ImplicitCastExpr>(P)))
    P = PM.getParent(P);
  return P;
}

/// E is evaluated as a statement of its own (its value dropped): a
/// statement of a block, or the body of an if, loop or label; not a
/// condition.
bool isStatement(const ParentMap &PM, const Expr *E) {
  const Stmt *P = PM.getParent(E);
  while (P && isa<ExprWithCleanups>(P)) {
    E = cast<Expr>(P);
    P = PM.getParent(P);
  }
  if (!P)
    return false;
  if (isa<CompoundStmt, SwitchCase, LabelStmt>(P))
    return true;
  if (const auto *If = dyn_cast<IfStmt>(P))
    return If->getThen() == E || If->getElse() == E;
  if (const auto *For = dyn_cast<ForStmt>(P))
    return For->getBody() == E;
  if (const auto *While = dyn_cast<WhileStmt>(P))
    return While->getBody() == E;
  if (const auto *Do = dyn_cast<DoStmt>(P))
    return Do->getBody() == E;
  return false;
}

/// A read of the strides field that only tests whether there are strides
/// (the pointer against NULL, or as a truth value) or copies their values
/// into memory (`out[i] = t->strides[i]`, a statement-level call given
/// `t->strides[i]`, as a serializer writes them): either way the reader
/// does not compare them with anything, so it cannot tell a strided tensor
/// from a compact one. In a Predicate (a function returning a truth value
/// or a number) a NULL test is what its caller may branch on, so only the
/// copies count.
bool onlyTestsOrCopies(const MemberExpr *ME, const ParentMap &PM,
                       ASTContext &Ctx, bool Predicate) {
  const Stmt *P = semanticParent(PM, ME);
  // A predicate's test is what its caller branches on.
  if (Predicate && !isa_and_nonnull<ArraySubscriptExpr>(P) &&
      !(isa_and_nonnull<UnaryOperator>(P) &&
        cast<UnaryOperator>(P)->getOpcode() == UO_Deref))
    return false;
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(P)) {
    if (BO->isEqualityOp()) {
      const Expr *Other = BO->getLHS()->IgnoreParenImpCasts() == ME
                              ? BO->getRHS()
                              : BO->getLHS();
      return isNullConstant(Other, Ctx);
    }
    return BO->isLogicalOp();
  }
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(P))
    if (UO->getOpcode() == UO_LNot)
      return true;
  const Expr *Cond = nullptr;
  if (const auto *If = dyn_cast_or_null<IfStmt>(P))
    Cond = If->getCond();
  else if (const auto *W = dyn_cast_or_null<WhileStmt>(P))
    Cond = W->getCond();
  else if (const auto *CO = dyn_cast_or_null<ConditionalOperator>(P))
    Cond = CO->getCond();
  if (Cond)
    return Cond->IgnoreParenImpCasts() == ME;
  // An element: strides[i] or *strides.
  const Stmt *Elem = nullptr;
  if (const auto *AS = dyn_cast_or_null<ArraySubscriptExpr>(P);
      AS && AS->getBase()->IgnoreParenImpCasts() == ME)
    Elem = AS;
  else if (const auto *UO = dyn_cast_or_null<UnaryOperator>(P);
           UO && UO->getOpcode() == UO_Deref)
    Elem = UO;
  if (!Elem)
    return false;
  const Stmt *Use = semanticParent(PM, Elem);
  // `t->strides ? t->strides[i] : 0`: a branch's value is the whole's.
  while (const auto *CO = dyn_cast_or_null<ConditionalOperator>(Use)) {
    if (CO->getCond()->IgnoreParenImpCasts() == Elem)
      return false;
    Elem = CO;
    Use = semanticParent(PM, CO);
  }
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(Use))
    if (BO->getOpcode() == BO_Assign &&
        BO->getRHS()->IgnoreParenImpCasts() == Elem) {
      const Expr *L = BO->getLHS()->IgnoreParenImpCasts();
      return isa<ArraySubscriptExpr, MemberExpr>(L) ||
             (isa<UnaryOperator>(L) &&
              cast<UnaryOperator>(L)->getOpcode() == UO_Deref);
    }
  if (const auto *Call = dyn_cast_or_null<CallExpr>(Use))
    return isStatement(PM, Call) &&
           llvm::any_of(Call->arguments(), [&](const Expr *A) {
             return A->IgnoreParenImpCasts() == Elem;
           });
  return false;
}
} // namespace

/// True when FD has no body here (its behaviour is unknown) or its body
/// reads the strides field other than to test for them or copy them
/// (onlyTestsOrCopies): passing a tensor to it counts as looking at the
/// strides (a compactness check in a helper). A serializer that writes the
/// strides it finds does not check them.
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
    Finder(Stmt *Body, ASTContext &Ctx, bool Predicate)
        : Body(Body), Ctx(Ctx), Predicate(Predicate) {}
    Stmt *Body;
    // Built at the first strides read: most callees have none.
    std::optional<ParentMap> PM;
    ASTContext &Ctx;
    bool Predicate;
    bool Found = false;
    bool VisitMemberExpr(MemberExpr *ME) {
      if (classifyDLPackField(dyn_cast<FieldDecl>(ME->getMemberDecl())) !=
          DLPackField::Strides)
        return true;
      if (!PM)
        PM.emplace(Body);
      Found = !onlyTestsOrCopies(ME, *PM, Ctx, Predicate);
      return !Found;
    }
  } F(Def->getBody(), Def->getASTContext(),
      Def->getReturnType()->isIntegralOrEnumerationType());
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

} // namespace clang::interop::dlpackfield
