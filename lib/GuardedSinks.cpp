//===--- GuardedSinks.cpp - sinks a guard proves in the syntax ------------===//

#include "GuardedSinks.h"

#include "FlowAnalysis.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::interop {
namespace {

/// Bounds on the scan: deeper or larger bodies go to the flow analysis,
/// which has its own bounds.
constexpr unsigned MaxDepth = 256;
constexpr unsigned MaxNodes = 20000;
/// Nesting of !, &&, || and stored guards that implies() looks through.
constexpr unsigned MaxConditionDepth = 16;

/// Types whose facts the model tracks on the object itself: a mutation of
/// one of these can change what a guard proved.
bool isTrackedObject(const ApiModel &M, QualType T) {
  switch (M.classify(T)) {
  case TypeRole::Array:
  case TypeRole::Sharding:
  case TypeRole::Device:
  case TypeRole::Result:
    return true;
  default:
    return false;
  }
}

bool isNonConstReference(QualType T) {
  return T->isReferenceType() && !T.getNonReferenceType().isConstQualified();
}

bool isNonConstPointerTo(const ApiModel &M, QualType T) {
  return T->isPointerType() && !T->getPointeeType().isConstQualified() &&
         isTrackedObject(M, T->getPointeeType());
}

/// A temporary (nothing else can observe a change made through it).
bool isTemporary(const Expr *E) {
  E = E->IgnoreParens();
  return isa<MaterializeTemporaryExpr>(E) || E->isPRValue();
}

/// The variable an expression names, through a copy or move of it.
const VarDecl *namedVar(const Expr *E) {
  E = ignoreTemporaries(E);
  if (const auto *CCE = dyn_cast<CXXConstructExpr>(E))
    if (CCE->getConstructor()->isCopyOrMoveConstructor() &&
        CCE->getNumArgs() >= 1)
      E = ignoreTemporaries(CCE->getArg(0));
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  if (!DRE || DRE->refersToEnclosingVariableOrCapture())
    return nullptr;
  return dyn_cast<VarDecl>(DRE->getDecl());
}

/// A statement after which control never reaches the next one.
bool neverFallsThrough(const Stmt *S) {
  if (const auto *E = dyn_cast_or_null<Expr>(S))
    S = ignoreTemporaries(E);
  if (isJump(S))
    return true;
  // Every normal completion of a block runs each of its statements (case
  // labels are only allowed directly in a switch body, see Scanner).
  if (const auto *CS = dyn_cast_or_null<CompoundStmt>(S))
    for (const Stmt *Child : CS->body())
      if (neverFallsThrough(Child))
        return true;
  return false;
}

using Chain = llvm::SmallVector<const Stmt *, 16>;

/// A sink call and the statements enclosing it, outermost first.
struct FoundSink {
  const CallExpr *Call;
  SinkKind Kind;
  Chain Above;
};

/// One walk over the body: collects the sinks and refuses the function at
/// the first construct that could invalidate a guard behind the syntax's
/// back (a mutation of a tracked object, a goto, a case label inside a
/// nested statement).
class Scanner {
public:
  Scanner(const ApiModel &M) : M(M) {}

  void walk(const Stmt *S) {
    if (Refused || !S)
      return;
    if (++Nodes > MaxNodes || Stack.size() > MaxDepth) {
      Refused = true;
      return;
    }
    if (const auto *L = dyn_cast<LambdaExpr>(S)) {
      lambda(*L);
      return;
    }
    inspect(S);
    Stack.push_back(S);
    for (const Stmt *Child : S->children())
      walk(Child);
    Stack.pop_back();
  }

  bool Refused = false;
  llvm::SmallVector<FoundSink, 4> Sinks;
  /// Variables assigned, incremented, bound to a non-const reference, whose
  /// address is taken or that a lambda captures by reference.
  llvm::DenseSet<const VarDecl *> Written;

private:
  /// A write to (or an escape of) the object E denotes.
  void mutates(const Expr *E) {
    if (const VarDecl *V = namedVar(E))
      Written.insert(V);
    if (isTrackedObject(M, E->getType()))
      Refused = true;
  }

