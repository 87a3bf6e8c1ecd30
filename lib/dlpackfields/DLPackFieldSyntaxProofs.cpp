//===--- DLPackFieldSyntaxProofs.cpp - DLPack facts proven by the syntax --===//

#include "lib/dlpackfields/DLPackFieldSyntaxProofs.h"

#include "lib/abi/DLPackFields.h"
#include "lib/dlpackfields/DLPackFieldEvents.h"
#include "lib/dlpackfields/DLPackHelperSummaries.h"
#include "lib/dlpackfields/DLPackHostGuards.h"
#include "lib/engine/GuardEngine.h"
#include "lib/support/AstHelpers.h"

#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/STLExtras.h"

#include <optional>

namespace clang::interop {
namespace {

/// What the proofs read of the configuration.
struct DLPackSyntaxConfig {
  /// Macros whose condition disappears under NDEBUG: a `version.major`
  /// check inside one proves nothing.
  llvm::ArrayRef<std::string> DebugOnlyAssertMacros;
  /// Names of bool functions of a device or tensor that mean host memory.
  const NameList *HostGuards = nullptr;
  /// Importers: a tensor passed to one sends the function to the model.
  const NameList *Importers = nullptr;
  /// Same-TU helpers read from their bodies.
  DLPackHelperSummaries *Summaries = nullptr;
};

/// Aliases (a local bound to a field or to a tensor) that pathOf() follows.
constexpr unsigned MaxAliasDepth = 8;
/// Nesting of an offset expression that mentionsByteOffset() looks into.
constexpr unsigned MaxOffsetDepth = 8;

/// A member chain from a variable of the function: `mt->dl_tensor.data` is
/// mt followed by dl_tensor and data. `*p`, `&x` and `p->` leave the chain
/// as it is: a pointer and what it points to name the same record here.
struct FieldPath {
  const VarDecl *Root = nullptr;
  llvm::SmallVector<const FieldDecl *, 4> Fields;

  bool operator==(const FieldPath &O) const {
    return Root == O.Root && Fields == O.Fields;
  }
  /// True when this path is P followed by fields of the kinds Tail.
  bool extends(const FieldPath &P,
               std::initializer_list<DLPackField> Tail) const {
    if (Root != P.Root || Fields.size() != P.Fields.size() + Tail.size())
      return false;
    if (!std::equal(P.Fields.begin(), P.Fields.end(), Fields.begin()))
      return false;
    const FieldDecl *const *F = Fields.begin() + P.Fields.size();
    for (DLPackField Want : Tail)
      if (classifyDLPackField(*F++) != Want)
        return false;
    return true;
  }
  FieldPath parent() const {
    FieldPath P = *this;
    P.Fields.pop_back();
    return P;
  }
};

/// DLPack fields that are records themselves: taking their address or
/// binding a reference to them hands out the record, not a changed value.
bool isRecordField(DLPackField F) {
  return F == DLPackField::DLTensor || F == DLPackField::Device ||
         F == DLPackField::Version;
}

/// True when E (a member chain) names a DLPack field somewhere along it.
bool namesDLPackField(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  while (const auto *ME = dyn_cast<MemberExpr>(E)) {
    if (dlpackFieldOfMember(ME) != DLPackField::None)
      return true;
    E = ME->getBase()->IgnoreParenImpCasts();
  }
  return false;
}

bool isDLPackRecord(QualType T) {
  return classifyDLPackType(T.getNonReferenceType()) != DLPackRecord::None;
}

/// Where a value goes: the outermost expression that still carries it
/// unchanged (through parentheses and identity casts), and the statement
/// using it (null at the top), at index UserIndex of the chain around it.
struct Context {
  const Expr *Value;
  const Stmt *User;
  size_t UserIndex;
};
Context contextOf(llvm::ArrayRef<const Stmt *> Above, const Expr *E) {
  const Expr *Cur = E;
  size_t I = Above.size();
  while (I > 0) {
    const auto *P = dyn_cast<Expr>(Above[I - 1]);
    if (!P || stripIdentityCasts(P) != stripIdentityCasts(Cur))
      break;
    Cur = P;
    --I;
  }
  return {Cur, I > 0 ? Above[I - 1] : nullptr, I - 1};
}

/// The use reads or writes the pointer's first element only (`*p`, `p[0]`),
/// which sits at the same address whatever the strides.
bool usesFirstElementOnly(llvm::ArrayRef<const Stmt *> Above, const Context &C,
                          const ASTContext &Ctx) {
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(C.User))
    return UO->getOpcode() == UO_Deref;
  const auto *AS = dyn_cast_or_null<ArraySubscriptExpr>(C.User);
  if (!AS || AS->getBase() != C.Value || !readsOnlyFirstElement(AS, Ctx))
    return false;
  // &p[0] is a new pointer, not an access.
  const auto *Outer = C.UserIndex > 0
                          ? dyn_cast<UnaryOperator>(Above[C.UserIndex - 1])
                          : nullptr;
  return !Outer || Outer->getOpcode() != UO_AddrOf;
}

/// A read of `data` or `strides` (the member, or a use of a local bound to
/// one), or an access to a versioned tensor's `dl_tensor` or `flags`, with
/// the statements around it.
struct Read {
  const Expr *E;
  DLPackField F;
  StmtChain Above;
};

/// The walk: collects the reads and refuses what could change a tested
/// field behind the guards' back.
class Scanner : public GuardScan {
public:
  Scanner(ASTContext &Ctx, const DLPackSyntaxConfig &Config)
      : Ctx(Ctx), Config(Config) {}

