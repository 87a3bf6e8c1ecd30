// Unit tests of lib/engine/JudgedFunctions.h and SkipReason.h: which
// functions every family judges, and why a function is skipped.

#include "lib/engine/JudgedFunctions.h"
#include "lib/engine/SkipReason.h"

#include "ast_search.h"
#include "snippet_annotations.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"

#include "gtest/gtest.h"

#include <set>
#include <string>

using namespace clang;
using namespace clang::interop;
using namespace clang::ast_matchers;
using namespace interop_test;

namespace {

TEST(JudgedFunctions, MatcherAndPredicate) {
  auto AST = parseWithInputs(R"cpp(
void declared();
void defined() {}
template <class T> void pattern(T) {}
template void pattern<int>(int);
struct S { S() = default; S(const S &) = default; void m() {} };
S make() { S s; S t(s); return t; }
)cpp");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  std::set<std::string> Judged;
  for (const BoundNodes &N : match(judgedFunctionMatcher(), Ctx)) {
    const auto *FD = N.getNodeAs<FunctionDecl>("fn");
    if (isJudgedFunction(*FD))
      Judged.insert(FD->getNameAsString());
  }
  // The instantiation is judged, its pattern is not; a declaration and a
  // defaulted member are not matched at all.
  EXPECT_EQ(Judged, (std::set<std::string>{"defined", "pattern", "m", "make"}));
  auto Patterns = match(functionDecl(hasName("pattern"), isDefinition(),
                                     unless(isTemplateInstantiation()))
                            .bind("p"),
                        Ctx);
  ASSERT_EQ(Patterns.size(), 1u);
  const auto *Pattern = Patterns[0].getNodeAs<FunctionDecl>("p");
  EXPECT_FALSE(isJudgedFunction(*Pattern));
  EXPECT_EQ(whyNotAnalysable(*Pattern), SkipReason::Dependent);
  auto Decls = match(functionDecl(hasName("declared")).bind("d"), Ctx);
  EXPECT_EQ(whyNotAnalysable(*Decls[0].getNodeAs<FunctionDecl>("d")),
            SkipReason::NoBody);
  EXPECT_EQ(whyNotAnalysable(*functionNamed(Ctx, "defined")), SkipReason::None);
}

TEST(JudgedFunctions, ErrorsSkipTheAnalyses) {
  auto AST = parseWithInputs("void f() { undeclared(); }\nvoid g() {}\n");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  // Today any error in the translation unit skips every function in it.
  EXPECT_EQ(whyNotAnalysable(*functionNamed(Ctx, "g")),
            SkipReason::InvalidCode);
}

TEST(SkipReason, DescriptionsAndGiveUps) {
  EXPECT_STREQ(describeSkip(SkipReason::TooLarge),
               "it is larger than the analysis bound");
  EXPECT_EQ(describeSkip(SkipReason::BuildFailed, "Can only analyze C++"),
            "its control-flow graph could not be built (Can only analyze C++)");
  EXPECT_EQ(describeSkip(SkipReason::None, ""), "analysed");
  EXPECT_TRUE(isGiveUp(SkipReason::BoundExceeded));
  EXPECT_TRUE(isGiveUp(SkipReason::InvalidCode));
  EXPECT_FALSE(isGiveUp(SkipReason::Dependent));
  EXPECT_FALSE(isGiveUp(SkipReason::NoBody));
  EXPECT_FALSE(isGiveUp(SkipReason::None));
}

} // namespace
