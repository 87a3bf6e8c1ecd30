//===--- SkipReason.cpp - why a function was not analysed -----------------===//

#include "lib/engine/SkipReason.h"

namespace clang::interop {

const char *describeSkip(SkipReason R) {
  switch (R) {
  case SkipReason::None:
    return "analysed";
  case SkipReason::NoBody:
    return "it has no body";
  case SkipReason::Dependent:
    return "it is an uninstantiated template";
  case SkipReason::InvalidCode:
    return "it does not compile";
  case SkipReason::TooLarge:
    return "it is larger than the analysis bound";
  case SkipReason::BuildFailed:
    return "its control-flow graph could not be built";
  case SkipReason::BoundExceeded:
    return "the analysis exceeded its iteration bound";
  case SkipReason::Unsupported:
    return "it uses a construct the flow analysis cannot model";
  }
  return "unknown";
}

std::string describeSkip(SkipReason R, llvm::StringRef Detail) {
  std::string S = describeSkip(R);
  if (!Detail.empty())
    S += " (" + Detail.str() + ")";
  return S;
}

bool isGiveUp(SkipReason R) {
  return R != SkipReason::None && R != SkipReason::NoBody &&
         R != SkipReason::Dependent;
}

} // namespace clang::interop