  llvm::SmallVector<Read, 8> Reads;
  /// Local pointers initialised in the function, and whether every use of
  /// each reads or writes its first element only.
  llvm::DenseMap<const VarDecl *, bool> FirstElementOnly;
  /// A cast drops const from a pointer somewhere in the function: a const
  /// pointer to data may then be written through.
  bool MayCastAwayConst = false;

private:
  void inspect(const Stmt *S) override {
    inspectLambdaCaptures(S);
    if (const auto *ME = dyn_cast<MemberExpr>(S)) {
      member(*ME);
    } else if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
      if (DLPackField F = aliasedPointerField(DRE); F != DLPackField::None)
        Reads.push_back({DRE, F, Stack});
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (VD && !isa<ParmVarDecl>(VD) && VD->hasLocalStorage() &&
          VD->getInit() && VD->getType()->isPointerType()) {
        bool First = usesFirstElementOnly(Stack, contextOf(Stack, DRE), Ctx);
        auto [It, New] = FirstElementOnly.try_emplace(VD, First);
        It->second &= First;
      }
    } else if (const auto *CE = dyn_cast<CallExpr>(S)) {
      importer(CE->getDirectCallee(),
               llvm::ArrayRef(CE->getArgs(), CE->getNumArgs()));
      // The data a helper returns (first_element(t)) is judged by the model.
      if (Config.Summaries)
        if (const DLPackHelperSummary *Sum = Config.Summaries->of(*CE, Ctx);
            Sum && Sum->ReturnsData)
          Refused = true;
      // The receiver of a non-const member call (a container, an iterator)
      // may change; a DLPack record has no member functions.
      if (const Expr *Receiver = receiverOf(*CE);
          Receiver && isNonConstMemberCall(*CE))
        if (const VarDecl *V = namedVar(Receiver))
          Written.insert(V);
    } else if (const auto *CCE = dyn_cast<CXXConstructExpr>(S)) {
      importer(CCE->getConstructor(),
               llvm::ArrayRef(CCE->getArgs(), CCE->getNumArgs()));
    } else if (const auto *Cast = dyn_cast<ExplicitCastExpr>(S)) {
      if (dropsConst(*Cast))
        MayCastAwayConst = true;
    }
  }

  /// A cast from a pointer to const to a pointer to non-const (only
  /// const_cast and C-style or functional casts can spell one).
  static bool dropsConst(const ExplicitCastExpr &Cast) {
    QualType To = Cast.getType(), From = Cast.getSubExpr()->getType();
    return To->isPointerType() && From->isPointerType() &&
           From->getPointeeType().isConstQualified() &&
           !To->getPointeeType().isConstQualified();
  }

  void member(const MemberExpr &ME) {
    const auto *FD = dyn_cast<FieldDecl>(ME.getMemberDecl());
    DLPackField F = classifyDLPackField(FD);
    if (F == DLPackField::Data || F == DLPackField::Strides ||
        ((F == DLPackField::DLTensor || F == DLPackField::Flags) &&
         dlpackOwnerOf(FD) == DLPackRecord::ManagedTensorVersioned))
      Reads.push_back({&ME, F, Stack});
  }

