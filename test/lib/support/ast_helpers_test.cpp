// Unit tests of lib/support/AstHelpers.h: what an expression names under its
// wrappers, calls' receivers and parameters, constants, jumps, macros.

#include "lib/support/AstHelpers.h"

#include "ast_search.h"
#include "snippet_annotations.h"

#include "clang/AST/ExprCXX.h"

#include "gtest/gtest.h"

using namespace clang;
using namespace clang::interop;
using namespace interop_test;

namespace {

const char *Code = R"cpp(
#define CHECK(x) ((x) ? (void)0 : fail())
[[noreturn]] void fail();
struct S { int f; void mut(); void get() const; S *self; };
struct P { S *operator->() const; S &operator*() const; };
int take(S s, S &r, int n, ...);
enum E { A = 2, B };
constexpr int K = 7;
void f(S s, const S &cs, S *ps, P pp, int n) {
  S copy = s;
  take(copy, copy, 3, 4.0);
  (void)(int)(long)n;
  s.mut();
  cs.get();
  int k = K + B;
  auto *q = (S *)nullptr;
  int a = ps->self->f;
  (*pp).get();
  CHECK(n > 0);
  if (n)
    return;
}
)cpp";

class AstHelpers : public ::testing::Test {
protected:
  void SetUp() override {
    AST = parseWithInputs(Code);
    ASSERT_TRUE(AST);
    ASSERT_FALSE(AST->getASTContext().getDiagnostics().hasErrorOccurred());
    F = functionNamed(AST->getASTContext(), "f");
    Body = F->getBody();
  }
  ASTContext &ctx() { return AST->getASTContext(); }
  std::unique_ptr<ASTUnit> AST;
  const FunctionDecl *F = nullptr;
  const Stmt *Body = nullptr;
};

TEST_F(AstHelpers, NamedVariablesThroughCopies) {
  const CallExpr *Take = callNamed(Body, "take");
  ASSERT_TRUE(Take);
  // `copy` passed by value is a copy construction of the variable.
  const VarDecl *V = namedVar(Take->getArg(0));
  ASSERT_TRUE(V);
  EXPECT_EQ(V->getName(), "copy");
  EXPECT_EQ(referencedDecl(Take->getArg(1)), V);
  EXPECT_FALSE(namedVar(Take->getArg(2)));
}

TEST(AstHelpersCopies, CopiesAndMovesOfAValue) {
  auto AST = parseWithInputs(R"cpp(
namespace std {
template <class T> struct remove_reference { using type = T; };
template <class T> struct remove_reference<T &> { using type = T; };
template <class T>
typename remove_reference<T>::type &&move(T &&t) noexcept {
  return static_cast<typename remove_reference<T>::type &&>(t);
}
} // namespace std
struct R { R(); R(const R &); R(R &&); explicit R(int); int *p; };
void take(R, R, R, R);
R make();
void h(R r) {
  take(r, R(r), std::move(r), R(3));
}
)cpp");
  ASSERT_TRUE(AST);
  const CallExpr *Take =
      callNamed(functionNamed(AST->getASTContext(), "h")->getBody(), "take");
  ASSERT_TRUE(Take);
  for (unsigned I : {0u, 1u, 2u}) {
    const auto *DRE = dyn_cast<DeclRefExpr>(underCopies(Take->getArg(I)));
    ASSERT_TRUE(DRE) << I;
    EXPECT_EQ(DRE->getDecl()->getName(), "r") << I;
    EXPECT_TRUE(namedVar(Take->getArg(I))) << I;
  }
  // A converting constructor makes another value.
  EXPECT_TRUE(isa<CXXConstructExpr>(underCopies(Take->getArg(3))));
  EXPECT_FALSE(namedVar(Take->getArg(3)));
}

TEST_F(AstHelpers, CallsReceiversAndParameters) {
  const CallExpr *Take = callNamed(Body, "take");
  EXPECT_FALSE(receiverOf(*Take));
  EXPECT_TRUE(isNonConstReference(paramType(*Take, 1)));
  EXPECT_FALSE(isNonConstReference(paramType(*Take, 0)));
  // A variadic argument has its own type.
  EXPECT_TRUE(paramType(*Take, 3)->isRealFloatingType());
  const CallExpr *Mut = callNamed(Body, "mut");
  ASSERT_TRUE(receiverOf(*Mut));
  EXPECT_TRUE(isNonConstMemberCall(*Mut));
  EXPECT_FALSE(isNonConstMemberCall(*callNamed(Body, "get")));
}

