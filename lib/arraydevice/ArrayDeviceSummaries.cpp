//===--- ArrayDeviceSummaries.cpp - same-TU helpers, from their bodies ----===//

#include "lib/arraydevice/ArrayDeviceSummaries.h"

#include "lib/arraydevice/ArrayDeviceEquivalentForms.h"
#include "lib/arraydevice/ArrayDeviceState.h"
#include "lib/engine/JudgedFunctions.h"
#include "lib/support/LLVMCompat.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>

namespace clang::interop::arraydevice {

using namespace dataflow;

RecordStorageLocation *
HelperSummary::Subject::within(RecordStorageLocation *Root) const {
  RecordStorageLocation *Loc = Root;
  for (const FieldDecl *F : Fields) {
    if (!Loc)
      return nullptr;
    RecordStorageLocation *Next = nullptr;
    for (const auto &[D, Child] : Loc->children())
      if (D == F)
        Next = dyn_cast_or_null<RecordStorageLocation>(Child);
    Loc = Next;
  }
  return Loc;
}

namespace {

bool isObjectRole(TypeRole R) {
  return R == TypeRole::Array || R == TypeRole::Sharding ||
         R == TypeRole::Device;
}

/// A const member function of a modelled class speaks of its own object,
/// which it cannot change (`bool Tensor::spans_devices() const { return
/// device_count() > 1; }`): a project's own predicate read from its body.
bool isSubjectThis(const ApiModel &M, const FunctionDecl &FD) {
  const auto *MD = dyn_cast<CXXMethodDecl>(&FD);
  if (!MD || !MD->isInstance() || !MD->isConst() ||
      MD->getParent()->isLambda())
    return false;
  return isObjectRole(M.classify(
      compat::recordType(FD.getASTContext(), MD->getParent())));
}

/// A parameter a summary can speak of: a reference to a const modelled
/// object, or to a const record with a field of a modelled type. The
/// caller's argument is then the callee's object, unchanged by the call.
bool isSubjectParam(const ApiModel &M, const ParmVarDecl &P,
                    llvm::SmallVectorImpl<const FieldDecl *> *Fields) {
  QualType T = P.getType();
  if (!T->isLValueReferenceType())
    return false;
  QualType Ref = T->getPointeeType();
  if (!Ref.isConstQualified())
    return false;
  if (isObjectRole(M.classify(Ref)))
    return true;
  const CXXRecordDecl *RD = Ref->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition() || M.classify(Ref) != TypeRole::None)
    return false;
  bool Any = false;
  for (const FieldDecl *F : RD->fields())
    if (!F->getType()->isReferenceType() &&
        isObjectRole(M.classify(F->getType()))) {
      Any = true;
      if (Fields)
        Fields->push_back(F);
    }
  return Any;
}

bool returnsModelled(const ApiModel &M, QualType RT) {
  TypeRole R = M.classify(RT);
  return isObjectRole(R) || R == TypeRole::Result;
}

/// One syntactic scan of a candidate's body: its size, whether it uses the
/// model at all (a call of the API or of another function with a body),
/// and what no summary can describe (try blocks, throws).
class BodyScan : public RecursiveASTVisitor<BodyScan> {
public:
  BodyScan(const ApiModel &M, const SourceManager &SM, unsigned MaxStatements)
      : M(M), SM(SM), MaxStatements(MaxStatements) {}
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool VisitStmt(Stmt *) {
    if (++Statements > MaxStatements) {
      Rejected = true;
      return false;
    }
    return true;
  }
  bool VisitCXXTryStmt(CXXTryStmt *) {
    Rejected = true;
    return false;
  }
  bool VisitCXXThrowExpr(CXXThrowExpr *) {
    Throws = true;
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *F = CE->getDirectCallee();
    if (!F)
      return true;
    if (!M.classify(F).empty())
      UsesModel = true;
    else if (const FunctionDecl *Def = F->getDefinition())
      UsesModel |= !SM.isInSystemHeader(Def->getLocation());
    return true;
  }
  unsigned Statements = 0;
  bool Rejected = false, UsesModel = false, Throws = false;

private:
  const ApiModel &M;
  const SourceManager &SM;
  unsigned MaxStatements;
};

bool isCandidate(const FunctionDecl &FD, const ApiModel &M, ASTContext &Ctx,
                 unsigned MaxStatements, bool &Throws) {
  // A lambda's call operator is a candidate only as the predicate of a
  // standard algorithm (ofPredicate); ofCall refuses direct calls of lambdas.
  if (!M.classify(&FD).empty() ||
      !isSameTUHelper(FD, Ctx.getSourceManager(), /*LambdaCallOperator=*/true))
    return false;
  bool Subject = isSubjectThis(M, FD) ||
                 llvm::any_of(FD.parameters(), [&](const ParmVarDecl *P) {
                   return isSubjectParam(M, *P, nullptr);
                 });
  if (!Subject && !returnsModelled(M, FD.getReturnType()))
    return false;
  BodyScan Scan(M, Ctx.getSourceManager(), MaxStatements);
  Scan.TraverseStmt(FD.getBody());
  Throws = Scan.Throws;
  return !Scan.Rejected && Scan.UsesModel;
}

/// The model's own spelling of a synthetic field name: summaries outlive
/// the analysis whose field maps the name was read from.
llvm::StringRef stableFieldName(llvm::StringRef Name) {
  for (llvm::StringRef Known : {kSingle, kTpu, kPinned, kAddressable,
                                kElemAddressable, kElemTpu, kElemSingle, kOk})
    if (Known == Name)
      return Known;
  return {};
}

/// The bool value of a returned expression.
BoolValue *boolValueOf(const Expr *E, const Environment &Env) {
  while (E) {
    if (auto *V = Env.get<BoolValue>(*E))
      return V;
    if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
      E = EWC->getSubExpr();
    else if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E))
      E = ICE->getSubExpr();
    else if (const auto *PE = dyn_cast<ParenExpr>(E))
      E = PE->getSubExpr();
    else
      return nullptr;
  }
  return nullptr;
}

