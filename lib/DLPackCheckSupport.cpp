//===--- DLPackCheckSupport.cpp - what every DLPack check does ------------===//

#include "DLPackCheckSupport.h"

using namespace clang::ast_matchers;

namespace clang::interop {

DeclarationMatcher dlpackFunctionMatcher() {
  return functionDecl(isDefinition(), unless(isExpansionInSystemHeader()),
                      unless(isImplicit()), unless(isDefaulted()))
      .bind("fn");
}

bool isJudgedDefinition(const FunctionDecl &FD) {
  return FD.hasBody() && !FD.isDependentContext() && !FD.isInvalidDecl();
}

} // namespace clang::interop
