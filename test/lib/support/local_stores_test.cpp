// Unit tests of lib/support/LocalStores.h: what a body stores into each of
// its locals, whole or element by element, and what it changes opaquely.

#include "lib/support/LocalStores.h"

#include "ast_search.h"
#include "snippet_annotations.h"

#include "clang/AST/ExprCXX.h"

#include "gtest/gtest.h"

#include <optional>

using namespace clang;
using namespace clang::interop;
using namespace interop_test;

namespace {

/// The local variable of F's body declared with Name, or null.
const VarDecl *localNamed(const FunctionDecl *F, llvm::StringRef Name) {
  const VarDecl *Found = nullptr;
  firstNode<DeclStmt>(F->getBody(), [&](const DeclStmt &S) {
    for (const Decl *D : S.decls())
      if (const auto *VD = dyn_cast<VarDecl>(D); VD && VD->getName() == Name)
        Found = VD;
    return Found != nullptr;
  });
  return Found;
}

const char *Code = R"cpp(
template <class T, unsigned long N> struct arr {
  T v[N];
  T &operator[](unsigned long i);
  T &at(unsigned long i);
};
long source(int);
void f(bool c, long *shape, int n) {
  const char *name;
  if (c)
    name = "a";
  else
    name = "b";
  long count = 1;
  for (int i = 0; i < n; ++i)
    count *= shape[i];
  long raw[4];
  raw[0] = source(0);
  *(raw + 1) = source(1);
  arr<long, 2> dims{};
  dims[0] = source(2);
  dims.at(1) = source(3);
  int bumped = 0;
  ++bumped;
  int taken = source(4);
  int *p = &taken;
  auto later = [&] { count = source(5); };
  int untouched;
  (void)p; (void)later; (void)untouched;
}
)cpp";

class LocalStoresTest : public ::testing::Test {
protected:
  void SetUp() override {
    AST = parseWithInputs(Code);
    ASSERT_TRUE(AST);
    ASSERT_FALSE(AST->getASTContext().getDiagnostics().hasErrorOccurred());
    for (const Decl *D : AST->getASTContext().getTranslationUnitDecl()->decls())
      if (const auto *FD = dyn_cast<FunctionDecl>(D);
          FD && FD->getName() == "f" && FD->hasBody())
        F = FD;
    ASSERT_TRUE(F);
    Stores.emplace(F->getBody());
  }
  const VarDecl *var(llvm::StringRef Name) { return localNamed(F, Name); }
  std::unique_ptr<ASTUnit> AST;
  const FunctionDecl *F = nullptr;
  std::optional<LocalStores> Stores;
};

TEST_F(LocalStoresTest, WholeStoresFromBothArms) {
  const LocalStores::Stores *S = Stores->of(var("name"));
  ASSERT_TRUE(S);
  EXPECT_EQ(S->Whole.size(), 2u);
  EXPECT_TRUE(S->Partial.empty());
  EXPECT_FALSE(S->Opaque);
  for (const Expr *E : S->Whole)
    EXPECT_TRUE(isa<StringLiteral>(E->IgnoreParenImpCasts()));
}

TEST_F(LocalStoresTest, CompoundAssignmentsArePartial) {
  const LocalStores::Stores *S = Stores->of(var("count"));
  ASSERT_TRUE(S);
  // The initialiser, and the lambda's capture by reference stores too.
  EXPECT_EQ(S->Whole.size(), 2u);
  ASSERT_EQ(S->Partial.size(), 1u);
  EXPECT_TRUE(isa<ArraySubscriptExpr>(S->Partial[0]->IgnoreParenImpCasts()));
}

