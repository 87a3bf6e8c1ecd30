// Unit tests of lib/engine/CallSites.h: the calls and other references of
// each function of a translation unit, from one walk.

#include "lib/engine/CallSites.h"

#include "lib/engine/FactCache.h"
#include "lib/support/AstHelpers.h"

#include "ast_search.h"
#include "dlpack_snippets.h"
#include "snippet_annotations.h"

#include "clang/AST/ASTContext.h"

#include "gtest/gtest.h"

#include <map>
#include <string>
#include <vector>

using namespace clang;
using namespace clang::interop;
using namespace interop_test;

namespace {

const char *const Code = R"cpp(
static int helper(int x) { return x + 1; }
int twice(int x) { return helper(helper(x)); }
int by_address(int x) { return x; }
int (*keep)(int) = &by_address;
int never_called(int x) { return x; }
struct S {
  int member(int x) const { return x; }
  int use() const { return member(2); }
};
int with_lambda(int x) {
  auto add = [](int y) { return helper(y); };
  return add(x);
}
template <class T> int generic(T x) { return helper(static_cast<int>(x)); }
int instantiate() { return generic(1.0); }
struct Storage {
  explicit Storage(int *data) : data(data) {}
  Storage(long *unused, int *data);
  int *data;
};
Storage *make(int *p) { return new Storage(p); }
int local(int *p) { Storage s(p); return *s.data; }
)cpp";

TEST(CallSites, CallsAndOtherReferences) {
  auto AST = parseDLPackCode(std::string(DLPackPrelude) + Code);
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  ASSERT_FALSE(Ctx.getDiagnostics().hasErrorOccurred());

  const FunctionReferences &Helper = referencesOf(*functionNamed(Ctx, "helper"));
  // Two calls in twice(), one in the lambda, one in generic's pattern and
  // one in its instantiation.
  ASSERT_EQ(Helper.Calls.size(), 5u);
  EXPECT_EQ(Helper.OtherReferences, 0u);
  EXPECT_EQ(Helper.Calls[0].Caller, functionNamed(Ctx, "twice"));
  EXPECT_TRUE(isa<CXXMethodDecl>(Helper.Calls[2].Caller)) << "the lambda";
  EXPECT_FALSE(isEntryPoint(*functionNamed(Ctx, "helper")));

  // Its address taken: called from where nobody here can see.
  const FunctionReferences &Kept =
      referencesOf(*functionNamed(Ctx, "by_address"));
  EXPECT_TRUE(Kept.Calls.empty());
  EXPECT_EQ(Kept.OtherReferences, 1u);
  EXPECT_TRUE(isEntryPoint(*functionNamed(Ctx, "by_address")));

  EXPECT_TRUE(isEntryPoint(*functionNamed(Ctx, "never_called")));
  EXPECT_FALSE(isEntryPoint(*functionNamed(Ctx, "member")));
  EXPECT_TRUE(isEntryPoint(*functionNamed(Ctx, "use")));

  // A constructor is called where an object is made, with `new` or not;
  // the call site's arguments are the construction's.
  const auto *Made0 = firstNode<CXXConstructExpr>(
      functionNamed(Ctx, "make")->getBody());
  ASSERT_TRUE(Made0);
  const FunctionDecl *Ctor = Made0->getConstructor();
  const FunctionReferences &Made = referencesOf(*Ctor);
  ASSERT_EQ(Made.Calls.size(), 2u);
  EXPECT_EQ(Made.Calls[0].Caller, functionNamed(Ctx, "make"));
  EXPECT_TRUE(isa<CXXConstructExpr>(Made.Calls[1].Call));
  ASSERT_EQ(Made.Calls[1].args().size(), 1u);
  EXPECT_FALSE(isEntryPoint(*Ctor));
}