/// A returned status constructed from an error code (OkStatusCodes).
bool returnsErrorStatus(const ApiModel &M, const Expr *E) {
  if (!E)
    return false;
  E = E->IgnoreImplicit();
  if (const auto *FC = dyn_cast<CXXFunctionalCastExpr>(E))
    E = FC->getSubExpr()->IgnoreImplicit();
  const auto *CCE = dyn_cast<CXXConstructExpr>(E);
  if (!CCE || CCE->getNumArgs() < 1 || !M.isStatusType(CCE->getType()))
    return false;
  const auto *DRE =
      dyn_cast<DeclRefExpr>(CCE->getArg(0)->IgnoreParenImpCasts());
  return DRE && M.isErrorStatusCode(dyn_cast<EnumConstantDecl>(DRE->getDecl()));
}

/// The object a return statement returns (for a Result, the object itself;
/// modelledObject() looks inside).
RecordStorageLocation *returnedLoc(const ReturnStmt &RS, Environment &Env) {
  const Expr *E = RS.getRetValue();
  if (!E)
    return nullptr;
  if (E->isGLValue())
    return E->getType()->isRecordType()
               ? Env.get<RecordStorageLocation>(*E)
               : nullptr; // a reference to a scalar has no record location
  if (E->getType()->isRecordType())
    return &Env.getResultObjectLocation(*E);
  return nullptr;
}

RecordStorageLocation *subjectLoc(const FunctionDecl &FD,
                                  const HelperSummary::Subject &Sub,
                                  const Environment &Env) {
  if (Sub.Param == HelperSummary::Subject::kThis)
    return Sub.within(Env.getThisPointeeStorageLocation());
  return Sub.within(dyn_cast_or_null<RecordStorageLocation>(
      Env.getStorageLocation(*FD.getParamDecl(Sub.Param))));
}

} // namespace

