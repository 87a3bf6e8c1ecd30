//===--- MemoryCalls.cpp - how a call treats memory -----------------------===//

#include "lib/abi/MemoryCalls.h"

#include "lib/abi/DLPackTypes.h"
#include "lib/support/LLVMCompat.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/STLExtras.h"

#include <cstdint>
#include <iterator>
#include <optional>

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

namespace {

MemorySide sideOfLetter(char C) {
  switch (C) {
  case 'H':
    return MemorySide::Host;
  case 'D':
  case 'A':
    return MemorySide::Device;
  default:
    return MemorySide::Unknown;
  }
}

/// The position among the callee's pointer parameters of ArgIndex (0 for
/// the first pointer parameter), or -1.
int pointerOperand(const FunctionDecl &Callee, unsigned ArgIndex) {
  int Seen = 0;
  for (unsigned I = 0; I < Callee.getNumParams(); ++I) {
    if (!Callee.getParamDecl(I)->getType()->isPointerType())
      continue;
    if (I == ArgIndex)
      return Seen;
    ++Seen;
  }
  return -1;
}

} // namespace

MemorySide deviceCopySide(const CallExpr &Call, unsigned ArgIndex,
                          const ASTContext &Ctx) {
  const FunctionDecl *Callee = Call.getDirectCallee();
  if (!Callee || classifyMemoryCall(Callee) != MemoryCallKind::DeviceCopy)
    return MemorySide::Unknown;
  llvm::StringRef N = Callee->getName();
  if (N.contains("Memset"))
    return ArgIndex == 0 ? MemorySide::Device : MemorySide::Unknown;
  // cuMemcpyHtoD(dst, src, n), hipMemcpyDtoHAsync(dst, src, n, stream):
  // the name says source, then destination.
  size_t At = N.find("Memcpy");
  llvm::StringRef Rest = N.drop_front(At + 6);
  if (Rest.size() >= 4 && Rest.substr(1, 2) == "to" &&
      sideOfLetter(Rest[0]) != MemorySide::Unknown &&
      sideOfLetter(Rest[3]) != MemorySide::Unknown) {
    if (ArgIndex == 0)
      return sideOfLetter(Rest[3]);
    return ArgIndex == 1 ? sideOfLetter(Rest[0]) : MemorySide::Unknown;
  }
  int Operand = pointerOperand(*Callee, ArgIndex);
  if (Operand < 0 || Operand > 1)
    return MemorySide::Unknown;
  if (Rest.starts_with("Peer"))
    return MemorySide::Device;
  // The runtime APIs' kind: 0 host to host, 1 host to device, 2 device to
  // host, 3 device to device (the same values in CUDA and HIP), 4 default.
  for (const Expr *Arg : Call.arguments()) {
    const auto *Enum = Arg->IgnoreParenImpCasts()->getType()->getAs<EnumType>();
    if (!Enum || !Enum->getDecl()->getName().ends_with("MemcpyKind"))
      continue;
    std::optional<llvm::APSInt> Kind = Arg->getIntegerConstantExpr(Ctx);
    if (!Kind || Kind->getExtValue() < 0 || Kind->getExtValue() > 3)
      return MemorySide::Unknown;
    std::int64_t K = Kind->getExtValue();
    bool DeviceSide = Operand == 0 ? (K & 1) : (K & 2);
    return DeviceSide ? MemorySide::Device : MemorySide::Host;
  }
  return MemorySide::Unknown;
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

llvm::SmallVector<const CXXMethodDecl *, 2>
tensorHandleAccessors(const CXXRecordDecl &Handle) {
  llvm::SmallVector<const CXXMethodDecl *, 2> Accessors;
  const CXXRecordDecl *Def = Handle.getDefinition();
  if (!Def)
    return Accessors;
  for (const CXXMethodDecl *M : Def->methods())
    if (M->getOverloadedOperator() == OO_Arrow &&
        M->getReturnType()->isPointerType() &&
        classifyDLPackType(M->getReturnType()->getPointeeType()) ==
            DLPackRecord::Tensor)
      Accessors.push_back(M);
  return Accessors;
}

std::optional<TensorHandleAllocation>
tensorHandleAllocation(const CallExpr &E) {
  const CXXRecordDecl *Handle =
      E.isPRValue() ? E.getType()->getAsCXXRecordDecl() : nullptr;
  if (!Handle || !Handle->hasDefinition())
    return std::nullopt;
  TensorHandleAllocation A;
  auto IsDevice = [](const Expr *Arg) {
    return classifyDLPackType(Arg->getType().getNonReferenceType()) ==
           DLPackRecord::Device;
  };
  auto Device = llvm::find_if(E.arguments(), IsDevice);
  if (Device == E.arguments().end())
    return std::nullopt;
  A.DeviceArg = std::distance(E.arguments().begin(), Device);
  A.Accessors = tensorHandleAccessors(*Handle);
  if (A.Accessors.empty())
    return std::nullopt;
  return A;
}

} // namespace clang::interop