TEST_F(AstHelpers, ConstantsAndEnumerators) {
  const auto *Init = firstNode<BinaryOperator>(
      Body, [](const BinaryOperator &B) { return B.getOpcode() == BO_Add; });
  ASSERT_TRUE(Init);
  std::optional<llvm::APSInt> V = integerConstant(Init, ctx());
  ASSERT_TRUE(V);
  EXPECT_EQ(V->getExtValue(), 10);
  const EnumConstantDecl *B = enumerator(Init->getRHS());
  ASSERT_TRUE(B);
  EXPECT_EQ(B->getName(), "B");
  const auto *Null = firstNode<CXXNullPtrLiteralExpr>(Body);
  ASSERT_TRUE(Null);
  EXPECT_TRUE(isNullConstant(Null, ctx()));
  EXPECT_FALSE(isNullConstant(Init, ctx()));
}

TEST_F(AstHelpers, WrappersAndRoots) {
  // (int)(long)n keeps n's identity only through integral casts.
  const auto *Outer =
      firstNode<CStyleCastExpr>(Body, [](const CStyleCastExpr &C) {
        return C.getType()->isIntegerType();
      });
  ASSERT_TRUE(Outer);
  const Expr *Stripped = stripIdentityCasts(Outer);
  EXPECT_TRUE(isa<DeclRefExpr>(Stripped));
  // ps->self->f starts from ps.
  const auto *Member = firstNode<MemberExpr>(Body, [](const MemberExpr &M) {
    return M.getMemberDecl()->getName() == "f";
  });
  ASSERT_TRUE(Member);
  const ValueDecl *Root = memberChainRoot(Member);
  ASSERT_TRUE(Root);
  EXPECT_EQ(Root->getName(), "ps");
  // (*pp) of a smart pointer names the parameter pp.
  const auto *Star =
      firstNode<CXXOperatorCallExpr>(Body, [](const CXXOperatorCallExpr &O) {
        return O.getOperator() == OO_Star;
      });
  ASSERT_TRUE(Star);
  const ParmVarDecl *P = parameterNamedBy(Star);
  ASSERT_TRUE(P);
  EXPECT_EQ(P->getName(), "pp");
}

TEST(AstHelpersChains, ThroughReferencesAndPointers) {
  auto AST = parseWithInputs(R"cpp(
struct In { int *v; };
struct Out { In in; };
void g(Out *o) {
  In &r = o->in;
  In *p = &o->in;
  int *a = r.v;
  int *b = p->v;
  int *c = (*o).in.v;
}
)cpp");
  ASSERT_TRUE(AST);
  const Stmt *Body = functionNamed(AST->getASTContext(), "g")->getBody();
  std::vector<const MemberExpr *> Reads;
  firstNode<MemberExpr>(Body, [&](const MemberExpr &M) {
    if (M.getMemberDecl()->getName() == "v")
      Reads.push_back(&M);
    return false;
  });
  ASSERT_EQ(Reads.size(), 3u);
  std::optional<MemberChain> ViaRef = memberChainOf(Reads[0]);
  std::optional<MemberChain> Direct = memberChainOf(Reads[2]);
  ASSERT_TRUE(ViaRef && Direct);
  EXPECT_EQ(ViaRef->Root->getName(), "o");
  EXPECT_EQ(ViaRef->Fields.size(), 2u) << "in, v";
  EXPECT_TRUE(*ViaRef == *Direct);
  // A local pointer is followed only when the caller asks.
  EXPECT_EQ(memberChainOf(Reads[1])->Root->getName(), "p");
  std::optional<MemberChain> ViaPtr =
      memberChainOf(Reads[1], /*FollowPointers=*/true);
  ASSERT_TRUE(ViaPtr);
  EXPECT_TRUE(*ViaPtr == *Direct);
}

TEST_F(AstHelpers, JumpsComparisonsAndMacros) {
  const auto *If = firstNode<IfStmt>(Body);
  ASSERT_TRUE(If);
  EXPECT_TRUE(isJump(If->getThen()));
  EXPECT_FALSE(isJump(If->getCond()));
  EXPECT_TRUE(isJump(callNamed(Body, "fail")));
  EXPECT_EQ(mirroredComparison(BO_LT), BO_GT);
  EXPECT_EQ(mirroredComparison(BO_EQ), BO_EQ);
  EXPECT_TRUE(evaluateComparison(BO_LE, 1, 1));
  EXPECT_FALSE(evaluateComparison(BO_Cmp, 1, 1));
  const auto *Gt = firstNode<BinaryOperator>(
      Body, [](const BinaryOperator &B) { return B.getOpcode() == BO_GT; });
  ASSERT_TRUE(Gt);
  const SourceManager &SM = ctx().getSourceManager();
  EXPECT_TRUE(isInMacroExpansion(Gt->getBeginLoc(), SM, ctx().getLangOpts(),
                                 {"CHECK"}));
  EXPECT_FALSE(isInMacroExpansion(Gt->getBeginLoc(), SM, ctx().getLangOpts(),
                                  {"assert"}));
}