  /// Arguments bound to non-const references or pointers may be changed by
  /// the callee.
  void bindsArguments(llvm::ArrayRef<const Expr *> Args,
                      llvm::function_ref<QualType(unsigned)> ParamType) {
    for (unsigned I = 0; I < Args.size(); ++I) {
      QualType PT = ParamType(I);
      if (isNonConstReference(PT) && !isTemporary(Args[I]))
        mutates(Args[I]);
      if (isNonConstPointerTo(M, PT) ||
          isNonConstPointerTo(M, Args[I]->getType()))
        Refused = true;
    }
  }

  void call(const CallExpr &CE) {
    if (std::optional<SinkKind> K = sinkKindOf(M, CE.getDirectCallee()))
      Sinks.push_back({&CE, *K, Stack});
    const Expr *Receiver = receiverOf(CE);
    if (const auto *OCE = dyn_cast<CXXOperatorCallExpr>(&CE);
        OCE && OCE->isAssignmentOp() && OCE->getNumArgs() > 0) {
      mutates(OCE->getArg(0));
    } else if (isNonConstMemberCall(CE)) {
      // The model forgets an array's, sharding's or device's facts at a
      // non-const call; on a Result only value(), * and -> leave them.
      // Ranges (containers, iterators) may change freely: their elements
      // are not subjects here.
      switch (M.classifyPointee(Receiver->getType())) {
      case TypeRole::Array:
      case TypeRole::Sharding:
      case TypeRole::Device:
        Refused = true;
        break;
      case TypeRole::Result:
        if (!isResultUnwrap(M, CE))
          Refused = true;
        break;
      default:
        if (const VarDecl *V = namedVar(Receiver))
          Written.insert(V);
        break;
      }
    }
    unsigned First = isa<CXXOperatorCallExpr>(CE) && Receiver ? 1 : 0;
    llvm::SmallVector<const Expr *, 4> Args(CE.arguments());
    bindsArguments(llvm::ArrayRef(Args).drop_front(First),
                   [&](unsigned I) { return paramType(CE, I + First); });
  }

  void inspect(const Stmt *S) {
    if (isa<GotoStmt, IndirectGotoStmt, AsmStmt, CoroutineBodyStmt, SEHTryStmt,
            SEHLeaveStmt, BlockExpr>(S)) {
      Refused = true;
    } else if (isa<SwitchCase>(S)) {
      caseLabel();
    } else if (const auto *CE = dyn_cast<CallExpr>(S)) {
      call(*CE);
    } else if (const auto *CCE = dyn_cast<CXXConstructExpr>(S)) {
      const CXXConstructorDecl *Ctor = CCE->getConstructor();
      llvm::SmallVector<const Expr *, 4> Args(CCE->arguments());
      bindsArguments(Args, [&](unsigned I) {
        return I < Ctor->getNumParams() ? Ctor->getParamDecl(I)->getType()
                                        : Args[I]->getType();
      });
    } else if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
      if (BO->isAssignmentOp())
        mutates(BO->getLHS());
    } else if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
      if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf)
        mutates(UO->getSubExpr());
    } else if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D))
          if (isNonConstReference(VD->getType()) && VD->getInit() &&
              !isTemporary(VD->getInit()))
            mutates(VD->getInit());
    }
  }

  /// Case labels only directly in the body of their switch, so that "the
  /// statements before this one in the block" is all that can run before it
  /// once the block is entered.
  void caseLabel() {
    size_t I = Stack.size();
    while (I > 0 && isa<SwitchCase>(Stack[I - 1]))
      --I;
    const auto *Switch = I >= 2 ? dyn_cast<SwitchStmt>(Stack[I - 2]) : nullptr;
    if (!Switch || Switch->getBody() != Stack[I - 1])
      Refused = true;
  }

  /// A lambda's body is a function of its own; what matters here is what
  /// it captures by reference (it may change it when called).
  void lambda(const LambdaExpr &L) {
    for (const LambdaCapture &C : L.captures()) {
      if (!C.capturesVariable() || C.getCaptureKind() != LCK_ByRef)
        continue;
      const auto *V = dyn_cast<VarDecl>(C.getCapturedVar());
      if (!V || V->isInitCapture() || isTrackedObject(M, V->getType()))
        Refused = true;
      else
        Written.insert(V);
    }
    Stack.push_back(&L);
    for (const Expr *Init : L.capture_inits())
      walk(Init);
    Stack.pop_back();
  }

  const ApiModel &M;
  Chain Stack;
  unsigned Nodes = 0;
};

