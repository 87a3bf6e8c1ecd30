//===--- ShardedCudaArrayInterfaceCheck.h - sharded CUDA views --*- C++ -*-===//
//
// Flags `cuda_array_interface` or `unsafe_buffer_pointer` of an array not
// proven to be on a single device.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_CHECKS_SHARDEDCUDAARRAYINTERFACECHECK_H
#define INTEROP_CHECKS_SHARDEDCUDAARRAYINTERFACECHECK_H

#include "ArrayDeviceCheckBase.h"

namespace clang::tidy::interop {

class ShardedCudaArrayInterfaceCheck : public ArrayDeviceCheckBase {
public:
  ShardedCudaArrayInterfaceCheck(StringRef Name, ClangTidyContext *Context);

protected:
  bool judge(const clang::interop::SinkFact &Fact, ASTContext &Ctx) override;
};

} // namespace clang::tidy::interop

#endif // INTEROP_CHECKS_SHARDEDCUDAARRAYINTERFACECHECK_H
