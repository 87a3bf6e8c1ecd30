// Unit tests of lib/engine/StmtSwitch.h, the dispatcher of every family's
// transfer functions: ordered cases, the first that applies wins, a case on
// a base class applies to its subclasses, and applies() is the table's own
// gate.

#include "lib/engine/StmtSwitch.h"

#include "ast_search.h"
#include "snippet_annotations.h"

#include "clang/AST/ExprCXX.h"

#include "gtest/gtest.h"

#include <string>

using namespace clang;
using namespace clang::interop;
using namespace interop_test;

namespace {

struct Log {
  std::string Seen;
};

/// A call of the function named `first`.
bool callsFirst(const CallExpr &CE, Log &) {
  return CE.getDirectCallee() && CE.getDirectCallee()->getName() == "first";
}

/// f's body: `first(); second();`.
const char *const TwoCalls = R"cpp(
void first(); void second();
void f() { first(); second(); }
)cpp";

const StmtSwitch<Log> &testSwitch() {
  static const StmtSwitch<Log> Switch =
      StmtSwitch<Log>()
          // Calls of `first` only.
          .caseOf<CallExpr>(
              callsFirst, [](const CallExpr *, Log &L) { L.Seen += "first;"; })
          // Every other call, member calls included.
          .caseOf<CallExpr>([](const CallExpr *, Log &L) { L.Seen += "call;"; })
          // Never reached for calls: the case above takes them.
          .caseOf<Expr>([](const Expr &E, Log &) { return isa<CallExpr>(E); },
                        [](const Expr *, Log &L) { L.Seen += "expr-call;"; })
          .caseOf<IntegerLiteral>(
              [](const IntegerLiteral *, Log &L) { L.Seen += "int;"; });
  return Switch;
}

TEST(StmtSwitch, FirstApplicableCaseWins) {
  auto AST = parseWithInputs(R"cpp(
void first(); void second();
struct S { void m(); };
void f(S s) { first(); second(); s.m(); (void)1; }
)cpp");
  ASSERT_TRUE(AST);
  const Stmt *Body = functionNamed(AST->getASTContext(), "f")->getBody();
  Log L;
  for (const Stmt *S : cast<CompoundStmt>(Body)->body()) {
    if (const auto *Cast = dyn_cast<CStyleCastExpr>(S))
      S = Cast->getSubExpr();
    testSwitch()(*S, L);
  }
  EXPECT_EQ(L.Seen, "first;call;call;int;");
  // A statement no case is about changes nothing and says so.
  Log None;
  EXPECT_FALSE(testSwitch()(*Body, None));
  EXPECT_TRUE(None.Seen.empty());
}

TEST(StmtSwitch, AlsoOfCasesRunAndGoOn) {
  auto AST = parseWithInputs(TwoCalls);
  ASSERT_TRUE(AST);
  // The engine's case (every call of `first`) runs before the family's
  // first-match cases and does not stop them.
  StmtSwitch<Log> Switch;
  Switch
      .alsoOf<CallExpr>(callsFirst,
                        [](const CallExpr *, Log &L) { L.Seen += "engine;"; })
      .caseOf<CallExpr>([](const CallExpr *, Log &L) { L.Seen += "call;"; });
  const Stmt *Body = functionNamed(AST->getASTContext(), "f")->getBody();
  Log L;
  for (const Stmt *S : cast<CompoundStmt>(Body)->body())
    EXPECT_TRUE(Switch(*S, L));
  EXPECT_EQ(L.Seen, "engine;call;call;");
  // Alone, an alsoOf case that ran still counts as a case that applied.
  StmtSwitch<Log> Alone;
  Alone.alsoOf<CallExpr>([](const CallExpr &, Log &) { return true; },
                         [](const CallExpr *, Log &L) { L.Seen += "x;"; });
  Log L2;
  EXPECT_TRUE(Alone(*cast<CompoundStmt>(Body)->body_front(), L2));
  EXPECT_EQ(L2.Seen, "x;");
}

TEST(StmtSwitch, AppliesSaysWhetherACaseWouldRunWithoutRunningIt) {
  auto AST = parseWithInputs(TwoCalls);
  ASSERT_TRUE(AST);
  // Only calls of `first` matter to this table.
  StmtSwitch<Log> Switch;
  Switch.caseOf<CallExpr>(callsFirst,
                          [](const CallExpr *, Log &L) { L.Seen += "first;"; });
  const auto *Body = cast<CompoundStmt>(
      functionNamed(AST->getASTContext(), "f")->getBody());
  Log L;
  EXPECT_TRUE(Switch.applies(*Body->body_front(), L));
  EXPECT_FALSE(Switch.applies(*Body->body_back(), L));
  EXPECT_FALSE(Switch.applies(*Body, L));
  EXPECT_TRUE(L.Seen.empty()) << "applies() runs no transfer";
}

} // namespace
