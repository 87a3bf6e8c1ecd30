//===--- TpuDLPackMemoryKindCheck.h - TPU memory exports --------*- C++ -*-===//
//
// Flags `to_dlpack` of an array known to be on TPU whose memory kind is not
// proven to be pinned host.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_CHECKS_TPUDLPACKMEMORYKINDCHECK_H
#define INTEROP_CHECKS_TPUDLPACKMEMORYKINDCHECK_H

#include "ArrayDeviceCheckBase.h"

namespace clang::tidy::interop {

class TpuDLPackMemoryKindCheck : public ArrayDeviceCheckBase {
public:
  TpuDLPackMemoryKindCheck(StringRef Name, ClangTidyContext *Context);

protected:
  bool judge(const clang::interop::SinkFact &Fact, ASTContext &Ctx) override;
};

} // namespace clang::tidy::interop

#endif // INTEROP_CHECKS_TPUDLPACKMEMORYKINDCHECK_H
