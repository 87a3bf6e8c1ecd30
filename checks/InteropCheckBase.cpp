//===--- InteropCheckBase.cpp - what every check base does ----------------===//

#include "InteropCheckBase.h"

#include "lib/engine/FactCache.h"
#include "lib/engine/JudgedFunctions.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;
using namespace clang::interop;

namespace clang::tidy::interop {

InteropCheckBase::InteropCheckBase(StringRef Name, ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      ReportSkippedFunctions(Options.get("ReportSkippedFunctions", false)) {}

void InteropCheckBase::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "ReportSkippedFunctions", ReportSkippedFunctions);
}

void InteropCheckBase::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(judgedFunctionMatcher(), this);
}

void InteropCheckBase::registerPPCallbacks(const SourceManager &,
                                           Preprocessor *PP, Preprocessor *) {
  if (PP)
    recordCompileErrors(*PP);
}

void InteropCheckBase::onStartOfTranslationUnit() {
  // Facts point into one translation unit's AST, and a new ASTContext may
  // be allocated where the last one was.
  resetFactCache();
}

bool InteropCheckBase::skipped(const FunctionDecl &FD, SkipReason Why,
                               StringRef Detail) {
  if (Why == SkipReason::None)
    return false;
  if (ReportSkippedFunctions && isGiveUp(Why))
    diag(FD.getLocation(), "function %0 was not analysed: %1")
        << &FD << describeSkip(Why, Detail);
  return true;
}

} // namespace clang::tidy::interop
