// Unit tests of lib/abi/TranslationUnitNames.h: a translation unit that
// never spells a DLPack or capsule name needs no scan at all.

#include "lib/abi/TranslationUnitNames.h"
#include "lib/dlpackfields/DLPackFieldFacts.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringExtras.h"

#include "dlpack_snippets.h"
#include "snippet_annotations.h"
#include "syntax_vs_flow.h"
#include "gtest/gtest.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

using namespace clang;
using namespace clang::interop;
using namespace clang::ast_matchers;
using namespace interop_test;

namespace {

TEST(DLPackPreFilter, TranslationUnitsWithoutDLPack) {
  // A TU that never spells a DLPack or capsule name needs no scan at all.
  auto Plain = parseDLPackCode("int twice(int x) { return 2 * x; }");
  ASSERT_TRUE(Plain);
  EXPECT_FALSE(translationUnitMayUseDLPack(Plain->getASTContext()));
  auto WithHeader =
      parseDLPackCode("#include <dlpack/dlpack.h>\nint f() { return 0; }");
  ASSERT_TRUE(WithHeader);
  EXPECT_TRUE(translationUnitMayUseDLPack(WithHeader->getASTContext()));
  // A device-type map needs only the enum's name.
  auto OwnEnum =
      parseDLPackCode("enum DLDeviceType { kDLCPU = 1 };\n"
                      "int map(DLDeviceType t) { return t == kDLCPU; }");
  ASSERT_TRUE(OwnEnum);
  EXPECT_TRUE(translationUnitMayUseDLPack(OwnEnum->getASTContext()));
}

} // namespace
