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
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

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

/// Which memory a pointer operand of a device-aware copy or set is.
enum class MemorySide {
  /// Not known here: not a device copy, not one of its pointer operands,
  /// a kind that is not a constant, or cudaMemcpyDefault (the runtime finds
  /// out from the pointer itself, so either memory is right).
  Unknown,
  Host,
  Device,
};
/// The side of argument ArgIndex of a CUDA or HIP copy or set (Call is a
/// call of a DeviceCopy function): from the constant kind argument
/// (cudaMemcpyHostToDevice, hipMemcpyDeviceToHost...; the first pointer
/// parameter is the destination, the second the source), from the name
/// (cuMemcpyDtoH, hipMemcpyHtoDAsync: source, then destination; an array is
/// device memory), cudaMemcpyPeer's operands (both device memory) or a
/// memset's destination (device memory).
MemorySide deviceCopySide(const CallExpr &Call, unsigned ArgIndex,
                          const ASTContext &Ctx);

/// The `operator->`s of a runtime's tensor handle class (`NDArray`,
/// `ffi::Tensor`) that return a DLTensor pointer; empty for any other class.
llvm::SmallVector<const CXXMethodDecl *, 2>
tensorHandleAccessors(const CXXRecordDecl &Handle);

/// A runtime's tensor allocation: a call given a DLDevice (by value or
/// reference) that returns, by value, a handle class whose `operator->`
/// returns a DLTensor pointer (`NDArray::Empty(shape, dtype, dev)`). The
/// index of the device argument and the handle's `operator->`s, or none.
struct TensorHandleAllocation {
  unsigned DeviceArg = 0;
  llvm::SmallVector<const CXXMethodDecl *, 2> Accessors;
};
std::optional<TensorHandleAllocation> tensorHandleAllocation(const CallExpr &E);

} // namespace clang::interop

#endif // INTEROP_LIB_ABI_MEMORYCALLS_H
