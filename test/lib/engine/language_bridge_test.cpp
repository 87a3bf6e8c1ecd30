// Unit tests of lib/engine/LanguageBridge.h: which C functions hold a brace
// initializer of a record without a C++ class (the one construct the flow
// analysis is not run on), which of them are set aside while it runs, and
// that C++ records never count.

#include "lib/engine/LanguageBridge.h"

#include "snippet_annotations.h"

#include "clang/AST/ASTContext.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"

#include "gtest/gtest.h"

#include <memory>

using namespace clang;
using namespace clang::interop;
using namespace interop_test;

namespace {

const char *const Code = R"c(
struct Pair { int a; int b; };
union Either { int i; float f; };
struct Pair make(int x) {
  struct Pair p = {x, 0};
  return p;
}
void literal(struct Pair *out) { *out = (struct Pair){1, 2}; }
void nested(struct Pair *out) { struct Pair ps[2] = {{1, 2}, {3, 4}}; *out = ps[1]; }
void zeroed(union Either *out) { union Either e = {0}; *out = e; }
int scalars(void) { int xs[3] = {1, 2, 3}; return xs[0]; }
int plain(struct Pair p) { return p.a + p.b; }
int constants(void) { struct Pair p = {0}; struct Pair q = {.a = 1, .b = 2}; return p.a + q.b; }
int mixed(int x) { struct Pair p = {0}; struct Pair q = {x, 2}; return p.a + q.b; }
)c";

TEST(LanguageBridge, BraceInitializersOfCRecords) {
  std::unique_ptr<ASTUnit> AST =
      tooling::buildASTFromCodeWithArgs(Code, {"-xc", "-std=c11"}, "snippet.c");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  auto Found = [&](const char *Name) {
    const FunctionDecl *F = functionNamed(Ctx, Name);
    EXPECT_NE(F, nullptr) << Name;
    return F ? unmodelledInitializer(*F) : nullptr;
  };
  for (const char *Name : {"make", "literal", "nested", "zeroed"}) {
    const InitListExpr *E = Found(Name);
    ASSERT_NE(E, nullptr) << Name;
    EXPECT_TRUE(E->getType()->isRecordType()) << Name;
  }
  // An array of scalars and a function without braces are fine.
  EXPECT_EQ(Found("scalars"), nullptr);
  EXPECT_EQ(Found("plain"), nullptr);
}

TEST(LanguageBridge, ConstantInitializersAreSetAsideForTheRun) {
  std::unique_ptr<ASTUnit> AST =
      tooling::buildASTFromCodeWithArgs(Code, {"-xc", "-std=c11"}, "snippet.c");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  const FunctionDecl *Constants = functionNamed(Ctx, "constants");
  const FunctionDecl *Mixed = functionNamed(Ctx, "mixed");
  const FunctionDecl *Literal = functionNamed(Ctx, "literal");
  ASSERT_TRUE(Constants && Mixed && Literal);
  ASSERT_NE(unmodelledInitializer(*Constants), nullptr);
  {
    ConstantInitializersAside Aside(*Constants, Ctx);
    EXPECT_EQ(unmodelledInitializer(*Constants), nullptr);
  }
  // Put back afterwards, exactly as it was.
  const InitListExpr *Back = unmodelledInitializer(*Constants);
  ASSERT_NE(Back, nullptr);
  EXPECT_EQ(Back->getNumInits(), 2u);
  {
    // `{x, 2}` reads a variable: it stays, and is what is left to report;
    // `{0}` beside it is set aside.
    ConstantInitializersAside Aside(*Mixed, Ctx);
    const InitListExpr *Left = unmodelledInitializer(*Mixed);
    ASSERT_NE(Left, nullptr);
    EXPECT_FALSE(Left->isConstantInitializer(Ctx, false));
  }
  {
    // A compound literal is no variable's initializer.
    ConstantInitializersAside Aside(*Literal, Ctx);
    EXPECT_NE(unmodelledInitializer(*Literal), nullptr);
  }
}

TEST(LanguageBridge, CxxRecordsAreModelled) {
  std::unique_ptr<ASTUnit> AST = tooling::buildASTFromCodeWithArgs(
      "struct Pair { int a; int b; };\n"
      "Pair make(int x) { Pair p = {x, 0}; return Pair{p.b, x}; }\n",
      {"-std=c++17"}, "snippet.cpp");
  ASSERT_TRUE(AST);
  const FunctionDecl *F = functionNamed(AST->getASTContext(), "make");
  ASSERT_NE(F, nullptr);
  EXPECT_EQ(unmodelledInitializer(*F), nullptr);
}

} // namespace
