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

} // namespace
