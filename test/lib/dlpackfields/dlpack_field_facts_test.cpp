// Unit tests of the DLPack field family's entry point
// (lib/dlpackfields/DLPackFieldFacts.h): one run per function and
// configuration; what is skipped.

#include "lib/abi/TranslationUnitNames.h"
#include "lib/dlpackfields/DLPackFieldFacts.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringExtras.h"

#include "dlpack_snippets.h"
#include "snippet_annotations.h"
#include "syntax_vs_flow.h"
#include "gtest/gtest.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

using namespace clang;
using namespace clang::interop;
using namespace clang::ast_matchers;
using namespace interop_test;

namespace {

const char *const Prelude = DLPackPrelude;

TEST(DLPackCache, OneRunPerFunctionAndConfiguration) {
  resetFactCache();
  auto AST = parseDLPackCode(std::string(Prelude) + R"cpp(
int64_t f(const DLTensor *t) { return t->strides[0]; }
)cpp");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  const FunctionDecl *FD = functionNamed(Ctx, "f");
  const DLPackFieldFacts &A = getDLPackFieldFacts(*FD, Ctx);
  const DLPackFieldFacts &B = getDLPackFieldFacts(*FD, Ctx);
  EXPECT_EQ(&A, &B);
  ASSERT_EQ(A.Events.size(), 1u);
  EXPECT_EQ(A.Events[0].K, DLPackEvent::StridesDeref);
  const Expr *Use = A.Events[0].Use;
  DLPackFieldConfig Other;
  Other.ImportFunctions = {"::mine::import$"};
  const DLPackFieldFacts &C = getDLPackFieldFacts(*FD, Ctx, Other);
  EXPECT_NE(&A, &C);
  EXPECT_EQ(C.Events.size(), 1u);
  // After a clear (which frees A and C) the function is analysed again,
  // with the same result.
  resetFactCache();
  const DLPackFieldFacts &D = getDLPackFieldFacts(*FD, Ctx);
  ASSERT_EQ(D.Events.size(), 1u);
  EXPECT_EQ(D.Events[0].K, DLPackEvent::StridesDeref);
  EXPECT_EQ(D.Events[0].Use, Use);
  resetFactCache();
}

TEST(DLPackSkips, CIsAnalysed) {
  // clang's dataflow framework takes C through the engine's bridge
  // (lib/engine/LanguageBridge.h): C's bare truth test of the pointer is a
  // condition the path knows, and the copy of data is still judged.
  resetFactCache();
  std::unique_ptr<ASTUnit> AST = tooling::buildASTFromCodeWithArgs(
      R"c(#include <dlpack/dlpack.h>
#include <string.h>
void copy_out(const DLTensor *t, void *dst, size_t n) {
  if (!t || !dst)
    return;
  memcpy(dst, t->data, n);
}
)c",
      {"-I" INTEROP_TEST_INPUTS "/dlpack/v1"}, "snippet.c");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  ASSERT_FALSE(Ctx.getDiagnostics().hasErrorOccurred());
  const FunctionDecl *FD = functionNamed(Ctx, "copy_out");
  // The pre-filter is syntactic and works on C.
  EXPECT_TRUE(dlpackUseOf(*FD).ReadsModelledFields);
  const DLPackFieldFacts &F = getDLPackFieldFacts(*FD, Ctx);
  EXPECT_EQ(F.Skipped, SkipReason::None) << F.Detail;
  EXPECT_TRUE(llvm::any_of(F.Events, [](const DLPackEvent &E) {
    return E.K == DLPackEvent::DataCallArg && !E.OffsetApplied;
  }));
  resetFactCache();
}

TEST(DLPackSkips, TooLargeIsSkipped) {
  resetFactCache();
  auto AST = parseDLPackCode(std::string(Prelude) + R"cpp(
bool flag();
int64_t f(const DLTensor *t) {
  if (flag()) return 0; if (flag()) return 1; if (flag()) return 2;
  return t->strides[0];
}
)cpp");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  DLPackFieldConfig Config;
  Config.Bounds.MaxCFGBlocks = 4;
  const DLPackFieldFacts &F =
      getDLPackFieldFacts(*functionNamed(Ctx, "f"), Ctx, Config);
  EXPECT_EQ(F.Skipped, SkipReason::TooLarge);
  EXPECT_TRUE(F.Events.empty());
  resetFactCache();
}

} // namespace
