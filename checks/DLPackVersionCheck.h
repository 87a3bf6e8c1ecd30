//===--- DLPackVersionCheck.h - interop-dlpack-version ----------*- C++ -*-===//
//
// Flags fields of a DLManagedTensorVersioned used with no check of
// version.major on that path (including a check that exists only inside
// assert), and writes through data of a versioned tensor without checking its
// READ_ONLY flag.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_CHECKS_DLPACKVERSIONCHECK_H
#define INTEROP_CHECKS_DLPACKVERSIONCHECK_H

#include "DLPackFieldCheckBase.h"

#include "lib/dlpackfields/DLPackFieldFacts.h"

namespace clang::tidy::interop {

class DLPackVersionCheck : public DLPackFieldCheckBase {
public:
  DLPackVersionCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

private:
  void checkFacts(const FunctionDecl &FD,
                  const clang::interop::DLPackFieldFacts &Facts,
                  ASTContext &Ctx) override;
  const std::string DebugOnlyAssertMacros;
  const bool CheckReadOnly;
};

} // namespace clang::tidy::interop

#endif // INTEROP_CHECKS_DLPACKVERSIONCHECK_H
