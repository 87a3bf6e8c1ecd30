//===--- DLPackCallerGuards.cpp - tests every caller makes ----------------===//

#include "lib/dlpackfields/DLPackCallerGuards.h"

#include "lib/abi/DLPackFields.h"
#include "lib/abi/DLPackTypes.h"
#include "lib/abi/ReturnedTensors.h"
#include "lib/dlpackfields/DLPackFieldConfig.h"
#include "lib/dlpackfields/DLPackHostGuards.h"
#include "lib/engine/CallSites.h"
#include "lib/engine/ExitConditions.h"
#include "lib/engine/GuardEngine.h"
#include "lib/support/AstHelpers.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace clang::interop {
namespace {

/// Finds the statements around one call, whether the caller assigns a
/// DLPack field anywhere, and its whole assignments of DLPack fields.
class AroundCall : public GuardScan {
public:
  explicit AroundCall(const Expr *Call) : Call(Call) {}
  std::optional<StmtChain> Above;
  bool WritesDLPackField = false;
  /// `chain = value;`: the assignment and the statements around it.
  struct Store {
    const BinaryOperator *Assign;
    StmtChain Around;
  };
  std::vector<Store> Stores;

private:
  void inspect(const Stmt *S) override {
    if (S == Call)
      Above = Stack;
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->getOpcode() == BO_Assign &&
        dlpackFieldOfMember(BO->getLHS()->IgnoreParenImpCasts()) !=
            DLPackField::None)
      Stores.push_back({BO, Stack});
  }
  void changes(const Expr &E, Change) override {
    const Expr *L = E.IgnoreParenImpCasts();
    while (const auto *ME = dyn_cast<MemberExpr>(L)) {
      if (dlpackFieldOfMember(ME) != DLPackField::None)
        WritesDLPackField = true;
      L = ME->getBase()->IgnoreParenImpCasts();
    }
  }
  bool capturedByRef(const VarDecl &) override { return true; }
  const Expr *Call;
};

/// The comparison `X.device.device_type == K` (or `!=`, either side) with a
/// constant K: X's chain and K's value.
std::optional<std::pair<MemberChain, std::int64_t>>
deviceTypeComparison(const BinaryOperator &BO, const ASTContext &Ctx) {
  for (auto [Field, Other] : {std::pair(BO.getLHS(), BO.getRHS()),
                              std::pair(BO.getRHS(), BO.getLHS())}) {
    std::optional<llvm::APSInt> K = integerConstant(Other, Ctx);
    std::optional<MemberChain> C = K ? memberChainOf(Field) : std::nullopt;
    if (!C || C->Fields.size() < 2 ||
        classifyDLPackField(C->Fields.back()) != DLPackField::DeviceType ||
        classifyDLPackField(C->Fields[C->Fields.size() - 2]) !=
            DLPackField::Device)
      continue;
    C->Fields.pop_back_n(2);
    return std::pair(*C, K->getExtValue());
  }
  return std::nullopt;
}

/// M is the field Outer.Inner of the record Base names
/// (`t->device.device_type`, `mt->version.major`).
bool isFieldOf(const MemberChain &M, const MemberChain &Base, DLPackField Outer,
               DLPackField Inner) {
  return M.Root == Base.Root && M.Fields.size() == Base.Fields.size() + 2 &&
         std::equal(Base.Fields.begin(), Base.Fields.end(), M.Fields.begin()) &&
         classifyDLPackField(M.Fields.end()[-2]) == Outer &&
         classifyDLPackField(M.Fields.back()) == Inner;
}

/// Root is a local the caller initialises with its own export (a call of
/// a TensorSources function: `auto *mt = torch::toDLPack(t)`) and never
/// changes: the tensor it names is the producer's, not an import.
bool ownExport(const VarDecl &Root, const ExitConditions *Exits) {
  if (!Exits || !Root.hasLocalStorage() || !Root.getInit())
    return false;
  const auto *Call = dyn_cast<CallExpr>(
      ignoreTemporaries(Root.getInit())->IgnoreParenImpCasts());
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  return Callee && (Exits->isTensorSource(Callee) || returnsOwnTensor(*Callee));
}

/// E is not NULL whatever happens: a `new` (that throws rather than return
/// NULL), an address, an array, or a local initialised with one that
/// nothing changes.
bool nonNullByConstruction(const Expr *E, const AroundCall &Scan,
                           unsigned Depth = 0) {
  if (!E || Depth > 2)
    return false;
  E = ignoreTemporaries(E)->IgnoreParens();
  if (const auto *Cast = dyn_cast<CastExpr>(E)) {
    if (Cast->getCastKind() == CK_ArrayToPointerDecay)
      return true;
    if (Cast->getCastKind() == CK_NoOp || Cast->getCastKind() == CK_BitCast ||
        Cast->getCastKind() == CK_LValueToRValue)
      return nonNullByConstruction(Cast->getSubExpr(), Scan, Depth);
    return false;
  }
  if (const auto *New = dyn_cast<CXXNewExpr>(E))
    return !New->shouldNullCheckAllocation();
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return UO->getOpcode() == UO_AddrOf;
  const VarDecl *V = namedVar(E);
  return V && V->isLocalVarDecl() && !Scan.Written.contains(V) &&
         nonNullByConstruction(V->getInit(), Scan, Depth + 1);
}

