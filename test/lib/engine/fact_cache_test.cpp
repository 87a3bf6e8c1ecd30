// Unit tests of lib/engine/FactCache.h: one store per family and
// configuration key, forgotten together by the one reset or by a request
// for another translation unit.

#include "lib/engine/FactCache.h"

#include "ast_search.h"

#include "gtest/gtest.h"

#include <string>

using namespace clang;
using namespace clang::interop;
using namespace interop_test;

namespace {

/// The least a family's store needs (FactPipeline.h has the rest).
struct CountingFamily {
  struct Config {
    int Value = 0;
  };
  struct Compiled {
    int Value;
  };
  using Use = bool;
  using Event = int;
  static int Compilations;
  static Compiled compile(const Config &C) {
    ++Compilations;
    return {C.Value};
  }
};
int CountingFamily::Compilations = 0;

TEST(FactCache, OneStorePerKeyCompiledOnce) {
  auto AST = parseWithInputs("int x;");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  FactCache &C = FactCache::shared();
  C.reset();
  CountingFamily::Compilations = 0;
  auto &A = C.store<CountingFamily>(Ctx, "counting|1", {1});
  auto &B = C.store<CountingFamily>(Ctx, "counting|1", {1});
  auto &Other = C.store<CountingFamily>(Ctx, "counting|2", {2});
  EXPECT_EQ(&A, &B);
  EXPECT_NE(&A, &Other);
  EXPECT_EQ(A.Compiled.Value, 1);
  EXPECT_EQ(Other.Compiled.Value, 2);
  EXPECT_EQ(CountingFamily::Compilations, 2);
  C.reset();
}

TEST(FactCache, ResetsBetweenTranslationUnits) {
  auto First = parseWithInputs("int x;");
  auto Second = parseWithInputs("int y;");
  ASSERT_TRUE(First && Second);
  FactCache &C = FactCache::shared();
  C.reset();
  unsigned G = C.generation();
  auto &A = C.store<CountingFamily>(First->getASTContext(), "k", {});
  A.FlowRuns = 5;
  // Another ASTContext: everything of the first is forgotten.
  auto &B = C.store<CountingFamily>(Second->getASTContext(), "k", {});
  EXPECT_EQ(B.FlowRuns, 0u);
  EXPECT_NE(C.generation(), G);
  G = C.generation();
  resetFactCache();
  EXPECT_NE(C.generation(), G);
}

TEST(FactCache, KeysNameEveryPart) {
  std::string K;
  appendListToKey(K, {"a", "b"});
  appendToKey(K, "flow");
  EXPECT_EQ(K, "a;b;|flow|");
  // An empty list and an empty value still take their place.
  std::string E;
  appendListToKey(E, {});
  appendToKey(E, "");
  EXPECT_EQ(E, "||");
}

} // namespace
