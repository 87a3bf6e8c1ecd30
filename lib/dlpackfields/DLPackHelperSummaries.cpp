//===--- DLPackHelperSummaries.cpp - same-TU DLPack helpers ---------------===//

#include "lib/dlpackfields/DLPackHelperSummaries.h"

#include "lib/abi/DLPackFields.h"
#include "lib/abi/DLPackTypes.h"
#include "lib/engine/JudgedFunctions.h"
#include "lib/support/AstHelpers.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

#include <cstdint>
#include <set>

namespace clang::interop {

namespace {

/// The parameter's kind: what its member chains start from.
enum class SubjectKind { None, Device, Tensor, Managed };

SubjectKind subjectKindOf(const ParmVarDecl &P) {
  QualType T = P.getType();
  bool ConstRef =
      T->isReferenceType() && T.getNonReferenceType().isConstQualified();
  bool ConstPtr = T->isPointerType() && T->getPointeeType().isConstQualified();
  DLPackRecord K = DLPackRecord::None;
  if (ConstPtr)
    K = classifyDLPackPointee(T);
  else if (ConstRef || (!T->isReferenceType() && !T->isPointerType()))
    K = classifyDLPackType(T.getNonReferenceType());
  switch (K) {
  case DLPackRecord::Device:
    return ConstPtr ? SubjectKind::None : SubjectKind::Device;
  case DLPackRecord::Tensor:
    return SubjectKind::Tensor;
  case DLPackRecord::None:
    return SubjectKind::None;
  default:
    // A managed tensor by value is not a thing producers hand out.
    return isManagedTensor(K) && (ConstRef || ConstPtr) ? SubjectKind::Managed
                                                        : SubjectKind::None;
  }
}

/// The index of FD's one DLPack parameter (its subject), when every other
/// parameter is of no DLPack type (a name for a message, a flag): none when
/// FD has no such parameter or more than one.
std::optional<unsigned> subjectIndex(const FunctionDecl &FD) {
  std::optional<unsigned> Index;
  for (unsigned I = 0; I < FD.getNumParams(); ++I) {
    const ParmVarDecl &P = *FD.getParamDecl(I);
    QualType T = P.getType().getNonReferenceType();
    bool DLPack = classifyDLPackType(T) != DLPackRecord::None ||
                  classifyDLPackPointee(T) != DLPackRecord::None;
    if (!DLPack)
      continue;
    if (Index || subjectKindOf(P) == SubjectKind::None)
      return std::nullopt;
    Index = I;
  }
  return Index;
}

/// The arguments of Call that are its callee's parameters: a call of a
/// lambda by name passes the closure first.
unsigned parameterOffset(const CallExpr &Call) {
  return isa<CXXOperatorCallExpr>(Call) ? 1 : 0;
}

/// What of the parameter an expression reads.
enum class Facet { None, DeviceType, Strides, Data, ByteOffset };

/// Variables (the parameter and locals) the body may change: assigned,
/// incremented, address taken, bound to a non-const reference or pointer
/// parameter, captured by reference.
class WriteScan : public RecursiveASTVisitor<WriteScan> {
public:
  llvm::DenseSet<const ValueDecl *> Written;
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp())
      note(BO->getLHS());
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Op) {
    if (Op->isAssignmentOp() && Op->getNumArgs() > 0)
      note(Op->getArg(0));
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf)
      note(UO->getSubExpr());
    return true;
  }
  bool VisitVarDecl(VarDecl *VD) {
    if (VD->getInit() && isNonConstReference(VD->getType()))
      note(VD->getInit());
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *F = CE->getDirectCallee();
    unsigned Shift =
        isa<CXXOperatorCallExpr>(CE) && isa_and_nonnull<CXXMethodDecl>(F) ? 1
                                                                          : 0;
    for (unsigned I = Shift; I < CE->getNumArgs(); ++I) {
      unsigned PI = I - Shift;
      if (!F || PI >= F->getNumParams()) {
        note(CE->getArg(I));
        continue;
      }
      QualType PT = F->getParamDecl(PI)->getType();
      if (isNonConstReference(PT) ||
          (PT->isPointerType() && !PT->getPointeeType().isConstQualified()))
        note(CE->getArg(I));
    }
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *L) {
    for (const LambdaCapture &C : L->captures())
      if (C.capturesVariable() && C.getCaptureKind() == LCK_ByRef)
        Written.insert(C.getCapturedVar());
    return true;
  }

