// Unit tests of lib/engine/LocalValues.h: the constants an operand can hold
// through locals, conditionals, casts and constant variables, and the
// operands whose value is not known to be one of a few constants.

#include "lib/engine/LocalValues.h"

#include "ast_search.h"
#include "snippet_annotations.h"

#include "lib/engine/FactCache.h"

#include "clang/AST/Expr.h"

#include "gtest/gtest.h"

#include <optional>
#include <vector>

using namespace clang;
using namespace clang::interop;
using namespace interop_test;

namespace {

const char *Code = R"cpp(
enum Kind { kA = 1, kB = 2, kC = 7 };
constexpr Kind kDefault = kB;
int global_choice = 3;
void fill(int &out);
int use(int);
void f(bool c, int param) {
  use(kC);
  use(kDefault);
  const int chosen = c ? kA : kC;
  use(chosen);
  int branches;
  if (c)
    branches = kB;
  else
    branches = 4;
  use(branches);
  int linked = c ? chosen : kB;
  use(linked);
  use(static_cast<int>(c ? kA : kA));
  int twice = 5;
  use(c ? twice : twice);
  int bumped = kA;
  bumped += 1;
  use(bumped);
  int filled = kA;
  fill(filled);
  use(filled);
  use(param);
  use(global_choice);
  int wide = c ? (c ? 1 : 2) : (c ? 3 : 4);
  use(wide);
  int a = 1, b = a;
  a = b;
  use(a);
  auto later = [&] { branches = 9; };
  (void)later;
}
)cpp";

class LocalValuesTest : public ::testing::Test {
protected:
  void SetUp() override {
    resetFactCache();
    AST = parseWithInputs(Code);
    ASSERT_TRUE(AST);
    ASSERT_FALSE(AST->getASTContext().getDiagnostics().hasErrorOccurred());
    const FunctionDecl *F = functionNamed(AST->getASTContext(), "f");
    ASSERT_TRUE(F);
    firstNode<CallExpr>(F->getBody(), [&](const CallExpr &CE) {
      const auto *Callee = CE.getDirectCallee();
      if (Callee && Callee->getName() == "use")
        Uses.push_back(CE.getArg(0));
      return false;
    });
  }
  /// The integer choices of the I-th argument of use(), as int64s.
  std::optional<std::vector<std::int64_t>> choices(unsigned I,
                                                   unsigned Max = 8) {
    std::optional<llvm::SmallVector<llvm::APSInt, 4>> R =
        integerChoices(Uses.at(I), AST->getASTContext(), Max);
    if (!R)
      return std::nullopt;
    std::vector<std::int64_t> Out;
    for (const llvm::APSInt &V : *R)
      Out.push_back(V.getExtValue());
    return Out;
  }
  std::unique_ptr<ASTUnit> AST;
  std::vector<const Expr *> Uses;
};

using Values = std::vector<std::int64_t>;

TEST_F(LocalValuesTest, ConstantsAndConstantVariables) {
  ASSERT_EQ(Uses.size(), 13u);
  EXPECT_EQ(choices(0), Values({7}));
  EXPECT_EQ(choices(1), Values({2}));
}

TEST_F(LocalValuesTest, ConditionalsAndStoresInBranches) {
  EXPECT_EQ(choices(2), Values({1, 7}));
  // A store from a lambda's capture by reference counts too.
  EXPECT_EQ(choices(3), Values({2, 4, 9}));
  EXPECT_EQ(choices(4), Values({1, 2, 7}));
  EXPECT_EQ(choices(5), Values({1}));
  EXPECT_EQ(choices(6), Values({5}));
}

TEST_F(LocalValuesTest, UnknownValues) {
  EXPECT_EQ(choices(7), std::nullopt) << "compound assignment";
  EXPECT_EQ(choices(8), std::nullopt) << "bound to a non-const reference";
  EXPECT_EQ(choices(9), std::nullopt) << "a parameter";
  EXPECT_EQ(choices(10), std::nullopt) << "a mutable global";
  // Two locals assigned each other: the expansion stops at the cycle and
  // gives up, rather than loop or guess.
  EXPECT_EQ(choices(12), std::nullopt);
}

TEST_F(LocalValuesTest, BoundedNumberOfChoices) {
  EXPECT_EQ(choices(11), Values({1, 2, 3, 4}));
  EXPECT_EQ(choices(11, /*Max=*/3), std::nullopt);
}

TEST_F(LocalValuesTest, LeavesKeepTheEnumerators) {
  // A constant variable is followed to its initialiser, so that a family
  // comparing enumerators by identity sees which one it is.
  std::optional<llvm::SmallVector<const Expr *, 4>> Leaves =
      constantChoices(Uses.at(1), AST->getASTContext());
  ASSERT_TRUE(Leaves);
  ASSERT_EQ(Leaves->size(), 1u);
  const auto *DRE = dyn_cast<DeclRefExpr>((*Leaves)[0]->IgnoreParenImpCasts());
  ASSERT_TRUE(DRE);
  EXPECT_EQ(DRE->getDecl()->getName(), "kB");
}

TEST_F(LocalValuesTest, StoresAreScannedOncePerFunction) {
  const FunctionDecl *F = functionNamed(AST->getASTContext(), "f");
  EXPECT_EQ(&localStoresOf(*F), &localStoresOf(*F));
}

} // namespace
