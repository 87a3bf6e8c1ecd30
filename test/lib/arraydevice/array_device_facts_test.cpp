// Unit tests of the array/device family's entry point
// (lib/arraydevice/ArrayDeviceFacts.h): one run per function and
// configuration, and the pre-filter's families.

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

TEST(ArrayDeviceFacts, EachFunctionIsAnalysedOnce) {
  auto AST = interop_test::parseInteropCode(R"cpp(#include "interop/interop.h"
void f(const interop::Array &a) {
  auto t = interop::to_dlpack(a);
  auto u = interop::to_dlpack(a);
})cpp");
  ArrayDeviceQuery Facts{ArrayDeviceConfig()};
  const ArrayDeviceFacts &A = analyzeOnly(AST, Facts, "f");
  const ArrayDeviceFacts &B = analyzeOnly(AST, Facts, "f");
  EXPECT_EQ(&A, &B);
  EXPECT_EQ(A.Events.size(), 2u);
  EXPECT_EQ(Facts.flowAnalysedFunctions(AST->getASTContext()), 1u);
}

TEST(ArrayDeviceFacts, SharedRunPerConfiguration) {
  auto AST = interop_test::parseInteropCode(R"cpp(#include "interop/interop.h"
void f(const interop::Array &a) { auto t = interop::to_dlpack(a); }
)cpp");
  ASTContext &Ctx = AST->getASTContext();
  const auto *FD =
      match(functionDecl(hasName("f"), isDefinition()).bind("f"), Ctx)[0]
          .getNodeAs<FunctionDecl>("f");
  ApiModelOptions Other;
  Other.ExportFunctions = "::interop::to_dlpack;::mine::export_it";
  ArrayDeviceQuery A{ArrayDeviceConfig()}, B{ArrayDeviceConfig()};
  ArrayDeviceQuery C({Other});
  // Checks with one configuration share one run; another configuration
  // has its own.
  EXPECT_EQ(&A.facts(*FD, Ctx), &B.facts(*FD, Ctx));
  EXPECT_NE(&A.facts(*FD, Ctx), &C.facts(*FD, Ctx));
  EXPECT_EQ(C.facts(*FD, Ctx).Events.size(), 1u);
  resetFactCache();
}

TEST(ArrayDeviceFacts, PreFilterSelectsFactFamiliesPerFunction) {
  auto AST = interop_test::parseInteropCode(R"cpp(#include "interop/interop.h"
void exports(const interop::Array &a) { auto t = interop::to_dlpack(a); }
void tpu(const interop::Array &a) {
  if (a.platform() == interop::Platform::kTpu) auto t = interop::to_dlpack(a);
}
void imports(DLManagedTensorVersioned *t) {
  auto r = interop::from_dlpack(t, interop::local_devices()[0]);
}
void in_lambda(const interop::Array &a) {
  auto f = [&] { auto t = interop::to_dlpack(a); };
}
void none(const interop::Array &a) { bool b = a.is_single_device(); }
)cpp");
  ASTContext &Ctx = AST->getASTContext();
  ApiModel M{ApiModelOptions()};
  auto Get = [&](llvm::StringRef N) {
    return match(functionDecl(hasName(N)).bind("f"), Ctx)[0]
        .getNodeAs<FunctionDecl>("f");
  };
  EXPECT_EQ(factsUsedBy(M, *Get("exports")), unsigned(SingleDeviceFacts));
  EXPECT_EQ(factsUsedBy(M, *Get("tpu")),
            unsigned(SingleDeviceFacts | TpuMemoryFacts));
  EXPECT_EQ(factsUsedBy(M, *Get("imports")), unsigned(AddressableFacts));
  EXPECT_EQ(factsUsedBy(M, *Get("in_lambda")), 0u)
      << "a lambda's body is its own function";
  EXPECT_EQ(factsUsedBy(M, *Get("none")), 0u);
  // A function with nothing to judge is not analysed at all.
  ArrayDeviceQuery Facts{ArrayDeviceConfig()};
  EXPECT_EQ(Facts.facts(*Get("none"), Ctx).Skipped, SkipReason::None);
  EXPECT_EQ(Facts.flowAnalysedFunctions(Ctx), 0u);
  // An instance that tracks only addressability skips pure exporters.
  // (Without the syntactic fast path, which proves `imports` unanalysed.)
  ArrayDeviceQuery ImportsOnly(
      {{}, {}, AddressableFacts, /*SyntacticProofs=*/false});
  ImportsOnly.facts(*Get("exports"), Ctx);
  EXPECT_EQ(ImportsOnly.flowAnalysedFunctions(Ctx), 0u);
  ImportsOnly.facts(*Get("imports"), Ctx);
  EXPECT_EQ(ImportsOnly.flowAnalysedFunctions(Ctx), 1u);
  // With it, the import onto local_devices()[0] needs no flow analysis.
  ArrayDeviceQuery Fast({{}, {}, AddressableFacts});
  EXPECT_TRUE(Fast.facts(*Get("imports"), Ctx).BySyntax);
  EXPECT_EQ(Fast.flowAnalysedFunctions(Ctx), 0u);
}

} // namespace