TEST(CallSites, FactoriesForwardToAConstructor) {
  // std::make_shared<T>(a) is also a call of the constructor of T that
  // takes a's type; with two that could, of none.
  auto AST = parseDLPackCode(R"cpp(
namespace std {
template <class T> struct shared_ptr { T *p; };
template <class T, class... A> shared_ptr<T> make_shared(A &&...);
template <class T> struct unique_ptr { T *p; };
template <class T, class... A> unique_ptr<T> make_unique(A &&...);
}
struct Held {
  explicit Held(int *data);
  Held(long *data);
  Held(int *data, long n);
};
struct Either { Either(int); Either(long); };
void made(int *p, long *q, short s) {
  (void)std::make_shared<Held>(p);
  (void)std::make_unique<Held>(q);
  (void)std::make_shared<Held>(p, 2L);
  (void)std::make_shared<Either>(s);
}
)cpp");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  ASSERT_FALSE(Ctx.getDiagnostics().hasErrorOccurred());
  std::vector<const CallExpr *> Calls;
  for (const Stmt *S :
       cast<CompoundStmt>(functionNamed(Ctx, "made")->getBody())->body())
    Calls.push_back(firstNode<CallExpr>(S));
  ASSERT_EQ(Calls.size(), 4u);
  auto Params = [&](unsigned I) -> int {
    const CXXConstructorDecl *C = forwardedConstructor(*Calls[I]);
    return C ? static_cast<int>(C->getNumParams()) : -1;
  };
  const CXXConstructorDecl *IntCtor = forwardedConstructor(*Calls[0]);
  ASSERT_TRUE(IntCtor);
  EXPECT_TRUE(
      IntCtor->getParamDecl(0)->getType()->getPointeeType()->isIntegerType());
  EXPECT_TRUE(IntCtor->isExplicit());
  EXPECT_EQ(Params(1), 1);
  EXPECT_NE(forwardedConstructor(*Calls[1]), IntCtor);
  EXPECT_EQ(Params(2), 2);
  EXPECT_EQ(Params(3), -1);
  // The factory call is a call site of the constructor.
  const FunctionReferences &Refs = referencesOf(*IntCtor);
  ASSERT_EQ(Refs.Calls.size(), 1u);
  EXPECT_EQ(Refs.Calls[0].Call, Calls[0]);
  EXPECT_EQ(Refs.Calls[0].args().size(), 1u);
  resetFactCache();
}

TEST(CallSites, ARecursiveCallForwardsItsOwnParameter) {
  auto AST = parseDLPackCode(R"cpp(
static int walk(const int *p, int n) {
  return n > 0 ? p[n] + walk(p, n - 1) : 0;
}
static int swapped(const int *a, const int *b, int n) {
  return n > 0 ? swapped(b, a, n - 1) : *a;
}
static int moved(const int *p, int n) {
  ++p;
  return n > 0 ? moved(p, n - 1) : *p;
}
int use(const int *p) { return walk(p, 3) + swapped(p, p, 2) + moved(p, 1); }
)cpp");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  auto Sites = [&](const char *Name) {
    return referencesOf(*functionNamed(Ctx, Name)).Calls;
  };
  auto Walk = Sites("walk");
  ASSERT_EQ(Walk.size(), 2u);
  EXPECT_TRUE(forwardsOwnParameter(Walk[0], 0)) << "walk(p, n - 1)";
  EXPECT_FALSE(forwardsOwnParameter(Walk[0], 1)) << "n - 1 is no parameter";
  EXPECT_FALSE(forwardsOwnParameter(Walk[1], 0)) << "the outside call";
  auto Swapped = Sites("swapped");
  ASSERT_EQ(Swapped.size(), 2u);
  EXPECT_FALSE(forwardsOwnParameter(Swapped[0], 0)) << "b passed as a";
  auto Moved = Sites("moved");
  ASSERT_EQ(Moved.size(), 2u);
  EXPECT_FALSE(forwardsOwnParameter(Moved[0], 0)) << "p was incremented";
  resetFactCache();
}

TEST(CallSites, OnlyTheCallsHereReachAFunction) {
  auto AST = parseDLPackCode(R"cpp(
static int internal(int x) { return x; }
int undeclared(int x) { return x; }
extern "C" int c_linkage(int x) { return x; }
inline int inlined(int x) { return x; }
namespace {
struct Local {
  int method(int x) const { return x; }
  virtual int virt(int x) const { return x; }
};
} // namespace
)cpp");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  auto All = [&](const char *Name) {
    return callsHereAreAll(*functionNamed(Ctx, Name));
  };
  EXPECT_TRUE(All("internal"));
  EXPECT_TRUE(All("undeclared")) << "no header declares it";
  EXPECT_FALSE(All("c_linkage")) << "exported on purpose";
  EXPECT_TRUE(All("inlined")) << "other units judge their own copy";
  EXPECT_TRUE(All("method")) << "a class of this unit alone";
  EXPECT_FALSE(All("virt")) << "called through the base too";
  resetFactCache();
}

