//===--- DLPackFieldCheckBase.cpp - base of the DLPack field checks -------===//

#include "DLPackFieldCheckBase.h"

#include "lib/engine/JudgedFunctions.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;
using namespace clang::interop;

namespace clang::tidy::interop {

DLPackFieldCheckBase::DLPackFieldCheckBase(StringRef Name,
                                           ClangTidyContext *Context)
    : InteropCheckBase(Name, Context) {
  Config.Bounds = bounds();
  Config.Exits = exitConditionNames();
}

void DLPackFieldCheckBase::check(const MatchFinder::MatchResult &Result) {
  const auto *FD = Result.Nodes.getNodeAs<FunctionDecl>("fn");
  if (!FD || !isJudgedFunction(*FD))
    return;
  DLPackFieldQuery &Q = Query ? *Query : Query.emplace(Config);
  ASTContext &Ctx = *Result.Context;
  const DLPackUse Use = Q.use(*FD, Ctx); // two flags; copied
  checkUse(*FD, Use, Ctx);
  const DLPackFieldFacts &Facts = Q.facts(*FD, Ctx);
  if (!skipped(*FD, Facts.Skipped, Facts.Detail))
    checkFacts(*FD, Facts, Ctx);
}

} // namespace clang::tidy::interop
