// Unit tests of lib/engine/FlowRunner.h: the bounds and give-ups of a flow
// analysis, through the array/device family (a function over a bound is
// skipped, never analysed partially).

#include "lib/arraydevice/ArrayDeviceFacts.h"

#include "arraydevice/array_device_snippets.h"

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringExtras.h"

#include "gtest/gtest.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

using namespace clang;
using namespace clang::interop;
using namespace clang::ast_matchers;
using interop_test::analyzeOnly;

namespace {

TEST(FlowRunner, TooLargeIsSkippedNotAnalysed) {
  auto AST = interop_test::parseInteropCode(R"cpp(#include "interop/interop.h"
bool flag();
void f(const interop::Array &a) {
  if (flag()) return; if (flag()) return; if (flag()) return;
  auto t = interop::to_dlpack(a);
})cpp");
  FlowBounds B;
  B.MaxCFGBlocks = 4;
  ArrayDeviceQuery Facts({{}, B});
  const ArrayDeviceFacts &F = analyzeOnly(AST, Facts, "f");
  EXPECT_EQ(F.Skipped, SkipReason::TooLarge);
  EXPECT_TRUE(llvm::StringRef(F.Detail).ends_with("CFG blocks"));
  EXPECT_TRUE(F.Events.empty());
  EXPECT_EQ(Facts.flowAnalysedFunctions(AST->getASTContext()), 0u);
}

TEST(FlowRunner, BlockVisitLimitIsABoundExceeded) {
  auto AST = interop_test::parseInteropCode(R"cpp(#include "interop/interop.h"
bool flag();
void f(const interop::Array &a) {
  while (flag()) { if (flag()) continue; }
  auto t = interop::to_dlpack(a);
})cpp");
  FlowBounds B;
  B.MaxBlockVisits = 3;
  ArrayDeviceQuery Facts({{}, B});
  const ArrayDeviceFacts &F = analyzeOnly(AST, Facts, "f");
  EXPECT_EQ(F.Skipped, SkipReason::BoundExceeded);
  EXPECT_FALSE(F.Detail.empty());
  EXPECT_TRUE(F.Events.empty()) << "a give-up must not leave partial results";
}

TEST(FlowRunner, TemplatesAndDeclarations) {
  auto AST = interop_test::parseInteropCode(R"cpp(#include "interop/interop.h"
template <typename T> void g(const T &a) { auto t = interop::to_dlpack(a); }
)cpp");
  ArrayDeviceQuery Facts{ArrayDeviceConfig()};
  const ArrayDeviceFacts &F = analyzeOnly(AST, Facts, "g");
  EXPECT_EQ(F.Skipped, SkipReason::Dependent);
}

TEST(FlowRunner, CodeThatDoesNotCompileIsSkipped) {
  resetFactCache();
  std::unique_ptr<ASTUnit> AST = tooling::buildASTFromCodeWithArgs(
      R"cpp(#include "interop/interop.h"
void f(const interop::Array &a) {
  auto t = interop::to_dlpack(a);
  undeclared();
}
)cpp",
      {"-std=c++17", "-I" INTEROP_TEST_INPUTS}, "snippet.cpp");
  ASSERT_TRUE(AST);
  ArrayDeviceQuery Facts{ArrayDeviceConfig()};
  const ArrayDeviceFacts &F = analyzeOnly(AST, Facts, "f");
  EXPECT_EQ(F.Skipped, SkipReason::InvalidCode);
}

} // namespace