void summarizeExits(const FunctionDecl &FD, const ApiModel &M, ASTContext &Ctx,
                    std::vector<ExitState> &Exits, HelperSummary &Out) {
  if (Exits.empty())
    return;
  if (isSubjectThis(M, FD))
    Out.Subjects.push_back({HelperSummary::Subject::kThis, {}});
  for (unsigned I = 0, N = FD.getNumParams(); I < N; ++I) {
    llvm::SmallVector<const FieldDecl *, 2> Fields;
    const ParmVarDecl &P = *FD.getParamDecl(I);
    if (!isSubjectParam(M, P, &Fields))
      continue;
    if (Fields.empty())
      Out.Subjects.push_back({I, {}});
    for (const FieldDecl *F : Fields)
      Out.Subjects.push_back({I, {F}});
  }
  QualType RT = FD.getReturnType();
  bool BoolResult = RT->isBooleanType(), StatusResult = M.isStatusType(RT);
  for (unsigned SI = 0; SI < Out.Subjects.size(); ++SI) {
    // The facts the subject's type has (its synthetic fields).
    RecordStorageLocation *First =
        subjectLoc(FD, Out.Subjects[SI], Exits.front().Env);
    if (!First)
      continue;
    llvm::SmallVector<llvm::StringRef, 4> Names;
    for (const auto &Entry : First->synthetic_fields())
      if (Entry.getValue()->getType()->isBooleanType())
        if (llvm::StringRef Name = stableFieldName(Entry.getKey());
            !Name.empty())
          Names.push_back(Name);
    std::sort(Names.begin(), Names.end());
    for (llvm::StringRef Name : Names) {
      // [holds, negated] for each condition, on every exit.
      bool After[2] = {true, true}, IfTrue[2] = {true, true},
           IfFalse[2] = {true, true}, IfOk[2] = {true, true};
      bool AnyOk = false;
      for (ExitState &X : Exits) {
        Environment &Env = X.Env;
        Arena &A = Env.arena();
        BoolValue *V =
            peekBool(subjectLoc(FD, Out.Subjects[SI], Env), Name, Env);
        if (!V) {
          After[0] = After[1] = IfTrue[0] = IfTrue[1] = false;
          IfFalse[0] = IfFalse[1] = IfOk[0] = IfOk[1] = false;
          break;
        }
        const Formula *Fact[2] = {&V->formula(), &A.makeNot(V->formula())};
        bool HoldsHere[2];
        for (int K = 0; K < 2; ++K) {
          HoldsHere[K] = Env.proves(*Fact[K]);
          After[K] &= HoldsHere[K];
        }
        const Expr *RV = X.Return ? X.Return->getRetValue() : nullptr;
        if (BoolResult) {
          BoolValue *R = RV ? boolValueOf(RV, Env) : nullptr;
          for (int K = 0; K < 2; ++K) {
            // A fact that holds at this return holds under either result.
            if (IfTrue[K])
              IfTrue[K] =
                  HoldsHere[K] ||
                  (R && Env.proves(A.makeImplies(R->formula(), *Fact[K])));
            if (IfFalse[K])
              IfFalse[K] = HoldsHere[K] ||
                           (R && Env.proves(A.makeImplies(
                                     A.makeNot(R->formula()), *Fact[K])));
          }
        }
        if (StatusResult && !returnsErrorStatus(M, RV)) {
          AnyOk = true;
          for (int K = 0; K < 2; ++K)
            IfOk[K] &= HoldsHere[K];
        }
      }
      for (int K = 0; K < 2; ++K) {
        bool Holds = K == 0;
        if (After[K]) {
          Out.Facts.push_back({SI, Name, HelperSummary::When::After, Holds});
          continue;
        }
        if (BoolResult && IfTrue[K])
          Out.Facts.push_back({SI, Name, HelperSummary::When::IfTrue, Holds});
        if (BoolResult && IfFalse[K])
          Out.Facts.push_back({SI, Name, HelperSummary::When::IfFalse, Holds});
        if (StatusResult && AnyOk && IfOk[K])
          Out.Facts.push_back({SI, Name, HelperSummary::When::IfOk, Holds});
      }
    }
  }
  // A returned parameter.
  if (RT->isReferenceType()) {
    std::optional<unsigned> Same;
    bool All = true;
    for (ExitState &X : Exits) {
      const Expr *RV = X.Return ? X.Return->getRetValue() : nullptr;
      StorageLocation *L = RV ? X.Env.getStorageLocation(*RV) : nullptr;
      std::optional<unsigned> Which;
      for (unsigned I = 0, N = FD.getNumParams(); L && I < N; ++I)
        if (FD.getParamDecl(I)->getType()->isReferenceType() &&
            X.Env.getStorageLocation(*FD.getParamDecl(I)) == L)
          Which = I;
      if (!Which || (Same && *Same != *Which)) {
        All = false;
        break;
      }
      Same = Which;
    }
    if (All && Same) {
      Out.ReturnsParam = Same;
      return;
    }
  }
  // A returned modelled value.
  if (!returnsModelled(M, RT))
    return;
  llvm::StringMap<int> Known; // field -> 1 true, 0 false, -1 unknown
  Origin O;
  bool First = true;
  for (ExitState &X : Exits) {
    if (!X.Return) {
      Known.clear();
      O = {Origin::Producer, nullptr};
      break;
    }
    TransferContext TC;
    State S{X.Lattice, X.Env, TC, M, Ctx};
    RecordStorageLocation *Obj =
        modelledObject(M, returnedLoc(*X.Return, X.Env), S);
    if (!Obj) {
      Known.clear();
      O = {Origin::Producer, nullptr};
      break;
    }
    Origin Here = originOf(X.Lattice, Obj);
    if (Here.K == Origin::Parameter)
      Here = {};
    O = First ? Here : strongerOrigin(O, Here);
    llvm::StringMap<int> Now;
    for (const auto &Entry : Obj->synthetic_fields()) {
      if (!Entry.getValue()->getType()->isBooleanType())
        continue;
      BoolValue *V = peekBool(Obj, Entry.getKey(), X.Env);
      int Val = -1;
      if (V && X.Env.proves(V->formula()))
        Val = 1;
      else if (V && X.Env.proves(X.Env.arena().makeNot(V->formula())))
        Val = 0;
      Now[Entry.getKey()] = Val;
    }
    if (First) {
      Known = std::move(Now);
    } else {
      for (auto &Entry : Known) {
        auto It = Now.find(Entry.getKey());
        if (It == Now.end() || It->second != Entry.getValue())
          Entry.getValue() = -1;
      }
    }
    First = false;
  }
  Out.ReturnsModelled = true;
  Out.ResultOrigin = O;
  for (const auto &Entry : Known)
    if (llvm::StringRef Name = stableFieldName(Entry.getKey());
        Entry.getValue() >= 0 && !Name.empty())
      Out.ResultFacts.push_back({Name, Entry.getValue() == 1});
  std::sort(Out.ResultFacts.begin(), Out.ResultFacts.end());
}