TEST(DeclsNamed, LooksUpNamespaceByNamespace) {
  std::unique_ptr<ASTUnit> AST = parseWithInputs(R"cpp(
namespace outer { namespace inner { void g(); void g(int); }
inline namespace v1 { void h(); } struct T { static void m(); }; }
)cpp");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  EXPECT_EQ(declsNamed(Ctx, "::outer::inner::g").size(), 2u)
      << "every overload";
  EXPECT_EQ(declsNamed(Ctx, "outer::inner::g").size(), 2u);
  EXPECT_EQ(declsNamed(Ctx, "outer::h").size(), 1u)
      << "an inline namespace's names are its parent's";
  EXPECT_TRUE(declsNamed(Ctx, "outer::T::m").empty())
      << "only namespaces are scopes on the way";
  EXPECT_TRUE(declsNamed(Ctx, "outer::missing").empty());
  EXPECT_TRUE(declsNamed(Ctx, "outer::::g").empty());
}

TEST(StatementEdits, BlockStatementsAndWhereANewOneGoes) {
  std::unique_ptr<ASTUnit> AST = parseWithInputs(R"cpp(
int g(int);
#define CALL g(1);
void f(int n) {
  int a = g(n);
    g(a);
  if (n)
    g(2);
  return (void)g(3);
}
void m() { CALL }
)cpp");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  const SourceManager &SM = Ctx.getSourceManager();
  const Stmt *Body = functionNamed(Ctx, "f")->getBody();
  llvm::SmallPtrSet<const Stmt *, 32> Blocks = blockStatements(Body);
  EXPECT_EQ(Blocks.size(), 4u);
  std::vector<const CallExpr *> Calls;
  firstNode<CallExpr>(Body, [&](const CallExpr &CE) {
    Calls.push_back(&CE);
    return false;
  });
  ASSERT_EQ(Calls.size(), 4u);
  // The declaration and the expression statement evaluate their calls.
  const Stmt *Decl = evaluatingBlockStatement(*Calls[0], Blocks, SM);
  ASSERT_TRUE(Decl && isa<DeclStmt>(Decl));
  const Stmt *Own = evaluatingBlockStatement(*Calls[1], Blocks, SM);
  EXPECT_EQ(Own, Calls[1]);
  // An if's body without braces, and a return, are not such statements.
  EXPECT_EQ(evaluatingBlockStatement(*Calls[2], Blocks, SM), nullptr);
  EXPECT_EQ(evaluatingBlockStatement(*Calls[3], Blocks, SM), nullptr);
  // After the semicolon, on a new line indented as the statement.
  auto [AfterDecl, DeclLine] = afterStatement(*Decl, Ctx);
  ASSERT_TRUE(AfterDecl.isValid());
  EXPECT_EQ(SM.getSpellingColumnNumber(AfterDecl), 16u);
  EXPECT_EQ(DeclLine, "\n  ");
  auto [AfterCall, CallLine] = afterStatement(*Own, Ctx);
  ASSERT_TRUE(AfterCall.isValid());
  EXPECT_EQ(SM.getSpellingColumnNumber(AfterCall), 10u);
  EXPECT_EQ(CallLine, "\n    ");
  // Nothing inside a macro.
  const Stmt *M = functionNamed(Ctx, "m")->getBody();
  const CallExpr *InMacro = firstNode<CallExpr>(M);
  ASSERT_TRUE(InMacro);
  EXPECT_FALSE(afterStatement(*InMacro, Ctx).first.isValid());
}

TEST(StatementEdits, InsertionBeforeABracedOrUnbracedStatement) {
  std::unique_ptr<ASTUnit> AST = parseWithInputs(R"cpp(
int g(int);
int f(int n) {
  if (n)
    return 1;
  else if (n > 2)
    return 2;
  for (;;)
    g(n);
  return g(n);
}
)cpp");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  const Stmt *Body = functionNamed(Ctx, "f")->getBody();
  auto Blocks = blockStatements(Body);
  auto Unbraced = unbracedBodies(Body);
  // return 1, return 2 and the loop's call; not the `else if`.
  EXPECT_EQ(Unbraced.size(), 3u);
  const Stmt *Last = cast<CompoundStmt>(Body)->body_back();
  llvm::SmallVector<FixItHint, 2> Line =
      insertBefore(*Last, "g(0);", Blocks, Unbraced, Ctx);
  ASSERT_EQ(Line.size(), 1u);
  EXPECT_EQ(Line[0].CodeToInsert, "g(0);\n  ");
  const auto *If = cast<IfStmt>(*cast<CompoundStmt>(Body)->body_begin());
  llvm::SmallVector<FixItHint, 2> Braced =
      insertBefore(*If->getThen(), "g(0);", Blocks, Unbraced, Ctx);
  ASSERT_EQ(Braced.size(), 2u);
  EXPECT_EQ(Braced[0].CodeToInsert, "{ g(0); ");
  EXPECT_EQ(Braced[1].CodeToInsert, " }");
  // A condition is neither.
  EXPECT_TRUE(
      insertBefore(*If->getCond(), "g(0);", Blocks, Unbraced, Ctx).empty());
}

