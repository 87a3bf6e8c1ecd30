//===--- DLPackFieldConfig.cpp - options of the field model ---------------===//

#include "lib/dlpackfields/DLPackFieldConfig.h"

#include "lib/dlpackfields/DLPackHelperSummaries.h"
#include "lib/engine/FactCache.h"

#include "clang/AST/ExprCXX.h"

namespace clang::interop {

DLPackFieldCompiled
DLPackFieldCompiled::compile(const DLPackFieldConfig &Config) {
  DLPackFieldCompiled Out;
  Out.HostGuards =
      FunctionNameList(Config.HostDeviceGuards, NameSpelling::Identifier);
  Out.Importers = FunctionNameList(Config.ImportFunctions);
  Out.Summaries = std::make_shared<DLPackHelperSummaries>();
  return Out;
}

std::string DLPackFieldConfig::key() const {
  std::string K;
  appendListToKey(K, DebugOnlyAssertMacros);
  appendListToKey(K, HostDeviceGuards);
  appendListToKey(K, ImportFunctions);
  appendToKey(K, Bounds.key());
  appendToKey(K, SyntacticProofs ? "syntax" : "flow");
  return K;
}

const Expr *hostGuardArgument(const CallExpr &E,
                              const FunctionNameList &HostGuards) {
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

} // namespace clang::interop
