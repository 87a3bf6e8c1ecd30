// Unit tests of lib/dlpackfields/DLPackSwitchProofs.h: what the flow
// condition cannot carry, proven on switch cases.

#include "lib/dlpackfields/DLPackSwitchProofs.h"

#include "ast_search.h"
#include "dlpack_snippets.h"
#include "snippet_annotations.h"

#include "gtest/gtest.h"

using namespace clang;
using namespace clang::interop;
using namespace interop_test;

namespace {

const char *Code = R"cpp(
void use(void *);
void by_device(const DLTensor *t) {
  switch (t->device.device_type) {
  case kDLCPU:
    use(t->data);
    break;
  case kDLCUDA:
    break;
  }
  use(t->data);
}
void by_major(DLManagedTensorVersioned *mt) {
  switch (mt->version.major) {
  case 1:
    use(mt->dl_tensor.data);
    break;
  case 2:
  case 3:
    use(mt->dl_tensor.data);
    break;
  }
}
)cpp";

TEST(DLPackSwitchProofs, HostCasesAndSupportedMajors) {
  auto AST = parseWithInputs(std::string(DLPackPrelude) + Code, {"-UNDEBUG"});
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  const FunctionDecl *Device = functionNamed(Ctx, "by_device");
  SwitchHostProof Host(*Device, Ctx);
  const auto *InCase = callNamed(Device->getBody(), "use");
  const auto *After =
      cast<CallExpr>(cast<CompoundStmt>(Device->getBody())->body_back());
  EXPECT_TRUE(Host.proves(InCase));
  EXPECT_FALSE(Host.proves(After));

  const FunctionDecl *Major = functionNamed(Ctx, "by_major");
  SupportedMajorCases Cases(*Major, Ctx);
  const auto *One = callNamed(Major->getBody(), "use");
  const auto *Other = firstNode<CallExpr>(
      Major->getBody(), [&](const CallExpr &CE) { return &CE != One; });
  EXPECT_TRUE(Cases.contains(One));
  EXPECT_FALSE(Cases.contains(Other));
}

} // namespace

namespace {
const char *Mapped = R"cpp(
void use(void *);
enum Own { Host, Gpu };
void mapped(const DLTensor *t) {
  Own d;
  switch (t->device.device_type) {
  case kDLCPU: d = Host; break;
  case kDLCUDA: d = Gpu; break;
  default: return;
  }
  switch (d) {
  case Host: use(t->data); break;
  case Gpu: break;
  }
}
void mapped_from_elsewhere(const DLTensor *t, Own from) {
  Own d = from;
  switch (t->device.device_type) {
  case kDLCPU: d = Host; break;
  default: break;
  }
  switch (d) {
  case Host: use(t->data); break;
  default: break;
  }
}
)cpp";

TEST(DLPackSwitchProofs, ADeviceTypeMappedOntoALocalEnumeration) {
  auto AST = parseWithInputs(std::string(DLPackPrelude) + Mapped, {});
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  const FunctionDecl *Good = functionNamed(Ctx, "mapped");
  EXPECT_TRUE(SwitchHostProof(*Good, Ctx)
                  .proves(callNamed(Good->getBody(), "use")));
  // A store that is not a constant may hold Host on any path.
  const FunctionDecl *Bad = functionNamed(Ctx, "mapped_from_elsewhere");
  EXPECT_FALSE(SwitchHostProof(*Bad, Ctx)
                   .proves(callNamed(Bad->getBody(), "use")));
}
} // namespace
