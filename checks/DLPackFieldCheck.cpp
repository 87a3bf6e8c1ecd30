//===--- DLPackFieldCheck.cpp - shared driver of the DLPack flow checks ---===//

#include "DLPackFieldCheck.h"

#include "lib/abi/TranslationUnitNames.h"
#include "lib/engine/JudgedFunctions.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;
using namespace clang::interop;

namespace clang::tidy::interop {

DLPackFieldCheck::DLPackFieldCheck(StringRef Name, ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      ReportSkippedFunctions(Options.get("ReportSkippedFunctions", false)) {}

void DLPackFieldCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "ReportSkippedFunctions", ReportSkippedFunctions);
}

void DLPackFieldCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(judgedFunctionMatcher(), this);
}

void DLPackFieldCheck::onStartOfTranslationUnit() {
  // The facts are shared by the DLPack checks for one translation unit; a
  // new one starts afresh.
  clearDLPackFactsCache();
  MayUseDLPack.reset();
}

void DLPackFieldCheck::check(const MatchFinder::MatchResult &Result) {
  if (!MayUseDLPack)
    MayUseDLPack = translationUnitMayUseDLPack(*Result.Context);
  const auto *FD = Result.Nodes.getNodeAs<FunctionDecl>("fn");
  if (!*MayUseDLPack || !FD || !isJudgedFunction(*FD))
    return;
  const DLPackUse Use = dlpackUseOf(*FD); // two flags; copied
  checkUse(*FD, Use, *Result.Context);
  if (!Use.ReadsModelledFields)
    return;
  if (ConfigKey.empty())
    ConfigKey = Config.key();
  const DLPackFacts &Facts =
      getDLPackFacts(*FD, *Result.Context, Config, ConfigKey);
  if (Facts.Skipped == SkipReason::None)
    checkFacts(*FD, Facts, *Result.Context);
  else if (ReportSkippedFunctions && isGiveUp(Facts.Skipped))
    diag(FD->getLocation(), "function %0 was not analysed: %1")
        << FD << describeSkip(Facts.Skipped, Facts.Detail);
}

} // namespace clang::tidy::interop
