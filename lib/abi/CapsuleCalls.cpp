//===--- CapsuleCalls.cpp - the capsule API's calls, by name --------------===//

#include "lib/abi/CapsuleCalls.h"

#include "lib/support/LLVMCompat.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

namespace clang::interop {

CapsuleCall classifyCapsuleCall(const CallExpr *Call) {
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD || !FD->getIdentifier())
    return CapsuleCall::None;
  return compat::StringSwitch<CapsuleCall>(FD->getName())
      .Case("PyCapsule_New", CapsuleCall::New)
      .Case("PyCapsule_GetPointer", CapsuleCall::GetPointer)
      .Case("PyCapsule_GetName", CapsuleCall::GetName)
      .Case("PyCapsule_SetName", CapsuleCall::SetName)
      .Case("PyCapsule_SetDestructor", CapsuleCall::SetDestructor)
      .Case("PyCapsule_IsValid", CapsuleCall::IsValid)
      .Cases({"PyErr_Fetch", "PyErr_GetRaisedException"}, CapsuleCall::ErrFetch)
      .Cases({"PyErr_Restore", "PyErr_SetRaisedException"},
             CapsuleCall::ErrRestore)
      .Case("PyErr_Clear", CapsuleCall::ErrClear)
      .Default(CapsuleCall::None);
}

/// The class of a pybind11 or nanobind capsule method: "pybind11" or
/// "nanobind", empty otherwise.
static llvm::StringRef capsuleLibrary(const CXXMethodDecl *MD) {
  const CXXRecordDecl *RD = MD ? MD->getParent() : nullptr;
  if (!RD || !RD->getIdentifier() || RD->getName() != "capsule")
    return {};
  const auto *NS = dyn_cast<NamespaceDecl>(RD->getDeclContext());
  if (!NS || !NS->getIdentifier())
    return {};
  if (NS->getName() == "pybind11" || NS->getName() == "nanobind")
    return NS->getName();
  return {};
}

CapsuleCallView viewCapsuleCall(const CallExpr *Call) {
  CapsuleCallView V;
  if (!Call)
    return V;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Call)) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    llvm::StringRef Lib = capsuleLibrary(MD);
    if (Lib.empty())
      return V;
    V.Member = true;
    V.Capsule = MC->getImplicitObjectArgument();
    // `DLManagedTensor *t = capsule;`: pybind11's conversion operator reads
    // the pointer under the capsule's current name, as get_pointer() does.
    if (Lib == "pybind11" && isa<CXXConversionDecl>(MD)) {
      V.Op = CapsuleCall::GetPointer;
      V.CurrentName = true;
      return V;
    }
    llvm::StringRef Method = MD->getIdentifier() ? MD->getName() : "";
    if (Method == "name" && MC->getNumArgs() == 0) {
      V.Op = CapsuleCall::GetName;
    } else if (Method == (Lib == "pybind11" ? "get_pointer" : "data") &&
               MC->getNumArgs() == 0) {
      V.Op = CapsuleCall::GetPointer;
      V.CurrentName = true;
    } else if (Lib == "pybind11" && Method == "set_name" &&
               MC->getNumArgs() == 1) {
      V.Op = CapsuleCall::SetName;
      V.Name = MC->getArg(0);
    } else {
      V.Member = false;
      V.Capsule = nullptr;
    }
    return V;
  }
  V.Op = classifyCapsuleCall(Call);
  switch (V.Op) {
  case CapsuleCall::New:
    if (Call->getNumArgs() >= 2)
      V.Name = Call->getArg(1);
    break;
  case CapsuleCall::GetPointer:
  case CapsuleCall::SetName:
  case CapsuleCall::IsValid:
    if (Call->getNumArgs() == 2)
      V.Name = Call->getArg(1);
    [[fallthrough]];
  case CapsuleCall::GetName:
  case CapsuleCall::SetDestructor:
    if (Call->getNumArgs() >= 1)
      V.Capsule = Call->getArg(0);
    break;
  default:
    break;
  }
  return V;
}

} // namespace clang::interop
