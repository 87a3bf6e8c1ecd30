//===--- DLPackHostGuards.cpp - calls that prove host memory --------------===//

#include "lib/dlpackfields/DLPackHostGuards.h"

namespace clang::interop {

const Expr *hostGuardArgument(const CallExpr &E, const NameList &HostGuards) {
  // bool is_host(const DLDevice &), bool IsCPU(const DLTensor *), ...
  const FunctionDecl *Callee = E.getDirectCallee();
  if (!Callee || !Callee->getIdentifier() || E.getNumArgs() != 1 ||
      !E.getType()->isBooleanType() || !E.isPRValue())
    return nullptr;
  if (!HostGuards.matches(Callee))
    return nullptr;
  // A DLDevice passed by value is a copy of the device the guard tests.
  return helperArgument(E);
}

std::optional<HostGuardCall> hostGuardCall(const CallExpr &E,
                                           const NameList &HostGuards,
                                           DLPackHelperSummaries *Summaries,
                                           ASTContext &Ctx) {
  // check_on_host(t, "name"): returns only for host memory.
  if (E.getType()->isVoidType()) {
    const DLPackHelperSummary *S = Summaries ? Summaries->of(E, Ctx) : nullptr;
    if (!S || !S->HostIfReturns)
      return std::nullopt;
    HostGuardCall G{helperArgument(E), false, false, false};
    G.IfReturns = true;
    return G;
  }
  if (!E.getType()->isBooleanType() || !E.isPRValue())
    return std::nullopt;
  if (const DLPackHelperSummary *S =
          Summaries ? Summaries->of(E, Ctx) : nullptr) {
    // The body decides, whatever the function's name.
    if (!S->HostIfTrue && !S->HostIfFalse)
      return std::nullopt;
    return HostGuardCall{helperArgument(E), S->HostIfTrue, S->HostIfFalse,
                         false};
  }
  if (const Expr *Arg = hostGuardArgument(E, HostGuards))
    return HostGuardCall{Arg, true, false, true};
  return std::nullopt;
}

} // namespace clang::interop
