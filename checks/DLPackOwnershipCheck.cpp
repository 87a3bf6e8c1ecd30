//===--- DLPackOwnershipCheck.cpp - shared driver of the ownership checks -===//

#include "DLPackOwnershipCheck.h"

#include "lib/abi/TranslationUnitNames.h"
#include "lib/engine/JudgedFunctions.h"
#include "lib/support/NameLists.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"

#include <vector>

using namespace clang::ast_matchers;
using namespace clang::interop;

namespace clang::tidy::interop {

DLPackOwnershipCheck::DLPackOwnershipCheck(StringRef Name,
                                           ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      OwnershipTakingImporters(Options.getLocalOrGlobal(
          "OwnershipTakingImporters",
          llvm::join(OwnershipModelConfig().OwnershipTakingImporters, ";"))),
      ReportSkippedFunctions(Options.get("ReportSkippedFunctions", false)) {
  Config.OwnershipTakingImporters = optionStrings(OwnershipTakingImporters);
}

void DLPackOwnershipCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "OwnershipTakingImporters", OwnershipTakingImporters);
  Options.store(Opts, "ReportSkippedFunctions", ReportSkippedFunctions);
}

void DLPackOwnershipCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(judgedFunctionMatcher(), this);
}

void DLPackOwnershipCheck::onStartOfTranslationUnit() {
  // The ownership facts are shared by both checks for one translation unit;
  // a new one starts afresh.
  Functions.clear();
  Destructors.clear();
  clearOwnershipFactsCache();
  MayUseDLPack.reset();
}

void DLPackOwnershipCheck::check(const MatchFinder::MatchResult &Result) {
  Ctx = Result.Context;
  if (!MayUseDLPack)
    MayUseDLPack = translationUnitMayUseDLPack(*Ctx);
  const auto *FD = Result.Nodes.getNodeAs<FunctionDecl>("fn");
  if (*MayUseDLPack && FD && isJudgedFunction(*FD) && mentionsOwnership(*FD))
    Functions.insert(FD);
}

void DLPackOwnershipCheck::onEndOfTranslationUnit() {
  std::vector<const FunctionDecl *> Work(Functions.begin(), Functions.end());
  Functions.clear();
  // Every destructor is known before any function is judged.
  std::vector<CapsuleSites> Sites;
  Sites.reserve(Work.size());
  for (const FunctionDecl *FD : Work) {
    Sites.push_back(findCapsuleSites(FD->getBody()));
    for (const CallExpr *Call : Sites.back().CapsuleCalls) {
      CapsuleCall K = classifyCapsuleCall(Call);
      unsigned DestructorArg = K == CapsuleCall::New             ? 2
                               : K == CapsuleCall::SetDestructor ? 1
                                                                 : ~0u;
      if (DestructorArg < Call->getNumArgs())
        if (const FunctionDecl *D =
                destructorFunction(Call->getArg(DestructorArg)))
          Destructors.insert(D->getCanonicalDecl());
    }
  }
  // A lambda's body is walked with its enclosing function and on its own.
  llvm::DenseSet<const Stmt *> Judged;
  for (size_t I = 0; I < Work.size(); ++I) {
    const FunctionDecl &FD = *Work[I];
    for (const CallExpr *Call : Sites[I].CapsuleCalls)
      if (Judged.insert(Call).second)
        checkCapsuleCall(*Call, classifyCapsuleCall(Call), *Ctx);
    for (const CallExpr *Call : Sites[I].DeleterCalls)
      if (Judged.insert(Call).second)
        checkDeleterCall(*Call, *Ctx);
    for (auto [Cast, Call] : Sites[I].PointerCasts)
      if (Judged.insert(Cast).second)
        checkPointerCast(*Cast, *Call, *Ctx);
    bool IsDestructor = Destructors.contains(FD.getCanonicalDecl());
    if (ConfigKey.empty())
      ConfigKey = Config.key();
    checkFunction(FD, IsDestructor, *Ctx);
    const OwnershipFacts &Facts =
        getOwnershipFacts(FD, *Ctx, IsDestructor, Config, ConfigKey);
    if (Facts.Skipped == SkipReason::None)
      checkFacts(FD, Facts, *Ctx);
    else if (ReportSkippedFunctions && isGiveUp(Facts.Skipped))
      diag(FD.getLocation(), "function %0 was not analysed: %1")
          << &FD << describeSkip(Facts.Skipped, Facts.Detail);
  }
  Destructors.clear();
}

} // namespace clang::tidy::interop
