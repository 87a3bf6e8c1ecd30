//===--- JudgedFunctions.cpp - the functions the checks judge -------------===//

#include "lib/engine/JudgedFunctions.h"

using namespace clang::ast_matchers;

namespace clang::interop {

DeclarationMatcher judgedFunctionMatcher() {
  return functionDecl(isDefinition(), unless(isExpansionInSystemHeader()),
                      unless(isImplicit()), unless(isDefaulted()))
      .bind("fn");
}

/// A template pattern, or a function inside one (a hidden friend of a
/// class template is templated without being in a dependent context).
static bool isTemplatePattern(const FunctionDecl &FD) {
  return FD.isDependentContext() || FD.isTemplated();
}

bool isJudgedFunction(const FunctionDecl &FD) {
  return FD.hasBody() && !isTemplatePattern(FD) && !FD.isInvalidDecl();
}

SkipReason whyNotAnalysable(const FunctionDecl &FD) {
  if (!FD.doesThisDeclarationHaveABody() || !FD.getBody())
    return SkipReason::NoBody;
  if (isTemplatePattern(FD))
    return SkipReason::Dependent;
  if (FD.isInvalidDecl() ||
      FD.getASTContext().getDiagnostics().hasUncompilableErrorOccurred())
    return SkipReason::InvalidCode;
  return SkipReason::None;
}

} // namespace clang::interop
