// Unit tests of lib/abi/DeleterCalls.h: what releases a managed tensor
// through its deleter (isDeleterCall and byValueManagedTensor are exercised
// with the capsule API's snippets in capsule_api_test.cpp).

#include "lib/abi/DeleterCalls.h"

#include "ast_search.h"
#include "snippet_annotations.h"

#include "clang/AST/ExprCXX.h"

#include "gtest/gtest.h"

using namespace clang;
using namespace clang::interop;
using namespace interop_test;

namespace {

TEST(DeleterCalls, ReleasesThroughDeleter) {
  auto AST = parseWithInputs(R"cpp(
#include <dlpack/dlpack.h>
typedef void (*Cleanup)(void *);
void take(Cleanup c);
void release(void *p) {
  auto *t = static_cast<DLManagedTensor *>(p);
  if (t->deleter)
    t->deleter(t);
}
void other(void *p) { (void)p; }
void f(DLManagedTensor *t) {
  take(reinterpret_cast<Cleanup>(t->deleter));
  take(release);
  take(other);
}
)cpp");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  const Stmt *F = functionNamed(Ctx, "f")->getBody();
  std::vector<const Expr *> Args;
  firstNode<CallExpr>(F, [&](const CallExpr &CE) {
    Args.push_back(CE.getArg(0));
    return false;
  });
  ASSERT_EQ(Args.size(), 3u);
  // The deleter field itself, cast to another function pointer type.
  EXPECT_TRUE(releasesThroughDeleter(Args[0], nullptr));
  // A function whose body calls a deleter, and one whose body does not.
  EXPECT_TRUE(releasesThroughDeleter(
      Args[1], functionNamed(Ctx, "release")->getBody()));
  EXPECT_FALSE(
      releasesThroughDeleter(Args[2], functionNamed(Ctx, "other")->getBody()));
  EXPECT_FALSE(releasesThroughDeleter(nullptr, nullptr));
}

} // namespace
