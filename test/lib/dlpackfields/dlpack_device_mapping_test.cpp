// Unit tests of lib/dlpackfields/DLPackDeviceMapping.h: device-type maps
// that turn an unknown device type into a supported platform.

#include "lib/dlpackfields/DLPackDeviceMapping.h"

#include "ast_search.h"
#include "dlpack_snippets.h"
#include "snippet_annotations.h"

#include "gtest/gtest.h"

#include <vector>

using namespace clang;
using namespace clang::interop;
using namespace interop_test;

namespace {

std::vector<SilentDeviceMapping::Kind> kinds(ASTContext &Ctx,
                                             llvm::StringRef Name) {
  std::vector<SilentDeviceMapping::Kind> Out;
  for (const SilentDeviceMapping &M :
       findSilentDeviceMappings(*functionNamed(Ctx, Name), Ctx))
    Out.push_back(M.K);
  return Out;
}

TEST(DLPackDeviceMapping, SilentDefaultsAndFailures) {
  auto AST = parseWithInputs(std::string(DLPackPrelude) + R"cpp(
enum Platform { kCpu, kCuda };
[[noreturn]] void fail(const char *);
Platform shares(DLDeviceType t) {
  switch (t) {
  case kDLCUDA:
    return kCuda;
  case kDLCPU:
  default:
    return kCpu;
  }
}
Platform repeats(DLDeviceType t) {
  switch (t) {
  case kDLCPU:
    return kCpu;
  default:
    return kCpu;
  }
}
Platform fails(DLDeviceType t) {
  switch (t) {
  case kDLCPU:
    return kCpu;
  default:
    fail("unsupported device type");
  }
}
)cpp",
                             {"-UNDEBUG"});
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  EXPECT_EQ(kinds(Ctx, "shares"), std::vector<SilentDeviceMapping::Kind>{
                                      SilentDeviceMapping::DefaultSharesCase});
  EXPECT_EQ(kinds(Ctx, "repeats"),
            std::vector<SilentDeviceMapping::Kind>{
                SilentDeviceMapping::DefaultRepeatsCase});
  EXPECT_TRUE(kinds(Ctx, "fails").empty());
  const auto *Error =
      firstNode<CallExpr>(functionNamed(Ctx, "fails")->getBody());
  ASSERT_TRUE(Error);
  EXPECT_TRUE(isErrorSignal(Error, Ctx));
}

// PlatformEnums: a default yielding an enumerator of a listed enumeration
// is a silent mapping even when no case maps to it; the same code with the
// enumeration not listed is judged by the repeat rules only.
TEST(DLPackDeviceMapping, DefaultYieldingAListedPlatform) {
  auto AST = parseWithInputs(std::string(DLPackPrelude) + R"cpp(
namespace mine { enum class Platform { kCpu, kCuda }; }
mine::Platform other_platform(DLDeviceType t) {
  switch (t) {
  case kDLCUDA:
    return mine::Platform::kCuda;
  default:
    return mine::Platform::kCpu;
  }
}
)cpp",
                             {"-UNDEBUG"});
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  const FunctionDecl *FD = functionNamed(Ctx, "other_platform");
  ASSERT_TRUE(FD);
  NameList Listed(std::vector<std::string>{"::mine::Platform$"});
  std::vector<SilentDeviceMapping> Found =
      findSilentDeviceMappings(*FD, Ctx, &Listed);
  ASSERT_EQ(Found.size(), 1u);
  EXPECT_EQ(Found[0].K, SilentDeviceMapping::DefaultIsPlatform);
  EXPECT_TRUE(isa_and_nonnull<DefaultStmt>(Found[0].At));
  EXPECT_TRUE(kinds(Ctx, "other_platform").empty());
  NameList Unrelated(std::vector<std::string>{"::interop::Platform$"});
  EXPECT_TRUE(findSilentDeviceMappings(*FD, Ctx, &Unrelated).empty());
}

} // namespace
