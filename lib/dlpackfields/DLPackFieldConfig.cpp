//===--- DLPackFieldConfig.cpp - options of the field model ---------------===//

#include "lib/dlpackfields/DLPackFieldConfig.h"

#include "lib/engine/FactCache.h"

namespace clang::interop {

std::string DLPackFieldConfig::key() const {
  std::string K;
  appendListToKey(K, DebugOnlyAssertMacros);
  appendListToKey(K, HostDeviceGuards);
  appendListToKey(K, ImportFunctions);
  appendToKey(K, Bounds.key());
  appendToKey(K, Exits.key());
  appendToKey(K, SyntacticProofs ? "syntax" : "flow");
  return K;
}

} // namespace clang::interop
