// Unit tests of lib/engine/NullContracts.h: which pointer parameters a body
// dereferences before anything could test them.

#include "lib/engine/NullContracts.h"

#include "lib/engine/FactCache.h"

#include "dlpack_snippets.h"
#include "snippet_annotations.h"

#include "clang/AST/ASTContext.h"

#include "gtest/gtest.h"

#include <string>

using namespace clang;
using namespace clang::interop;
using namespace interop_test;

namespace {

const char *const Callees = R"cpp(
void record(long n);
void take(DLManagedTensor *t);
long first_statement(DLManagedTensor *t, long k) {
  record(t->dl_tensor.ndim);
  return k;
}
long second_param(long k, const long *p) { return p[k]; }
long star(long *p) { long v = *p; return v; }
long tested_first(DLManagedTensor *t) {
  if (!t)
    return 0;
  return t->dl_tensor.ndim;
}
long short_circuit(DLManagedTensor *t) { return t && t->dl_tensor.ndim; }
long conditional(DLManagedTensor *t, bool b) {
  return b ? t->dl_tensor.ndim : 0;
}
long under_a_branch(DLManagedTensor *t, bool b) {
  if (b)
    record(t->dl_tensor.ndim);
  return 0;
}
long passed_on_first(DLManagedTensor *t) {
  take(t);
  return t->dl_tensor.ndim;
}
long by_value(long v) { return v; }
)cpp";

bool derefs(ASTContext &Ctx, const char *Name, unsigned I) {
  return dereferencesBeforeTest(*functionNamed(Ctx, Name), I);
}

TEST(NullContracts, DereferencedBeforeAnyTest) {
  resetFactCache();
  auto AST = parseDLPackCode(std::string(DLPackPrelude) + Callees);
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  ASSERT_FALSE(Ctx.getDiagnostics().hasErrorOccurred());
  EXPECT_TRUE(derefs(Ctx, "first_statement", 0));
  EXPECT_FALSE(derefs(Ctx, "first_statement", 1));
  EXPECT_TRUE(derefs(Ctx, "second_param", 1));
  EXPECT_TRUE(derefs(Ctx, "star", 0));
  // A test, a branch, only some evaluations, a call first: not a contract.
  EXPECT_FALSE(derefs(Ctx, "tested_first", 0));
  EXPECT_FALSE(derefs(Ctx, "short_circuit", 0));
  EXPECT_FALSE(derefs(Ctx, "conditional", 0));
  EXPECT_FALSE(derefs(Ctx, "under_a_branch", 0));
  EXPECT_FALSE(derefs(Ctx, "passed_on_first", 0));
  EXPECT_FALSE(derefs(Ctx, "by_value", 0));
  resetFactCache();
}

} // namespace