private:
  void note(const Expr *E) {
    if (!E)
      return;
    if (const ValueDecl *D = memberChainRoot(E))
      Written.insert(D);
    else if (const ValueDecl *D = referencedDecl(E))
      Written.insert(D);
  }
};

/// The body's size, and what no summary describes.
class SizeScan : public RecursiveASTVisitor<SizeScan> {
public:
  explicit SizeScan(unsigned MaxStatements) : MaxStatements(MaxStatements) {}
  bool VisitStmt(Stmt *S) {
    if (++Statements > MaxStatements ||
        isa<CXXTryStmt, GotoStmt, IndirectGotoStmt, LabelStmt, AsmStmt,
            CoroutineBodyStmt>(S)) {
      Rejected = true;
      return false;
    }
    return true;
  }
  unsigned MaxStatements;
  unsigned Statements = 0;
  bool Rejected = false;
};

/// One value of the facet a run enumerates.
struct Assumption {
  Facet F = Facet::None;
  /// DeviceType: the value, unless Other (a value no constant equals).
  std::int64_t Type = 0;
  bool Other = false;
  /// Strides: NULL or not.
  bool Null = false;
};

/// An evaluated expression.
struct Val {
  enum Kind { Unknown, Bool, Int, Type, StridesPtr } K = Unknown;
  bool B = false; // Bool; StridesPtr: NULL
  std::int64_t I = 0;
  bool Other = false; // Type
};

/// Ways control leaves a statement.
enum : unsigned { Falls = 1, Breaks = 2, Continues = 4 };

class Evaluator {
public:
  Evaluator(const FunctionDecl &FD, unsigned Subject, SubjectKind Kind,
            ASTContext &Ctx, const llvm::DenseSet<const ValueDecl *> &Written,
            unsigned MaxSteps)
      : FD(FD), Param(FD.getParamDecl(Subject)), Kind(Kind), Ctx(Ctx),
        Written(Written), MaxSteps(MaxSteps) {}

  /// The bool results the body may return under A (both for a `return;`
  /// or the end of the body: it returns); nullopt when a statement is not
  /// understood or a bound is passed.
  std::optional<std::pair<bool, bool>> results(const Assumption &A) {
    Assume = A;
    CanTrue = CanFalse = Failed = false;
    Steps = 0;
    if (exec(FD.getBody()) & Falls)
      CanTrue = CanFalse = true;
    if (Failed)
      return std::nullopt;
    return std::pair(CanTrue, CanFalse);
  }

  /// Which facet of the parameter E reads (through casts, a local copy
  /// nothing changes, and a device-type accessor).
  Facet facetOf(const Expr *E, unsigned Depth = 0) const {
    if (!E || Depth > 8)
      return Facet::None;
    E = stripIdentityCasts(ignoreTemporaries(E));
    if (!E)
      return Facet::None;
    if (const auto *CE = dyn_cast<CallExpr>(E)) {
      // An integer function of one DLDevice reads its type, as the field
      // model reads interop::dl::device_type_of.
      if (CE->getNumArgs() == 1 &&
          CE->getType()->isIntegralOrEnumerationType() &&
          !CE->getType()->isBooleanType())
        if (const Expr *Arg = helperArgument(*CE);
            Arg && classifyDLPackType(Arg->getType()) == DLPackRecord::Device &&
            isDevice(Arg))
          return Facet::DeviceType;
      return Facet::None;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      DLPackField F = dlpackFieldOfMember(ME);
      const Expr *Base = ME->getBase();
      switch (F) {
      case DLPackField::DeviceType:
        return isDevice(Base) ? Facet::DeviceType : Facet::None;
      case DLPackField::Strides:
        return isTensor(Base) ? Facet::Strides : Facet::None;
      case DLPackField::Data:
        return isTensor(Base) ? Facet::Data : Facet::None;
      case DLPackField::ByteOffset:
        return isTensor(Base) ? Facet::ByteOffset : Facet::None;
      default:
        return Facet::None;
      }
    }
    if (const VarDecl *V = stableLocal(E))
      return facetOf(V->getInit(), Depth + 1);
    return Facet::None;
  }

