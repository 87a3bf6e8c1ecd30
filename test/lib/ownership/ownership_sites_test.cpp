// Unit tests of the ownership family's pre-filter and sites
// (lib/ownership/OwnershipSites.h).

#include "lib/ownership/OwnershipFacts.h"
#include "lib/ownership/OwnershipSites.h"

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

TEST(OwnershipPreFilter, MentionsOwnership) {
  resetFactCache();
  auto AST = parseOwnershipCode(std::string(OwnershipPrelude) + R"cpp(
int64_t reads_fields(const DLManagedTensor *t) { return t->dl_tensor.ndim; }
void deletes(DLManagedTensor *t) { t->deleter(t); }
void *capsule_api(PyObject *c) { return PyCapsule_GetPointer(c, "dltensor"); }
DLManagedTensor *creates() { return new DLManagedTensor(); }
DLManagedTensor *allocates() {
  return static_cast<DLManagedTensor *>(malloc(sizeof(DLManagedTensor)));
}
void obtains(const at::Tensor &t) { Buffer::Wrap(at::toDLPack(t)); }
struct mirror { void *tensor; void *manager_ctx; void (*deleter)(mirror *); };
void deletes_mirror(mirror *t) { t->deleter(t); }
struct callback { void *manager_ctx; void (*deleter)(void *); };
void runs_callback(callback *c) { c->deleter(c->manager_ctx); }
void release_function(DLManagedTensor *t) { delete t; }
void releases_by_name(DLManagedTensor *t) { release_function(t); }
int unrelated(int x) { return x + 1; }
)cpp");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  ASSERT_FALSE(Ctx.getDiagnostics().hasErrorOccurred());
  auto Mentions = [&](llvm::StringRef Name) {
    return mentionsOwnership(*functionNamed(Ctx, Name));
  };
  EXPECT_FALSE(Mentions("reads_fields"));
  EXPECT_TRUE(Mentions("deletes"));
  EXPECT_TRUE(Mentions("capsule_api"));
  EXPECT_TRUE(Mentions("creates"));
  EXPECT_TRUE(Mentions("allocates"));
  EXPECT_TRUE(Mentions("obtains"));
  EXPECT_TRUE(Mentions("releases_by_name"));
  // A project's own copy of the managed tensor, by its fields.
  EXPECT_TRUE(Mentions("deletes_mirror"));
  EXPECT_FALSE(Mentions("runs_callback"));
  EXPECT_FALSE(Mentions("unrelated"));
  resetFactCache();
}

TEST(OwnershipSites, WhatAFunctionObtainsAndTouches) {
  auto AST = parseOwnershipCode(std::string(OwnershipPrelude) + R"cpp(
void consume(DLManagedTensor *mt, PyObject *capsule) {
  auto *owned = new DLManagedTensor();
  auto *taken = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule, "dltensor"));
  if (!taken)
    return;
  PyCapsule_SetName(capsule, "used_dltensor");
  interop::from_dlpack(mt, interop::Device());
  mt->deleter(mt);
  owned->deleter(owned);
}
)cpp");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  ASSERT_FALSE(Ctx.getDiagnostics().hasErrorOccurred());
  const FunctionDecl *FD = functionNamed(Ctx, "consume");
  NameList Sources(ExitConditionNames().TensorSources),
      Takers(OwnershipConfig().OwnershipTakingImporters);
  ownership::RunContext RC;
  RC.FD = FD;
  RC.SourcesP = &Sources;
  RC.TakersP = &Takers;
  ownership::findSites(RC, *FD, Ctx);
  // new, the capsule's pointer, and the parameter the function both deletes
  // and hands to an importer that takes ownership.
  std::multiset<int> Kinds;
  for (const ownership::Site &S : RC.Sites)
    Kinds.insert(S.From);
  EXPECT_EQ(Kinds.count(ownership::Site::Created), 1u);
  EXPECT_EQ(Kinds.count(ownership::Site::Capsule), 1u);
  EXPECT_EQ(Kinds.count(ownership::Site::Parameter), 1u);
  ASSERT_EQ(RC.Capsules.size(), 1u);
  EXPECT_EQ(RC.Capsules[0].Root->getName(), "capsule");
}

} // namespace