/// Store runs before Call whenever Call runs: a statement of a block around
/// the call, before the statement of that block the call is in.
bool runsBefore(const AroundCall::Store &St, const StmtChain &Above,
                const Expr *Call) {
  if (St.Around.empty())
    return false;
  const auto *Block = dyn_cast<CompoundStmt>(St.Around.back());
  if (!Block)
    return false;
  const auto *At = llvm::find(Above, Block);
  if (At == Above.end())
    return false;
  const Stmt *CallChild = At + 1 == Above.end() ? Call : *(At + 1);
  for (const Stmt *Child : Block->body()) {
    if (Child == CallChild)
      return false;
    if (Child == St.Assign)
      return true;
  }
  return false;
}

/// The caller made the tensor Want names itself (a local initialised with
/// `new` of a DLPack record, or a DLPack record declared there) and wrote
/// the field Test asks about before the call, on every path, only ever
/// with a value that passes it: non-NULL strides (`t->strides = new
/// int64_t[n]`), a host-accessible device type. Its own tensor, laid out by
/// its own hand: a producer showing what it exports.
bool ownTensorAt(const CallSite &Site, const MemberChain &Want, CallerTest Test,
                 const AroundCall &Scan, const StmtChain &Above) {
  const auto *Root = dyn_cast<VarDecl>(Want.Root);
  if (Test == CallerTest::MajorSupported || !Root || !Root->isLocalVarDecl() ||
      Scan.Written.contains(Root))
    return false;
  const Expr *Init =
      Root->getInit() ? ignoreTemporaries(Root->getInit())->IgnoreParenCasts()
                      : nullptr;
  const auto *New = dyn_cast_or_null<CXXNewExpr>(Init);
  bool Made = (New && classifyDLPackType(New->getAllocatedType()) !=
                          DLPackRecord::None) ||
              (classifyDLPackType(Root->getType()) != DLPackRecord::None &&
               (!Init || isa<InitListExpr, CXXConstructExpr>(Init)));
  if (!Made)
    return false;
  ASTContext &Ctx = Site.Caller->getASTContext();
  bool Before = false;
  for (const AroundCall::Store &St : Scan.Stores) {
    std::optional<MemberChain> Target = memberChainOf(St.Assign->getLHS());
    if (!Target || Target->Root != Want.Root)
      continue;
    bool Passes = false;
    if (Test == CallerTest::StridesNonNull) {
      if (!(*Target == Want))
        continue;
      Passes = nonNullByConstruction(St.Assign->getRHS(), Scan);
    } else {
      // `t->device.device_type = kDLCPU;` on the tensor Want names.
      if (!isFieldOf(*Target, Want, DLPackField::Device,
                     DLPackField::DeviceType))
        continue;
      std::optional<llvm::APSInt> K = integerConstant(St.Assign->getRHS(), Ctx);
      Passes = K && isHostAccessibleDeviceType(K->getExtValue());
    }
    if (!Passes)
      return false;
    Before |= runsBefore(St, Above, Site.Call);
  }
  return Before;
}

/// Call, a predicate of the file or a HostDeviceGuards function whose
/// result is Value, or a validator that returned, proves Test on the tensor
/// Want names (its strides, for StridesNonNull).
bool callProves(const CallExpr &Call, bool Value, const MemberChain &Want,
                CallerTest Test, const DLPackFieldCompiled &Compiled,
                ASTContext &Ctx) {
  DLPackHelperSummaries *Summaries = Compiled.Summaries.get();
  const Expr *Arg = nullptr;
  MemberChain Tensor = Want;
  if (Test == CallerTest::HostDevice) {
    std::optional<HostGuardCall> G =
        hostGuardCall(Call, Compiled.HostGuards, Summaries, Ctx);
    if (!G || !G->provesIf(Value))
      return false;
    Arg = G->Arg;
  } else {
    const DLPackHelperSummary *S =
        Summaries ? Summaries->of(Call, Ctx) : nullptr;
    if (!S || !S->stridesNonNullAfter(Call, Value))
      return false;
    Arg = helperArgument(Call);
    Tensor.Fields.pop_back();
  }
  std::optional<MemberChain> Tested = Arg ? memberChainOf(Arg) : std::nullopt;
  if (!Tested)
    return false;
  // A guard given the device (`is_host(t.device)`) tests the tensor's.
  if (classifyDLPackType(Arg->getType()) == DLPackRecord::Device) {
    if (Tested->Fields.empty() ||
        classifyDLPackField(Tested->Fields.back()) != DLPackField::Device)
      return false;
    Tested->Fields.pop_back();
  }
  return *Tested == Tensor;
}

