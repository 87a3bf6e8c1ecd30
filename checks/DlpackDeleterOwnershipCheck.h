//===--- DlpackDeleterOwnershipCheck.h - interop-dlpack-deleter-ownership -===//
//
// Flags a managed tensor obtained and then neither handed on nor deleted on
// some path, and a deleter called twice, through a by-value copy, or after
// ownership was handed on.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_CHECKS_DLPACKDELETEROWNERSHIPCHECK_H
#define INTEROP_CHECKS_DLPACKDELETEROWNERSHIPCHECK_H

#include "ClangTidyCheck.h"
#include "lib/OwnershipModel.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <vector>

namespace clang::tidy::interop {

class DlpackDeleterOwnershipCheck : public ClangTidyCheck {
public:
  DlpackDeleterOwnershipCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onStartOfTranslationUnit() override;
  void onEndOfTranslationUnit() override;

private:
  const std::string TensorSources;
  const std::string OwnershipTakingImporters;
  const bool ReportSkippedFunctions;
  clang::interop::OwnershipModelConfig Config;
  // Functions are judged at the end of the translation unit, once every
  // capsule destructor is known.
  llvm::SetVector<const FunctionDecl *> Functions;
  llvm::SmallPtrSet<const FunctionDecl *, 8> Destructors;
  ASTContext *Ctx = nullptr;
};

} // namespace clang::tidy::interop

#endif // INTEROP_CHECKS_DLPACKDELETEROWNERSHIPCHECK_H
