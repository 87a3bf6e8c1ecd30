// Unit tests of lib/dlpackfields/DLPackValidators.h: the helper whose body
// begins with `if (!cond) <exit>` returns only when its bool parameter is
// true; what the body says, never the name.

#include "lib/dlpackfields/DLPackValidators.h"

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

/// The answer for the callee named Name, as "param N" or "none".
std::string required(ASTContext &Ctx, llvm::StringRef Name) {
  const FunctionDecl *Calls = functionNamed(Ctx, "calls");
  if (!Calls)
    return "no calls()";
  const CallExpr *CE = callNamed(Calls->getBody(), Name);
  if (!CE)
    return "no call of " + Name.str();
  std::optional<unsigned> P = requiredTrueParam(CE->getDirectCallee());
  return P ? "param " + std::to_string(*P) : "none";
}

TEST(DLPackValidators, BodyThatExitsWhenItsBoolIsFalse) {
  auto AST = parseDLPackCode(std::string(DLPackPrelude) + Helpers);
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  ASSERT_FALSE(Ctx.getDiagnostics().hasErrorOccurred());
  EXPECT_EQ(required(Ctx, "validate"), "param 0");
  // The parameter's position, parentheses, a noreturn call, a block whose
  // last non-empty statement exits.
  EXPECT_EQ(required(Ctx, "second"), "param 1");
  EXPECT_EQ(required(Ctx, "block_ends_in_exit"), "param 1");
}

TEST(DLPackValidators, AnythingElseIsNoValidator) {
  auto AST = parseDLPackCode(std::string(DLPackPrelude) + Helpers);
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  // Returning (the caller goes on) or doing nothing is no exit.
  EXPECT_EQ(required(Ctx, "returns_instead"), "none");
  EXPECT_EQ(required(Ctx, "logs_only"), "none");
  // The test must come first, negated, without an else branch.
  EXPECT_EQ(required(Ctx, "not_first"), "none");
  EXPECT_EQ(required(Ctx, "without_negation"), "none");
  EXPECT_EQ(required(Ctx, "with_else"), "none");
  // A by-value bool only; not a local declared in the if.
  EXPECT_EQ(required(Ctx, "int_flag"), "none");
  EXPECT_EQ(required(Ctx, "by_reference"), "none");
  EXPECT_EQ(required(Ctx, "local_flag"), "none");
  // No body to read: the name proves nothing.
  EXPECT_EQ(required(Ctx, "empty_body"), "none");
  EXPECT_EQ(required(Ctx, "declared_only"), "none");
  EXPECT_EQ(required(Ctx, "validate_dlpack_condition"), "none");
  EXPECT_EQ(requiredTrueParam(nullptr), std::nullopt);
}

} // namespace
