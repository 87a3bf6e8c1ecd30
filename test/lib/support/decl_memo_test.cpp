// Unit tests of lib/support/DeclMemo.h: one answer per declaration, until
// the memos are forgotten or a declaration of another AST is asked about.

#include "lib/support/DeclMemo.h"

#include "ast_search.h"
#include "snippet_annotations.h"

#include "gtest/gtest.h"

using namespace clang;
using namespace clang::interop;
using namespace interop_test;

namespace {

TEST(DeclMemo, OneAnswerPerDeclarationUntilForgotten) {
  std::unique_ptr<ASTUnit> AST = parseWithInputs("void f() {}\nvoid g() {}\n");
  ASSERT_TRUE(AST);
  const FunctionDecl *F = functionNamed(AST->getASTContext(), "f");
  const FunctionDecl *G = functionNamed(AST->getASTContext(), "g");
  ASSERT_TRUE(F && G);
  DeclMemo<int> Memo;
  int Calls = 0;
  auto Ask = [&](const Decl *D) {
    return Memo.get(D, [&] { return ++Calls; });
  };
  EXPECT_EQ(Ask(F), 1);
  EXPECT_EQ(Ask(F), 1);
  EXPECT_EQ(Ask(G), 2);
  forgetDeclMemos();
  EXPECT_EQ(Ask(F), 3);
}

TEST(DeclMemo, ADeclarationOfAnotherASTForgetsTheLastOnes) {
  std::unique_ptr<ASTUnit> First = parseWithInputs("void f() {}\n");
  std::unique_ptr<ASTUnit> Second = parseWithInputs("void f() {}\n");
  ASSERT_TRUE(First && Second);
  const FunctionDecl *F1 = functionNamed(First->getASTContext(), "f");
  const FunctionDecl *F2 = functionNamed(Second->getASTContext(), "f");
  ASSERT_TRUE(F1 && F2);
  DeclMemo<int> Memo;
  int Calls = 0;
  auto Ask = [&](const Decl *D) {
    return Memo.get(D, [&] { return ++Calls; });
  };
  EXPECT_EQ(Ask(F1), 1);
  EXPECT_EQ(Ask(F2), 2);
  // F1's answer went with the switch to the second AST.
  EXPECT_EQ(Ask(F1), 3);
}

} // namespace
