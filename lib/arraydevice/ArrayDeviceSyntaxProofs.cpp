//===--- ArrayDeviceSyntaxProofs.cpp - sinks a guard proves in the syntax -===//

#include "lib/arraydevice/ArrayDeviceSyntaxProofs.h"

#include "lib/engine/GuardEngine.h"
#include "lib/support/AstHelpers.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::interop {
namespace {

/// Nesting of producers and unwraps that establishes() looks through.
constexpr unsigned MaxEstablishDepth = 16;

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

bool isNonConstPointerTo(const ApiModel &M, QualType T) {
  return T->isPointerType() && !T->getPointeeType().isConstQualified() &&
         isTrackedObject(M, T->getPointeeType());
}

/// A sink call and the statements enclosing it, outermost first.
struct FoundSink {
  const CallExpr *Call;
  SinkKind Kind;
  StmtChain Above;
};

/// One walk over the body: collects the sinks and refuses the function at
/// the first construct that could invalidate a guard behind the syntax's
/// back (a mutation of a tracked object, besides what GuardScan refuses).
class Scanner : public GuardScan {
public:
  Scanner(const ApiModel &M) : M(M) {}

  llvm::SmallVector<FoundSink, 4> Sinks;

private:
  /// Any change to a tracked object can invalidate what a guard proved.
  void changes(const Expr &E, Change) override {
    if (isTrackedObject(M, E.getType()))
      Refused = true;
  }

  /// Arguments passed as non-const pointers to tracked objects may be
  /// changed by the callee (non-const references are changes already).
  void passesPointers(llvm::ArrayRef<const Expr *> Args,
                      llvm::function_ref<QualType(unsigned)> ParamType) {
    for (unsigned I = 0; I < Args.size(); ++I)
      if (isNonConstPointerTo(M, ParamType(I)) ||
          isNonConstPointerTo(M, Args[I]->getType()))
        Refused = true;
  }

  void call(const CallExpr &CE) {
    if (std::optional<SinkKind> K = sinkKindOf(M, CE.getDirectCallee()))
      Sinks.push_back({&CE, *K, Stack});
    const Expr *Receiver = receiverOf(CE);
    const auto *OCE = dyn_cast<CXXOperatorCallExpr>(&CE);
    if (!(OCE && OCE->isAssignmentOp()) && isNonConstMemberCall(CE)) {
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
    unsigned First = OCE && Receiver ? 1 : 0;
    llvm::SmallVector<const Expr *, 4> Args(CE.arguments());
    passesPointers(llvm::ArrayRef(Args).drop_front(First),
                   [&](unsigned I) { return paramType(CE, I + First); });
  }

  void inspect(const Stmt *S) override {
    if (const auto *CE = dyn_cast<CallExpr>(S)) {
      call(*CE);
    } else if (const auto *CCE = dyn_cast<CXXConstructExpr>(S)) {
      const CXXConstructorDecl *Ctor = CCE->getConstructor();
      llvm::SmallVector<const Expr *, 4> Args(CCE->arguments());
      passesPointers(Args, [&](unsigned I) {
        return I < Ctor->getNumParams() ? Ctor->getParamDecl(I)->getType()
                                        : Args[I]->getType();
      });
    }
  }

  /// A lambda may change what it captures by reference whenever it is
  /// called: a tracked object captured so refuses the function.
  bool capturedByRef(const VarDecl &V) override {
    return !isTrackedObject(M, V.getType());
  }

  const ApiModel &M;
};

/// The facts this pass can prove.
enum class Fact { SingleDevice, Addressable, PinnedHost };

/// Proves one sink's fact from the syntax around it.
class GuardProver {
public:
  GuardProver(const ApiModel &M, const FunctionDecl &FD,
              const llvm::DenseSet<const VarDecl *> &Written)
      : M(M), Ctx(FD.getASTContext()), Guards(FD, Written) {}

  /// True when `Want` holds for `Subject` at the call on every path.
  bool proves(const Expr *Subject, const FoundSink &Sink, Fact Want) {
    this->Want = Want;
    if (Want != Fact::PinnedHost && establishes(Subject, 0))
      return true;
    // A parameter or local of this function: its guard stays valid, as the
    // scan refused any function that changes a tracked object.
    V = Guards.localOf(namedVar(Subject));
    if (!V)
      return false;
    return Guards.guarded(
        Sink.Above, Sink.Call,
        [this](const Expr *C, bool Value) { return isGuard(C, Value); });
  }

private:
  /// Whether E's value has the fact by construction: the result of a
  /// single-device producer (gather(...), *gather(...), a local initialised
  /// from one) or a device from an addressable source (local_devices()[i]).
  bool establishes(const Expr *E, unsigned Depth) {
    if (Depth > MaxEstablishDepth)
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
    if (const VarDecl *D = Guards.localOf(namedVar(E)))
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

  /// What the atomic condition C evaluating to Value proves: `==`/`!=`
  /// against the pinned host memory kind, or a guard call on V when true.
  bool isGuard(const Expr *C, bool Value) {
    if (const auto *BO = dyn_cast<BinaryOperator>(C))
      return (BO->getOpcode() == BO_EQ || BO->getOpcode() == BO_NE) &&
             Value == (BO->getOpcode() == BO_EQ) &&
             (isPinnedTest(*BO) || isCountOfOne(*BO));
    if (const auto *CE = dyn_cast<CallExpr>(C))
      return Value && isGuardOnV(*CE);
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

  /// `v.num_devices() == 1` (either way round, or through the sharding)
  /// when the fact wanted is a single device: the count the flow analysis
  /// links to it (ArrayDeviceState.h, kCountIsOne), spelt another way.
  bool isCountOfOne(const BinaryOperator &BO) {
    if (Want != Fact::SingleDevice)
      return false;
    for (auto [Call, Count] : {std::pair(BO.getLHS(), BO.getRHS()),
                               std::pair(BO.getRHS(), BO.getLHS())}) {
      const auto *CE = dyn_cast<CallExpr>(ignoreTemporaries(Call));
      std::optional<llvm::APSInt> K =
          CE ? integerConstant(Count, Ctx) : std::nullopt;
      if (K && *K == 1 && isCallOnV(*CE, FnRole::DeviceCount))
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
  const ASTContext &Ctx;
  GuardProof Guards;
  Fact Want = Fact::SingleDevice;
  const VarDecl *V = nullptr;
};

} // namespace

std::optional<llvm::SmallVector<SinkFact>>
proveArrayDeviceSinksBySyntax(const ApiModel &Model, const FunctionDecl &FD,
                              unsigned Facts) {
  if (!FD.getBody())
    return std::nullopt;
  Scanner Scan(Model);
  // A constructor's initialisers (and the default member initialisers it
  // uses) run first; their sinks are the constructor's too.
  forEachInitializerExpr(FD, [&](const Expr &Init) { Scan.walk(&Init); });
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