  /// True when E mentions the parameter's byte_offset.
  bool mentionsByteOffset(const Expr *E, unsigned Depth = 0) const {
    if (!E || Depth > 8)
      return false;
    if (facetOf(E) == Facet::ByteOffset)
      return true;
    for (const Stmt *C : E->children())
      if (mentionsByteOffset(dyn_cast_or_null<Expr>(C), Depth + 1))
        return true;
    return false;
  }

private:
  /// E names the parameter (or `*p` of a pointer parameter).
  bool isParam(const Expr *E) const {
    E = E->IgnoreParenImpCasts();
    if (const auto *UO = dyn_cast<UnaryOperator>(E);
        UO && UO->getOpcode() == UO_Deref)
      E = UO->getSubExpr()->IgnoreParenImpCasts();
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    return DRE && DRE->getDecl() == Param;
  }
  /// E designates the parameter's tensor.
  bool isTensor(const Expr *E) const {
    if (Kind == SubjectKind::Tensor)
      return isParam(E);
    if (Kind != SubjectKind::Managed)
      return false;
    const auto *ME = dyn_cast<MemberExpr>(E->IgnoreParenImpCasts());
    return ME && dlpackFieldOfMember(ME) == DLPackField::DLTensor &&
           isParam(ME->getBase());
  }
  /// E designates the parameter's device.
  bool isDevice(const Expr *E) const {
    if (Kind == SubjectKind::Device)
      return isParam(E);
    const auto *ME = dyn_cast<MemberExpr>(E->IgnoreParenImpCasts());
    return ME && dlpackFieldOfMember(ME) == DLPackField::Device &&
           isTensor(ME->getBase());
  }
  /// A local scalar the body never changes after its initialiser.
  const VarDecl *stableLocal(const Expr *E) const {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!V || isa<ParmVarDecl>(V) || !V->hasLocalStorage() || !V->getInit() ||
        V->getType()->isReferenceType() || Written.contains(V))
      return nullptr;
    return V;
  }

  void result(const Val &V) {
    if (V.K == Val::Bool) {
      (V.B ? CanTrue : CanFalse) = true;
    } else {
      CanTrue = CanFalse = true;
    }
  }

  Val eval(const Expr *E, unsigned Depth = 0) {
    Val U;
    if (!E || Depth > 16)
      return U;
    E = E->IgnoreParens();
    if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
      return eval(EWC->getSubExpr(), Depth + 1);
    if (const auto *ICE = dyn_cast<CastExpr>(E)) {
      switch (ICE->getCastKind()) {
      case CK_PointerToBoolean:
      case CK_IntegralToBoolean:
      case CK_MemberPointerToBoolean: {
        Val S = eval(ICE->getSubExpr(), Depth + 1);
        if (S.K == Val::StridesPtr)
          return {Val::Bool, !S.B};
        if (S.K == Val::Int)
          return {Val::Bool, S.I != 0};
        if (S.K == Val::Type && !S.Other)
          return {Val::Bool, S.I != 0};
        return U;
      }
      case CK_NoOp:
      case CK_LValueToRValue:
      case CK_IntegralCast:
      case CK_BitCast:
      case CK_NullToPointer:
        break;
      default:
        return U;
      }
    }
    if (const auto *B = dyn_cast<CXXBoolLiteralExpr>(E))
      return {Val::Bool, B->getValue()};
    switch (facetOf(E)) {
    case Facet::DeviceType:
      if (Assume.F != Facet::DeviceType)
        return U;
      return {Val::Type, false, Assume.Type, Assume.Other};
    case Facet::Strides:
      if (Assume.F != Facet::Strides)
        return U;
      return {Val::StridesPtr, Assume.Null};
    default:
      break;
    }
    if (const auto *ICE = dyn_cast<CastExpr>(E))
      return eval(ICE->getSubExpr(), Depth + 1);
    if (E->getType()->isIntegralOrEnumerationType() &&
        !E->getType()->isBooleanType())
      if (std::optional<llvm::APSInt> K = integerConstant(E, Ctx))
        return {Val::Int, false, K->getExtValue()};
    if (const VarDecl *V = stableLocal(E))
      return eval(V->getInit(), Depth + 1);
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (UO->getOpcode() != UO_LNot)
        return U;
      Val S = eval(UO->getSubExpr(), Depth + 1);
      if (S.K == Val::StridesPtr)
        return {Val::Bool, S.B};
      if (S.K == Val::Bool)
        return {Val::Bool, !S.B};
      return U;
    }
    if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
      Val C = eval(CO->getCond(), Depth + 1);
      if (C.K == Val::Bool)
        return eval(C.B ? CO->getTrueExpr() : CO->getFalseExpr(), Depth + 1);
      Val T = eval(CO->getTrueExpr(), Depth + 1),
          F = eval(CO->getFalseExpr(), Depth + 1);
      if (T.K == Val::Bool && F.K == Val::Bool && T.B == F.B)
        return T;
      return U;
    }
    const auto *BO = dyn_cast<BinaryOperator>(E);
    if (!BO)
      return U;
    BinaryOperatorKind Op = BO->getOpcode();
    if (Op == BO_LAnd || Op == BO_LOr) {
      bool Short = Op == BO_LOr; // the value that decides alone
      Val L = eval(BO->getLHS(), Depth + 1);
      if (L.K == Val::Bool && L.B == Short)
        return L;
      Val R = eval(BO->getRHS(), Depth + 1);
      if (R.K == Val::Bool && R.B == Short)
        return R;
      if (L.K == Val::Bool && R.K == Val::Bool)
        return {Val::Bool, !Short};
      return U;
    }
    if (!BO->isComparisonOp())
      return U;
    Val L = eval(BO->getLHS(), Depth + 1), R = eval(BO->getRHS(), Depth + 1);
    if (L.K != Val::Type && R.K == Val::Type) {
      std::swap(L, R);
      Op = mirroredComparison(Op);
    }
    if (L.K == Val::StridesPtr || R.K == Val::StridesPtr) {
      const Expr *Other = L.K == Val::StridesPtr ? BO->getRHS() : BO->getLHS();
      const Val &S = L.K == Val::StridesPtr ? L : R;
      if (!BO->isEqualityOp() || !isNullConstant(Other, Ctx))
        return U;
      return {Val::Bool, (Op == BO_EQ) == S.B};
    }
    if ((L.K != Val::Type && L.K != Val::Int) || R.K != Val::Int)
      return U;
    if (L.K == Val::Type && L.Other) {
      // A value no constant of the body equals.
      if (Op == BO_EQ || Op == BO_NE)
        return {Val::Bool, Op == BO_NE};
      return U;
    }
    return {Val::Bool, evaluateComparison<std::int64_t>(Op, L.I, R.I)};
  }

  /// Executes S; returns the ways control leaves it (Falls, Breaks,
  /// Continues), recording the results of its returns.
  unsigned exec(const Stmt *S) {
    if (Failed)
      return 0;
    if (++Steps > MaxSteps) {
      Failed = true;
      return 0;
    }
    if (!S)
      return Falls;
    if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
      unsigned Acc = 0;
      for (const Stmt *Child : CS->body()) {
        unsigned R = exec(Child);
        Acc |= R & ~unsigned(Falls);
        if (!(R & Falls))
          return Acc;
      }
      return Acc | Falls;
    }
    if (const auto *RS = dyn_cast<ReturnStmt>(S)) {
      result(eval(RS->getRetValue()));
      return 0;
    }
    if (const auto *IS = dyn_cast<IfStmt>(S)) {
      if (IS->isConsteval()) {
        Failed = true;
        return 0;
      }
      exec(IS->getInit());
      Val C = eval(IS->getCond());
      if (C.K == Val::Bool)
        return C.B ? exec(IS->getThen()) : exec(IS->getElse());
      return exec(IS->getThen()) | exec(IS->getElse());
    }
    if (const auto *SW = dyn_cast<SwitchStmt>(S))
      return execSwitch(*SW);
    if (const auto *FS = dyn_cast<ForStmt>(S)) {
      exec(FS->getInit());
      return loop(FS->getCond(), FS->getBody(), /*AtLeastOnce=*/false);
    }
    if (const auto *WS = dyn_cast<WhileStmt>(S))
      return loop(WS->getCond(), WS->getBody(), false);
    if (const auto *DS = dyn_cast<DoStmt>(S))
      return loop(DS->getCond(), DS->getBody(), true);
    if (const auto *RF = dyn_cast<CXXForRangeStmt>(S))
      return loop(nullptr, RF->getBody(), false, /*Unbounded=*/false);
    if (isa<BreakStmt>(S))
      return Breaks;
    if (isa<ContinueStmt>(S))
      return Continues;
    if (isa<NullStmt, DeclStmt>(S))
      return Falls;
    if (const auto *AS = dyn_cast<AttributedStmt>(S))
      return exec(AS->getSubStmt());
    if (const auto *SC = dyn_cast<SwitchCase>(S))
      return exec(SC->getSubStmt());
    if (const auto *E = dyn_cast<Expr>(S)) {
      return neverReturns(*ignoreTemporaries(E)) ? 0 : Falls;
    }
    Failed = true;
    return 0;
  }

  /// A loop whose body runs any number of times: its body is taken once
  /// (nothing the evaluator knows changes between iterations).
  unsigned loop(const Expr *Cond, const Stmt *Body, bool AtLeastOnce,
                bool Unbounded = true) {
    // No condition: `for (;;)` runs until a break; a range-for any number
    // of times.
    Val C = Cond ? eval(Cond) : Unbounded ? Val{Val::Bool, true} : Val{};
    if (!AtLeastOnce && C.K == Val::Bool && !C.B)
      return Falls;
    unsigned R = exec(Body);
    // Without a condition that can fail, only a break leaves the loop.
    bool Exits = !(C.K == Val::Bool && C.B);
    if (Exits && (!AtLeastOnce || (R & (Falls | Continues))))
      return Falls;
    return (R & Breaks) ? unsigned(Falls) : 0u;
  }

  unsigned execSwitch(const SwitchStmt &SW) {
    exec(SW.getInit());
    const auto *Body = dyn_cast_or_null<CompoundStmt>(SW.getBody());
    if (!Body || SW.getConditionVariable()) {
      Failed = true;
      return 0;
    }
    // The labels, at the top level of the body (through nested labels).
    llvm::SmallVector<std::pair<unsigned, const SwitchCase *>, 16> Labels;
    unsigned I = 0;
    for (const Stmt *Child : Body->body()) {
      while (const auto *SC = dyn_cast<SwitchCase>(Child)) {
        Labels.push_back({I, SC});
        Child = SC->getSubStmt();
      }
      ++I;
    }
    unsigned All = 0;
    for (const SwitchCase *SC = SW.getSwitchCaseList(); SC;
         SC = SC->getNextSwitchCase())
      ++All;
    if (All != Labels.size()) {
      Failed = true;
      return 0;
    }
    Val C = eval(SW.getCond());
    const SwitchCase *Default = nullptr;
    llvm::SmallVector<std::pair<unsigned, const SwitchCase *>, 16> Starts;
    bool Concrete = (C.K == Val::Int) || (C.K == Val::Type && !C.Other);
    for (const auto &[Index, SC] : Labels) {
      if (isa<DefaultStmt>(SC)) {
        Default = SC;
        if (C.K != Val::Int && C.K != Val::Type)
          Starts.push_back({Index, SC});
        continue;
      }
      const auto *Case = cast<CaseStmt>(SC);
      std::optional<llvm::APSInt> K = integerConstant(Case->getLHS(), Ctx);
      if (!K || Case->caseStmtIsGNURange()) {
        Failed = true;
        return 0;
      }
      if ((C.K != Val::Int && C.K != Val::Type) ||
          (Concrete && K->getExtValue() == C.I))
        Starts.push_back({Index, SC});
    }
    bool Matched = !Starts.empty() && (Concrete || C.K == Val::Type);
    if ((C.K == Val::Int || C.K == Val::Type) && !Matched && Default)
      for (const auto &[Index, SC] : Labels)
        if (SC == Default)
          Starts.push_back({Index, SC});
    unsigned Out = 0;
    // No label taken: the switch is skipped.
    if (Starts.empty() || ((C.K != Val::Int && C.K != Val::Type) && !Default))
      Out |= Falls;
    for (const auto &[Index, SC] : Starts) {
      unsigned R = exec(SC);
      for (unsigned J = Index + 1; (R & Falls) && J < Body->size(); ++J) {
        unsigned Next = exec(Body->body_begin()[J]);
        R = (R & ~unsigned(Falls)) | Next;
      }
      if (R & (Falls | Breaks))
        Out |= Falls;
      Out |= R & Continues;
    }
    return Out;
  }

  const FunctionDecl &FD;
  const ParmVarDecl *Param;
  SubjectKind Kind;
  ASTContext &Ctx;
  const llvm::DenseSet<const ValueDecl *> &Written;
  Assumption Assume;
  bool CanTrue = false, CanFalse = false, Failed = false;
  /// Statements executed under the current assumption, and their bound
  /// (FlowBounds::MaxSummarySteps).
  unsigned Steps = 0;
  unsigned MaxSteps;
};

