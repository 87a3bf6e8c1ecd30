// Unit tests of lib/dlpackfields/DLPackFieldEvents.h and DLPackFieldConfig.h:
// when no check can report an event, the configuration's key and the host
// guard recogniser its options drive.

#include "lib/dlpackfields/DLPackFieldConfig.h"
#include "lib/dlpackfields/DLPackFieldEvents.h"
#include "lib/dlpackfields/DLPackHelperSummaries.h"
#include "lib/dlpackfields/DLPackHostGuards.h"

#include "ast_search.h"
#include "dlpack_snippets.h"
#include "snippet_annotations.h"

#include "gtest/gtest.h"

using namespace clang;
using namespace clang::interop;
using namespace interop_test;

namespace {

TEST(DLPackFieldEvents, FullyProven) {
  auto AST = parseWithInputs(std::string(DLPackPrelude) + R"cpp(
bool IsHostDevice(DLDevice d);
float f(const DLTensor *t) {
  float *p = static_cast<float *>(t->data);
  return p[0] + p[1] + IsHostDevice(t->device);
}
)cpp",
                             {"-UNDEBUG"});
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  const Stmt *Body = functionNamed(Ctx, "f")->getBody();
  const auto *First = firstNode<ArraySubscriptExpr>(Body);
  const auto *Second = firstNode<ArraySubscriptExpr>(
      Body, [&](const ArraySubscriptExpr &A) { return &A != First; });
  ASSERT_TRUE(First && Second);
  EXPECT_TRUE(readsOnlyFirstElement(First, Ctx));
  EXPECT_FALSE(readsOnlyFirstElement(Second, Ctx));

  DLPackEvent Data;
  Data.K = DLPackEvent::DataDeref;
  Data.Use = Second;
  Data.OffsetApplied = true;
  Data.HostProven = true;
  EXPECT_FALSE(isFullyProven(Data, Ctx)) << "strides not looked at";
  Data.StridesConsidered = true;
  EXPECT_TRUE(isFullyProven(Data, Ctx));
  Data.IsWrite = Data.FromVersioned = true;
  EXPECT_FALSE(isFullyProven(Data, Ctx)) << "READ_ONLY not checked";
  DLPackEvent Import;
  Import.K = DLPackEvent::TensorCallArg;
  EXPECT_TRUE(isFullyProven(Import, Ctx));
  Import.ProvenDeviceType = 7;
  EXPECT_FALSE(isFullyProven(Import, Ctx));

  // IsHostDevice(t->device) tests the tensor's device.
  DLPackFieldCompiled Compiled =
      DLPackFieldCompiled::compile(DLPackFieldConfig());
  const Expr *Arg =
      hostGuardArgument(*callNamed(Body, "IsHostDevice"), Compiled.HostGuards);
  ASSERT_TRUE(Arg);
  EXPECT_TRUE(isa<MemberExpr>(Arg->IgnoreParenImpCasts()));
}

TEST(DLPackFieldConfig, KeyNamesEveryOption) {
  DLPackFieldConfig A, B;
  EXPECT_EQ(A.key(), B.key());
  for (auto Change : std::vector<void (*)(DLPackFieldConfig &)>{
           [](DLPackFieldConfig &C) {
             C.DebugOnlyAssertMacros = {"MY_ASSERT"};
           },
           [](DLPackFieldConfig &C) { C.HostDeviceGuards = {"OnCpu"}; },
           [](DLPackFieldConfig &C) { C.ImportFunctions = {"::mine::in$"}; },
           [](DLPackFieldConfig &C) { C.Bounds.MaxMilliseconds = 1; },
           [](DLPackFieldConfig &C) { C.SyntacticProofs = false; }}) {
    DLPackFieldConfig Changed;
    Change(Changed);
    EXPECT_NE(Changed.key(), A.key());
  }
}

} // namespace