/// The facts this pass can prove.
enum class Fact { SingleDevice, Addressable, PinnedHost };

/// Proves one sink's fact from the syntax around it.
class GuardProver {
public:
  GuardProver(const ApiModel &M, const FunctionDecl &FD,
              const llvm::DenseSet<const VarDecl *> &Written)
      : M(M), FD(FD), Written(Written) {}

  /// True when `Want` holds for `Subject` at the call on every path.
  bool proves(const Expr *Subject, const FoundSink &Sink, Fact Want) {
    this->Want = Want;
    if (Want != Fact::PinnedHost && establishes(Subject, 0))
      return true;
    V = trackedLocal(namedVar(Subject));
    if (!V)
      return false;
    Chain Path = Sink.Above;
    Path.push_back(Sink.Call);
    for (size_t I = Path.size() - 1; I > 0; --I)
      if (guardsChild(Path[I - 1], Path[I]))
        return true;
    return false;
  }

private:
  /// A parameter or local of this function whose guard stays valid: the
  /// scan refused any function that changes a tracked object.
  const VarDecl *trackedLocal(const VarDecl *D) const {
    if (!D || !D->hasLocalStorage() || D->getParentFunctionOrMethod() != &FD)
      return nullptr;
    return D;
  }

  /// Whether E's value has the fact by construction: the result of a
  /// single-device producer (gather(...), *gather(...), a local initialised
  /// from one) or a device from an addressable source (local_devices()[i]).
  bool establishes(const Expr *E, unsigned Depth) {
    if (Depth > MaxConditionDepth)
      return false;
    E = ignoreTemporaries(E);
    if (const auto *CE = dyn_cast<CallExpr>(E)) {
      FnRoles R = M.classify(CE->getDirectCallee());
      if (Want == Fact::SingleDevice && R.has(FnRole::SingleDeviceProducer))
        return true;
      if (Want == Fact::Addressable && R.has(FnRole::AddressableDeviceSource))
        return true;
      const Expr *Receiver = receiverOf(*CE);
      if (Receiver && isResultUnwrap(M, *CE))
        return establishes(Receiver, Depth + 1);
      // An element of local_devices(): every element is addressable.
      if (Receiver && Want == Fact::Addressable && isElementAccess(*CE))
        if (const auto *Src = dyn_cast<CallExpr>(ignoreTemporaries(Receiver)))
          return M.classify(Src->getDirectCallee())
              .has(FnRole::AddressableDeviceSource);
      return false;
    }
    // A local initialised from such a value (never written: only tracked
    // objects qualify, and the scan refused any change to one).
    if (const VarDecl *D = trackedLocal(namedVar(E)))
      if (!isa<ParmVarDecl>(D) && D->getInit() &&
          isTrackedObject(M, D->getType()))
        return establishes(D->getInit(), Depth + 1);
    return false;
  }

  static bool isElementAccess(const CallExpr &CE) {
    if (const auto *OCE = dyn_cast<CXXOperatorCallExpr>(&CE))
      return OCE->getOperator() == OO_Subscript;
    const auto *MD = dyn_cast_or_null<CXXMethodDecl>(CE.getDirectCallee());
    if (!MD || !MD->getDeclName().isIdentifier())
      return false;
    llvm::StringRef N = MD->getName();
    return N == "at" || N == "front" || N == "back";
  }

