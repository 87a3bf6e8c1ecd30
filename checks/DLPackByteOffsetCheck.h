//===--- DLPackByteOffsetCheck.h - interop-dlpack-byte-offset ---*- C++ -*-===//
//
// Flags `data` of a DLTensor used as the address of the first element without
// adding `byte_offset`.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_CHECKS_DLPACKBYTEOFFSETCHECK_H
#define INTEROP_CHECKS_DLPACKBYTEOFFSETCHECK_H

#include "DLPackFieldCheckBase.h"

#include "lib/support/NameLists.h"

namespace clang::tidy::interop {

class DLPackByteOffsetCheck : public DLPackFieldCheckBase {
public:
  DLPackByteOffsetCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

private:
  void checkFacts(const FunctionDecl &FD,
                  const clang::interop::DLPackFieldFacts &Facts,
                  ASTContext &Ctx) override;
  const std::string AddressConsumers;
  clang::interop::NameList Consumers;
};

} // namespace clang::tidy::interop

#endif // INTEROP_CHECKS_DLPACKBYTEOFFSETCHECK_H