  /// The field a local pointer was initialised from, when it is `data` or
  /// `strides`: its uses are reads of that field.
  static DLPackField aliasedPointerField(const DeclRefExpr *DRE) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || isa<ParmVarDecl>(VD) || !VD->hasLocalStorage() ||
        !VD->getInit() || !VD->getType()->isPointerType())
      return DLPackField::None;
    DLPackField F = dlpackFieldOfMember(stripIdentityCasts(VD->getInit()));
    return F == DLPackField::Data || F == DLPackField::Strides
               ? F
               : DLPackField::None;
  }

  /// An assignment of a DLPack field or record changes what a guard
  /// tested. A record whose address is taken or that is bound to a
  /// non-const reference is only handed out (a write through it is an
  /// assignment to one of its fields, refused where it happens); one of its
  /// scalar fields handed out so is refused here.
  void changes(const Expr &E, Change How) override {
    if (How == Change::Assigned) {
      if (namesDLPackField(&E) || isDLPackRecord(E.getType()))
        Refused = true;
      return;
    }
    DLPackField F = dlpackFieldOfMember(E.IgnoreParenImpCasts());
    if (F != DLPackField::None && !isRecordField(F))
      Refused = true;
  }

  /// A tensor passed to an importer: the model proves its device type
  /// there, which this pass does not.
  void importer(const FunctionDecl *Callee, llvm::ArrayRef<const Expr *> Args) {
    if (!Callee || !Config.Importers || !Config.Importers->matches(Callee))
      return;
    for (const Expr *Arg : Args) {
      DLPackRecord K =
          classifyDLPackPointee(Arg->IgnoreParenImpCasts()->getType());
      if (K == DLPackRecord::Tensor || isManagedTensor(K))
        Refused = true;
    }
  }

  /// A lambda can change a DLPack record it captures by reference (unless,
  /// where StableCaptures, the record is const: a reference to const).
  bool capturedByRef(const VarDecl &V) override {
    if (StableCaptures && V.getType()->isReferenceType() &&
        V.getType()->getPointeeType().isConstQualified())
      return true;
    return !isDLPackRecord(V.getType());
  }

  void inspectLambdaCaptures(const Stmt *S) {
    // A capture's initialiser is walked with the lambda on top of Stack.
    if (!Target || Stack.empty() || Stack.back() != Target || TargetFound)
      return;
    TargetFound = true;
    TargetAbove.assign(Stack.begin(), Stack.end() - 1);
  }

public:
  /// For provesCapturedStridesNonNull(): allow by-reference captures of
  /// references to const, and keep the statements around Target.
  bool StableCaptures = false;
  const LambdaExpr *Target = nullptr;
  bool TargetFound = false;
  llvm::SmallVector<const Stmt *, 16> TargetAbove;

private:
  ASTContext &Ctx;
  const DLPackSyntaxConfig &Config;
};

/// The facts a guard can prove about a tensor.
enum class Fact { Host, StridesNonNull, StridesNull, ReadOnlyClear, MajorOk };

/// Proves, read by read, what the field model would prove at the events
/// that follow from it.
class Prover {
public:
  Prover(const FunctionDecl &FD, ASTContext &Ctx,
         const DLPackSyntaxConfig &Config, const Scanner &Scan)
      : Ctx(Ctx), Config(Config), Scan(Scan), Guards(FD, Scan.Written),
        Uncompared(uncomparedStrideElements(FD.getBody())) {}

  /// Whether the strides of the tensor Var names are proven non-NULL at
  /// Node, whose surrounding statements are Above.
  bool stridesNonNullAt(llvm::ArrayRef<const Stmt *> Above, const Stmt *Node,
                        const VarDecl &Var) {
    FieldPath T{&Var, {}};
    return Guards.guarded(Above, Node, [&](const Expr *C, bool Value) {
      return atom(C, Value, T, Fact::StridesNonNull);
    });
  }

  bool provesAll() {
    // Strides first: a data read needs to know whether the function looks
    // at its tensor's strides anywhere.
    for (const Read &R : Scan.Reads)
      if (R.F == DLPackField::Strides && !strides(R))
        return false;
    for (const Read &R : Scan.Reads) {
      if (R.F == DLPackField::Data && !data(R))
        return false;
      if ((R.F == DLPackField::DLTensor || R.F == DLPackField::Flags) &&
          !versioned(R))
        return false;
    }
    return true;
  }

private:
  //===--------------------------------------------------------------------===//
  // Naming tensors
  //===--------------------------------------------------------------------===//

