//===--- DlpackByteOffsetCheck.h - interop-dlpack-byte-offset ---*- C++ -*-===//
//
// Flags `data` of a DLTensor used as the address of the first element without
// adding `byte_offset`.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_CHECKS_DLPACKBYTEOFFSETCHECK_H
#define INTEROP_CHECKS_DLPACKBYTEOFFSETCHECK_H

#include "ClangTidyCheck.h"

#include "lib/DLPackNames.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::tidy::interop {

class DlpackByteOffsetCheck : public ClangTidyCheck {
public:
  DlpackByteOffsetCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onStartOfTranslationUnit() override;

private:
  // Matches arrive once per DLPack field read; each function is judged once.
  llvm::DenseSet<const FunctionDecl *> Done;
  const std::string AddressConsumers;
  const bool ReportSkippedFunctions;
  clang::interop::QualifiedNameList Consumers;
};

} // namespace clang::tidy::interop

#endif // INTEROP_CHECKS_DLPACKBYTEOFFSETCHECK_H
