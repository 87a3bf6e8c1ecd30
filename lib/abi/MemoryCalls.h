//===--- MemoryCalls.h - how a call treats memory ---------------*- C++ -*-===//
//
// Calls that copy, compare or free memory, by name: what a tensor's data
// pointer passed to them is used for (the host reads it, a device-aware copy
// reads it, or it is freed and the base pointer is what is wanted).
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_ABI_MEMORYCALLS_H
#define INTEROP_LIB_ABI_MEMORYCALLS_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

namespace clang::interop {

/// How a call treats memory passed to it.
enum class MemoryCallKind {
  None,
  /// memcpy, memmove, memset, memcmp, std::copy...: the host reads/writes.
  HostCopy,
  /// cudaMemcpy*, hipMemcpy*, ...: a device-aware copy.
  DeviceCopy,
  /// free, cudaFree, ...: the base pointer is what is wanted.
  Dealloc,
};
MemoryCallKind classifyMemoryCall(const FunctionDecl *Callee);

/// The call allocates raw host memory (malloc and friends, the Python
/// allocators), through parentheses and casts.
bool isRawAllocation(const Expr *E);

/// free and the Python allocators' free.
bool isRawDeallocation(const CallExpr *Call);

/// True when argument ArgIndex of a copy call is the destination.
bool isCopyDestination(const FunctionDecl *Callee, unsigned ArgIndex);

} // namespace clang::interop

#endif // INTEROP_LIB_ABI_MEMORYCALLS_H
