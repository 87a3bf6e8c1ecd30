// Unit tests of lib/support/NameLists.h: the one rule every option that
// names functions follows.

#include "lib/support/NameLists.h"

#include "ast_search.h"
#include "snippet_annotations.h"

#include "clang/AST/DeclCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

#include "gtest/gtest.h"

using namespace clang;
using namespace clang::interop;
using namespace clang::ast_matchers;
using namespace interop_test;

namespace {

TEST(NameLists, SplitsAndTrims) {
  std::vector<llvm::StringRef> L = splitOptionList(" ::a::f$ ;; b ;");
  ASSERT_EQ(L.size(), 2u);
  EXPECT_EQ(L[0], "::a::f$");
  EXPECT_EQ(L[1], "b");
  EXPECT_EQ(optionStrings("x;y").size(), 2u);
}

TEST(NameLists, QualifiedNamesAndConstructors) {
  auto AST = parseWithInputs(R"cpp(
namespace at { void from_blob(); }
namespace Eigen { template <class T> struct Map { Map(T *); }; }
void user(float *p) { at::from_blob(); Eigen::Map<float> m(p); }
bool IsHostDevice(int);
)cpp");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  const FunctionDecl *Blob =
      match(functionDecl(hasName("from_blob")).bind("f"), Ctx)[0]
          .getNodeAs<FunctionDecl>("f");
  FunctionNameList L(
      std::vector<std::string>{"::at::from_blob$", "::Eigen::Map$"});
  EXPECT_TRUE(L.matches(Blob));
  // A constructor is named by its class.
  auto Ctors = match(cxxConstructExpr().bind("c"), Ctx);
  ASSERT_FALSE(Ctors.empty());
  EXPECT_TRUE(
      L.matches(Ctors[0].getNodeAs<CXXConstructExpr>("c")->getConstructor()));
  EXPECT_FALSE(L.matches(functionNamed(Ctx, "user")));
  // The identifier spelling searches the bare name.
  const FunctionDecl *Guard =
      match(functionDecl(hasName("IsHostDevice")).bind("g"), Ctx)[0]
          .getNodeAs<FunctionDecl>("g");
  EXPECT_TRUE(FunctionNameList(std::vector<std::string>{"^IsHost"},
                               NameSpelling::Identifier)
                  .matches(Guard));
  EXPECT_FALSE(
      FunctionNameList(std::vector<std::string>{"^IsHost"}).matches(Guard));
}

TEST(NameLists, InvalidExpressionsAreReported) {
  std::vector<std::string> Errors;
  std::vector<llvm::StringRef> Patterns = {"ok", "bad("};
  FunctionNameList L(Patterns, NameSpelling::Qualified, &Errors);
  ASSERT_EQ(Errors.size(), 1u);
  EXPECT_NE(Errors[0].find("bad("), std::string::npos);
  EXPECT_FALSE(L.empty());
}

} // namespace
