// Unit tests of lib/engine/ExceptionEdges.h: which calls can throw, and
// which of a function's can leave it by an exception.

#include "lib/engine/ExceptionEdges.h"

#include "dlpack_snippets.h"
#include "snippet_annotations.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace clang;
using namespace clang::interop;
using namespace interop_test;

namespace {

const char *const Code = R"cpp(
extern "C" int c_api(int);
int may(int);
int never(int) noexcept;
struct Obj {
  int get() const;
  int set(int);
  explicit operator bool() const;
  int operator+(int) const;
};
void (*fp)(int);
void (*nfp)(int) noexcept;
// Bodies this unit holds: a holder's release() and a setter cannot throw;
// one that calls a function that may, or that throws, can; so can a
// virtual one (an override may run instead).
struct Holder {
  int *p = nullptr;
  int *release() { int *t = p; p = nullptr; return t; }
  void reset(int v) { c_api(v); *p = v; }
  void fill(int v) { *p = may(v); }
  void check(int v) { if (v < 0) throw v; }
  virtual void hook() {}
};
void uses_bodies(Holder &h) {
  h.release();
  h.reset(1);
  h.fill(2);
  h.check(3);
  h.hook();
}
void uses(Obj &o, DLManagedTensor *t) {
  c_api(1);
  may(2);
  never(3);
  o.get();
  o.set(4);
  (void)static_cast<bool>(o);
  (void)(o + 5);
  fp(6);
  nfp(7);
  t->deleter(t);
  (*t->deleter)(t);
  (void)new int(8);
}
// Evidence that a call throws: a throw in the callee's body, or in the body
// of a function it calls; not one inside a try block of the callee.
void raises(int v) { if (v < 0) throw v; }
void raises_deeper(int v) { raises(v); }
void catches(int v) { try { raises(v); } catch (...) {} }
namespace pybind11 {
struct handle {};
struct object : handle {};
template <typename T> object cast(T *p) {
  if (!p)
    throw 1;
  return {};
}
template <typename T> T cast(const handle &h) {
  throw 2;
}
} // namespace pybind11
void evidence(Holder &h) {
  raises(1);
  raises_deeper(2);
  catches(3);
  may(4);
  h.check(5);
  h.hook();
  c_api(6);
  pybind11::cast(&h);
  pybind11::cast<int>(pybind11::handle{});
}
int exits(bool b) {
  may(1);
  try {
    may(2);
  } catch (...) {
    may(3);
  }
  auto l = [] { return may(4); };
  if (b)
    throw 5;
  return l();
}
)cpp";

TEST(ExceptionEdges, WhatCanThrow) {
  auto AST = parseDLPackCode(std::string(DLPackPrelude) + Code);
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  ASSERT_FALSE(Ctx.getDiagnostics().hasErrorOccurred());
  const Stmt *Body = functionNamed(Ctx, "uses")->getBody();
  std::vector<bool> Throws;
  for (const Stmt *S : cast<CompoundStmt>(Body)->body()) {
    const Expr *E = cast<Expr>(S)->IgnoreImplicit();
    // (void)x and static_cast<bool>(x): the expression cast.
    while (const auto *C = dyn_cast<ExplicitCastExpr>(E))
      E = C->getSubExpr()->IgnoreParens()->IgnoreImplicit();
    Throws.push_back(mayThrow(*E));
  }
  // c_api, may, never, get, set, bool, +, fp, nfp, deleter, (*deleter), new
  std::vector<bool> Want = {false, true, false, false, true,  false,
                            false, true, false, false, false, false};
  EXPECT_EQ(Throws, Want);
}

/// Pred of each top-level statement of the function Name in Code.
std::vector<bool> eachStatement(llvm::StringRef Name,
                                bool (*Pred)(const Stmt &)) {
  auto AST = parseDLPackCode(std::string(DLPackPrelude) + Code);
  EXPECT_TRUE(AST);
  if (!AST)
    return {};
  ASTContext &Ctx = AST->getASTContext();
  EXPECT_FALSE(Ctx.getDiagnostics().hasErrorOccurred());
  std::vector<bool> Out;
  for (const Stmt *S :
       cast<CompoundStmt>(functionNamed(Ctx, Name)->getBody())->body())
    Out.push_back(Pred(*cast<Expr>(S)->IgnoreImplicit()));
  return Out;
}

TEST(ExceptionEdges, CalleeBodies) {
  // release, reset, fill, check, hook
  std::vector<bool> Want = {false, false, true, true, true};
  EXPECT_EQ(eachStatement("uses_bodies", mayThrow), Want);
}

TEST(ExceptionEdges, ThrowsVisibly) {
  std::vector<bool> Throws = eachStatement("evidence", throwsVisibly);
  // raises, raises_deeper, catches, may (declared only), check, hook
  // (virtual), c_api, a pointer cast to Python (only an unregistered class
  // throws), a Python object cast to C++ (bad input throws)
  std::vector<bool> Want = {true,  true,  false, false, true,
                            false, false, false, true};
  EXPECT_EQ(Throws, Want);
}

TEST(ExceptionEdges, ExitsOutsideTryBlocks) {
  auto AST = parseDLPackCode(std::string(DLPackPrelude) + Code);
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  ExceptionExits X = exceptionExits(*functionNamed(Ctx, "exits"), 8);
  // may(1), may(3) in the handler, the throw and l() (a lambda is a local
  // function, not an observer); not may(2) in the try block, nor may(4) in
  // the lambda's own body.
  std::vector<std::string> Kinds;
  for (const Stmt *S : X.Points)
    Kinds.push_back(S->getStmtClassName());
  EXPECT_FALSE(X.Truncated);
  ASSERT_EQ(X.Points.size(), 4u);
  EXPECT_EQ(Kinds[0], "CallExpr");
  EXPECT_EQ(Kinds[1], "CallExpr") << "the handler is outside the try block";
  EXPECT_EQ(Kinds[2], "CXXThrowExpr");
  EXPECT_EQ(Kinds[3], "CXXOperatorCallExpr");
  EXPECT_EQ(exceptionExits(*functionNamed(Ctx, "exits"), 2).Truncated, true);
}

} // namespace