/// The constants a body compares or switches on: the device types worth
/// trying (with one value none of them equals).
class ConstantScan : public RecursiveASTVisitor<ConstantScan> {
public:
  explicit ConstantScan(ASTContext &Ctx) : Ctx(Ctx) {}
  bool VisitCaseStmt(CaseStmt *CS) {
    add(CS->getLHS());
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isComparisonOp()) {
      add(BO->getLHS());
      add(BO->getRHS());
    }
    return true;
  }
  std::set<std::int64_t> Values;

private:
  void add(const Expr *E) {
    if (E->getType()->isIntegralOrEnumerationType())
      if (std::optional<llvm::APSInt> K = integerConstant(E, Ctx))
        Values.insert(K->getExtValue());
  }
  ASTContext &Ctx;
};

/// Returned value R is the parameter's data: whether byte_offset is added,
/// nullopt when R is not its data.
std::optional<bool> returnedData(const Expr *R, const Evaluator &Ev,
                                 unsigned Depth = 0) {
  if (!R || Depth > 8)
    return std::nullopt;
  R = stripIdentityCasts(ignoreTemporaries(R));
  if (!R)
    return std::nullopt;
  if (const auto *Cast = dyn_cast<ExplicitCastExpr>(R))
    if (Cast->getType()->isPointerType() &&
        Cast->getSubExpr()->getType()->isPointerType())
      return returnedData(Cast->getSubExpr(), Ev, Depth + 1);
  if (Ev.facetOf(R) == Facet::Data)
    return false;
  if (const auto *BO = dyn_cast<BinaryOperator>(R);
      BO && BO->getOpcode() == BO_Add && BO->getType()->isPointerType()) {
    const Expr *Ptr = BO->getLHS(), *Off = BO->getRHS();
    if (!Ptr->getType()->isPointerType())
      std::swap(Ptr, Off);
    std::optional<bool> Base = returnedData(Ptr, Ev, Depth + 1);
    if (!Base)
      return std::nullopt;
    return *Base || Ev.mentionsByteOffset(Off);
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(R);
      UO && UO->getOpcode() == UO_AddrOf)
    if (const auto *AS =
            dyn_cast<ArraySubscriptExpr>(UO->getSubExpr()->IgnoreParens())) {
      std::optional<bool> Base = returnedData(AS->getBase(), Ev, Depth + 1);
      if (!Base)
        return std::nullopt;
      return *Base || Ev.mentionsByteOffset(AS->getIdx());
    }
  return std::nullopt;
}

