//===--- DLPackCheckSupport.cpp - what every DLPack check does ------------===//

#include "DLPackCheckSupport.h"

#include "DLPackFields.h"

using namespace clang::ast_matchers;

namespace clang::interop {

namespace {
AST_MATCHER(MemberExpr, isDLPackModelRead) {
  const auto *FD = dyn_cast<FieldDecl>(Node.getMemberDecl());
  switch (classifyDLPackField(FD)) {
  case DLPackField::Data:
  case DLPackField::Strides:
  case DLPackField::DeviceType:
    return true;
  case DLPackField::DLTensor:
  case DLPackField::Flags:
    return dlpackOwnerOf(FD) == DLPackRecord::ManagedTensorVersioned;
  default:
    return false;
  }
}

} // namespace

StatementMatcher dlpackFieldUseMatcher() {
  return memberExpr(
      isDLPackModelRead(), unless(isExpansionInSystemHeader()),
      forFunction(functionDecl(isDefinition(), unless(isImplicit()),
                               unless(isDefaulted()))
                      .bind("fn")));
}

DeclarationMatcher dlpackFunctionMatcher() {
  return functionDecl(isDefinition(), unless(isExpansionInSystemHeader()),
                      unless(isImplicit()), unless(isDefaulted()))
      .bind("fn");
}

const DLPackFacts *dlpackFactsFor(const MatchFinder::MatchResult &Result,
                                  const DLPackModelConfig &Config) {
  const auto *FD = Result.Nodes.getNodeAs<FunctionDecl>("fn");
  if (!FD || !FD->hasBody())
    return nullptr;
  // Uninstantiated templates are analysed per instance; invalid code is
  // reported by the compiler itself.
  if (FD->isDependentContext() || FD->isInvalidDecl())
    return nullptr;
  if (!mentionsDLPack(*FD))
    return nullptr;
  return &getDLPackFacts(*FD, *Result.Context, Config);
}

std::string describeSkippedFunction(const FunctionDecl &FD,
                                    const DLPackFacts &Facts) {
  std::string S = "function '" + FD.getNameAsString() +
                  "' was not analysed: " + describeSkip(Facts.Skipped);
  if (!Facts.Detail.empty())
    S += " (" + Facts.Detail + ")";
  return S;
}

} // namespace clang::interop