  /// Whether entering `Child` from `Parent` proves the guard on V.
  bool guardsChild(const Stmt *Parent, const Stmt *Child) {
    if (const auto *If = dyn_cast<IfStmt>(Parent)) {
      if (!If->getCond() || Child == If->getCond())
        return false;
      if (Child == If->getThen())
        return implies(If->getCond(), true, 0);
      return Child == If->getElse() && implies(If->getCond(), false, 0);
    }
    if (const auto *CO = dyn_cast<ConditionalOperator>(Parent)) {
      if (Child == CO->getTrueExpr())
        return implies(CO->getCond(), true, 0);
      return Child == CO->getFalseExpr() && implies(CO->getCond(), false, 0);
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(Parent)) {
      if (Child != BO->getRHS())
        return false;
      if (BO->getOpcode() == BO_LAnd)
        return implies(BO->getLHS(), true, 0);
      if (BO->getOpcode() == BO_LOr)
        return implies(BO->getLHS(), false, 0);
      return false;
    }
    if (const auto *W = dyn_cast<WhileStmt>(Parent))
      return Child == W->getBody() && implies(W->getCond(), true, 0);
    if (const auto *F = dyn_cast<ForStmt>(Parent))
      return Child == F->getBody() && F->getCond() &&
             implies(F->getCond(), true, 0);
    if (const auto *CS = dyn_cast<CompoundStmt>(Parent)) {
      // A case label lets control in past the statements before it.
      if (isa<SwitchCase>(Child))
        return false;
      for (auto It = CS->body_rbegin(); It != CS->body_rend(); ++It) {
        if (*It != Child)
          continue;
        for (++It; It != CS->body_rend(); ++It) {
          if (isa<SwitchCase>(*It))
            return false;
          if (guardsAfter(*It))
            return true;
        }
        return false;
      }
    }
    return false;
  }

  /// Whether every normal completion of S proves the guard on V:
  /// `if (!guard) return;`, `if (guard) {} else throw ...;`, assert(guard).
  bool guardsAfter(const Stmt *S) {
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      if (!If->getCond())
        return false;
      if (neverFallsThrough(If->getThen()) && implies(If->getCond(), false, 0))
        return true;
      return If->getElse() && neverFallsThrough(If->getElse()) &&
             implies(If->getCond(), true, 0);
    }
    // assert(e): `e ? void(0) : __assert_fail(...)`.
    if (const auto *E = dyn_cast<Expr>(S)) {
      const Expr *Inner = ignoreTemporaries(E);
      if (const auto *Cast = dyn_cast<ExplicitCastExpr>(Inner))
        Inner = ignoreTemporaries(Cast->getSubExpr());
      if (const auto *CO = dyn_cast<ConditionalOperator>(Inner)) {
        if (neverFallsThrough(CO->getFalseExpr()) &&
            implies(CO->getCond(), true, 0))
          return true;
        return neverFallsThrough(CO->getTrueExpr()) &&
               implies(CO->getCond(), false, 0);
      }
    }
    return false;
  }

  /// Whether the condition C evaluating to `Value` proves the guard on V.
  bool implies(const Expr *C, bool Value, unsigned Depth) {
    if (!C || Depth > MaxConditionDepth)
      return false;
    C = ignoreTemporaries(C);
    if (const auto *Cast = dyn_cast<ExplicitCastExpr>(C))
      if (Cast->getType()->isBooleanType())
        return implies(Cast->getSubExpr(), Value, Depth + 1);
    if (const auto *UO = dyn_cast<UnaryOperator>(C))
      return UO->getOpcode() == UO_LNot &&
             implies(UO->getSubExpr(), !Value, Depth + 1);
    if (const auto *BO = dyn_cast<BinaryOperator>(C)) {
      if (BO->getOpcode() == BO_EQ || BO->getOpcode() == BO_NE)
        return Value == (BO->getOpcode() == BO_EQ) && isPinnedTest(*BO);
      bool And = BO->getOpcode() == BO_LAnd;
      if (!And && BO->getOpcode() != BO_LOr)
        return false;
      bool L = implies(BO->getLHS(), Value, Depth + 1);
      bool R = implies(BO->getRHS(), Value, Depth + 1);
      // Both operands are known when `&&` is true or `||` is false; only
      // one of them is otherwise.
      return And == Value ? L || R : L && R;
    }
    if (const auto *CE = dyn_cast<CallExpr>(C))
      return Value && isGuardOnV(*CE);
    // A guard stored in a local bool that nothing writes afterwards.
    if (const VarDecl *B = trackedLocal(namedVar(C)))
      if (!isa<ParmVarDecl>(B) && B->getType()->isBooleanType() &&
          B->getInit() && !Written.count(B))
        return implies(B->getInit(), Value, Depth + 1);
    return false;
  }

  /// `v.memory_kind() == MemoryKind::kPinnedHost` (either way round, or
  /// through the sharding) when the fact wanted is the memory kind.
  bool isPinnedTest(const BinaryOperator &BO) {
    if (Want != Fact::PinnedHost)
      return false;
    for (auto [Call, Kind] : {std::pair(BO.getLHS(), BO.getRHS()),
                              std::pair(BO.getRHS(), BO.getLHS())}) {
      const EnumConstantDecl *E = enumerator(Kind);
      const auto *CE = dyn_cast<CallExpr>(ignoreTemporaries(Call));
      if (E && CE && M.isPinnedHostMemoryKind(E) &&
          isCallOnV(*CE, FnRole::MemoryKindOf))
        return true;
    }
    return false;
  }

  /// `v.is_single_device()`, `v.sharding().is_single_device()`,
  /// `v.is_addressable()`, or a free predicate taking v.
  bool isGuardOnV(const CallExpr &CE) {
    return Want != Fact::PinnedHost &&
           isCallOnV(CE, Want == Fact::Addressable
                             ? FnRole::AddressablePredicate
                             : FnRole::SingleDevicePredicate);
  }

  /// A call of a function in `Role` on V: a member call on V or on V's
  /// sharding, or a free function taking V.
  bool isCallOnV(const CallExpr &CE, FnRole Role) {
    if (!M.classify(CE.getDirectCallee()).has(Role))
      return false;
    const Expr *Subject = receiverOf(CE);
    if (!Subject) {
      TypeRole Of =
          Want == Fact::Addressable ? TypeRole::Device : TypeRole::Array;
      for (unsigned I = 0; I < CE.getNumArgs() && !Subject; ++I)
        if (M.classifyPointee(paramType(CE, I)) == Of)
          Subject = CE.getArg(I);
    }
    if (!Subject)
      return false;
    if (namedVar(Subject) == V)
      return true;
    // The sharding shares the array's facts.
    if (const auto *Of = dyn_cast<CallExpr>(ignoreTemporaries(Subject)))
      if (M.classify(Of->getDirectCallee()).has(FnRole::ShardingOf))
        if (const Expr *R = receiverOf(*Of))
          return namedVar(R) == V;
    return false;
  }

  const ApiModel &M;
  const FunctionDecl &FD;
  const llvm::DenseSet<const VarDecl *> &Written;
  Fact Want = Fact::SingleDevice;
  const VarDecl *V = nullptr;
};

} // namespace

