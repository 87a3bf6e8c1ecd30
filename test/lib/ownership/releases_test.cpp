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

TEST(Releases, HoldersALeakFixMayRelease) {
  auto AST = parseOwnershipCode(std::string(OwnershipPrelude) + R"cpp(
void fields(const at::Tensor &x, bool a) {
  DLManagedTensor *t = at::toDLPack(x);
  if (t->dl_tensor.data == nullptr || t->dl_tensor.ndim != 2)
    return;
  if (t->deleter)
    t->deleter(t);
}
void data_used(const at::Tensor &x, float **out) {
  DLManagedTensor *t = at::toDLPack(x);
  *out = static_cast<float *>(t->dl_tensor.data);
}
void handed(const at::Tensor &x, void (*take)(DLManagedTensor *)) {
  DLManagedTensor *t = at::toDLPack(x);
  take(t);
}
void reassigned(const at::Tensor &x, const at::Tensor &y) {
  DLManagedTensor *t = at::toDLPack(x);
  t = at::toDLPack(y);
}
void cast_site(PyObject *cap) {
  auto *mt = (DLManagedTensor *)PyCapsule_GetPointer(cap, "dltensor");
  if (mt && mt->deleter)
    mt->deleter(mt);
}
void param(DLManagedTensor *p) {
  if (p->deleter)
    p->deleter(p);
}
)cpp");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  auto Holder = [&](llvm::StringRef Name) -> std::string {
    const FunctionDecl *FD = functionNamed(Ctx, Name);
    const CallExpr *Site = callNamed(FD->getBody(), "toDLPack");
    if (!Site)
      Site = callNamed(FD->getBody(), "PyCapsule_GetPointer");
    const ParmVarDecl *P = Site ? nullptr : FD->getParamDecl(0);
    const ValueDecl *H = releasableHolder(Site, P, *FD);
    return H ? H->getNameAsString() : "none";
  };
  EXPECT_EQ(Holder("fields"), "t") << "fields read, data only tested";
  EXPECT_EQ(Holder("data_used"), "none") << "its data escapes";
  EXPECT_EQ(Holder("handed"), "none") << "handed to a call";
  EXPECT_EQ(Holder("reassigned"), "none") << "holds another tensor later";
  EXPECT_EQ(Holder("cast_site"), "mt") << "the site behind a cast";
  EXPECT_EQ(Holder("param"), "p");
  const FunctionDecl *Fields = functionNamed(Ctx, "fields");
  EXPECT_EQ(releaseStatement(*Fields->getParamDecl(0)),
            "if (x->deleter) x->deleter(x);");
}

TEST(Releases, StorageFilledWithCopies) {
  auto AST = parseOwnershipCode(std::string(OwnershipPrelude) + R"cpp(
#include <stdlib.h>
struct Slot { DLManagedTensor tensor; };
DLManagedTensor *given = nullptr;
DLManagedTensor *rebound = nullptr;
DLManagedTensor *escaped = nullptr;
DLManagedTensor *never = nullptr;
void fill(Slot *s, DLManagedTensor *mt, DLManagedTensor t) {
  s->tensor = *mt;
  given = (DLManagedTensor *)malloc(sizeof(DLManagedTensor));
  *given = t;
  rebound = new DLManagedTensor;
  *rebound = t;
  rebound = mt;
  *escaped = t;
  DLManagedTensor **p = &escaped;
  never = mt;
}
)cpp");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  auto Var = [&](const char *Name) -> const ValueDecl * {
    using namespace clang::ast_matchers;
    auto Found = match(varDecl(hasName(Name)).bind("v"), Ctx);
    return Found.empty() ? nullptr : Found[0].getNodeAs<VarDecl>("v");
  };
  CopiedTensorFields Copies;
  const FunctionDecl *Fill = functionNamed(Ctx, "fill");
  const auto *Slot = cast<CXXRecordDecl>(
      Fill->getParamDecl(0)->getType()->getPointeeType()->getAsTagDecl());
  EXPECT_TRUE(Copies.holdsCopies(*Slot->field_begin(), Ctx));
  EXPECT_TRUE(Copies.holdsCopies(Var("given"), Ctx));
  EXPECT_FALSE(Copies.holdsCopies(Var("rebound"), Ctx))
      << "pointed at the producer's tensor too";
  EXPECT_FALSE(Copies.holdsCopies(Var("escaped"), Ctx)) << "its address taken";
  EXPECT_FALSE(Copies.holdsCopies(Var("never"), Ctx));
  EXPECT_EQ(storedTensorPointer(
                cast<BinaryOperator>(
                    *std::prev(cast<CompoundStmt>(Fill->getBody())->body_end()))
                    ->getLHS()),
            Var("never"));
}

} // namespace
