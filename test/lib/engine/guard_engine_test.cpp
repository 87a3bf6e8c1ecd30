// Unit tests of lib/engine/GuardEngine.h, the guard engine under every
// family's syntactic proof: the shapes a guard takes, the connectives it
// looks through, and what refuses a function.

#include "lib/engine/GuardEngine.h"

#include "ast_search.h"
#include "snippet_annotations.h"

#include "gtest/gtest.h"

#include <map>
#include <string>

using namespace clang;
using namespace clang::interop;
using namespace interop_test;

namespace {

/// Records, for every call of `use`, the statements around it; refuses
/// nothing on its own.
class UseScan : public GuardScan {
public:
  std::vector<std::pair<const CallExpr *, StmtChain>> Uses;

private:
  void inspect(const Stmt *S) override {
    if (const CallExpr *CE = dyn_cast<CallExpr>(S))
      if (CE->getDirectCallee() && CE->getDirectCallee()->getName() == "use")
        Uses.push_back({CE, Stack});
  }
  bool capturedByRef(const VarDecl &) override { return true; }
};

/// Whether `ok()` being true guards each use, by function.
std::map<std::string, bool> guardedUses(llvm::StringRef Code) {
  std::map<std::string, bool> Out;
  ParsedSnippet P = parseSnippet("", Code, {"-std=c++17"});
  EXPECT_EQ(P.Error, "");
  for (const FunctionDecl *FD : P.Functions) {
    UseScan Scan;
    Scan.walk(FD->getBody());
    if (Scan.Refused) {
      Out[FD->getNameAsString()] = false;
      continue;
    }
    GuardProof Proof(*FD, Scan.Written);
    bool All = !Scan.Uses.empty();
    for (auto &[Use, Above] : Scan.Uses)
      All &= Proof.guarded(Above, Use, [](const Expr *C, bool Value) {
        const auto *CE = dyn_cast<CallExpr>(C);
        // ok() true, or require_ok() returned.
        return Value && CE && CE->getDirectCallee() &&
               (CE->getDirectCallee()->getName() == "ok" ||
                CE->getDirectCallee()->getName() == "require_ok");
      });
    Out[FD->getNameAsString()] = All;
  }
  return Out;
}

const char *Prelude = R"cpp(
bool ok(); bool other(); void use(); [[noreturn]] void fail();
void require_ok();
)cpp";

TEST(GuardEngine, ShapesOfAGuard) {
  std::map<std::string, bool> G = guardedUses(std::string(Prelude) + R"cpp(
void in_then() { if (ok()) use(); }
void early_exit() { if (!ok()) return; use(); }
void noreturn_exit() { if (!ok()) fail(); use(); }
void stored() { const bool b = ok(); if (!b) return; use(); }
void ternary() { ok() ? use() : void(); }
void conjunction() { if (other() && ok()) use(); }
void loop() { while (ok()) use(); }
void unguarded() { use(); }
void disjunction() { if (other() || ok()) use(); }
void else_arm() { if (ok()) {} else use(); }
void reassigned() { bool b = ok(); b = other(); if (b) use(); }
void after_label() { if (!ok()) return; goto l; l: use(); }
void validator() { require_ok(); use(); }
void validator_after() { use(); require_ok(); }
void result_dropped() { ok(); use(); }
)cpp");
  for (const char *Yes : {"in_then", "early_exit", "noreturn_exit", "stored",
                          "ternary", "conjunction", "loop", "validator"})
    EXPECT_TRUE(G[Yes]) << Yes;
  for (const char *No : {"unguarded", "disjunction", "else_arm", "reassigned",
                         "after_label", "validator_after", "result_dropped"})
    EXPECT_FALSE(G[No]) << No;
}

TEST(GuardEngine, WhatAVariableMayBeChangedBy) {
  // Bound to a non-const reference: changed. Forwarded by std::make_shared
  // to a constructor taking it by value: not.
  ParsedSnippet P = parseSnippet("", R"cpp(
namespace std {
template <class T> struct shared_ptr { T *p; };
template <class T, class... A> shared_ptr<T> make_shared(A &&...);
}
struct ByValue { explicit ByValue(int *p); };
struct ByRef { explicit ByRef(int *&p); };
void take(int *&p);
void f(int *a, int *b, int *c, int *d) {
  (void)std::make_shared<ByValue>(a);
  (void)std::make_shared<ByRef>(b);
  take(c);
  (void)d;
}
)cpp",
                                 {"-std=c++17"});
  ASSERT_EQ(P.Error, "");
  const FunctionDecl *F = functionNamed(P.AST->getASTContext(), "f");
  ASSERT_TRUE(F);
  UseScan Scan;
  Scan.walk(F->getBody());
  ASSERT_FALSE(Scan.Refused);
  EXPECT_FALSE(Scan.Written.contains(F->getParamDecl(0)));
  EXPECT_TRUE(Scan.Written.contains(F->getParamDecl(1)));
  EXPECT_TRUE(Scan.Written.contains(F->getParamDecl(2)));
  EXPECT_FALSE(Scan.Written.contains(F->getParamDecl(3)));
}

TEST(GuardEngine, NeverFallsThrough) {
  ParsedSnippet P = parseSnippet("", std::string(Prelude) + R"cpp(
void f(int n) { if (n) { fail(); } if (n) { return; } if (n) { use(); } }
)cpp",
                                 {"-std=c++17"});
  ASSERT_EQ(P.Error, "");
  std::vector<const IfStmt *> Ifs;
  for (const Stmt *S :
       cast<CompoundStmt>(functionNamed(P.AST->getASTContext(), "f")->getBody())
           ->body())
    Ifs.push_back(cast<IfStmt>(S));
  EXPECT_TRUE(neverFallsThrough(Ifs[0]->getThen()));
  EXPECT_TRUE(neverFallsThrough(Ifs[1]->getThen()));
  EXPECT_FALSE(neverFallsThrough(Ifs[2]->getThen()));
}

} // namespace
