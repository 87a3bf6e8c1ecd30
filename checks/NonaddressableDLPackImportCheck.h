//===--- NonaddressableDLPackImportCheck.h - other devices ------*- C++ -*-===//
//
// Flags `from_dlpack` onto a device taken from an all-process device list or
// lookup with no addressability check on that path (with `Strict`, onto any
// device not proven addressable).
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_CHECKS_NONADDRESSABLEDLPACKIMPORTCHECK_H
#define INTEROP_CHECKS_NONADDRESSABLEDLPACKIMPORTCHECK_H

#include "ArrayDeviceCheckBase.h"

namespace clang::tidy::interop {

class NonaddressableDLPackImportCheck : public ArrayDeviceCheckBase {
public:
  NonaddressableDLPackImportCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

protected:
  bool judge(const clang::interop::SinkFact &Fact, ASTContext &Ctx) override;

private:
  const bool Strict;
};

} // namespace clang::tidy::interop

#endif // INTEROP_CHECKS_NONADDRESSABLEDLPACKIMPORTCHECK_H