/// Every return statement of the body (a lambda's are its own).
class ReturnScan : public RecursiveASTVisitor<ReturnScan> {
public:
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool VisitReturnStmt(ReturnStmt *RS) {
    Returns.push_back(RS);
    return true;
  }
  llvm::SmallVector<const ReturnStmt *, 4> Returns;
};

std::unique_ptr<DLPackHelperSummary>
summarize(const FunctionDecl &FD, ASTContext &Ctx, const FlowBounds &Bounds) {
  std::optional<unsigned> Subject = subjectIndex(FD);
  if (!Subject)
    return nullptr;
  const ParmVarDecl *Param = FD.getParamDecl(*Subject);
  SubjectKind Kind = subjectKindOf(*Param);
  QualType RT = FD.getReturnType();
  bool Bool = RT->isBooleanType(), Pointer = RT->isPointerType(),
       Void = RT->isVoidType();
  // A lambda called by name is a helper like any other; its captures are
  // values the body does not know.
  const auto *MD = dyn_cast<CXXMethodDecl>(&FD);
  bool Lambda = MD && MD->getParent()->isLambda();
  if ((!Bool && !Pointer && !Void) || (Pointer && FD.getNumParams() != 1) ||
      !isSameTUHelper(FD, Ctx.getSourceManager(), Lambda))
    return nullptr;
  SizeScan Size(Bounds.MaxSummaryStatements);
  Size.TraverseStmt(FD.getBody());
  if (Size.Rejected)
    return nullptr;
  WriteScan Writes;
  Writes.TraverseStmt(FD.getBody());
  if (Writes.Written.contains(Param))
    return nullptr;
  Evaluator Ev(FD, *Subject, Kind, Ctx, Writes.Written, Bounds.MaxSummarySteps);
  auto Out = std::make_unique<DLPackHelperSummary>();
  if (Pointer) {
    if (Kind == SubjectKind::Device)
      return nullptr;
    ReturnScan Returns;
    Returns.TraverseStmt(FD.getBody());
    bool Adds = true;
    for (const ReturnStmt *RS : Returns.Returns) {
      std::optional<bool> D = returnedData(RS->getRetValue(), Ev);
      if (!D)
        return Out; // read: not a data helper
      Adds &= *D;
    }
    Out->ReturnsData = !Returns.Returns.empty();
    Out->AddsByteOffset = Out->ReturnsData && Adds;
    return Out;
  }
  // A host predicate: every constant the body compares, and one other value.
  ConstantScan Constants(Ctx);
  Constants.TraverseStmt(FD.getBody());
  if (Constants.Values.size() + 1 > Bounds.MaxSummaryValues)
    return nullptr;
  bool NonHostTrue = false, NonHostFalse = false, AnyTrue = false,
       AnyFalse = false;
  auto Try = [&](const Assumption &A, bool Host) {
    std::optional<std::pair<bool, bool>> R = Ev.results(A);
    if (!R)
      return false;
    AnyTrue |= R->first;
    AnyFalse |= R->second;
    if (!Host) {
      NonHostTrue |= R->first;
      NonHostFalse |= R->second;
    }
    return true;
  };
  for (std::int64_t K : Constants.Values)
    if (!Try({Facet::DeviceType, K, false, false},
             isHostAccessibleDeviceType(K)))
      return nullptr;
  if (!Try({Facet::DeviceType, 0, /*Other=*/true, false}, /*Host=*/false))
    return nullptr;
  // A void function's end or `return;` counts as both results: it returns
  // (both) or exits (neither), so the true result stands for returning.
  if (Void) {
    Out->HostIfReturns = AnyTrue && !NonHostTrue;
  } else {
    Out->HostIfTrue = AnyTrue && !NonHostTrue;
    Out->HostIfFalse = AnyFalse && !NonHostFalse;
  }
  if (Kind != SubjectKind::Device) {
    std::optional<std::pair<bool, bool>> Null =
        Ev.results({Facet::Strides, 0, false, /*Null=*/true});
    std::optional<std::pair<bool, bool>> NonNull =
        Ev.results({Facet::Strides, 0, false, /*Null=*/false});
    if (!Null || !NonNull)
      return nullptr;
    if (Void) {
      Out->StridesNonNullIfReturns = NonNull->first && !Null->first;
    } else {
      Out->StridesNonNullIfTrue = NonNull->first && !Null->first;
      Out->StridesNonNullIfFalse = NonNull->second && !Null->second;
    }
  }
  return Out;
}

} // namespace