  /// The member chain E names, through identity casts, `*`, `&` and locals
  /// bound to a chain (a reference, a pointer to a record, a copy of a
  /// field) that nothing changes after their initialisation.
  std::optional<FieldPath> pathOf(const Expr *E, unsigned Depth = 0) const {
    if (!E || Depth > MaxAliasDepth)
      return std::nullopt;
    E = stripIdentityCasts(ignoreTemporaries(E));
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
      std::optional<FieldPath> P =
          FD ? pathOf(ME->getBase(), Depth) : std::nullopt;
      if (P)
        P->Fields.push_back(FD);
      return P;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (UO->getOpcode() == UO_Deref || UO->getOpcode() == UO_AddrOf)
        return pathOf(UO->getSubExpr(), Depth);
      return std::nullopt;
    }
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    const VarDecl *V = DRE && !DRE->refersToEnclosingVariableOrCapture()
                           ? Guards.localOf(dyn_cast<VarDecl>(DRE->getDecl()))
                           : nullptr;
    if (!V)
      return std::nullopt;
    bool Changes = Scan.Written.contains(V);
    if (!isa<ParmVarDecl>(V) && V->getInit() &&
        (V->getType()->isReferenceType() || !Changes))
      if (std::optional<FieldPath> P = pathOf(V->getInit(), Depth + 1))
        return P;
    // A variable a chain starts from: a record, or a pointer or reference
    // to one that keeps designating the same record.
    if (Changes && !V->getType()->isRecordType())
      return std::nullopt;
    return FieldPath{V, {}};
  }

  std::optional<FieldPath> pathOfBase(const Expr *Read) const {
    if (const auto *ME = dyn_cast<MemberExpr>(Read))
      return pathOf(ME->getBase());
    // A local bound to the field: the chain of its initialiser's base.
    const auto *V = cast<VarDecl>(cast<DeclRefExpr>(Read)->getDecl());
    if (Scan.Written.contains(V) || !Guards.localOf(V))
      return std::nullopt;
    const auto *ME = dyn_cast<MemberExpr>(stripIdentityCasts(V->getInit()));
    return ME ? pathOf(ME->getBase()) : std::nullopt;
  }

  //===--------------------------------------------------------------------===//
  // Where a read's value goes
  //===--------------------------------------------------------------------===//

  /// The user tests the pointer for NULL and nothing else.
  bool isNullTest(const Context &C) const {
    if (const auto *Cast = dyn_cast_or_null<CastExpr>(C.User))
      return Cast->getCastKind() == CK_PointerToBoolean;
    if (const auto *UO = dyn_cast_or_null<UnaryOperator>(C.User))
      return UO->getOpcode() == UO_LNot;
    if (const auto *BO = dyn_cast_or_null<BinaryOperator>(C.User)) {
      if (!BO->isEqualityOp())
        return false;
      const Expr *Other = BO->getLHS() == C.Value ? BO->getRHS() : BO->getLHS();
      return isNullConstant(Other, Ctx);
    }
    return false;
  }

  /// The user initialises a local pointer that nothing changes afterwards:
  /// its uses are reads of their own.
  bool isAliasInit(const Read &R, const Context &C) const {
    const auto *DS = dyn_cast_or_null<DeclStmt>(C.User);
    if (!DS || !isa<MemberExpr>(R.E))
      return false;
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D))
        if (VD->getInit() == C.Value)
          return Guards.localOf(VD) && !isa<ParmVarDecl>(VD) &&
                 VD->getType()->isPointerType() && !Scan.Written.contains(VD);
    return false;
  }

  /// Whether E mentions the byte_offset of Tensor: the field, or a local
  /// copy of it.
  bool mentionsByteOffset(const Expr *E, const FieldPath &Tensor,
                          unsigned Depth = 0) const {
    if (!E || Depth > MaxOffsetDepth)
      return false;
    if (std::optional<FieldPath> P = pathOf(E))
      if (P->extends(Tensor, {DLPackField::ByteOffset}))
        return true;
    for (const Stmt *Child : E->children())
      if (mentionsByteOffset(dyn_cast_or_null<Expr>(Child), Tensor, Depth + 1))
        return true;
    return false;
  }

  //===--------------------------------------------------------------------===//
  // The reads
  //===--------------------------------------------------------------------===//

  /// In a construction, the argument after C.Value may make it an array the
  /// object reads: an ndim, or a pointer sum (`s + n`). Wider than the model's
  /// test, so the proof never claims what the model would report.
  static bool mayBoundArray(const Context &C) {
    const auto *CCE = dyn_cast<CXXConstructExpr>(C.User);
    if (!CCE)
      return false;
    auto Args = llvm::ArrayRef(CCE->getArgs(), CCE->getNumArgs());
    for (size_t I = 0; I + 1 < Args.size(); ++I) {
      if (stripIdentityCasts(Args[I]) != stripIdentityCasts(C.Value))
        continue;
      const Expr *N = Args[I + 1]->IgnoreParenImpCasts();
      if (dlpackFieldOfMember(N) == DLPackField::NDim)
        return true;
      if (const auto *BO = dyn_cast<BinaryOperator>(N))
        return BO->getOpcode() == BO_Add;
      return false;
    }
    return false;
  }

  /// A dereference of strides must be behind a NULL check; passing them on
  /// or dereferencing them means the function looks at them.
  bool strides(const Read &R) {
    std::optional<FieldPath> T = pathOfBase(R.E);
    if (!T)
      return false;
    Context C = contextOf(R.Above, R.E);
    bool Deref = false;
    bool Looks = true;
    if (const auto *AS = dyn_cast_or_null<ArraySubscriptExpr>(C.User)) {
      Deref = AS->getBase() == C.Value;
      Looks = !Uncompared.contains(AS);
    } else if (const auto *UO = dyn_cast_or_null<UnaryOperator>(C.User)) {
      Deref = UO->getOpcode() == UO_Deref;
    }
    if (Deref) {
      if (!proves(R, *T, Fact::StridesNonNull))
        return false;
      if (Looks)
        Considered.push_back(*T);
      return true;
    }
    if (isa_and_nonnull<CallExpr, CXXConstructExpr>(C.User) &&
        !(isa<CallExpr>(C.User) &&
          cast<CallExpr>(C.User)->getCallee() == C.Value)) {
      // Passed as an array the callee reads (the model's StridesAsRange):
      // only behind a NULL check.
      if (mayBoundArray(C) && !proves(R, *T, Fact::StridesNonNull))
        return false;
      Considered.push_back(*T);
      return true;
    }
    return isNullTest(C) || isAliasInit(R, C);
  }

  /// `data` must get byte_offset added right where it is read, behind a
  /// guard that its memory is host-accessible, with the strides looked at
  /// (or proven NULL), and, for a versioned tensor, be read-only or behind
  /// a READ_ONLY check.
  bool data(const Read &R) {
    std::optional<FieldPath> T = pathOfBase(R.E);
    if (!T)
      return false;
    Context C = contextOf(R.Above, R.E);
    if (isNullTest(C) || isAliasInit(R, C))
      return true;
    const Expr *Derived = nullptr;
    if (const auto *BO = dyn_cast_or_null<BinaryOperator>(C.User)) {
      // base + byte_offset, in either order.
      const Expr *Offset =
          BO->getLHS() == C.Value ? BO->getRHS() : BO->getLHS();
      if (BO->getOpcode() == BO_Add && BO->getType()->isPointerType() &&
          mentionsByteOffset(Offset, *T))
        Derived = BO;
    } else if (const auto *AS = dyn_cast_or_null<ArraySubscriptExpr>(C.User)) {
      // &base[byte_offset]
      const Stmt *Outer = C.UserIndex > 0 ? R.Above[C.UserIndex - 1] : nullptr;
      const auto *UO = dyn_cast_or_null<UnaryOperator>(Outer);
      if (AS->getBase() == C.Value && UO && UO->getOpcode() == UO_AddrOf &&
          mentionsByteOffset(AS->getIdx(), *T))
        Derived = UO;
    }
    if (!Derived || !proves(R, *T, Fact::Host))
      return false;
    if (!llvm::is_contained(Considered, *T) &&
        !firstElementOnly(R, C, Derived) && !proves(R, *T, Fact::StridesNull))
      return false;
    if (T->Fields.empty() ||
        classifyDLPackField(T->Fields.back()) != DLPackField::DLTensor ||
        dlpackOwnerOf(T->Fields.back()) != DLPackRecord::ManagedTensorVersioned)
      return true;
    QualType DT = Derived->getType();
    bool ReadOnly = DT->isPointerType() &&
                    DT->getPointeeType().isConstQualified() &&
                    !Scan.MayCastAwayConst;
    return ReadOnly || proves(R, T->parent(), Fact::ReadOnlyClear);
  }

  /// Every use of the pointer Derived (made from the read R, in context C)
  /// reads or writes its first element only: directly, or through a local
  /// pointer it initialises that nothing changes afterwards.
  bool firstElementOnly(const Read &R, const Context &C, const Expr *Derived) {
    llvm::ArrayRef<const Stmt *> Above(R.Above);
    Above = Above.take_front(Derived == C.User ? C.UserIndex : C.UserIndex - 1);
    Context D = contextOf(Above, Derived);
    if (usesFirstElementOnly(Above, D, Ctx))
      return true;
    const auto *DS = dyn_cast_or_null<DeclStmt>(D.User);
    if (!DS)
      return false;
    for (const Decl *Dcl : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(Dcl))
        if (VD->getInit() == D.Value)
          return VD->getType()->isPointerType() && Guards.localOf(VD) &&
                 !Scan.Written.contains(VD) && Scan.FirstElementOnly.lookup(VD);
    return false;
  }

  /// dl_tensor and flags of a versioned tensor only behind a check of
  /// version.major that stays in release builds.
  bool versioned(const Read &R) {
    std::optional<FieldPath> M = pathOfBase(R.E);
    return M && proves(R, *M, Fact::MajorOk);
  }

  //===--------------------------------------------------------------------===//
  // Guards
  //===--------------------------------------------------------------------===//

  bool proves(const Read &R, const FieldPath &Of, Fact Want) {
    return Guards.guarded(R.Above, R.E, [&](const Expr *C, bool Value) {
      return atom(C, Value, Of, Want);
    });
  }

  /// Whether the condition C being Value proves Want of the tensor (or, for
  /// ReadOnlyClear and MajorOk, the managed tensor) Of.
  bool atom(const Expr *C, bool Value, const FieldPath &Of, Fact Want) {
    switch (Want) {
    case Fact::Host:
      return hostAtom(C, Value, Of);
    case Fact::StridesNonNull:
    case Fact::StridesNull:
      return nullAtom(C, Value, Of) ==
             std::optional<bool>(Want == Fact::StridesNull);
    case Fact::ReadOnlyClear:
      return readOnlyAtom(C, Value, Of);
    case Fact::MajorOk:
      return majorAtom(C, Value, Of);
    }
    return false;
  }

  /// `device_type == K` (or `!=`, either way round) with K host-accessible,
  /// or a host guard call (HostDeviceGuards) on the device or the tensor.
  bool hostAtom(const Expr *C, bool Value, const FieldPath &Tensor) {
    if (const auto *BO = dyn_cast<BinaryOperator>(C)) {
      if (!BO->isEqualityOp() || Value != (BO->getOpcode() == BO_EQ))
        return false;
      for (auto [Field, K] : {std::pair(BO->getLHS(), BO->getRHS()),
                              std::pair(BO->getRHS(), BO->getLHS())}) {
        std::optional<FieldPath> P = pathOf(Field);
        std::optional<llvm::APSInt> Raw = integerConstant(K, Ctx);
        if (P && Raw &&
            P->extends(Tensor, {DLPackField::Device, DLPackField::DeviceType}))
          return isHostAccessibleDeviceType(Raw->getExtValue());
      }
      return false;
    }
    const auto *Call = dyn_cast<CallExpr>(C);
    std::optional<HostGuardCall> G =
        Call ? hostGuardCall(*Call, *Config.HostGuards, Config.Summaries, Ctx)
             : std::nullopt;
    const Expr *Arg = G && G->provesIf(Value) ? G->Arg : nullptr;
    if (!Arg)
      return false;
    std::optional<FieldPath> P = pathOf(Arg);
    if (!P)
      return false;
    if (classifyDLPackType(Arg->getType()) == DLPackRecord::Device)
      return P->extends(Tensor, {DLPackField::Device});
    return *P == Tensor;
  }

  /// What C being Value says of Tensor's strides: true for NULL, false for
  /// non-NULL, nothing when C does not test them.
  std::optional<bool> nullAtom(const Expr *C, bool Value,
                               const FieldPath &Tensor) {
    auto IsStrides = [&](const Expr *E) {
      std::optional<FieldPath> P = pathOf(E);
      return P && P->extends(Tensor, {DLPackField::Strides});
    };
    if (C->getType()->isPointerType() && IsStrides(C))
      return !Value;
    // is_compact(t), read from its body: one result implies non-NULL; or
    // require_strided(t) returned.
    if (const auto *Call = dyn_cast<CallExpr>(C); Call && Config.Summaries)
      if (const DLPackHelperSummary *Sum = Config.Summaries->of(*Call, Ctx);
          Sum && Sum->stridesNonNullAfter(*Call, Value))
        if (std::optional<FieldPath> P = pathOf(helperArgument(*Call)))
          if (*P == Tensor)
            return false;
    if (const auto *BO = dyn_cast<BinaryOperator>(C)) {
      if (!BO->isEqualityOp())
        return std::nullopt;
      if ((IsStrides(BO->getLHS()) && isNullConstant(BO->getRHS(), Ctx)) ||
          (IsStrides(BO->getRHS()) && isNullConstant(BO->getLHS(), Ctx)))
        return Value == (BO->getOpcode() == BO_EQ);
    }
    return std::nullopt;
  }

  /// `flags & READ_ONLY` false (or `== 0` true) on the managed tensor.
  bool readOnlyAtom(const Expr *C, bool Value, const FieldPath &Managed) {
    if (const auto *BO = dyn_cast<BinaryOperator>(C); BO && BO->isEqualityOp())
      for (auto [Masked, Zero] : {std::pair(BO->getLHS(), BO->getRHS()),
                                  std::pair(BO->getRHS(), BO->getLHS())})
        if (std::optional<llvm::APSInt> Z = integerConstant(Zero, Ctx);
            Z && Z->isZero() &&
            isReadOnlyBit(ignoreTemporaries(Masked), Managed))
          return Value == (BO->getOpcode() == BO_EQ);
    return !Value && isReadOnlyBit(C, Managed);
  }

  /// `flags & mask` with the READ_ONLY bit in the mask.
  bool isReadOnlyBit(const Expr *E, const FieldPath &Managed) {
    const auto *BO = dyn_cast<BinaryOperator>(E);
    if (!BO || BO->getOpcode() != BO_And)
      return false;
    for (auto [Flags, Mask] : {std::pair(BO->getLHS(), BO->getRHS()),
                               std::pair(BO->getRHS(), BO->getLHS())}) {
      std::optional<FieldPath> P = pathOf(Flags);
      std::optional<llvm::APSInt> K = integerConstant(Mask, Ctx);
      if (P && K && (K->getZExtValue() & 1) &&
          P->extends(Managed, {DLPackField::Flags}))
        return true;
    }
    return false;
  }

  /// A comparison of version.major that accepts the supported major version
  /// (read as the model reads it) when it is Value, outside the debug-only
  /// assertion macros.
  bool majorAtom(const Expr *C, bool Value, const FieldPath &Managed) {
    std::optional<bool> Accepts = majorTestAcceptsIfTrue(
        C,
        [&](const Expr *E) {
          std::optional<FieldPath> P = pathOf(E);
          return P && P->extends(Managed,
                                 {DLPackField::Version, DLPackField::Major});
        },
        Config.DebugOnlyAssertMacros, Ctx);
    return Accepts && *Accepts == Value;
  }

  ASTContext &Ctx;
  const DLPackSyntaxConfig &Config;
  const Scanner &Scan;
  GuardProof Guards;
  /// Tensors whose strides the function dereferences or passes on.
  llvm::SmallVector<FieldPath, 4> Considered;
  /// Strides elements read only as numbers: they do not count as looking.
  llvm::DenseSet<const ArraySubscriptExpr *> Uncompared;
};

} // namespace