std::optional<llvm::SmallVector<SinkFact>>
proveGuardedSinks(const ApiModel &Model, const FunctionDecl &FD,
                  unsigned Facts) {
  if (!FD.getBody())
    return std::nullopt;
  Scanner Scan(Model);
  Scan.walk(FD.getBody());
  if (Scan.Refused)
    return std::nullopt;
  GuardProver Prover(Model, FD, Scan.Written);
  llvm::SmallVector<SinkFact> Out;
  for (const FoundSink &S : Scan.Sinks) {
    SinkFact F;
    F.Kind = S.Kind;
    F.Call = S.Call;
    F.Subject = sinkSubject(Model, *S.Call, S.Kind);
    // What the flow analysis would track for this sink: addressability for
    // an import; single-device for an export or buffer pointer; for an
    // export the memory kind too where TPU facts are tracked (a proven
    // pinned host memory keeps the TPU check silent whatever the platform,
    // which this pass leaves unknown).
    bool Import = S.Kind == SinkKind::Import;
    bool Addressable = Import && (Facts & AddressableFacts);
    bool Single = !Import && (Facts & SingleDeviceFacts);
    bool Pinned = S.Kind == SinkKind::Export && (Facts & TpuMemoryFacts);
    // Like the flow analysis: a sink without a subject, or of a family no
    // enabled check tracks, is not modelled (and judged by no check).
    if (!F.Subject || !(Addressable || Single || Pinned)) {
      Out.push_back(F);
      continue;
    }
    if ((Addressable && !Prover.proves(F.Subject, S, Fact::Addressable)) ||
        (Single && !Prover.proves(F.Subject, S, Fact::SingleDevice)) ||
        (Pinned && !Prover.proves(F.Subject, S, Fact::PinnedHost)))
      return std::nullopt;
    F.Modelled = true;
    if (Addressable)
      F.Addressable = Proof::Holds;
    if (Single)
      F.SingleDevice = Proof::Holds;
    if (Pinned)
      F.PinnedHost = Proof::Holds;
    Out.push_back(F);
  }
  return Out;
}

} // namespace clang::interop
