//===--- MemoryCalls.cpp - how a call treats memory -----------------------===//

#include "lib/abi/MemoryCalls.h"

#include "lib/support/LLVMCompat.h"

namespace clang::interop {

MemoryCallKind classifyMemoryCall(const FunctionDecl *Callee) {
  if (!Callee)
    return MemoryCallKind::None;
  if (Callee->getOverloadedOperator() == OO_Delete ||
      Callee->getOverloadedOperator() == OO_Array_Delete)
    return MemoryCallKind::Dealloc;
  if (!Callee->getIdentifier())
    return MemoryCallKind::None;
  llvm::StringRef N = Callee->getName();
  if (N.starts_with("cudaMemcpy") || N.starts_with("cudaMemset") ||
      N.starts_with("cuMemcpy") || N.starts_with("cuMemset") ||
      N.starts_with("hipMemcpy") || N.starts_with("hipMemset"))
    return MemoryCallKind::DeviceCopy;
  return compat::StringSwitch<MemoryCallKind>(N)
      .Cases({"memcpy", "memmove", "memset", "memcmp", "bcopy"},
             MemoryCallKind::HostCopy)
      .Cases({"__builtin_memcpy", "__builtin_memmove", "__builtin_memset",
              "__builtin_memcmp"},
             MemoryCallKind::HostCopy)
      .Cases({"copy", "copy_n", "fill", "fill_n"},
             Callee->isInStdNamespace() ? MemoryCallKind::HostCopy
                                        : MemoryCallKind::None)
      .Cases({"free", "cudaFree", "cudaFreeHost", "cudaFreeAsync", "hipFree",
              "hipHostFree", "PyMem_Free", "PyMem_RawFree", "PyObject_Free",
              "_aligned_free", "munmap"},
             MemoryCallKind::Dealloc)
      .Default(MemoryCallKind::None);
}

bool isCopyDestination(const FunctionDecl *Callee, unsigned ArgIndex) {
  if (!Callee || !Callee->getIdentifier())
    return false;
  llvm::StringRef N = Callee->getName();
  if (Callee->isInStdNamespace() && (N == "copy" || N == "copy_n"))
    return ArgIndex == 2;
  switch (classifyMemoryCall(Callee)) {
  case MemoryCallKind::HostCopy:
  case MemoryCallKind::DeviceCopy:
    return ArgIndex == 0 && N != "memcmp" && N != "__builtin_memcmp";
  default:
    return false;
  }
}

bool isRawAllocation(const Expr *E) {
  const auto *Call =
      dyn_cast_or_null<CallExpr>(E ? E->IgnoreParenCasts() : nullptr);
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD || !FD->getIdentifier())
    return false;
  llvm::StringRef N = FD->getName();
  return N == "malloc" || N == "calloc" || N == "PyMem_Malloc" ||
         N == "PyMem_Calloc" || N == "PyMem_RawMalloc" || N == "aligned_alloc";
}

bool isRawDeallocation(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || !FD->getIdentifier())
    return false;
  llvm::StringRef N = FD->getName();
  return N == "free" || N == "PyMem_Free" || N == "PyMem_RawFree";
}

} // namespace clang::interop