/// C, a comparison of the managed tensor Want's `version.major` with a bound
/// outside a debug-only assertion, being Value accepts the supported major
/// version.
bool majorAtom(const Expr *C, bool Value, const MemberChain &Want,
               const DLPackFieldCompiled *Compiled, ASTContext &Ctx) {
  if (!Compiled)
    return false;
  std::optional<bool> Accepts = majorTestAcceptsIfTrue(
      C,
      [&](const Expr *E) {
        std::optional<MemberChain> M = memberChainOf(E);
        return M &&
               isFieldOf(*M, Want, DLPackField::Version, DLPackField::Major);
      },
      Compiled->DebugOnlyAssertMacros, Ctx);
  return Accepts && *Accepts == Value;
}

/// Want (the strides, or the tensor) is tested as Test asks around
/// Site.Call, or names the caller's own export.
bool guardedAt(const CallSite &Site, const MemberChain &Want, CallerTest Test,
               const DLPackFieldCompiled *Compiled) {
  const Stmt *Body = Site.Caller->getBody();
  if (!Body)
    return false;
  AroundCall Scan(Site.Call);
  Scan.walk(Body);
  if (Scan.Refused || !Scan.Above)
    return false;
  if (ownTensorAt(Site, Want, Test, Scan, *Scan.Above))
    return true;
  if (Scan.WritesDLPackField)
    return false;
  GuardProof Proof(*Site.Caller, Scan.Written);
  const auto *Root = dyn_cast<VarDecl>(Want.Root);
  if (!Root || !Proof.localOf(Root) || Scan.Written.contains(Root))
    return false;
  if (ownExport(*Root, Compiled ? &Compiled->Exits : nullptr))
    return true;
  ASTContext &Ctx = Site.Caller->getASTContext();
  auto TestsWant = [&](const Expr *E) {
    std::optional<MemberChain> C = memberChainOf(E);
    return C && *C == Want;
  };
  auto Atom = [&](const Expr *C, bool Value) {
    if (Test == CallerTest::MajorSupported)
      return majorAtom(C, Value, Want, Compiled, Ctx);
    // `a.strides` tested as a pointer.
    if (Test == CallerTest::StridesNonNull && TestsWant(C))
      return Value;
    // `require_host(a)`, `is_compact(a)` false.
    if (const auto *Call = dyn_cast<CallExpr>(C))
      return Compiled && callProves(*Call, Value, Want, Test, *Compiled, Ctx);
    const auto *BO = dyn_cast<BinaryOperator>(C);
    if (!BO || !BO->isEqualityOp())
      return false;
    bool Equal = Value == (BO->getOpcode() == BO_EQ);
    // `a.device.device_type == kDLCPU`, `... != kDLCUDAHost` then leave.
    if (Test == CallerTest::HostDevice) {
      auto Compared = deviceTypeComparison(*BO, Ctx);
      return Compared && Compared->first == Want && Equal &&
             isHostAccessibleDeviceType(Compared->second);
    }
    // `a.strides != nullptr`, `a.strides == NULL`.
    const Expr *L = BO->getLHS(), *R = BO->getRHS();
    if (isNullConstant(L, Ctx))
      std::swap(L, R);
    if (!isNullConstant(R, Ctx) || !TestsWant(L))
      return false;
    return !Equal;
  };
  return Proof.guarded(*Scan.Above, Site.Call, Atom);
}

} // namespace

bool callerGuards(const FunctionDecl &FD, const Expr *Read, CallerTest Test,
                  const DLPackFieldCompiled *Compiled) {
  if (!Read)
    return false;
  std::optional<MemberChain> Path = memberChainOf(Read);
  DLPackField Wanted = Test == CallerTest::StridesNonNull ? DLPackField::Strides
                       : Test == CallerTest::HostDevice   ? DLPackField::Data
                                                        : DLPackField::DLTensor;
  if (!Path || Path->Fields.empty() ||
      classifyDLPackField(Path->Fields.back()) != Wanted)
    return false;
  // The device is tested on the tensor the data belongs to; the version on
  // the managed tensor.
  if (Test != CallerTest::StridesNonNull)
    Path->Fields.pop_back();
  const auto *Param = dyn_cast_or_null<ParmVarDecl>(Path->Root);
  const auto *Owner =
      Param ? dyn_cast<FunctionDecl>(Param->getDeclContext()) : nullptr;
  if (!Owner || Owner->getCanonicalDecl() != FD.getCanonicalDecl())
    return false;
  return everyCallVouches(
      FD, Param->getFunctionScopeIndex(),
      [&](const CallSite &Site, const Expr *Arg) {
        // A record passed by value is a copy of the argument's.
        std::optional<MemberChain> Want = memberChainOf(underCopies(Arg));
        if (!Want)
          return false;
        Want->Fields.append(Path->Fields.begin(), Path->Fields.end());
        return guardedAt(Site, *Want, Test, Compiled);
      },
      // A recursive descent passing the tensor on: vouched for by the
      // outside calls, unless the helper writes DLPack fields on the way.
      [](const CallSite &Site) {
        AroundCall Scan(Site.Call);
        Scan.walk(Site.Caller->getBody());
        return !Scan.Refused && !Scan.WritesDLPackField;
      });
}

} // namespace clang::interop
