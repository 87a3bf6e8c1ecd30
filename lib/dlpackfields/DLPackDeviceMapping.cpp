//===--- DLPackDeviceMapping.cpp - device-type maps that never fail -------===//

#include "lib/dlpackfields/DLPackDeviceMapping.h"

#include "lib/abi/DLPackFields.h"
#include "lib/support/AstHelpers.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/FoldingSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Regex.h"

namespace clang::interop {

namespace {

/// Names that say "this reports a failure".
bool isErrorName(llvm::StringRef Name) {
  static const llvm::Regex Re(
      "[Ee]rror|ERROR|[Ff]ail|FAIL|[Tt]hrow|THROW|[Aa]bort|ABORT|"
      "[Ii]nvalid|INVALID|[Uu]nsupported|UNSUPPORTED|[Uu]nimplemented|"
      "UNIMPLEMENTED|[Uu]nknown|UNKNOWN|[Uu]nexpected|UNEXPECTED|FATAL|"
      "[Rr]aise|PyErr_|[Pp]anic|[Ss]tatus");
  return Re.match(Name);
}

const NamedDecl *calleeOrType(const Expr *E) {
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return dyn_cast_or_null<NamedDecl>(Call->getCalleeDecl());
  if (const auto *Ctor = dyn_cast<CXXConstructExpr>(E))
    return Ctor->getConstructor()->getParent();
  if (const auto *Temp = dyn_cast<CXXFunctionalCastExpr>(E))
    return Temp->getType()->getAsRecordDecl();
  return nullptr;
}

/// True when S (an arm's statement) reports failure: a throw, a noreturn
/// call, a fatal logger (LOG(FATAL)), a call named like an error reporter,
/// or a return of an error signal.
class FailureFinder : public RecursiveASTVisitor<FailureFinder> {
public:
  explicit FailureFinder(ASTContext &Ctx) : Ctx(Ctx) {}
  bool Found = false;
  bool VisitCXXThrowExpr(CXXThrowExpr *) {
    Found = true;
    return false;
  }
  bool VisitCallExpr(CallExpr *Call) {
    if (const FunctionDecl *FD = Call->getDirectCallee())
      if (FD->isNoReturn() ||
          (FD->getIdentifier() && isErrorName(FD->getName())))
        Found = true;
    return !Found;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    if (constructionEndsPath(*E))
      Found = true;
    return !Found;
  }
  bool VisitReturnStmt(ReturnStmt *R) {
    if (R->getRetValue() && isErrorSignal(R->getRetValue(), Ctx))
      Found = true;
    return !Found;
  }

private:
  ASTContext &Ctx;
};

bool reportsFailure(llvm::ArrayRef<const Stmt *> Stmts, ASTContext &Ctx) {
  FailureFinder F(Ctx);
  for (const Stmt *S : Stmts) {
    F.TraverseStmt(const_cast<Stmt *>(S));
    if (F.Found)
      return true;
  }
  return false;
}

/// One arm of a switch: its labels and its statements.
struct Arm {
  llvm::SmallVector<const SwitchCase *, 2> Labels;
  llvm::SmallVector<const Stmt *, 4> Body;
  bool isDefault() const {
    return llvm::any_of(
        Labels, [](const SwitchCase *L) { return isa<DefaultStmt>(L); });
  }
  bool hasCase() const {
    return llvm::any_of(Labels,
                        [](const SwitchCase *L) { return isa<CaseStmt>(L); });
  }
  bool fallsThrough() const { return Body.empty() || !isJump(Body.back()); }
};

std::vector<Arm> armsOf(const SwitchStmt *SW) {
  std::vector<Arm> Arms;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(SW->getBody());
  if (!Body)
    return Arms;
  for (const Stmt *S : Body->body()) {
    if (const auto *L = dyn_cast<SwitchCase>(S)) {
      Arm A;
      const Stmt *Sub = L;
      while (const auto *Lab = dyn_cast_or_null<SwitchCase>(Sub)) {
        A.Labels.push_back(Lab);
        Sub = Lab->getSubStmt();
      }
      if (Sub)
        A.Body.push_back(Sub);
      Arms.push_back(std::move(A));
      continue;
    }
    if (!Arms.empty())
      Arms.back().Body.push_back(S);
  }
  return Arms;
}

/// The expressions an arm produces: returned values and (var, value)
/// assignments.
struct Results {
  llvm::SmallVector<const Expr *, 2> Returns;
  llvm::SmallVector<std::pair<const ValueDecl *, const Expr *>, 2> Assigns;
};

void collectResults(const Stmt *S, Results &R) {
  if (!S)
    return;
  if (const auto *Ret = dyn_cast<ReturnStmt>(S)) {
    if (Ret->getRetValue())
      R.Returns.push_back(Ret->getRetValue());
    return;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (BO->getOpcode() == BO_Assign)
      if (const auto *DRE =
              dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
        R.Assigns.push_back({DRE->getDecl(), BO->getRHS()});
    return;
  }
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S)) {
    if (Op->getOperator() == OO_Equal && Op->getNumArgs() == 2)
      if (const auto *DRE =
              dyn_cast<DeclRefExpr>(Op->getArg(0)->IgnoreParenImpCasts()))
        R.Assigns.push_back({DRE->getDecl(), Op->getArg(1)});
    return;
  }
  for (const Stmt *C : S->children())
    if (C && !isa<SwitchStmt>(C))
      collectResults(C, R);
}

Results resultsOf(llvm::ArrayRef<const Stmt *> Stmts) {
  Results R;
  for (const Stmt *S : Stmts)
    collectResults(S, R);
  return R;
}

bool sameValue(const Expr *A, const Expr *B, ASTContext &Ctx) {
  A = A->IgnoreParenImpCasts();
  B = B->IgnoreParenImpCasts();
  if (!A->isValueDependent() && !B->isValueDependent()) {
    Expr::EvalResult RA, RB;
    if (A->getType()->isIntegralOrEnumerationType() &&
        B->getType()->isIntegralOrEnumerationType() &&
        A->EvaluateAsInt(RA, Ctx) && B->EvaluateAsInt(RB, Ctx))
      return llvm::APSInt::isSameValue(RA.Val.getInt(), RB.Val.getInt());
  }
  if (const auto *SA = dyn_cast<StringLiteral>(A))
    if (const auto *SB = dyn_cast<StringLiteral>(B))
      return SA->getBytes() == SB->getBytes();
  llvm::FoldingSetNodeID IA, IB;
  A->Profile(IA, Ctx, /*Canonical=*/true);
  B->Profile(IB, Ctx, /*Canonical=*/true);
  return IA == IB;
}

/// The enumerator E produces, through implicit conversions and the
/// converting constructor of a result type (`return Platform::kCpu;` from a
/// function returning Result<Platform>).
const EnumConstantDecl *producedEnumerator(const Expr *E) {
  for (unsigned Depth = 0; E && Depth < 4; ++Depth) {
    E = E->IgnoreImplicit();
    const auto *CE = dyn_cast<CXXConstructExpr>(E);
    if (!CE || isa<CXXTemporaryObjectExpr>(CE) || CE->getNumArgs() == 0)
      break;
    E = CE->getArg(0);
  }
  return enumerator(E);
}

/// The first result of R that is an enumerator of a listed platform
/// enumeration.
const Expr *platformResult(const Results &R, const NameList &Enums) {
  auto IsPlatform = [&](const Expr *E) {
    const EnumConstantDecl *ECD = producedEnumerator(E);
    return ECD && Enums.matches(cast<EnumDecl>(ECD->getDeclContext()));
  };
  for (const Expr *E : R.Returns)
    if (IsPlatform(E))
      return E;
  for (auto [V, E] : R.Assigns)
    if (IsPlatform(E))
      return E;
  return nullptr;
}

void checkSwitch(const SwitchStmt *SW, ASTContext &Ctx,
                 const NameList *PlatformEnums,
                 std::vector<SilentDeviceMapping> &Out) {
  std::vector<Arm> Arms = armsOf(SW);
  for (size_t I = 0; I < Arms.size(); ++I) {
    if (!Arms[I].isDefault())
      continue;
    const SwitchCase *Default = nullptr;
    for (const SwitchCase *L : Arms[I].Labels)
      if (isa<DefaultStmt>(L))
        Default = L;
    // Grouped with a case label: `case kDLCPU: default:` runs the CPU code
    // for unknown types; `case kDLVulkan: default: throw ...` fails them
    // all.
    if (Arms[I].hasCase()) {
      if (reportsFailure(Arms[I].Body, Ctx))
        continue;
      for (const SwitchCase *L : Arms[I].Labels)
        if (isa<CaseStmt>(L)) {
          Out.push_back({SilentDeviceMapping::DefaultSharesCase, Default, L});
          break;
        }
      continue;
    }
    // Follow the fallthrough chain from the default arm: reaching a case
    // arm before any failure means unknown types run that case's code.
    llvm::SmallVector<const Stmt *, 8> Chain(Arms[I].Body.begin(),
                                             Arms[I].Body.end());
    bool Shares = false;
    for (size_t J = I; Arms[J].fallsThrough() && J + 1 < Arms.size();) {
      if (reportsFailure(Chain, Ctx))
        break;
      ++J;
      if (Arms[J].hasCase()) {
        Out.push_back({SilentDeviceMapping::DefaultSharesCase, Default,
                       Arms[J].Labels.front()});
        Shares = true;
        break;
      }
      Chain.append(Arms[J].Body.begin(), Arms[J].Body.end());
    }
    if (Shares || reportsFailure(Chain, Ctx))
      continue;
    Results DefaultResults = resultsOf(Chain);
    bool Reported = false;
    for (size_t K = 0; K < Arms.size() && !Reported; ++K) {
      if (K == I || !Arms[K].hasCase())
        continue;
      Results CaseResults = resultsOf(Arms[K].Body);
      for (const Expr *D : DefaultResults.Returns)
        for (const Expr *C : CaseResults.Returns)
          if (!Reported && !isErrorSignal(D, Ctx) && sameValue(D, C, Ctx)) {
            Out.push_back({SilentDeviceMapping::DefaultRepeatsCase, Default,
                           Arms[K].Labels.front()});
            Reported = true;
          }
      for (auto [DV, D] : DefaultResults.Assigns)
        for (auto [CV, C] : CaseResults.Assigns)
          if (!Reported && DV == CV && !isErrorSignal(D, Ctx) &&
              sameValue(D, C, Ctx)) {
            Out.push_back({SilentDeviceMapping::DefaultRepeatsCase, Default,
                           Arms[K].Labels.front()});
            Reported = true;
          }
    }
    // `default: return Platform::kCpu;`: a real platform whether or not a
    // case maps to it.
    if (!Reported && PlatformEnums)
      if (const Expr *P = platformResult(DefaultResults, *PlatformEnums)) {
        Out.push_back({SilentDeviceMapping::DefaultIsPlatform, Default, P});
        Reported = true;
      }
    if (Reported || !DefaultResults.Returns.empty() ||
        !DefaultResults.Assigns.empty())
      continue;
    // `default: break;` leaving a variable at an initial value that is also
    // one of the mapped platforms.
    for (size_t K = 0; K < Arms.size() && !Reported; ++K) {
      if (K == I || !Arms[K].hasCase())
        continue;
      Results CaseResults = resultsOf(Arms[K].Body);
      for (auto [V, C] : CaseResults.Assigns) {
        const auto *VD = dyn_cast<VarDecl>(V);
        if (!VD || !VD->hasLocalStorage() || !VD->getInit() ||
            isErrorSignal(VD->getInit(), Ctx))
          continue;
        if (sameValue(VD->getInit(), C, Ctx)) {
          Out.push_back({SilentDeviceMapping::DefaultKeepsInitialValue, Default,
                         VD->getInit()});
          Reported = true;
          break;
        }
      }
    }
  }
}

/// `M.find(K)` (or a variable initialised from one) with a device-type key:
/// the map expression.
const Expr *findCallMap(const Expr *E) {
  E = E ? E->IgnoreParenImpCasts() : nullptr;
  if (!E)
    return nullptr;
  if (const auto *Ctor = dyn_cast<CXXConstructExpr>(E))
    if (Ctor->getNumArgs() == 1)
      return findCallMap(Ctor->getArg(0));
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (VD->hasLocalStorage() && VD->getInit())
        return findCallMap(VD->getInit());
  const auto *MC = dyn_cast<CXXMemberCallExpr>(E);
  if (!MC || MC->getNumArgs() != 1 || !MC->getMethodDecl() ||
      !MC->getMethodDecl()->getIdentifier() ||
      MC->getMethodDecl()->getName() != "find")
    return nullptr;
  if (!readsDLPackDeviceType(MC->getArg(0)))
    return nullptr;
  return MC->getImplicitObjectArgument();
}

bool isEndCall(const Expr *E) {
  E = E ? E->IgnoreParenImpCasts() : nullptr;
  if (const auto *Ctor = dyn_cast_or_null<CXXConstructExpr>(E))
    if (Ctor->getNumArgs() == 1)
      return isEndCall(Ctor->getArg(0));
  const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(E);
  return MC && MC->getMethodDecl() && MC->getMethodDecl()->getIdentifier() &&
         (MC->getMethodDecl()->getName() == "end" ||
          MC->getMethodDecl()->getName() == "cend");
}

/// For `find(K) == end()` returns true and sets NotFoundWhenTrue; for `!=`
/// the opposite. Handles the overloaded operator spellings.
bool isFindEndComparison(const Expr *Cond, bool &NotFoundWhenTrue) {
  Cond = Cond ? Cond->IgnoreParenImpCasts() : nullptr;
  const Expr *L = nullptr, *R = nullptr;
  bool IsEq = false;
  if (const auto *Op = dyn_cast_or_null<CXXOperatorCallExpr>(Cond)) {
    if (Op->getNumArgs() != 2)
      return false;
    if (Op->getOperator() == OO_EqualEqual)
      IsEq = true;
    else if (Op->getOperator() != OO_ExclaimEqual)
      return false;
    L = Op->getArg(0);
    R = Op->getArg(1);
  } else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(Cond)) {
    if (BO->getOpcode() == BO_EQ)
      IsEq = true;
    else if (BO->getOpcode() != BO_NE)
      return false;
    L = BO->getLHS();
    R = BO->getRHS();
  } else {
    return false;
  }
  if (!((findCallMap(L) && isEndCall(R)) || (findCallMap(R) && isEndCall(L))))
    return false;
  NotFoundWhenTrue = IsEq;
  return true;
}