bool proveDLPackFieldsBySyntax(const FunctionDecl &FD, ASTContext &Ctx,
                               const DLPackFieldConfig &FieldConfig,
                               const DLPackFieldCompiled &Compiled) {
  DLPackSyntaxConfig Config{FieldConfig.DebugOnlyAssertMacros,
                            &Compiled.HostGuards, &Compiled.Importers,
                            Compiled.Summaries.get()};
  if (!FD.getBody())
    return false;
  // The scan reads the body; a constructor with initialisers that names a
  // DLPack field (`dptr_(t.data)`) is left to the flow model.
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(&FD);
      Ctor && Ctor->getNumCtorInitializers() != 0 && mentionsDLPackField(FD))
    return false;
  Scanner Scan(Ctx, Config);
  Scan.walk(FD.getBody());
  return !Scan.Refused && Prover(FD, Ctx, Config, Scan).provesAll();
}

bool provesCapturedStridesNonNull(const FunctionDecl &Enclosing,
                                  const LambdaExpr &Lambda, const VarDecl &Var,
                                  ASTContext &Ctx,
                                  const DLPackFieldConfig &FieldConfig,
                                  const DLPackFieldCompiled &Compiled) {
  DLPackSyntaxConfig Config{FieldConfig.DebugOnlyAssertMacros,
                            &Compiled.HostGuards, &Compiled.Importers,
                            Compiled.Summaries.get()};
  if (!Enclosing.getBody() || Lambda.capture_size() == 0)
    return false;
  Scanner Scan(Ctx, Config);
  Scan.StableCaptures = true;
  Scan.Target = &Lambda;
  Scan.walk(Enclosing.getBody());
  // Refused: something may change what a guard tested (a DLPack field
  // written, a jump); Written: the variable itself may change.
  if (Scan.Refused || !Scan.TargetFound)
    return false;
  // A reference to const cannot change, captured or not.
  llvm::SmallVector<const VarDecl *, 4> Stable;
  for (const VarDecl *V : Scan.Written)
    if (V->getType()->isReferenceType() &&
        V->getType()->getPointeeType().isConstQualified())
      Stable.push_back(V);
  for (const VarDecl *V : Stable)
    Scan.Written.erase(V);
  if (Scan.Written.contains(&Var))
    return false;
  return Prover(Enclosing, Ctx, Config, Scan)
      .stridesNonNullAt(Scan.TargetAbove, &Lambda, Var);
}

