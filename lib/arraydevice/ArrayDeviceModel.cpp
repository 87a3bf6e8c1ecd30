//===--- ArrayDeviceModel.cpp - flow-sensitive facts of arrays/devices ----===//
//
// The analysis class: the synthetic fields it gives each modelled type, its
// transfer (the gate and table of ArrayDeviceTransfer.h, then the sink
// calls' states for provePending()), and the judgement of a sink call's
// state into a SinkFact.
//
//===----------------------------------------------------------------------===//

#include "lib/arraydevice/ArrayDeviceModel.h"

#include "lib/arraydevice/ArrayDeviceContainers.h"

#include "lib/arraydevice/ArrayDeviceEquivalentForms.h"
#include "lib/arraydevice/ArrayDeviceObjects.h"
#include "lib/arraydevice/ArrayDeviceState.h"
#include "lib/arraydevice/ArrayDeviceSummaries.h"
#include "lib/arraydevice/ArrayDeviceTransfer.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/MapVector.h"

namespace clang::interop {

using namespace dataflow;
using namespace arraydevice;

namespace {

/// What a sink call's subject is, before any SAT query: its facts' values
/// and where it came from.
struct SinkSubject {
  SinkFact Fact;
  const BoolValue *Single = nullptr, *Tpu = nullptr, *Pinned = nullptr,
                  *DeviceMem = nullptr, *Addressable = nullptr;
};

/// A sink call's subject with the state it was last reached in.
struct PendingSink {
  SinkSubject Subject;
  Environment Env;
};

} // namespace

struct ArrayDeviceModel::Context {
  /// Collecting mode: per sink call, its last visit.
  llvm::MapVector<const CallExpr *, PendingSink> Pending;
  TransferContext Transfer;
  /// RecordReturns mode: per return statement, its last visit.
  bool RecordReturns = false;
  llvm::MapVector<const ReturnStmt *,
                  std::pair<Environment, ArrayDeviceLattice>>
      Returns;
  /// RecordLambdas mode: per lambda, its last visit.
  bool RecordLambdas = false;
  llvm::MapVector<const LambdaExpr *,
                  std::pair<Environment, ArrayDeviceLattice>>
      Lambdas;
  /// A lambda's capture facts, applied at SeedPoint: the first element of
  /// the block after the entry, when only the entry leads there (so it is
  /// visited once, from the initial state).
  const CaptureFacts *Seeds = nullptr;
  const CFGElement *SeedPoint = nullptr;
  const CFG *Graph = nullptr;
};

namespace {

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
                       const ArrayDeviceLattice &Lattice,
                       const Environment &Env) {
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
    Out.DeviceMem = peekBool(Loc, kDeviceMem, Env);
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
  // Which other memory, for the wording only.
  if (F.PinnedHost == Proof::Refuted)
    F.DeviceMemory = prove(Env, S.DeviceMem);
  return F;
}

/// Collects the range-based for loops of a function body (not of the
/// lambdas in it, which are analysed as functions of their own).
class RangeForCollector : public RecursiveASTVisitor<RangeForCollector> {
public:
  explicit RangeForCollector(TransferContext &Ctx)
      : Map(Ctx.RangeFors), Arms(Ctx.ConditionalArms) {}
  bool VisitConditionalOperator(ConditionalOperator *CO) {
    if (CO->isGLValue())
      for (const Expr *Arm : {CO->getTrueExpr(), CO->getFalseExpr()}) {
        const Expr *E = Arm->IgnoreParenImpCasts();
        if (isa<CallExpr, DeclRefExpr, MemberExpr>(E))
          Arms[E] = CO;
      }
    return true;
  }
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
  llvm::DenseMap<const Expr *, const AbstractConditionalOperator *> &Arms;
};

/// The synthetic fields of a type: the facts tracked for what it models.
llvm::StringMap<QualType> syntheticFields(const ApiModel &M, ASTContext &Ctx,
                                          unsigned Facts, QualType Ty) {
  bool Single = Facts & SingleDeviceFacts, Tpu = Facts & TpuMemoryFacts,
       Addressable = Facts & AddressableFacts;
  llvm::StringMap<QualType> Fields;
  auto Add = [&](bool Tracked, llvm::StringRef Name) {
    if (Tracked)
      Fields[Name] = Ctx.BoolTy;
  };
  if (M.isStatusType(Ty)) {
    Fields[kOk] = Ctx.BoolTy;
    return Fields;
  }
  if (isOptionalOfElement(M, Ty))
    Fields[kEngaged] = Ctx.BoolTy;
  switch (M.classify(Ty)) {
  case TypeRole::Array:
  case TypeRole::Sharding:
    Add(Single, kSingle);
    Add(Tpu, kTpu);
    Add(Tpu, kPinned);
    Add(Tpu, kDeviceMem);
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
    Add(Tpu, kElemTpu);
    Add(Tpu, kElemPinned);
    break;
  case TypeRole::HolderRange:
    for (const FieldDecl *F : M.heldFields(M.heldRecordOf(Ty))) {
      bool Array = M.classify(F->getType()) == TypeRole::Array;
      if (Array ? Single : Addressable)
        Fields[heldFact(Array ? kElemSingle : kElemAddressable, *F)] =
            Ctx.BoolTy;
    }
    break;
  case TypeRole::Result: {
    const auto *CTSD = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
        Ty->getAsCXXRecordDecl());
    if (!CTSD || CTSD->getTemplateArgs().size() < 1 ||
        CTSD->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
      break;
    QualType T = CTSD->getTemplateArgs()[0].getAsType();
    TypeRole Inner = M.classifyPointee(T);
    if (Inner != TypeRole::None && Inner != TypeRole::Result)
      Fields[kValue] = T;
    break;
  }
  case TypeRole::None:
    break;
  }
  return Fields;
}

} // namespace