const ValueDecl *rootDecl(const Expr *E) {
  E = E ? E->IgnoreParenImpCasts() : nullptr;
  if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E))
    return DRE->getDecl();
  if (const auto *ME = dyn_cast_or_null<MemberExpr>(E))
    return ME->getMemberDecl();
  return nullptr;
}

bool isMapLike(QualType T) {
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  if (!RD || !RD->getIdentifier())
    return false;
  return RD->getName().contains_insensitive("map");
}

class TableFinder : public RecursiveASTVisitor<TableFinder> {
public:
  TableFinder(ASTContext &Ctx, const NameList *PlatformEnums,
              std::vector<SilentDeviceMapping> &Out)
      : Ctx(Ctx), PlatformEnums(PlatformEnums), Out(Out) {}

  bool VisitSwitchStmt(SwitchStmt *SW) {
    if (readsDLPackDeviceType(SW->getCond()))
      checkSwitch(SW, Ctx, PlatformEnums, Out);
    return true;
  }

  // Maps whose membership the function tests (find/count/contains/at):
  // their subscripts are guarded.
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *MC) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    if (!MD || !MD->getIdentifier())
      return true;
    llvm::StringRef N = MD->getName();
    const ValueDecl *Map = rootDecl(MC->getImplicitObjectArgument());
    if (N == "find" || N == "count" || N == "contains" || N == "at")
      Guarded.insert(Map);
    if (N == "lookup" && MC->getNumArgs() >= 1 &&
        readsDLPackDeviceType(MC->getArg(0)) &&
        isMapLike(MC->getImplicitObjectArgument()->getType()))
      Lookups.push_back({MC, Map});
    return true;
  }

  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Op) {
    if (Op->getOperator() == OO_Subscript && Op->getNumArgs() == 2 &&
        isMapLike(Op->getArg(0)->getType()) &&
        readsDLPackDeviceType(Op->getArg(1)))
      Subscripts.push_back({Op, rootDecl(Op->getArg(0))});
    return true;
  }

  bool VisitConditionalOperator(ConditionalOperator *CO) {
    bool NotFoundWhenTrue;
    if (!isFindEndComparison(CO->getCond(), NotFoundWhenTrue))
      return true;
    const Expr *Fallback =
        NotFoundWhenTrue ? CO->getTrueExpr() : CO->getFalseExpr();
    if (!isErrorSignal(Fallback, Ctx))
      Out.push_back({SilentDeviceMapping::TableFallback, Fallback, CO});
    return true;
  }

  bool VisitIfStmt(IfStmt *If) {
    bool NotFoundWhenTrue;
    if (!isFindEndComparison(If->getCond(), NotFoundWhenTrue))
      return true;
    const Stmt *Branch = NotFoundWhenTrue ? If->getThen() : If->getElse();
    if (!Branch)
      return true;
    const Stmt *Only = Branch;
    if (const auto *CS = dyn_cast<CompoundStmt>(Branch))
      Only = CS->size() == 1 ? CS->body_front() : nullptr;
    const auto *Ret = dyn_cast_or_null<ReturnStmt>(Only);
    if (Ret && Ret->getRetValue() && !isErrorSignal(Ret->getRetValue(), Ctx) &&
        !reportsFailure({Branch}, Ctx))
      Out.push_back({SilentDeviceMapping::TableFallback, Ret, If});
    return true;
  }

  void finish() {
    for (auto [Op, Map] : Subscripts)
      if (!Map || !Guarded.contains(Map))
        Out.push_back({SilentDeviceMapping::TableSubscript, Op, nullptr});
    for (auto [MC, Map] : Lookups)
      if (!Map || !Guarded.contains(Map))
        Out.push_back({SilentDeviceMapping::TableLookup, MC, nullptr});
  }