bool CapturedStridesProofs::nonNull(const Expr *Read,
                                    const FunctionDecl &Current,
                                    const DLPackFieldConfig &Config,
                                    const DLPackFieldCompiled &Compiled) {
  const auto *MD = dyn_cast<CXXMethodDecl>(&Current);
  const auto *ME =
      Read ? dyn_cast<MemberExpr>(Read->IgnoreParenImpCasts()) : nullptr;
  if (!MD || !MD->getParent()->isLambda() || !ME)
    return false;
  const Expr *Base = ME->getBase()->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(Base);
      UO && UO->getOpcode() == UO_Deref)
    Base = UO->getSubExpr()->IgnoreParenImpCasts();
  const auto *DRE = dyn_cast<DeclRefExpr>(Base);
  const auto *Var = DRE && DRE->refersToEnclosingVariableOrCapture()
                        ? dyn_cast<VarDecl>(DRE->getDecl())
                        : nullptr;
  if (!Var)
    return false;
  const CXXRecordDecl *Closure = MD->getParent();
  auto [It, New] = Captured.try_emplace({Closure, Var}, false);
  if (!New)
    return It->second;
  // The capture must be one the lambda sees as it was where it was made.
  bool Stable = false;
  for (const LambdaCapture &C : Closure->captures())
    if (C.capturesVariable() && C.getCapturedVar() == Var)
      Stable = C.getCaptureKind() == LCK_ByCopy ||
               (C.getCaptureKind() == LCK_ByRef &&
                Var->getType()->isReferenceType() &&
                Var->getType()->getPointeeType().isConstQualified());
  const auto *Enclosing = dyn_cast<FunctionDecl>(Closure->getDeclContext());
  if (!Stable || !Enclosing || !Enclosing->getBody())
    return false;
  const LambdaExpr *Made = lambdaOfClosure(*Closure, Enclosing->getBody());
  bool Proven = Made && provesCapturedStridesNonNull(*Enclosing, *Made, *Var,
                                                     Current.getASTContext(),
                                                     Config, Compiled);
  Captured[{Closure, Var}] = Proven;
  return Proven;
}

} // namespace clang::interop
