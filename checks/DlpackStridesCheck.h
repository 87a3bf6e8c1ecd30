//===--- DlpackStridesCheck.h - interop-dlpack-strides ----------*- C++ -*-===//
//
// Flags `strides` of a DLTensor dereferenced with no NULL check on that path,
// and data of a tensor whose non-NULL strides are never checked used as if
// compact.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_CHECKS_DLPACKSTRIDESCHECK_H
#define INTEROP_CHECKS_DLPACKSTRIDESCHECK_H

#include "ClangTidyCheck.h"

#include "lib/DLPackNames.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::interop {

class DlpackStridesCheck : public ClangTidyCheck {
public:
  DlpackStridesCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onStartOfTranslationUnit() override;

private:
  // Matches arrive once per DLPack field read; each function is judged once.
  llvm::DenseSet<const FunctionDecl *> Done;
  const std::string CompactConsumers;
  const bool CheckCompactUse;
  const bool ReportSkippedFunctions;
  clang::interop::QualifiedNameList Consumers;
};

} // namespace clang::tidy::interop

#endif // INTEROP_CHECKS_DLPACKSTRIDESCHECK_H