private:
  ASTContext &Ctx;
  const NameList *PlatformEnums;
  std::vector<SilentDeviceMapping> &Out;
  llvm::DenseSet<const ValueDecl *> Guarded;
  std::vector<std::pair<const Expr *, const ValueDecl *>> Subscripts;
  std::vector<std::pair<const Expr *, const ValueDecl *>> Lookups;
};

} // namespace

bool isErrorSignal(const Expr *E, ASTContext &Ctx) {
  if (!E)
    return true;
  E = ignoreTemporaries(E);
  if (isa<CXXThrowExpr>(E))
    return true;
  if (isNullConstant(E, Ctx))
    return true;
  if (const auto *B = dyn_cast<CXXBoolLiteralExpr>(E))
    return !B->getValue();
  if (const auto *Ctor = dyn_cast<CXXConstructExpr>(E))
    if (Ctor->getNumArgs() == 1)
      if (isErrorSignal(Ctor->getArg(0), Ctx))
        return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    // std::nullopt, kInvalid, kUnknownPlatform...
    if (DRE->getDecl()->getIdentifier() &&
        (DRE->getDecl()->getName() == "nullopt" ||
         isErrorName(DRE->getDecl()->getName())))
      return true;
  }
  if (const NamedDecl *ND = calleeOrType(E))
    if (ND->getIdentifier() && isErrorName(ND->getName()))
      return true;
  if (E->getType()->isIntegralOrEnumerationType())
    if (std::optional<llvm::APSInt> V = integerConstant(E, Ctx);
        V && V->isSigned() && V->isNegative())
      return true;
  return false;
}

std::vector<SilentDeviceMapping>
findSilentDeviceMappings(const FunctionDecl &FD, ASTContext &Ctx,
                         const NameList *PlatformEnums) {
  std::vector<SilentDeviceMapping> Out;
  if (!FD.hasBody())
    return Out;
  TableFinder F(Ctx, PlatformEnums, Out);
  F.TraverseStmt(FD.getBody());
  F.finish();
  return Out;
}

} // namespace clang::interop