ArrayDeviceModel::ArrayDeviceModel(ASTContext &Ctx, Environment &Env,
                                   const ApiModel &M, unsigned Facts,
                                   bool Collect, const AdornedCFG *CFG,
                                   HelperSummaries *Summaries, unsigned Depth,
                                   bool RecordReturns)
    : DataflowAnalysis(Ctx), Model(M), Collecting(Collect),
      Per(std::make_shared<Context>()) {
  Per->Transfer.Summaries = Summaries;
  Per->Transfer.SummaryDepth = Depth;
  Per->RecordReturns = RecordReturns;
  if (CFG)
    Per->Graph = &CFG->getCFG();
  if (const FunctionDecl *FD = Env.getCurrentFunc())
    if (Stmt *Body = FD->getBody())
      RangeForCollector(Per->Transfer).TraverseStmt(Body);
  const ApiModel *P = &M;
  Env.getDataflowAnalysisContext().setSyntheticFieldCallback(
      [P, &Ctx, Facts](QualType Ty) {
        return syntheticFieldsWithBases(Ty, Ctx, [&](QualType T) {
          return syntheticFields(*P, Ctx, Facts, T);
        });
      });
}

llvm::SmallVector<SinkFact> ArrayDeviceModel::provePending() {
  llvm::SmallVector<SinkFact> Facts;
  for (auto &[Call, P] : Per->Pending)
    Facts.push_back(proveSink(P.Subject, P.Env));
  Per->Pending.clear();
  return Facts;
}

void ArrayDeviceModel::seedCaptures(const CaptureFacts *Seeds) {
  if (!Seeds || !Per->Graph)
    return;
  const CFGBlock &Entry = Per->Graph->getEntry();
  if (Entry.succ_size() != 1)
    return;
  const CFGBlock *First = Entry.succ_begin()->getReachableBlock();
  if (!First || First->pred_size() != 1 || First->empty())
    return;
  Per->Seeds = Seeds;
  Per->SeedPoint = &*First->begin();
}

void ArrayDeviceModel::recordLambdas() { Per->RecordLambdas = true; }

std::vector<LambdaState> ArrayDeviceModel::takeLambdas() {
  std::vector<LambdaState> Out;
  for (auto &[Lambda, P] : Per->Lambdas)
    Out.push_back(LambdaState{Lambda, std::move(P.first), std::move(P.second)});
  Per->Lambdas.clear();
  return Out;
}

std::vector<ExitState> ArrayDeviceModel::takeReturns() {
  std::vector<ExitState> Out;
  for (auto &[Return, P] : Per->Returns)
    Out.push_back(ExitState{Return, std::move(P.first), std::move(P.second)});
  Per->Returns.clear();
  return Out;
}

void ArrayDeviceModel::transfer(const CFGElement &Elt, ArrayDeviceLattice &L,
                                Environment &Env) {
  if (&Elt == Per->SeedPoint) {
    State S{L, Env, Per->Transfer, Model, getASTContext()};
    for (const CaptureFacts::Seed &F : Per->Seeds->Facts)
      setBool(Env.get<RecordStorageLocation>(*F.Var), F.Field,
              Env.getBoolLiteralValue(F.Holds), Env);
    for (const auto &[Var, O] : Per->Seeds->Origins)
      setOrigin(S, Env.get<RecordStorageLocation>(*Var), O);
    for (const VarDecl *Var : Per->Seeds->CurrentProcess)
      setCurrentProcessIndex(*Var, Env);
  }
  transferElement(Elt, L, Env);
}

