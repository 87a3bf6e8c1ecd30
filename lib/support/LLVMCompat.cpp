//===--- LLVMCompat.cpp - one source tree for LLVM 19 and 22 --------------===//
//
// The out-of-line halves of LLVMCompat.h's wrappers.
//
//===----------------------------------------------------------------------===//

#include "lib/support/LLVMCompat.h"

#include "clang/AST/DeclCXX.h"
#include "clang/Basic/OperatorKinds.h"

#if LLVM_VERSION_MAJOR >= 22
#include "clang/Analysis/FlowSensitive/SmartPointerAccessorCaching.h"
#endif

namespace clang::interop::compat {

const FunctionDecl *
canonicalSmartPointerLikeOperatorCallee(const CallExpr *CE) {
#if LLVM_VERSION_MAJOR >= 22
  return dataflow::getCanonicalSmartPointerLikeOperatorCallee(CE);
#else
  const auto *Method =
      CE ? dyn_cast_or_null<CXXMethodDecl>(CE->getDirectCallee()) : nullptr;
  if (!Method)
    return nullptr;
  for (const CXXMethodDecl *Candidate : Method->getParent()->methods())
    if (Candidate->getOverloadedOperator() == OO_Star && Candidate->isConst() &&
        Candidate->getNumParams() == 0 &&
        Candidate->getReturnType()->isReferenceType())
      return Candidate;
  return nullptr;
#endif
}

} // namespace clang::interop::compat
