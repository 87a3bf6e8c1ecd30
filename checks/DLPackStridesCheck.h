//===--- DLPackStridesCheck.h - interop-dlpack-strides ----------*- C++ -*-===//
//
// Flags `strides` of a DLTensor dereferenced with no NULL check on that path,
// and data of a tensor whose non-NULL strides are never checked used as if
// compact.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_CHECKS_DLPACKSTRIDESCHECK_H
#define INTEROP_CHECKS_DLPACKSTRIDESCHECK_H

#include "DLPackFieldCheckBase.h"

#include "lib/support/NameLists.h"

namespace clang::tidy::interop {

class DLPackStridesCheck : public DLPackFieldCheckBase {
public:
  DLPackStridesCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

private:
  void checkFacts(const FunctionDecl &FD,
                  const clang::interop::DLPackFieldFacts &Facts,
                  ASTContext &Ctx) override;
  const std::string CompactConsumers;
  const bool CheckCompactUse;
  clang::interop::NameList Consumers;
};

} // namespace clang::tidy::interop

#endif // INTEROP_CHECKS_DLPACKSTRIDESCHECK_H
