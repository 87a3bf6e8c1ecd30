//===--- Releases.cpp - what releases a managed tensor --------------------===//

#include "lib/ownership/Releases.h"

#include "lib/abi/CapsuleAPI.h"
#include "lib/abi/DLPackFields.h"
#include "lib/ownership/OwnershipSites.h"
#include "lib/support/AstHelpers.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace clang::interop::ownership {

bool isManagerCtx(const Expr *E) {
  return E &&
         dlpackFieldOfMember(E->IgnoreParenCasts()) == DLPackField::ManagerCtx;
}

/// The parameter a release function releases: its only one, a pointer to a
/// managed tensor.
static const ParmVarDecl *releasedParameter(const FunctionDecl *FD) {
  if (!FD || FD->getNumParams() != 1 ||
      !isManagedPointer(FD->getParamDecl(0)->getType()))
    return nullptr;
  return FD->getParamDecl(0);
}

bool mayBeReleaseCall(const CallExpr *Call) {
  if (!Call || Call->getNumArgs() != 1)
    return false;
  const FunctionDecl *Callee = Call->getDirectCallee();
  return releasedParameter(Callee) && Callee->hasBody();
}

namespace {

/// Whether a body releases one parameter (P) or, with P null, any managed
/// tensor (a capsule destructor's duty).
class ReleaseFinder : public RecursiveASTVisitor<ReleaseFinder> {
public:
  ReleaseFinder(const ParmVarDecl *P, int Depth, ReleaseFunctions *Known)
      : P(P), Depth(Depth), Known(Known) {}
  bool Found = false;

  bool VisitCallExpr(CallExpr *Call) {
    const Expr *Base = nullptr;
    if (isDeleterCall(Call, &Base))
      return note(names(Base) || names(Call->getArg(0)));
    for (const Expr *Arg : Call->arguments())
      // The producer's bookkeeping: free(t->manager_ctx),
      // handle_dec_ref((Handle *)t->manager_ctx).
      if (isManagerCtx(Arg) && names(managerCtxOwner(Arg)))
        return note(true);
    if (isRawDeallocation(Call) && Call->getNumArgs() == 1 && P &&
        names(Call->getArg(0)))
      return note(true);
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || Call->getNumArgs() != 1 || !names(Call->getArg(0)))
      return true;
    if (!P && !Callee->hasBody() &&
        (isManagedPointer(Call->getArg(0)->IgnoreParenImpCasts()->getType()) ||
         isManagedPointer(Call->getArg(0)->getType())))
      return note(true); // may release it: its body is not visible
    if (Depth > 0 && releasedParameter(Callee)) {
      bool Releases = Known ? Known->isReleaseFunction(Callee)
                            : ReleaseFinder::releases(Callee, Depth - 1);
      if (Releases)
        return note(true);
    }
    return true;
  }
  bool VisitCXXDeleteExpr(CXXDeleteExpr *E) {
    const Expr *Arg = E->getArgument();
    if (isManagerCtx(Arg) && names(managerCtxOwner(Arg)))
      return note(true);
    if (P && names(Arg))
      return note(true);
    return true;
  }
  static bool releases(const FunctionDecl *FD, int Depth,
                       ReleaseFunctions *Known = nullptr) {
    const ParmVarDecl *P = releasedParameter(FD);
    const FunctionDecl *Def = FD ? FD->getDefinition() : nullptr;
    if (!P || !Def || !Def->getBody())
      return false;
    ReleaseFinder F(Def->getParamDecl(0), Depth, Known);
    F.TraverseStmt(Def->getBody());
    return F.Found;
  }

private:
  static const Expr *managerCtxOwner(const Expr *ManagerCtx) {
    return cast<MemberExpr>(ManagerCtx->IgnoreParenCasts())->getBase();
  }
  /// E names the parameter judged (any expression when there is none).
  bool names(const Expr *E) const {
    if (!E)
      return false;
    if (!P)
      return true;
    return referencedDecl(E) == P;
  }
  bool note(bool Releases) {
    if (Releases)
      Found = true;
    return !Found;
  }

  const ParmVarDecl *P;
  int Depth;
  ReleaseFunctions *Known;
};

} // namespace

bool ReleaseFunctions::isReleaseFunction(const FunctionDecl *FD) {
  if (!FD)
    return false;
  FD = FD->getCanonicalDecl();
  auto [It, New] = Known.try_emplace(FD, false);
  if (New)
    It->second = ReleaseFinder::releases(FD, /*Depth=*/1);
  return It->second;
}

bool ReleaseFunctions::isReleaseCall(const CallExpr *Call) {
  if (isDeleterCall(Call))
    return true;
  return mayBeReleaseCall(Call) && isReleaseFunction(Call->getDirectCallee());
}

bool callsDeleter(const FunctionDecl *FD) {
  if (!FD)
    return false;
  const FunctionDecl *Def = FD->getDefinition();
  if (!Def || !Def->getBody())
    return true; // unknown: assume it does
  ReleaseFinder F(/*P=*/nullptr, /*Depth=*/1, /*Known=*/nullptr);
  F.TraverseStmt(Def->getBody());
  if (F.Found)
    return true;
  // One level into direct callees: a destructor that calls a helper that
  // releases the tensor.
  class Callees : public RecursiveASTVisitor<Callees> {
  public:
    bool Found = false;
    bool VisitCallExpr(CallExpr *Call) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      const FunctionDecl *Def = Callee ? Callee->getDefinition() : nullptr;
      if (!Def || !Def->getBody())
        return true;
      ReleaseFinder Inner(/*P=*/nullptr, /*Depth=*/0, /*Known=*/nullptr);
      Inner.TraverseStmt(Def->getBody());
      Found = Inner.Found;
      return !Found;
    }
  } C;
  C.TraverseStmt(Def->getBody());
  return C.Found;
}

} // namespace clang::interop::ownership
