//===--- ModelCache.cpp - per-translation-unit memo of a flow model -------===//

#include "lib/engine/ModelCache.h"

namespace clang::interop {

std::string
modelConfigKey(llvm::ArrayRef<const std::vector<std::string> *> Lists,
               const FlowBounds &Bounds, bool SyntacticProofs) {
  std::string K;
  for (const std::vector<std::string> *List : Lists) {
    for (const std::string &S : *List)
      K += S + ";";
    K += "|";
  }
  K += std::to_string(Bounds.MaxSATIterations) + "|" +
       std::to_string(Bounds.MaxMilliseconds) + "|" +
       std::to_string(Bounds.MaxBlockVisits) + "|" +
       std::to_string(Bounds.MaxCFGBlocks) +
       (SyntacticProofs ? "|syntax" : "|flow");
  return K;
}

} // namespace clang::interop
