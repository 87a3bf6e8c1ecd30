//===--- InteropCheckBase.cpp - what every check base does ----------------===//

#include "InteropCheckBase.h"

#include "lib/engine/FactCache.h"
#include "lib/engine/JudgedFunctions.h"
#include "lib/support/NameLists.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"

#include <string>
#include <type_traits>

using namespace clang::ast_matchers;
using namespace clang::interop;

namespace clang::tidy::interop {

namespace {
/// The functions of this translation unit dropped at an analysis bound that
/// no check listed (ReportSkippedFunctions off), for every interop check
/// together: the checks share one analysis per function, so one line says
/// it for all of them.
struct BoundSkips {
  llvm::SmallPtrSet<const FunctionDecl *, 4> Functions;
  const FunctionDecl *First = nullptr;
  std::string Why;
  /// How many were reported (a check that judges its functions at the end
  /// of the file may add some after another check reported).
  size_t Reported = 0;
};
BoundSkips &boundSkips() {
  static BoundSkips S;
  return S;
}
} // namespace

InteropCheckBase::InteropCheckBase(StringRef Name, ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      ReportSkippedFunctions(Options.get("ReportSkippedFunctions", false)) {
  // The bounds are read as global options too, so that one setting serves
  // every check (checks with equal options share one analysis per function).
  Bounds.forEachOption([&](StringRef Key, auto &Value) {
    using T = std::remove_reference_t<decltype(Value)>;
    T Read = Options.getLocalOrGlobal(Key, Value);
    // 0 disables the time bound only; the others need a positive budget.
    bool Valid = Key == "MaxMilliseconds" ? Read >= 0 : Read > 0;
    if (Valid)
      Value = Read;
    else
      configurationDiag("invalid value '%0' for option '%1' of check '%2': "
                        "it must be %3; using %4")
          << std::to_string(Read) << Key << Name
          << (Key == "MaxMilliseconds" ? "0 or more" : "positive")
          << std::to_string(Value);
  });
  // Read as global options too: one list serves every check.
  Exits.forEachOption([&](StringRef Key, std::vector<std::string> &List) {
    List = optionStrings(
        nameListOption(Key, llvm::join(List, ";"), /*Global=*/true));
  });
}

std::string InteropCheckBase::nameListOption(StringRef Key, StringRef Default,
                                             bool Global) {
  std::string Value = (Global ? Options.getLocalOrGlobal(Key, Default)
                              : Options.get(Key, Default))
                          .str();
  std::vector<std::string> Errors;
  NameList::fromOption(Value, &Errors);
  for (const std::string &E : Errors)
    configurationDiag("invalid regular expression in option '%0' of check "
                      "'%1': %2; the entry matches nothing")
        << Key << getID() << E;
  return Value;
}

void InteropCheckBase::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "ReportSkippedFunctions", ReportSkippedFunctions);
  Bounds.forEachOption(
      [&](StringRef Key, auto &Value) { Options.store(Opts, Key, Value); });
  Exits.forEachOption([&](StringRef Key, std::vector<std::string> &List) {
    Options.store(Opts, Key, llvm::join(List, ";"));
  });
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
  boundSkips() = BoundSkips();
}

void InteropCheckBase::onEndOfTranslationUnit() {
  BoundSkips &S = boundSkips();
  if (S.Functions.size() <= S.Reported)
    return;
  size_t N = S.Functions.size() - S.Reported;
  S.Reported = S.Functions.size();
  diag(S.First->getLocation(),
       "%0 function%s0 of this file %select{was|were}1 not analysed by the "
       "interop checks, starting with %2: %3; set ReportSkippedFunctions to "
       "list them, or raise the bound")
      << static_cast<unsigned>(N) << (N > 1) << S.First << S.Why;
}

bool InteropCheckBase::skipped(const FunctionDecl &FD, SkipReason Why,
                               StringRef Detail) {
  if (Why == SkipReason::None)
    return false;
  if (ReportSkippedFunctions && isGiveUp(Why)) {
    diag(FD.getLocation(), "function %0 was not analysed: %1")
        << &FD << describeSkip(Why, Detail);
  } else if (Why == SkipReason::TooLarge || Why == SkipReason::BoundExceeded) {
    BoundSkips &S = boundSkips();
    if (S.Functions.insert(FD.getCanonicalDecl()).second && !S.First) {
      S.First = &FD;
      S.Why = describeSkip(Why, Detail);
    }
  }
  return true;
}

} // namespace clang::tidy::interop
