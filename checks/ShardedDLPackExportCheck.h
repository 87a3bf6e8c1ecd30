//===--- ShardedDLPackExportCheck.h - sharded exports -----------*- C++ -*-===//
//
// Flags `to_dlpack` of an array not proven to be on a single device on every
// path to the call.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_CHECKS_SHARDEDDLPACKEXPORTCHECK_H
#define INTEROP_CHECKS_SHARDEDDLPACKEXPORTCHECK_H

#include "ArrayDeviceCheckBase.h"

namespace clang::tidy::interop {

class ShardedDLPackExportCheck : public ArrayDeviceCheckBase {
public:
  ShardedDLPackExportCheck(StringRef Name, ClangTidyContext *Context);

protected:
  bool judge(const clang::interop::SinkFact &Fact, ASTContext &Ctx) override;
};

} // namespace clang::tidy::interop

#endif // INTEROP_CHECKS_SHARDEDDLPACKEXPORTCHECK_H
