//===--- FactCache.cpp - every family's facts, per translation unit -------===//

#include "lib/engine/FactCache.h"

namespace clang::interop {

FactCache &FactCache::shared() {
  static FactCache Cache;
  return Cache;
}

void FactCache::reset() {
  Stores.clear();
  Owner = nullptr;
  ++Generation;
  forgetDeclMemos();
}

void resetFactCache() { FactCache::shared().reset(); }

void appendListToKey(std::string &Key, llvm::ArrayRef<std::string> List) {
  for (const std::string &S : List)
    Key += S + ";";
  Key += "|";
}

void appendToKey(std::string &Key, llvm::StringRef Value) {
  Key += Value;
  Key += "|";
}

} // namespace clang::interop