TEST_F(LocalStoresTest, ElementWritesOfArraysAndContainers) {
  const LocalStores::Stores *Raw = Stores->of(var("raw"));
  ASSERT_TRUE(Raw);
  EXPECT_TRUE(Raw->Whole.empty());
  EXPECT_EQ(Raw->Partial.size(), 2u);
  const LocalStores::Stores *Dims = Stores->of(var("dims"));
  ASSERT_TRUE(Dims);
  EXPECT_EQ(Dims->Whole.size(), 1u); // `{}`
  EXPECT_EQ(Dims->Partial.size(), 2u);
}

TEST_F(LocalStoresTest, OpaqueChanges) {
  ASSERT_TRUE(Stores->of(var("bumped")));
  EXPECT_TRUE(Stores->of(var("bumped"))->Opaque);
  ASSERT_TRUE(Stores->of(var("taken")));
  EXPECT_TRUE(Stores->of(var("taken"))->Opaque);
  EXPECT_FALSE(Stores->of(var("name"))->Opaque);
  EXPECT_EQ(Stores->of(var("untouched")), nullptr);
}

TEST_F(LocalStoresTest, OnlyValueIsTheOneStoreOfAnUnchangedLocal) {
  // `p` is set once (its initialiser) and never changes: an alias of &taken.
  const Expr *P = Stores->onlyValue(var("p"));
  ASSERT_TRUE(P);
  EXPECT_TRUE(isa<UnaryOperator>(P->IgnoreParenImpCasts()));
  // Two stores, a partial one, an opaque change, or none: no one value.
  EXPECT_EQ(Stores->onlyValue(var("name")), nullptr);
  EXPECT_EQ(Stores->onlyValue(var("count")), nullptr);
  EXPECT_EQ(Stores->onlyValue(var("bumped")), nullptr);
  EXPECT_EQ(Stores->onlyValue(var("taken")), nullptr);
  EXPECT_EQ(Stores->onlyValue(var("untouched")), nullptr);
}

TEST_F(LocalStoresTest, HolderOfItsOnlyValue) {
  // `p` holds `&taken`, through the implicit nodes around it.
  const Expr *P = Stores->onlyValue(var("p"));
  ASSERT_TRUE(P);
  EXPECT_EQ(Stores->holderOf(P), var("p"));
  EXPECT_EQ(Stores->holderOf(P->IgnoreParenImpCasts()), var("p"));
  // `name` has two values: neither is held by it alone.
  for (const Expr *E : Stores->of(var("name"))->Whole)
    EXPECT_EQ(Stores->holderOf(E), nullptr);
  EXPECT_EQ(Stores->holderOf(nullptr), nullptr);
}

TEST_F(LocalStoresTest, WriteTargets) {
  const auto *Assign =
      firstNode<BinaryOperator>(F->getBody(), [](const BinaryOperator &B) {
        return B.getOpcode() == BO_Assign &&
               isa<ArraySubscriptExpr>(B.getLHS()->IgnoreParenImpCasts());
      });
  ASSERT_TRUE(Assign);
  bool Element = false;
  const VarDecl *T = LocalStores::writeTarget(Assign->getLHS(), Element);
  ASSERT_TRUE(T);
  EXPECT_EQ(T->getName(), "raw");
  EXPECT_TRUE(Element);
  EXPECT_EQ(LocalStores::localNamed(Assign->getRHS()), nullptr);
}