namespace {

/// A lambda's call operator capturing an integer variable by copy.
bool capturesInteger(const FunctionDecl &FD) {
  const auto *MD = dyn_cast<CXXMethodDecl>(&FD);
  if (!MD || !MD->getParent()->isLambda())
    return false;
  return llvm::any_of(MD->getParent()->captures(), [](const LambdaCapture &C) {
    const auto *V = dyn_cast_or_null<VarDecl>(
        C.capturesVariable() ? C.getCapturedVar() : nullptr);
    return V && C.getCaptureKind() == LCK_ByCopy &&
           V->getType()->isIntegralOrEnumerationType();
  });
}

} // namespace

const HelperSummary *HelperSummaries::of(const CallExpr &CE, const ApiModel &M,
                                         ASTContext &Ctx, unsigned Depth) {
  if (Depth >= Bounds.MaxSummaryDepth || isa<CXXOperatorCallExpr>(CE))
    return nullptr;
  const FunctionDecl *Callee = CE.getDirectCallee();
  if (!Callee)
    return nullptr;
  // A lambda's captures are not parameters: called directly, what its
  // body proves may rest on them.
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Callee);
      MD && MD->getParent()->isLambda())
    return nullptr;
  return ofDefinition(*Callee, M, Ctx, Depth);
}

