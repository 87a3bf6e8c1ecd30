//===--- DLPackFieldEvents.cpp - what the field model reports -------------===//

#include "lib/dlpackfields/DLPackFieldEvents.h"

#include "lib/support/AstHelpers.h"

namespace clang::interop {

bool readsOnlyFirstElement(const Expr *Use, const ASTContext &Ctx) {
  if (isa<UnaryOperator>(Use))
    return true;
  const auto *AS = dyn_cast<ArraySubscriptExpr>(Use);
  if (!AS)
    return false;
  std::optional<llvm::APSInt> Index = integerConstant(AS->getIdx(), Ctx);
  return Index && Index->isZero();
}

bool isFullyProven(const DLPackEvent &E, const ASTContext &Ctx) {
  switch (E.K) {
  case DLPackEvent::DataDeref:
  case DLPackEvent::DataCallArg:
    return E.Local ||
           ((E.OffsetApplied || E.OffsetZeroProven) && E.HostProven &&
            (E.StridesConsidered || E.StridesNullProven ||
             (E.K == DLPackEvent::DataDeref &&
              readsOnlyFirstElement(E.Use, Ctx))) &&
            !(E.IsWrite && E.FromVersioned && !E.ReadOnlyClearProven));
  case DLPackEvent::StridesDeref:
    return E.NonNullProven;
  case DLPackEvent::VersionedAccess:
    return E.MajorChecked;
  case DLPackEvent::TensorCallArg:
    return !E.ProvenDeviceType;
  }
  return false;
}

} // namespace clang::interop
