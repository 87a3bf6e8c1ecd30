//===--- DLPackCallerGuards.cpp - strides tested by every caller ----------===//

#include "lib/dlpackfields/DLPackCallerGuards.h"

#include "lib/abi/DLPackFields.h"
#include "lib/engine/CallSites.h"
#include "lib/engine/GuardEngine.h"
#include "lib/support/AstHelpers.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"

#include <optional>

namespace clang::interop {
namespace {

/// Local references followed to what they are bound to.
constexpr unsigned MaxReferenceHops = 4;

/// A member chain from a variable: `mt->dl_tensor.strides` is mt followed by
/// dl_tensor and strides. `*p`, `&x`, `p->` and local references bound to a
/// chain leave it as it is.
struct Chain {
  const ValueDecl *Root = nullptr;
  llvm::SmallVector<const FieldDecl *, 4> Fields;
};

std::optional<Chain> chainOf(const Expr *E, unsigned Hops = 0) {
  llvm::SmallVector<const FieldDecl *, 4> Reversed;
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
      if (!FD)
        return std::nullopt;
      Reversed.push_back(FD);
      E = ME->getBase();
      continue;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E);
        UO && (UO->getOpcode() == UO_Deref || UO->getOpcode() == UO_AddrOf)) {
      E = UO->getSubExpr();
      continue;
    }
    break;
  }
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E);
  if (!DRE)
    return std::nullopt;
  Chain C;
  const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
  if (VD && !isa<ParmVarDecl>(VD) && VD->getType()->isReferenceType() &&
      VD->getInit() && Hops < MaxReferenceHops) {
    std::optional<Chain> Inner = chainOf(VD->getInit(), Hops + 1);
    if (!Inner)
      return std::nullopt;
    C = *Inner;
  } else {
    C.Root = DRE->getDecl();
  }
  C.Fields.append(Reversed.rbegin(), Reversed.rend());
  return C;
}

bool sameChain(const Chain &A, const Chain &B) {
  return A.Root == B.Root && A.Fields == B.Fields;
}

/// Finds the statements around one call and whether the caller assigns a
/// DLPack field anywhere.
class AroundCall : public GuardScan {
public:
  explicit AroundCall(const CallExpr *Call) : Call(Call) {}
  std::optional<StmtChain> Above;
  bool WritesDLPackField = false;

private:
  void inspect(const Stmt *S) override {
    if (S == Call)
      Above = Stack;
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
  const CallExpr *Call;
};

/// The strides of Want are tested non-NULL around Site.Call.
bool guardedAt(const CallSite &Site, const Chain &Want) {
  const Stmt *Body = Site.Caller->getBody();
  if (!Body)
    return false;
  AroundCall Scan(Site.Call);
  Scan.walk(Body);
  if (Scan.Refused || !Scan.Above || Scan.WritesDLPackField)
    return false;
  GuardProof Proof(*Site.Caller, Scan.Written);
  const auto *Root = dyn_cast<VarDecl>(Want.Root);
  if (!Root || !Proof.localOf(Root) || Scan.Written.contains(Root))
    return false;
  auto TestsWant = [&](const Expr *E) {
    std::optional<Chain> C = chainOf(E);
    return C && sameChain(*C, Want);
  };
  auto Atom = [&](const Expr *C, bool Value) {
    // `a.strides` tested as a pointer.
    if (TestsWant(C))
      return Value;
    // `a.strides != nullptr`, `a.strides == NULL`.
    const auto *BO = dyn_cast<BinaryOperator>(C);
    if (!BO || !BO->isEqualityOp())
      return false;
    ASTContext &Ctx = Site.Caller->getASTContext();
    const Expr *L = BO->getLHS(), *R = BO->getRHS();
    if (isNullConstant(L, Ctx))
      std::swap(L, R);
    if (!isNullConstant(R, Ctx) || !TestsWant(L))
      return false;
    return Value == (BO->getOpcode() == BO_NE);
  };
  return Proof.guarded(*Scan.Above, Site.Call, Atom);
}

} // namespace

bool callerGuardsStrides(const FunctionDecl &FD, const Expr *Read) {
  if (!Read || FD.isExternallyVisible() || isa<CXXMethodDecl>(FD) ||
      FD.getTemplatedKind() != FunctionDecl::TK_NonTemplate)
    return false;
  std::optional<Chain> Path = chainOf(Read);
  if (!Path || Path->Fields.empty() ||
      classifyDLPackField(Path->Fields.back()) != DLPackField::Strides)
    return false;
  const auto *Param = dyn_cast_or_null<ParmVarDecl>(Path->Root);
  const auto *Owner =
      Param ? dyn_cast<FunctionDecl>(Param->getDeclContext()) : nullptr;
  if (!Owner || Owner->getCanonicalDecl() != FD.getCanonicalDecl())
    return false;
  unsigned Index = Param->getFunctionScopeIndex();
  const FunctionReferences &Refs = referencesOf(FD);
  if (Refs.Calls.empty() || Refs.Calls.size() > MaxGuardedCallSites ||
      Refs.OtherReferences != 0)
    return false;
  for (const CallSite &Site : Refs.Calls) {
    if (Index >= Site.Call->getNumArgs())
      return false;
    std::optional<Chain> Want = chainOf(Site.Call->getArg(Index));
    if (!Want)
      return false;
    Want->Fields.append(Path->Fields.begin(), Path->Fields.end());
    if (!guardedAt(Site, *Want))
      return false;
  }
  return true;
}

} // namespace clang::interop