TEST(CallSites, EveryCallVouches) {
  auto AST = parseDLPackCode(R"cpp(
static int leaf(const int *p) { return *p; }
static int walk(const int *p, int n) { return n ? walk(p, n - 1) : *p; }
static int by_address(const int *p) { return *p; }
int (*keep)(const int *) = &by_address;
static int unused(const int *p) { return *p; }
int a(const int *p) { return p ? leaf(p) + walk(p, 2) + by_address(p) : 0; }
int b(const int *q) { return q ? leaf(q) + walk(q, 1) : 0; }
)cpp");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  unsigned Asked = 0;
  auto Named = [&](const char *Caller) {
    return [&Asked, Caller](const CallSite &Site, const Expr *) {
      ++Asked;
      return Site.Caller->getName() == Caller;
    };
  };
  auto Any = [&](const CallSite &, const Expr *) { return true; };
  auto Forward = [](const CallSite &) { return true; };
  auto Refuse = [](const CallSite &) { return false; };
  const FunctionDecl &Leaf = *functionNamed(Ctx, "leaf");
  EXPECT_TRUE(everyCallVouches(Leaf, 0, Any, Refuse));
  EXPECT_FALSE(everyCallVouches(Leaf, 0, Named("a"), Refuse)) << "b's call";
  EXPECT_GE(Asked, 1u);
  EXPECT_FALSE(everyCallVouches(Leaf, 1, Any, Refuse)) << "no such argument";
  const FunctionDecl &Walk = *functionNamed(Ctx, "walk");
  EXPECT_TRUE(everyCallVouches(Walk, 0, Any, Forward));
  EXPECT_FALSE(everyCallVouches(Walk, 0, Any, Refuse))
      << "its own call is not vouched for";
  EXPECT_FALSE(
      everyCallVouches(*functionNamed(Ctx, "by_address"), 0, Any, Forward))
      << "its address is taken";
  EXPECT_FALSE(everyCallVouches(*functionNamed(Ctx, "unused"), 0, Any, Forward))
      << "no call at all";
  resetFactCache();
}

TEST(CallSites, FieldsReadHere) {
  auto AST = parseDLPackCode(R"cpp(
struct Ctx {
  int *stored;
  int *initialised;
  int *read;
  int *compound;
  int counted;
  Ctx(int *p) : initialised(p) {}
};
int use(Ctx &c, int *p) {
  c.stored = p;
  c.compound = p;
  c.compound += 1;
  c.counted = 2;
  return *c.read;
}
)cpp");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  std::map<std::string, bool> Read;
  const auto *RD = firstNode<MemberExpr>(functionNamed(Ctx, "use")->getBody())
                       ->getMemberDecl()
                       ->getDeclContext();
  for (const FieldDecl *F : cast<RecordDecl>(RD)->fields())
    Read[F->getNameAsString()] = fieldReadHere(*F);
  EXPECT_FALSE(Read["stored"]) << "a plain assignment is a store";
  EXPECT_FALSE(Read["initialised"]) << "a member initialiser is a store";
  EXPECT_TRUE(Read["read"]);
  EXPECT_TRUE(Read["compound"]) << "+= reads the old value";
  EXPECT_FALSE(Read["counted"]);
}

TEST(CallSites, ForgottenWithTheTranslationUnit) {
  {
    auto AST = parseDLPackCode("static int f() { return 0; }\n"
                               "int g() { return f(); }\n");
    ASSERT_TRUE(AST);
    EXPECT_FALSE(isEntryPoint(*functionNamed(AST->getASTContext(), "f")));
  }
  // Another unit where the same name is never called.
  auto AST = parseDLPackCode("int f() { return 0; }\n");
  ASSERT_TRUE(AST);
  EXPECT_TRUE(isEntryPoint(*functionNamed(AST->getASTContext(), "f")));
  resetFactCache();
}

} // namespace