const Formula *ArrayDeviceModel::caseFormula(const SwitchStmt &Sw,
                                             const SwitchCase *Label, Value &V,
                                             Environment &Env) {
  llvm::StringRef Property;
  BoolValue *Fact = linkedFact(V, &Property);
  if (!Fact)
    return nullptr;
  Arena &A = Env.arena();
  const Formula &F = Fact->formula();
  const Formula &Nothing = A.makeLiteral(true);
  ASTContext &Ctx = getASTContext();
  auto CountOf = [&](const CaseStmt &C) -> std::optional<llvm::APSInt> {
    if (C.getRHS())
      return std::nullopt; // a GNU case range
    return integerConstant(C.getLHS(), Ctx);
  };
  auto EnumOf = [](const CaseStmt &C) -> const EnumConstantDecl * {
    return C.getRHS() || !C.getLHS() ? nullptr
                                     : enumerator(C.getLHS()->IgnoreImplicit());
  };
  if (const auto *C = dyn_cast_or_null<CaseStmt>(Label)) {
    if (Property == kCountIsOne) {
      std::optional<llvm::APSInt> K = CountOf(*C);
      if (!K)
        return &Nothing;
      if (*K == 1)
        return &F;
      return K->isSigned() && K->isNegative() ? &A.makeLiteral(false)
             : K->isZero()                    ? &A.makeLiteral(false)
                                              : &A.makeNot(F);
    }
    const EnumConstantDecl *E = EnumOf(*C);
    if (!E)
      return &Nothing;
    return enumeratorMatches(Model, Property, E) ? &F : &A.makeNot(F);
  }
  // default, written or implicit: none of the listed labels. It refutes the
  // fact when every value meaning the fact is listed (`case 1:` for a
  // count; every TPU enumerator for a platform).
  bool AllListed = false;
  const EnumDecl *Enum = nullptr;
  llvm::SmallPtrSet<const EnumConstantDecl *, 4> Listed;
  for (const SwitchCase *SC = Sw.getSwitchCaseList(); SC;
       SC = SC->getNextSwitchCase()) {
    const auto *C = dyn_cast<CaseStmt>(SC);
    if (!C)
      continue;
    if (Property == kCountIsOne) {
      std::optional<llvm::APSInt> K = CountOf(*C);
      AllListed |= K && *K == 1;
    } else if (const EnumConstantDecl *E = EnumOf(*C)) {
      Listed.insert(E);
      Enum = dyn_cast<EnumDecl>(E->getDeclContext());
    }
  }
  if (Enum) {
    AllListed = false;
    for (const EnumConstantDecl *E : Enum->enumerators()) {
      if (!enumeratorMatches(Model, Property, E))
        continue;
      AllListed = Listed.count(E);
      if (!AllListed)
        break;
    }
  }
  return AllListed ? &A.makeNot(F) : &Nothing;
}

void ArrayDeviceModel::transferElement(const CFGElement &Elt,
                                       ArrayDeviceLattice &L,
                                       Environment &Env) {
  auto CS = Elt.getAs<CFGStmt>();
  if (!CS)
    return;
  if (Per->RecordLambdas)
    if (const auto *LE = dyn_cast<LambdaExpr>(CS->getStmt()))
      Per->Lambdas.insert_or_assign(LE, std::make_pair(Env.fork(), L));
  if (Per->RecordReturns)
    if (const auto *RS = dyn_cast<ReturnStmt>(CS->getStmt())) {
      Per->Returns.insert_or_assign(RS, std::make_pair(Env.fork(), L));
      return;
    }
  State S{L, Env, Per->Transfer, Model, getASTContext()};
  if (isa<DeclRefExpr, MemberExpr>(CS->getStmt()) &&
      Per->Transfer.ConditionalArms.count(cast<Expr>(CS->getStmt())))
    noteConditionalArm(*CS->getStmt(), S);
  if (!transferSwitch()(*CS->getStmt(), S))
    return;
  noteConditionalArm(*CS->getStmt(), S);
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
        PendingSink Visit{Sub, Env.fork()};
        auto Found = Per->Pending.find(CE);
        if (Found != Per->Pending.end())
          Found->second = std::move(Visit);
        else
          Per->Pending.insert(std::make_pair(CE, std::move(Visit)));
      }
}

llvm::SmallVector<SinkFact> ArrayDeviceDiagnoser::operator()(
    const CFGElement &Elt, ASTContext &,
    const TransferStateForDiagnostics<ArrayDeviceLattice> &S) {
  auto CS = Elt.getAs<CFGStmt>();
  const auto *CE = CS ? dyn_cast<CallExpr>(CS->getStmt()) : nullptr;
  if (!CE)
    return {};
  // to_dlpack, from_dlpack, cuda_array_interface: the sinks.
  std::optional<SinkKind> K = sinkKindOf(Model, CE->getDirectCallee());
  if (!K)
    return {};
  return {proveSink(gatherSink(Model, CE, *K, S.Lattice, S.Env), S.Env)};
}

} // namespace clang::interop
