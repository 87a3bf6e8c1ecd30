// Unit tests of lib/engine/ExitConditions.h: a helper whose body begins
// with `if (!cond) <exit>` returns only when its bool parameter is true, one
// with `if (cond) <exit>` only when it is false; a helper without a body is
// one only when a list names it.

#include "lib/engine/ExitConditions.h"

#include "ast_search.h"
#include "dlpack_snippets.h"
#include "snippet_annotations.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include "gtest/gtest.h"

#include <optional>
#include <string>

using namespace clang;
using namespace clang::interop;
using namespace interop_test;

namespace {

const char *const Helpers = R"cpp(
[[noreturn]] void fail(const char *why);
struct Error { Error(const char *); };

void validate(bool cond, const char *msg) {
  if (!cond)
    throw Error(msg);
}
void second(const char *msg, bool ok) {
  if (!(ok)) {
    fail(msg);
  }
  ;
}
void block_ends_in_exit(int code, bool ok) {
  if (!ok) {
    int unused = code;
    throw Error("bad");
    ;
  }
  (void)code;
}
void returns_instead(bool cond) {
  if (!cond)
    return;
}
void logs_only(bool cond) {
  if (!cond)
    (void)0;
}
void not_first(bool cond) {
  int x = 0;
  if (!cond)
    throw Error("late");
  (void)x;
}
void without_negation(bool cond) {
  if (cond)
    throw Error("inverted");
}
void with_else(bool cond) {
  if (!cond)
    throw Error("a");
  else
    (void)0;
}
void int_flag(int cond) {
  if (!cond)
    throw Error("int");
}
void by_reference(const bool &cond) {
  if (!cond)
    throw Error("ref");
}
void local_flag(bool cond) {
  if (bool b = cond; !b)
    throw Error("init");
}
void empty_body(bool cond) {}
void declared_only(bool cond);
bool validate_dlpack_condition(bool cond, const char *msg);

void calls(bool c) {
  validate(c, "m");
  second("m", c);
  block_ends_in_exit(1, c);
  returns_instead(c);
  logs_only(c);
  not_first(c);
  without_negation(c);
  with_else(c);
  int_flag(c);
  by_reference(c);
  local_flag(c);
  empty_body(c);
  declared_only(c);
  validate_dlpack_condition(c, "named like one");
}
)cpp";

/// The answer for the callee named Name, as "param N true|false" (the
/// value it returns on) or "none"; from the body, or with Exits.
std::string required(ASTContext &Ctx, llvm::StringRef Name,
                     const ExitConditions *Exits = nullptr) {
  const FunctionDecl *Calls = functionNamed(Ctx, "calls");
  if (!Calls)
    return "no calls()";
  const CallExpr *CE = callNamed(Calls->getBody(), Name);
  if (!CE)
    return "no call of " + Name.str();
  std::optional<ExitCondition> C =
      Exits ? Exits->of(*CE) : exitConditionOfBody(CE->getDirectCallee());
  return C ? "param " + std::to_string(C->Arg) +
                 (C->ReturnsWhen ? " true" : " false")
           : "none";
}

TEST(ExitConditions, BodyThatExitsWhenItsBoolIsFalse) {
  auto AST = parseDLPackCode(std::string(DLPackPrelude) + Helpers);
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  ASSERT_FALSE(Ctx.getDiagnostics().hasErrorOccurred());
  EXPECT_EQ(required(Ctx, "validate"), "param 0 true");
  // The parameter's position, parentheses, a noreturn call, a block whose
  // last non-empty statement exits.
  EXPECT_EQ(required(Ctx, "second"), "param 1 true");
  EXPECT_EQ(required(Ctx, "block_ends_in_exit"), "param 1 true");
  // `if (cond) throw`: returns only when cond is false.
  EXPECT_EQ(required(Ctx, "without_negation"), "param 0 false");
}

TEST(ExitConditions, AnythingElseIsNoValidator) {
  auto AST = parseDLPackCode(std::string(DLPackPrelude) + Helpers);
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  // Returning (the caller goes on) or doing nothing is no exit.
  EXPECT_EQ(required(Ctx, "returns_instead"), "none");
  EXPECT_EQ(required(Ctx, "logs_only"), "none");
  // The test must come first, without an else branch.
  EXPECT_EQ(required(Ctx, "not_first"), "none");
  EXPECT_EQ(required(Ctx, "with_else"), "none");
  // A by-value bool only; not a local declared in the if.
  EXPECT_EQ(required(Ctx, "int_flag"), "none");
  EXPECT_EQ(required(Ctx, "by_reference"), "none");
  EXPECT_EQ(required(Ctx, "local_flag"), "none");
  // No body to read: the name proves nothing.
  EXPECT_EQ(required(Ctx, "empty_body"), "none");
  EXPECT_EQ(required(Ctx, "declared_only"), "none");
  EXPECT_EQ(required(Ctx, "validate_dlpack_condition"), "none");
  EXPECT_EQ(exitConditionOfBody(nullptr), std::nullopt);
}

TEST(ExitConditions, NamedFunctionsWithoutABody) {
  auto AST = parseDLPackCode(std::string(DLPackPrelude) + Helpers + R"cpp(
void throw_if(bool cond, const char *msg);
void ThrowIf(int code, bool cond);
void require(bool cond);
void more_calls(bool c) {
  throw_if(c, "m");
  ThrowIf(1, c);
  require(c);
  validate(c, "body first");
}
)cpp");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  ExitConditionNames Names; // default: names that say "throw if"
  ExitConditions Defaults(Names);
  Names.RequireFunctions = {"(^|::)require$"};
  ExitConditions WithRequire(Names);
  const FunctionDecl *More = functionNamed(Ctx, "more_calls");
  ASSERT_TRUE(More);
  auto Of = [&](const ExitConditions &E, llvm::StringRef Name) {
    const CallExpr *CE = callNamed(More->getBody(), Name);
    std::optional<ExitCondition> C = CE ? E.of(*CE) : std::nullopt;
    return C ? std::to_string(C->Arg) + (C->ReturnsWhen ? " true" : " false")
             : std::string("none");
  };
  EXPECT_EQ(Of(Defaults, "throw_if"), "0 false");
  // Named, but the first parameter is no bool.
  EXPECT_EQ(Of(Defaults, "ThrowIf"), "none");
  // Not named by default; named by the option.
  EXPECT_EQ(Of(Defaults, "require"), "none");
  EXPECT_EQ(Of(WithRequire, "require"), "0 true");
  // A body speaks for itself, lists or not.
  EXPECT_EQ(Of(Defaults, "validate"), "0 true");
}

} // namespace
