//===--- ArrayDeviceEvents.cpp - what the array checks judge --------------===//

#include "lib/arraydevice/ArrayDeviceEvents.h"

#include "lib/support/AstHelpers.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

namespace clang::interop {

/// value(), operator* or operator-> of a modelled Result.
bool isResultUnwrap(const ApiModel &M, const CallExpr &CE) {
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(CE.getDirectCallee());
  if (!MD ||
      M.classify(MD->getThisType()->getPointeeType()) != TypeRole::Result)
    return false;
  if (MD->getOverloadedOperator() == OO_Star ||
      MD->getOverloadedOperator() == OO_Arrow)
    return true;
  return MD->getDeclName().isIdentifier() && MD->getName() == "value";
}

std::optional<SinkKind> sinkKindOf(const ApiModel &Model,
                                   const FunctionDecl *Callee) {
  FnRoles R = Model.classify(Callee);
  if (R.has(FnRole::Export))
    return SinkKind::Export;
  if (R.has(FnRole::Import))
    return SinkKind::Import;
  if (R.has(FnRole::CudaArrayInterface))
    return SinkKind::CudaArrayInterface;
  return std::nullopt;
}

const Expr *sinkSubject(const ApiModel &Model, const CallExpr &Call,
                        SinkKind Kind) {
  TypeRole Want = Kind == SinkKind::Import ? TypeRole::Device : TypeRole::Array;
  unsigned First = isa<CXXOperatorCallExpr>(Call) && receiverOf(Call) ? 1 : 0;
  for (unsigned I = First, N = Call.getNumArgs(); I < N; ++I)
    if (Model.classifyPointee(paramType(Call, I)) == Want)
      return Call.getArg(I);
  if (const Expr *R = receiverOf(Call))
    if (Model.classifyPointee(R->getType()) == Want)
      return R;
  return nullptr;
}

} // namespace clang::interop