const HelperSummary *HelperSummaries::ofPredicate(const FunctionDecl &FD,
                                                  const ApiModel &M,
                                                  ASTContext &Ctx,
                                                  unsigned Depth) {
  if (Depth >= Bounds.MaxSummaryDepth)
    return nullptr;
  // A lambda with an integer capture: its copy of this process's index
  // (from one run of the enclosing function) seeds a summary of its own.
  // While the enclosing function runs, capturesOf() gives nothing, so that
  // run always gets the unseeded summary.
  if (capturesInteger(FD))
    if (const CaptureFacts *C = capturesOf(FD, M, Ctx);
        C && !C->CurrentProcess.empty()) {
      CaptureFacts Seeds;
      Seeds.CurrentProcess = C->CurrentProcess;
      return ofDefinition(FD, M, Ctx, Depth, &Seeds);
    }
  return ofDefinition(FD, M, Ctx, Depth);
}

const HelperSummary *HelperSummaries::ofDefinition(const FunctionDecl &Callee,
                                                   const ApiModel &M,
                                                   ASTContext &Ctx,
                                                   unsigned Depth,
                                                   const CaptureFacts *Seeds) {
  const FunctionDecl *FD = Callee.getDefinition();
  if (!FD)
    return nullptr;
  auto [Cand, NewCand] = Candidates.try_emplace(FD);
  if (NewCand)
    Cand->second.Summarised = isCandidate(
        *FD, M, Ctx, Bounds.MaxSummaryStatements, Cand->second.Throws);
  if (!Cand->second.Summarised)
    return nullptr;
  bool Throws = Cand->second.Throws;
  auto &Summaries = Seeds ? SeededCache : Cache;
  auto [It, New] = Summaries.try_emplace({FD, Depth});
  if (!New)
    return It->second.get();
  // Null while computed: a recursive call gets no summary.
  std::unique_ptr<HelperSummary> S = compute(*FD, M, Ctx, Depth, Throws, Seeds);
  auto &Slot = Summaries[{FD, Depth}];
  Slot = std::move(S);
  return Slot.get();
}

namespace {

/// The summary of the same-TU helper a call calls, if it has one.
const HelperSummary *summaryFor(const CallExpr &CE, State &S) {
  if (!S.Ctx.Summaries)
    return nullptr;
  return S.Ctx.Summaries->of(CE, S.Model, S.AST, S.Ctx.SummaryDepth);
}

/// The caller's object a summary's subject names: an argument, or a field
/// of one.
RecordStorageLocation *argumentSubject(const CallExpr &CE,
                                       const HelperSummary::Subject &Sub,
                                       State &S) {
  if (Sub.Param == HelperSummary::Subject::kThis)
    return Sub.within(receiverLoc(CE, S.Env));
  if (Sub.Param >= CE.getNumArgs())
    return nullptr;
  return Sub.within(objectLoc(*CE.getArg(Sub.Param), S.Env));
}

} // namespace

