// Unit tests of lib/abi/DeleterCalls.h: which calls are a managed tensor's
// deleter (the local-copy and by-value forms are exercised with the capsule
// API's snippets in capsule_api_test.cpp).

#include "lib/abi/DeleterCalls.h"
#include "lib/support/AstHelpers.h"

#include "ast_search.h"
#include "snippet_annotations.h"

#include "gtest/gtest.h"

#include <vector>

using namespace clang;
using namespace clang::interop;
using namespace interop_test;

namespace {

TEST(DeleterCalls, SpellingsOfADeleterCall) {
  auto AST = parseWithInputs(R"cpp(
#include <dlpack/dlpack.h>
void other(DLManagedTensor *t);
struct Holder {
  void (*deleter)(DLManagedTensor *);
};
void f(DLManagedTensor *t, DLManagedTensor v, Holder h) {
  t->deleter(t);
  (*t->deleter)(t);
  v.deleter(&v);
  other(t);
  h.deleter(t);
}
)cpp");
  ASSERT_TRUE(AST);
  std::vector<const CallExpr *> Calls;
  firstNode<CallExpr>(functionNamed(AST->getASTContext(), "f")->getBody(),
                      [&](const CallExpr &CE) {
                        Calls.push_back(&CE);
                        return false;
                      });
  ASSERT_EQ(Calls.size(), 5u);
  const Expr *Base = nullptr;
  EXPECT_TRUE(isDeleterCall(Calls[0], &Base));
  EXPECT_TRUE(Base);
  EXPECT_TRUE(isDeleterCall(Calls[1]));
  EXPECT_TRUE(isDeleterCall(Calls[2]));
  EXPECT_TRUE(byValueManagedTensor(Calls[2]->getArg(0))) << "&v";
  EXPECT_FALSE(isDeleterCall(Calls[3])) << "a named function";
  EXPECT_FALSE(isDeleterCall(Calls[4])) << "a field of another record";
  // The pointer each call reads: `t->deleter`, with or without the `*`.
  for (unsigned I : {0u, 1u}) {
    const auto *ME = dyn_cast<MemberExpr>(calledPointer(*Calls[I]));
    ASSERT_TRUE(ME) << I;
    EXPECT_EQ(ME->getMemberDecl()->getName(), "deleter") << I;
  }
  EXPECT_TRUE(isa<DeclRefExpr>(calledPointer(*Calls[3]))) << "other";
}

} // namespace
