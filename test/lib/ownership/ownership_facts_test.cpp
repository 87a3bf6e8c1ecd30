// Unit tests of the ownership family's entry point
// (lib/ownership/OwnershipFacts.h): one run per function, role and
// configuration; what is skipped.

#include "lib/ownership/OwnershipFacts.h"

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringExtras.h"

#include "ownership/ownership_snippets.h"
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

TEST(OwnershipCache, OneRunPerFunctionRoleAndConfiguration) {
  resetFactCache();
  auto AST = parseOwnershipCode(std::string(OwnershipPrelude) + R"cpp(
void f(PyObject *capsule) {
  auto *mt = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule, PyCapsule_GetName(capsule)));
  if (mt && mt->deleter)
    mt->deleter(mt);
}
)cpp");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  const FunctionDecl *FD = functionNamed(Ctx, "f");
  const OwnershipFacts &Plain = getOwnershipFacts(*FD, Ctx, false);
  EXPECT_EQ(&Plain, &getOwnershipFacts(*FD, Ctx, false));
  EXPECT_TRUE(Plain.Events.empty());
  const OwnershipFacts &Dtor = getOwnershipFacts(*FD, Ctx, true);
  EXPECT_NE(&Plain, &Dtor);
  ASSERT_EQ(Dtor.Events.size(), 1u);
  EXPECT_EQ(Dtor.Events[0].K, OwnershipEvent::DestructorUncheckedDelete);
  OwnershipConfig Other;
  Other.OwnershipTakingImporters = {"::mine::import$"};
  EXPECT_NE(&Dtor, &getOwnershipFacts(*FD, Ctx, true, Other));
  resetFactCache();
}

TEST(OwnershipSkips, CIsAnalysed) {
  // C is analysed as C++ is (lib/engine/LanguageBridge.h): the second
  // deleter call is a double delete.
  resetFactCache();
  std::unique_ptr<ASTUnit> AST = tooling::buildASTFromCodeWithArgs(
      R"c(#include <Python.h>
#include <dlpack/dlpack.h>
void release(PyObject *capsule) {
  DLManagedTensor *mt =
      (DLManagedTensor *)PyCapsule_GetPointer(capsule, "dltensor");
  mt->deleter(mt);
  mt->deleter(mt);
}
)c",
      {"-I" INTEROP_TEST_INPUTS, "-I" INTEROP_TEST_INPUTS "/dlpack/v1"},
      "snippet.c");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  ASSERT_FALSE(Ctx.getDiagnostics().hasErrorOccurred());
  const FunctionDecl *FD = functionNamed(Ctx, "release");
  EXPECT_TRUE(mentionsOwnership(*FD));
  const OwnershipFacts &F = getOwnershipFacts(*FD, Ctx, false);
  EXPECT_EQ(F.Skipped, SkipReason::None) << F.Detail;
  EXPECT_TRUE(llvm::any_of(F.Events, [](const OwnershipEvent &E) {
    return E.K == OwnershipEvent::DoubleDelete;
  }));
  resetFactCache();
}

} // namespace
