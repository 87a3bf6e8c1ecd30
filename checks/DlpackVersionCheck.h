//===--- DlpackVersionCheck.h - interop-dlpack-version ----------*- C++ -*-===//
//
// Flags fields of a DLManagedTensorVersioned used with no check of
// version.major on that path (including a check that exists only inside
// assert), and writes through data of a versioned tensor without checking its
// READ_ONLY flag.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_CHECKS_DLPACKVERSIONCHECK_H
#define INTEROP_CHECKS_DLPACKVERSIONCHECK_H

#include "ClangTidyCheck.h"

#include "lib/DLPackFlowModel.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::interop {

class DlpackVersionCheck : public ClangTidyCheck {
public:
  DlpackVersionCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onStartOfTranslationUnit() override;

private:
  // Matches arrive once per DLPack field read; each function is judged once.
  llvm::DenseSet<const FunctionDecl *> Done;
  const std::string DebugOnlyAssertMacros;
  const bool CheckReadOnly;
  const bool ReportSkippedFunctions;
  clang::interop::DLPackModelConfig Config;
};

} // namespace clang::tidy::interop

#endif // INTEROP_CHECKS_DLPACKVERSIONCHECK_H