TEST(LocalStoresReferences, ANonConstReferenceToAScalarIsOpaque) {
  std::unique_ptr<ASTUnit> AST = parseWithInputs(R"cpp(
struct Box { Box(int &slot); };
void fill(int &out);
void look(const int &in);
template <class T> T &&pass(T &&v);
void take(int *&&p);
struct Obj { int v; };
void f() {
  int filled = 0, looked = 0, aliased = 0, boxed = 0, moved = 0;
  int *handed = nullptr;
  take(static_cast<int *&&>(handed));
  fill(filled);
  look(looked);
  int &r = aliased;
  Box b(boxed);
  pass(moved);
  Obj o{1};
  pass(o);
  (void)r;
}
)cpp");
  ASSERT_TRUE(AST);
  const FunctionDecl *F = functionNamed(AST->getASTContext(), "f");
  ASSERT_TRUE(F);
  LocalStores Stores(F->getBody());
  auto Opaque = [&](llvm::StringRef Name) {
    const VarDecl *VD = localNamed(F, Name);
    if (!VD)
      ADD_FAILURE() << Name.str();
    return VD && Stores.of(VD) && Stores.of(VD)->Opaque;
  };
  EXPECT_TRUE(Opaque("filled"));
  EXPECT_FALSE(Opaque("looked"));
  EXPECT_TRUE(Opaque("aliased"));
  EXPECT_TRUE(Opaque("boxed"));
  // A forwarding reference or an rvalue reference hands the value on
  // (`return Result(p)`, `return p;` moving into the result).
  EXPECT_FALSE(Opaque("moved"));
  EXPECT_FALSE(Opaque("handed"));
  // An object handed on by reference keeps what its holders know of it.
  EXPECT_FALSE(Opaque("o"));
}

TEST(LocalStoresHolders, ThroughExplicitCastsOnRequest) {
  std::unique_ptr<ASTUnit> AST = parseWithInputs(R"cpp(
void *make();
void f() {
  auto *p = (int *)make();
  auto *q = static_cast<char *>(make());
}
)cpp");
  ASSERT_TRUE(AST);
  const Stmt *Body = functionNamed(AST->getASTContext(), "f")->getBody();
  LocalStores Stores(Body);
  std::vector<const CallExpr *> Calls;
  firstNode<CallExpr>(Body, [&](const CallExpr &CE) {
    Calls.push_back(&CE);
    return false;
  });
  ASSERT_EQ(Calls.size(), 2u);
  EXPECT_EQ(Stores.holderOf(Calls[0]), nullptr)
      << "the stored value is the cast, not the call";
  const VarDecl *P = Stores.holderOf(Calls[0], /*ThroughCasts=*/true);
  const VarDecl *Q = Stores.holderOf(Calls[1], /*ThroughCasts=*/true);
  ASSERT_TRUE(P && Q);
  EXPECT_EQ(P->getName(), "p");
  EXPECT_EQ(Q->getName(), "q");
}

TEST(LocalStoresValues, ThroughLocalsThatHoldOneValue) {
  std::unique_ptr<ASTUnit> AST = parseWithInputs(R"cpp(
struct V { float *data(); };
float *g(V &v, bool c) {
  float *p = v.data();
  float *q = p;
  long n = (long)q;
  float *r = (float *)n;
  float *s = p;
  if (c)
    s = nullptr;
  float *t = s;
  return r ? q : t;
}
)cpp");
  ASSERT_TRUE(AST);
  const FunctionDecl *G = functionNamed(AST->getASTContext(), "g");
  LocalStores Stores(G->getBody());
  const CallExpr *Data = callNamed(G->getBody(), "data");
  const auto *Cond = firstNode<ConditionalOperator>(G->getBody());
  ASSERT_TRUE(Data && Cond);
  // q, then p, then the call: two locals that each hold one value.
  EXPECT_EQ(Stores.valueOf(Cond->getTrueExpr())->IgnoreImpCasts(), Data);
  // t holds s, which is stored twice: s is where it stops.
  const Expr *T = Stores.valueOf(Cond->getFalseExpr());
  ASSERT_TRUE(LocalStores::localNamed(T));
  EXPECT_EQ(LocalStores::localNamed(T)->getName(), "s");
  // r's value is a cast to a pointer of an integer: followed only through
  // explicit casts on request.
  const Expr *R = Cond->getCond();
  EXPECT_TRUE(isa<CStyleCastExpr>(Stores.valueOf(R)->IgnoreParenImpCasts()));
  EXPECT_EQ(Stores.valueOf(R, /*ThroughCasts=*/true)->IgnoreImpCasts(), Data);
}

} // namespace
