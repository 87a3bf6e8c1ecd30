// Unit tests of lib/dlpackfields/DLPackDeviceAccess.h: which memory a use
// of `data` touches, and which functions take a tensor's device on trust.

#include "lib/dlpackfields/DLPackDeviceAccess.h"

#include "lib/engine/FactCache.h"

#include "ast_search.h"
#include "dlpack_snippets.h"
#include "snippet_annotations.h"

#include "clang/AST/ASTContext.h"

#include "gtest/gtest.h"

#include <string>

using namespace clang;
using namespace clang::interop;
using namespace interop_test;

namespace {

const char *const Code = R"cpp(
typedef int cudaError_t;
enum cudaMemcpyKind { cudaMemcpyHostToDevice = 1,
                      cudaMemcpyDeviceToDevice = 3, cudaMemcpyDefault = 4 };
cudaError_t cudaMemcpy(void *, const void *, size_t, cudaMemcpyKind);
void free(void *);
void host_view(const void *, long);
void device_view(const void *, long);
void sink(const void *, long);
void sink(const void *);
bool validate(const DLTensor *t);
int kind_of(DLDevice d);

void uses(void *dst, const DLTensor *t) {
  memcpy(dst, t->data, 4);
  cudaMemcpy(dst, t->data, 4, cudaMemcpyDeviceToDevice);
  cudaMemcpy(dst, t->data, 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dst, t->data, 4, cudaMemcpyDefault);
  free(t->data);
  host_view(t->data, t->shape[0]);
  device_view(t->data, t->shape[0]);
  sink(t->data, t->shape[0]);
  sink(t->data);
}

void trusting(void *dst, const DLTensor *t) {
  DLTensor copy = *t;
  sink(copy.data, copy.shape[0]);
}
void compares(const DLTensor *t) {
  if (t->device.device_type == kDLCPU)
    sink(t->data);
}
void converts(const DLTensor *t) { sink(t->data, kind_of(t->device)); }
void validates(const DLTensor *t) {
  if (validate(t))
    sink(t->data);
}
static void helper(const DLTensor *t) { sink(t->data); }
void calls_helper(const DLTensor *t) { helper(t); }
)cpp";

TEST(DLPackDeviceAccess, SideOfEachUse) {
  auto AST = parseDLPackCode(std::string(DLPackPrelude) + Code);
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  ASSERT_FALSE(Ctx.getDiagnostics().hasErrorOccurred());
  std::vector<const CallExpr *> Calls;
  firstNode<CallExpr>(functionNamed(Ctx, "uses")->getBody(),
                      [&](const CallExpr &CE) {
                        Calls.push_back(&CE);
                        return false;
                      });
  ASSERT_EQ(Calls.size(), 9u);
  NameList Host(std::vector<std::string>{"host_view$"});
  NameList Device(std::vector<std::string>{"device_view$"});
  auto Side = [&](unsigned I, bool Layout) {
    DLPackEvent E;
    E.K = DLPackEvent::DataCallArg;
    E.Call = Calls[I];
    E.Callee = Calls[I]->getDirectCallee();
    E.ArgIndex = 1;
    if (I >= 4)
      E.ArgIndex = 0;
    E.CallPassesLayout = Layout;
    return classifyDataAccess(E, Host, Device, Ctx);
  };
  EXPECT_EQ(Side(0, false), DataAccessSide::Host) << "memcpy";
  EXPECT_EQ(Side(1, false), DataAccessSide::Device) << "device to device";
  EXPECT_EQ(Side(2, false), DataAccessSide::Host) << "host to device";
  EXPECT_EQ(Side(3, false), DataAccessSide::None) << "the runtime decides";
  EXPECT_EQ(Side(4, false), DataAccessSide::None) << "free";
  EXPECT_EQ(Side(5, true), DataAccessSide::Host) << "a host view";
  EXPECT_EQ(Side(6, true), DataAccessSide::Device) << "a device view";
  EXPECT_EQ(Side(7, true), DataAccessSide::Wrapped) << "with the shape";
  EXPECT_EQ(Side(8, false), DataAccessSide::None) << "the pointer alone";

  DLPackEvent Deref;
  Deref.K = DLPackEvent::DataDeref;
  EXPECT_EQ(classifyDataAccess(Deref, Host, Device, Ctx), DataAccessSide::Host);
  DLPackEvent Stored;
  Stored.K = DLPackEvent::DataStored;
  EXPECT_EQ(classifyDataAccess(Stored, Host, Device, Ctx),
            DataAccessSide::None);
}

TEST(DLPackDeviceAccess, FunctionsThatTrustTheDevice) {
  auto AST = parseDLPackCode(std::string(DLPackPrelude) + Code);
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  auto Trusts = [&](const char *Name) {
    return trustsDeviceType(*functionNamed(Ctx, Name));
  };
  // A copy of the record looks at nothing.
  EXPECT_TRUE(Trusts("uses"));
  EXPECT_TRUE(Trusts("trusting"));
  EXPECT_FALSE(Trusts("compares"));
  EXPECT_FALSE(Trusts("converts")) << "the device passed on";
  EXPECT_FALSE(Trusts("validates")) << "the tensor handed to a validator";
  EXPECT_FALSE(Trusts("helper")) << "its caller could look";
  EXPECT_FALSE(Trusts("calls_helper")) << "the helper takes the tensor";
  resetFactCache();
}

TEST(DLPackDeviceAccess, DescriptorParameters) {
  auto AST = parseDLPackCode(std::string(DLPackPrelude) + R"cpp(
void sink(const void *);
DLTensor take();
void param(const DLTensor *t) { sink(t->data); }
void through_reference(const DLTensor &t) {
  const DLTensor &u = t;
  sink(u.data);
}
void managed(DLManagedTensor *mt) {
  DLTensor *t = &mt->dl_tensor;
  sink(t->data);
}
void returned() {
  DLTensor t = take();
  sink(t.data);
}
)cpp");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  auto Descriptor = [&](const char *Name) {
    DLPackEvent E;
    E.K = DLPackEvent::DataCallArg;
    E.FieldRead = firstNode<MemberExpr>(
        functionNamed(Ctx, Name)->getBody(), [](const MemberExpr &ME) {
          return ME.getMemberDecl()->getName() == "data";
        });
    EXPECT_TRUE(E.FieldRead) << Name;
    return readsDescriptorParameter(E);
  };
  EXPECT_TRUE(Descriptor("param"));
  EXPECT_TRUE(Descriptor("through_reference"));
  EXPECT_FALSE(Descriptor("managed")) << "a managed tensor is exchanged";
  EXPECT_FALSE(Descriptor("returned"));
  resetFactCache();
}

} // namespace
