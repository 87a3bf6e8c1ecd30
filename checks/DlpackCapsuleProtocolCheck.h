//===--- DlpackCapsuleProtocolCheck.h - interop-dlpack-capsule-protocol ---===//
//
// Flags DLPack capsules created with the wrong name or the wrong struct for
// their name; consumers that take the pointer without checking the name, never
// rename the capsule to its used_ name, or rename it before the import has
// succeeded; and capsule destructors that call the deleter without checking
// that the capsule is unconsumed or that clear an exception in flight.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_CHECKS_DLPACKCAPSULEPROTOCOLCHECK_H
#define INTEROP_CHECKS_DLPACKCAPSULEPROTOCOLCHECK_H

#include "ClangTidyCheck.h"
#include "lib/OwnershipModel.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <vector>

namespace clang::tidy::interop {

class DlpackCapsuleProtocolCheck : public ClangTidyCheck {
public:
  DlpackCapsuleProtocolCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onStartOfTranslationUnit() override;
  void onEndOfTranslationUnit() override;

private:
  const std::string OwnershipTakingImporters;
  const bool ReportSkippedFunctions;
  clang::interop::OwnershipModelConfig Config;
  llvm::SetVector<const FunctionDecl *> Functions;
  llvm::SmallPtrSet<const FunctionDecl *, 8> Destructors;
  ASTContext *Ctx = nullptr;
};

} // namespace clang::tidy::interop

#endif // INTEROP_CHECKS_DLPACKCAPSULEPROTOCOLCHECK_H