const Expr *helperArgument(const CallExpr &E) {
  unsigned Index = 0;
  if (E.getNumArgs() != 1 || isa<CXXOperatorCallExpr>(E)) {
    // The callee's one DLPack parameter, beside parameters of other types.
    const FunctionDecl *Callee = E.getDirectCallee();
    std::optional<unsigned> Subject =
        Callee ? subjectIndex(*Callee) : std::nullopt;
    if (!Subject ||
        E.getNumArgs() != Callee->getNumParams() + parameterOffset(E))
      return nullptr;
    Index = *Subject + parameterOffset(E);
  }
  const Expr *Arg = E.getArg(Index)->IgnoreImplicit();
  if (const auto *CE = dyn_cast<CXXConstructExpr>(Arg))
    if (CE->getNumArgs() == 1)
      Arg = CE->getArg(0)->IgnoreImplicit();
  return Arg;
}

const DLPackHelperSummary *DLPackHelperSummaries::of(const CallExpr &Call,
                                                     ASTContext &Ctx) {
  // A call by name of a local lambda is a call of its body.
  if (isa<CXXOperatorCallExpr>(Call) && !calledLocalLambda(Call))
    return nullptr;
  const FunctionDecl *Callee = Call.getDirectCallee();
  const FunctionDecl *FD = Callee ? Callee->getDefinition() : nullptr;
  if (!FD || Call.getNumArgs() != FD->getNumParams() + parameterOffset(Call))
    return nullptr;
  auto [It, New] = Cache.try_emplace(FD);
  if (New) {
    ++Evaluated;
    std::unique_ptr<DLPackHelperSummary> S = summarize(*FD, Ctx, Bounds);
    Cache[FD] = std::move(S);
  }
  return Cache[FD].get();
}

} // namespace clang::interop
