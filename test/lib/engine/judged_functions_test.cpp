// Unit tests of lib/engine/JudgedFunctions.h and SkipReason.h: which
// functions every family judges, and why a function is skipped (compile
// errors judged per function).

#include "lib/engine/JudgedFunctions.h"
#include "lib/engine/SkipReason.h"
#include "lib/support/LLVMCompat.h"

#include "ast_search.h"
#include "snippet_annotations.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/Tooling.h"

#include "gtest/gtest.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

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

TEST(JudgedFunctions, ErrorsSkipOnlyTheFunctionThatHoldsThem) {
  auto AST = parseWithInputs("void f() { undeclared(); }\nvoid g() {}\n");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  // An error in one function no longer skips the others.
  EXPECT_EQ(whyNotAnalysable(*functionNamed(Ctx, "f")),
            SkipReason::InvalidCode);
  EXPECT_EQ(whyNotAnalysable(*functionNamed(Ctx, "g")), SkipReason::None);
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

/// Per-function verdicts with and without the compile-error recorder.
using Verdicts = std::map<std::string, SkipReason>;

/// whyNotAnalysable() of every named function definition in the file.
class Collect : public ASTConsumer, public RecursiveASTVisitor<Collect> {
public:
  explicit Collect(Verdicts &Out) : Out(Out) {}
  void HandleTranslationUnit(ASTContext &Ctx) override {
    TraverseDecl(Ctx.getTranslationUnitDecl());
  }
  bool VisitLambdaExpr(LambdaExpr *L) {
    Out["lambda"] = whyNotAnalysable(*L->getCallOperator());
    return true;
  }
  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->doesThisDeclarationHaveABody())
      Out[FD->getNameAsString()] = whyNotAnalysable(*FD);
    return true;
  }

private:
  Verdicts &Out;
};

class Action : public ASTFrontendAction {
public:
  Action(Verdicts &Out, bool Record) : Out(Out), Record(Record) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef) override {
    if (Record)
      recordCompileErrors(CI.getPreprocessor());
    return std::make_unique<Collect>(Out);
  }

private:
  Verdicts &Out;
  bool Record;
};

Verdicts judge(const std::string &Code, bool Record,
               std::vector<std::string> Args = {"-std=c++17"}) {
  Verdicts Out;
  tooling::runToolOnCodeWithArgs(std::make_unique<Action>(Out, Record), Code,
                                 Args, "snippet.cpp");
  return Out;
}

const char *const Snippet = R"cpp(
struct T { int *strides; };
int unknown_call(T *t) { acme::f(t); return t->strides[0]; }
int unknown_type(T *t) { acme::L l; return t->strides[0]; }
int unknown_member(T *t) { return t->strdes[0]; }
int dropped_statement(T *t) {
  if (!t->strides) ] return 0;
  return t->strides[0];
}
int fine(T *t) { return t->strides ? t->strides[0] : 0; }
struct C { C(T *t) : n(acme::g(t)) {} int n; };
int outer(T *t) {
  auto inner = [](T *u) { return u->strides ? 1 : 0; };
  return inner(t) + acme::h();
}
template <typename X> int pattern(X *x) { return x->strides[0]; }
)cpp";

TEST(JudgedFunctions, ErrorsSkipOnlyTheFunctionsThatHoldThem) {
  Verdicts V = judge(Snippet, /*Record=*/true);
  EXPECT_EQ(V.at("unknown_call"), SkipReason::InvalidCode);
  EXPECT_EQ(V.at("unknown_type"), SkipReason::InvalidCode);
  EXPECT_EQ(V.at("unknown_member"), SkipReason::InvalidCode);
  EXPECT_EQ(V.at("dropped_statement"), SkipReason::InvalidCode);
  EXPECT_EQ(V.at("C"), SkipReason::InvalidCode) << "a member initialiser";
  EXPECT_EQ(V.at("outer"), SkipReason::InvalidCode);
  EXPECT_EQ(V.at("lambda"), SkipReason::None)
      << "a lambda is judged on its own body";
  EXPECT_EQ(V.at("fine"), SkipReason::None);
  EXPECT_EQ(V.at("pattern"), SkipReason::Dependent);
}

TEST(JudgedFunctions, WithoutTheRecorderTheASTAloneTells) {
  // The parser drops a statement with a syntax error or a name qualified by
  // an undeclared namespace (`return inner(t) + acme::h();` in outer), and a
  // member initialiser that does not compile, without a trace in the AST:
  // only the recorded error's place shows them.
  Verdicts V = judge(Snippet, /*Record=*/false);
  EXPECT_EQ(V.at("unknown_call"), SkipReason::InvalidCode);
  EXPECT_EQ(V.at("unknown_type"), SkipReason::InvalidCode);
  // clang 19 builds the corrected `t->strides` for `t->strdes`: a function
  // the AST alone cannot tell from valid code (LLVMCompat.h).
  EXPECT_EQ(V.at("unknown_member"), compat::kASTMarksCorrectedTypos
                                        ? SkipReason::InvalidCode
                                        : SkipReason::None);
  EXPECT_EQ(V.at("outer"), SkipReason::None);
  EXPECT_EQ(V.at("C"), SkipReason::None);
  EXPECT_EQ(V.at("dropped_statement"), SkipReason::None);
  EXPECT_EQ(V.at("fine"), SkipReason::None);
}

TEST(JudgedFunctions, ErrorsInMacroExpansionsAndHeadersOfOthers) {
  Verdicts V = judge(R"cpp(
#define READ(t) acme::read(t)
struct T { int *strides; };
int through_macro(T *t) { return READ(t); }
int after(T *t) { return t->strides[0]; }
)cpp",
                     /*Record=*/true);
  EXPECT_EQ(V.at("through_macro"), SkipReason::InvalidCode);
  EXPECT_EQ(V.at("after"), SkipReason::None);
}

TEST(JudgedFunctions, WarningsTurnedIntoErrorsDoNotCount) {
  Verdicts V =
      judge(R"cpp(
int f(int *p) { int unused = 0; return p[0]; }
)cpp",
            /*Record=*/true, {"-std=c++17", "-Wunused-variable", "-Werror"});
  EXPECT_EQ(V.at("f"), SkipReason::None);
}

TEST(JudgedFunctions, CleanTranslationUnit) {
  Verdicts V = judge("int f(int *p) { return p[0]; }", /*Record=*/true);
  EXPECT_EQ(V.at("f"), SkipReason::None);
}

} // namespace