void transferSummarisedCall(const CallExpr *CE, State &S) {
  const HelperSummary &Sum = *summaryFor(*CE, S);
  const ApiModel &M = S.Model;
  Environment &Env = S.Env;
  Arena &A = Env.arena();
  if (Sum.ReturnsParam && CE->isGLValue()) {
    if (StorageLocation *L =
            Env.getStorageLocation(*CE->getArg(*Sum.ReturnsParam)))
      Env.setStorageLocation(*CE, *L);
  } else if (Sum.ReturnsModelled) {
    if (RecordStorageLocation *Obj =
            modelledObject(M, returnedObject(*CE, S), S)) {
      // The value comes from the helper (what its body proves aside), or,
      // through it, from every process's devices.
      Origin O = Sum.ResultOrigin;
      if (O.K != Origin::GlobalDevices)
        O = {Origin::Producer, CE};
      setOrigin(S, Obj, O);
      for (const auto &[F, V] : Sum.ResultFacts)
        setBool(Obj, F, Env.getBoolLiteralValue(V), Env);
    }
  }
  BoolValue *Ret = nullptr, *Ok = nullptr;
  for (const HelperSummary::Fact &F : Sum.Facts) {
    RecordStorageLocation *Loc =
        argumentSubject(*CE, Sum.Subjects[F.Subject], S);
    BoolValue *V = getBool(Loc, F.Field, Env);

    if (!V)
      continue;
    const Formula &Fact = F.Holds ? V->formula() : A.makeNot(V->formula());
    switch (F.Cond) {
    case HelperSummary::When::After:
      setBool(Loc, F.Field, Env.getBoolLiteralValue(F.Holds), Env);
      break;
    case HelperSummary::When::IfTrue:
    case HelperSummary::When::IfFalse: {
      if (!Ret) {
        Ret = Env.get<BoolValue>(*CE);
        if (!Ret) {
          Ret = &Env.makeAtomicBoolValue();
          Env.setValue(*CE, *Ret);
        }
      }
      const Formula &R = F.Cond == HelperSummary::When::IfTrue
                             ? Ret->formula()
                             : A.makeNot(Ret->formula());
      Env.assume(A.makeImplies(R, Fact));
      break;
    }
    case HelperSummary::When::IfOk:
      if (!Ok) {
        if (!CE->isPRValue() || !CE->getType()->isRecordType())
          break;
        Ok = &Env.makeAtomicBoolValue();
        setBool(&Env.getResultObjectLocation(*CE), kOk, *Ok, Env);
      }
      Env.assume(A.makeImplies(Ok->formula(), Fact));
      break;
    }
  }
}

bool mayBeSummarisedCall(const Stmt *St, State &S) {
  const auto *CE = dyn_cast<CallExpr>(St);
  return CE && summaryFor(*CE, S);
}

namespace {

/// A capture whose variable the closure sees as it was at the lambda: a
/// copy, or a reference to something that cannot change.
bool captureIsStable(const LambdaCapture &C, const VarDecl &V) {
  if (C.getCaptureKind() == LCK_ByCopy)
    return true;
  if (C.getCaptureKind() != LCK_ByRef)
    return false;
  QualType T = V.getType();
  if (T->isReferenceType())
    return T->getPointeeType().isConstQualified();
  return T.isConstQualified();
}

} // namespace

CaptureFacts captureFactsAt(const LambdaExpr &LE, const ApiModel &M,
                            Environment &Env, const ArrayDeviceLattice &L) {
  CaptureFacts Out;
  for (const LambdaCapture &C : LE.captures()) {
    if (!C.capturesVariable())
      continue;
    const auto *V = dyn_cast_or_null<VarDecl>(C.getCapturedVar());
    if (V && C.getCaptureKind() == LCK_ByCopy &&
        V->getType()->isIntegralOrEnumerationType()) {
      if (holdsCurrentProcessIndex(*V, Env))
        Out.CurrentProcess.push_back(V);
      continue;
    }
    if (!V || !isObjectRole(M.classify(V->getType())) ||
        !captureIsStable(C, *V))
      continue;
    auto *Loc = Env.get<RecordStorageLocation>(*V);
    if (!Loc)
      continue;
    llvm::SmallVector<llvm::StringRef, 4> Names;
    for (const auto &Entry : Loc->synthetic_fields())
      if (Entry.getValue()->getType()->isBooleanType())
        if (llvm::StringRef N = stableFieldName(Entry.getKey()); !N.empty())
          Names.push_back(N);
    std::sort(Names.begin(), Names.end());
    for (llvm::StringRef N : Names) {
      BoolValue *B = peekBool(Loc, N, Env);
      if (!B)
        continue;
      if (Env.proves(B->formula()))
        Out.Facts.push_back({V, N, true});
      else if (Env.proves(Env.arena().makeNot(B->formula())))
        Out.Facts.push_back({V, N, false});
    }
    Origin O = originOf(L, Loc);
    if (O.K == Origin::GlobalDevices || O.K == Origin::Producer)
      Out.Origins.push_back({V, O});
  }
  return Out;
}

} // namespace clang::interop::arraydevice
