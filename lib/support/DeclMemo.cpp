//===--- DeclMemo.cpp - one answer per declaration of a TU ----------------===//

#include "lib/support/DeclMemo.h"

namespace clang::interop {

namespace {
unsigned Generation = 0;
} // namespace

unsigned declMemoGeneration() { return Generation; }

void forgetDeclMemos() { ++Generation; }

} // namespace clang::interop
