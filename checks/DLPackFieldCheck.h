//===--- DLPackFieldCheck.h - driver of the DLPack flow checks -*- C++ -*-===//
//
// interop-dlpack-byte-offset, -strides, -version and
// interop-unsupported-dlpack-device read the same facts
// (lib/dlpackfields/DLPackFieldModel.h) and differ only in which events they
// report and how they word them. This base matches function definitions,
// applies the pre-filter, fetches the facts (computed once per function and
// configuration for all four), reports a skipped function when
// ReportSkippedFunctions asks, and hands the facts to the check.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_CHECKS_DLPACKFIELDCHECK_H
#define INTEROP_CHECKS_DLPACKFIELDCHECK_H

#include "ClangTidyCheck.h"

#include "lib/dlpackfields/DLPackFieldModel.h"

#include <optional>

namespace clang::tidy::interop {

class DLPackFieldCheck : public ClangTidyCheck {
public:
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) final;
  void onStartOfTranslationUnit() override;

protected:
  DLPackFieldCheck(StringRef Name, ClangTidyContext *Context);

  /// Every judged function, before its facts: for findings that need no flow
  /// analysis (what the pre-filter saw is in `Use`).
  virtual void checkUse(const FunctionDecl &FD,
                        const clang::interop::DLPackUse &Use, ASTContext &Ctx) {
  }
  /// Reports what the facts of an analysed function show.
  virtual void checkFacts(const FunctionDecl &FD,
                          const clang::interop::DLPackFacts &Facts,
                          ASTContext &Ctx) = 0;

  /// The model's configuration; a check's options adjust it in its
  /// constructor. Checks with equal configurations share one analysis.
  clang::interop::DLPackModelConfig Config;

private:
  const bool ReportSkippedFunctions;
  /// Config.key(), built on first use (Config is final by then).
  std::string ConfigKey;
  /// translationUnitMayUseDLPack, once per translation unit.
  std::optional<bool> MayUseDLPack;
};

} // namespace clang::tidy::interop

#endif // INTEROP_CHECKS_DLPACKFIELDCHECK_H
