// Unit tests of the analysability gate (lib/engine/JudgedFunctions.h):
// compile errors are judged per function.

#include "lib/engine/JudgedFunctions.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/Tooling.h"

#include "gtest/gtest.h"

#include <map>
#include <memory>
#include <string>

using namespace clang;
using namespace clang::interop;

namespace {

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
  EXPECT_EQ(V.at("unknown_member"), SkipReason::InvalidCode);
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
