// Unit tests of lib/ownership/Releases.h: what releases a managed tensor,
// read from bodies.

#include "lib/ownership/Releases.h"

#include "clang/AST/ASTContext.h"
#include "clang/Frontend/ASTUnit.h"

#include "ast_search.h"
#include "ownership/ownership_snippets.h"
#include "snippet_annotations.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace clang::interop;
using namespace clang::interop::ownership;
using namespace interop_test;

namespace {

TEST(Releases, CapsuleDestructorsThatRelease) {
  auto AST = parseOwnershipCode(std::string(OwnershipPrelude) + R"cpp(
struct Handle;
void handle_dec_ref(Handle *h);
void opaque_release(DLManagedTensor *t);
static void pack_deleter(DLManagedTensor *t) { delete t; }
void by_field(PyObject *c) {
  auto *mt = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(c, "dltensor"));
  if (mt && mt->deleter)
    mt->deleter(mt);
}
void by_name(PyObject *c) {
  pack_deleter(static_cast<DLManagedTensor *>(PyCapsule_GetPointer(c, "dltensor")));
}
void by_bookkeeping(PyObject *c) {
  auto *mt = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(c, "dltensor"));
  handle_dec_ref(static_cast<Handle *>(mt->manager_ctx));
}
void by_opaque_call(PyObject *c) {
  opaque_release(static_cast<DLManagedTensor *>(PyCapsule_GetPointer(c, "dltensor")));
}
void reads_only(PyObject *c) {
  auto *mt = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(c, "dltensor"));
  (void)mt->dl_tensor.ndim;
}
void empty(PyObject *) {}
)cpp");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  ASSERT_FALSE(Ctx.getDiagnostics().hasErrorOccurred());
  auto Releases = [&](llvm::StringRef Name) {
    return callsDeleter(functionNamed(Ctx, Name));
  };
  EXPECT_TRUE(Releases("by_field"));
  EXPECT_TRUE(Releases("by_name"));
  EXPECT_TRUE(Releases("by_bookkeeping"));
  // A function whose body is not visible may release it.
  EXPECT_TRUE(Releases("by_opaque_call"));
  EXPECT_FALSE(Releases("reads_only"));
  EXPECT_FALSE(Releases("empty"));
}

} // namespace
