//===--- InteropCheckBase.h - what every check base does --------*- C++ -*-===//
//
// Every family's check base (ArrayDeviceCheckBase, DLPackFieldCheckBase,
// DLPackOwnershipCheckBase) matches the same functions, starts each
// translation unit with the one reset of lib/'s facts, runs its family within
// the same bounds, and reports a function the analysis gave up on in the same
// words when ReportSkippedFunctions asks. This base does those four things.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_CHECKS_INTEROPCHECKBASE_H
#define INTEROP_CHECKS_INTEROPCHECKBASE_H

#include "ClangTidyCheck.h"

#include "lib/engine/ExitConditions.h"
#include "lib/engine/FlowRunner.h"
#include "lib/engine/SkipReason.h"

namespace clang::tidy::interop {

class InteropCheckBase : public ClangTidyCheck {
public:
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  /// Matches the judged functions (lib/engine/JudgedFunctions.h), bound to
  /// "fn".
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  /// Records where the compiler reports errors, so that only the functions
  /// that contain one are skipped (lib/engine/JudgedFunctions.h).
  void registerPPCallbacks(const SourceManager &SM, Preprocessor *PP,
                           Preprocessor *ModuleExpanderPP) override;
  /// Forgets the facts of the last translation unit (resetFactCache()).
  void onStartOfTranslationUnit() override;
  /// Says, once per translation unit for all the checks together, how many
  /// functions were dropped at an analysis bound when ReportSkippedFunctions
  /// does not list them: a function the checks gave up on is never silent.
  void onEndOfTranslationUnit() override;

protected:
  InteropCheckBase(StringRef Name, ClangTidyContext *Context);

  /// Reads an option that lists declarations by the one rule of
  /// lib/support/NameLists.h (locally, or with Global also as a global
  /// option), and reports each entry that is not a valid regular expression:
  /// such an entry matches nothing.
  std::string nameListOption(StringRef Key, StringRef Default,
                             bool Global = false);

  /// True when the facts of FD were skipped (Why is not None); reports a
  /// give-up when ReportSkippedFunctions asks, and otherwise counts a
  /// function dropped at a bound for the end-of-file line.
  bool skipped(const FunctionDecl &FD, clang::interop::SkipReason Why,
               StringRef Detail);

  /// The bounds of every flow analysis the check's family runs: the options
  /// MaxSATIterations, MaxMilliseconds, MaxBlockVisits and MaxCFGBlocks
  /// (lib/engine/FlowRunner.h, FlowBounds), local or global, shown by
  /// --dump-config; each family's configuration key holds them.
  const clang::interop::FlowBounds &bounds() const { return Bounds; }
  /// The functions without a visible body that exit on a condition of their
  /// first argument (ThrowIfFunctions, RequireFunctions; local or global,
  /// shown by --dump-config): a callee contract of every family.
  const clang::interop::ExitConditionNames &exitConditionNames() const {
    return Exits;
  }

private:
  const bool ReportSkippedFunctions;
  clang::interop::FlowBounds Bounds;
  clang::interop::ExitConditionNames Exits;
};

} // namespace clang::tidy::interop

#endif // INTEROP_CHECKS_INTEROPCHECKBASE_H