TEST_F(AstHelpers, MentionsVariable) {
  const Stmt *Take = callNamed(Body, "take");
  ASSERT_TRUE(Take);
  const auto *Copy = cast<VarDecl>(
      cast<DeclStmt>(*cast<CompoundStmt>(Body)->body_begin())->getSingleDecl());
  EXPECT_TRUE(mentionsVariable(Take, Copy));
  EXPECT_FALSE(mentionsVariable(Take, F->getParamDecl(0)));
}

} // namespace

TEST(AstHelpersPathEnds, LoggersThatEndThePath) {
  auto AST = parseWithInputs(R"cpp(
enum Severity { INFO, FATAL };
struct Stream { Stream &operator<<(const char *); };
struct NoReturn { NoReturn(); [[noreturn]] ~NoReturn(); Stream &s(); };
struct Throws { Throws(); ~Throws() noexcept(false) { throw 1; } Stream &s(); };
struct Sev { Sev(int severity); ~Sev(); Stream &s(); };
struct Plain { Plain(int severity); Stream &s(); };
struct Own { Own(); ~Own(); Own(int) { Own(); } };
void g(bool c) {
  NoReturn().s() << "a";
  Throws().s() << "b";
  Sev(FATAL).s() << "c";
  Sev(INFO).s() << "d";
  Plain(FATAL).s() << "e";
  c ? (void)0 : (void)(Sev(FATAL).s() << "f");
}
)cpp");
  ASSERT_TRUE(AST);
  const Stmt *Body = functionNamed(AST->getASTContext(), "g")->getBody();
  std::vector<const Expr *> Stmts;
  for (const Stmt *S : cast<CompoundStmt>(Body)->body())
    Stmts.push_back(cast<Expr>(S));
  ASSERT_EQ(Stmts.size(), 6u);
  EXPECT_TRUE(neverReturns(*Stmts[0])) << "declared noreturn";
  EXPECT_TRUE(neverReturns(*Stmts[1])) << "a visible body that throws";
  EXPECT_TRUE(neverReturns(*Stmts[2])) << "fatal severity, body elsewhere";
  EXPECT_FALSE(neverReturns(*Stmts[3])) << "another severity";
  EXPECT_FALSE(neverReturns(*Stmts[4])) << "no destructor of its own";
  EXPECT_FALSE(neverReturns(*Stmts[5])) << "only in one arm";
  EXPECT_TRUE(isJump(Stmts[2]));
  EXPECT_FALSE(alwaysExits(Body)) << "the last statement returns";
}

TEST(AstHelpersLambdas, LocalLambdasCalledByName) {
  auto AST = parseWithInputs(R"cpp(
void use(int);
void g(int n) {
  auto a = [&] { use(n); };
  a();
  [&] { use(n + 1); }();
  const auto &b = a;
  b();
  void (*p)() = [] {};
  p();
}
)cpp");
  ASSERT_TRUE(AST);
  const Stmt *Body = functionNamed(AST->getASTContext(), "g")->getBody();
  std::vector<const CallExpr *> Calls;
  for (const Stmt *S : cast<CompoundStmt>(Body)->body())
    if (const auto *E = dyn_cast<Expr>(S))
      if (const auto *C = dyn_cast<CallExpr>(E->IgnoreImplicit()))
        Calls.push_back(C);
  ASSERT_EQ(Calls.size(), 4u);
  const LambdaExpr *A = calledLocalLambda(*Calls[0]);
  ASSERT_TRUE(A) << "a local initialised with the lambda";
  const CallExpr *Use = callNamed(A->getBody(), "use");
  ASSERT_TRUE(Use);
  // `n` in the body is the enclosing function's, captured by reference.
  EXPECT_FALSE(namedVar(Use->getArg(0))) << "the lambda's own view";
  EXPECT_TRUE(namedVar(Use->getArg(0), /*Captures=*/true))
      << "read where it is called";
  EXPECT_TRUE(calledLocalLambda(*Calls[1])) << "called where it is made";
  EXPECT_EQ(calledLocalLambda(*Calls[2]), A)
      << "a reference to the local that holds it";
  EXPECT_FALSE(calledLocalLambda(*Calls[3])) << "a function pointer";
}
