// Unit tests of lib/arraydevice/ArrayDeviceEvents.h: which calls are sinks,
// and what each judges.

#include "lib/arraydevice/ArrayDeviceEvents.h"
#include "lib/support/AstHelpers.h"

#include "ast_search.h"
#include "snippet_annotations.h"

#include "gtest/gtest.h"

using namespace clang;
using namespace clang::interop;
using namespace interop_test;

namespace {

TEST(ArrayDeviceEvents, SinksAndSubjects) {
  auto AST = parseWithInputs(R"cpp(#include "interop/interop.h"
void f(const interop::Array &a, DLManagedTensorVersioned *t,
       const interop::Device &d) {
  auto e = interop::to_dlpack(a);
  auto i = interop::from_dlpack(t, d);
  auto c = interop::cuda_array_interface(a);
  auto v = i.value();
  bool one = a.is_single_device();
}
)cpp");
  ASSERT_TRUE(AST);
  ASSERT_FALSE(AST->getASTContext().getDiagnostics().hasErrorOccurred());
  ApiModel M{ApiModelOptions()};
  const Stmt *Body = functionNamed(AST->getASTContext(), "f")->getBody();
  const CallExpr *Export = callNamed(Body, "to_dlpack");
  const CallExpr *Import = callNamed(Body, "from_dlpack");
  const CallExpr *Cuda = callNamed(Body, "cuda_array_interface");
  EXPECT_EQ(sinkKindOf(M, Export->getDirectCallee()), SinkKind::Export);
  EXPECT_EQ(sinkKindOf(M, Import->getDirectCallee()), SinkKind::Import);
  EXPECT_EQ(sinkKindOf(M, Cuda->getDirectCallee()),
            SinkKind::CudaArrayInterface);
  EXPECT_EQ(
      sinkKindOf(M, callNamed(Body, "is_single_device")->getDirectCallee()),
      std::nullopt);
  // The subject: the array exported, the device imported onto.
  EXPECT_EQ(
      referencedDecl(sinkSubject(M, *Export, SinkKind::Export))->getName(),
      "a");
  EXPECT_EQ(
      referencedDecl(sinkSubject(M, *Import, SinkKind::Import))->getName(),
      "d");
  EXPECT_TRUE(isResultUnwrap(M, *callNamed(Body, "value")));
  EXPECT_FALSE(isResultUnwrap(M, *Export));
}

} // namespace
