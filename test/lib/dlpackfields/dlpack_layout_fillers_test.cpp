// Unit tests of lib/dlpackfields/DLPackLayoutFillers.h: which locals a call
// handed, with a tensor, to a same-TU helper whose body writes a layout
// field's value through that parameter.

#include "lib/dlpackfields/DLPackLayoutFillers.h"

#include "ast_search.h"
#include "dlpack_snippets.h"
#include "snippet_annotations.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include "gtest/gtest.h"

#include <string>

using namespace clang;
using namespace clang::interop;
using namespace interop_test;

namespace {

const char *const Snippet = R"cpp(
void fill_layout(const DLTensor &t, long *shape, long *strides) {
  for (int i = 0; i < t.ndim; ++i) {
    shape[i] = t.shape[i];
    strides[i] = t.strides ? t.strides[i] : 1;
  }
}
void fill_ndim(const DLTensor *t, int *n) { *n = t->ndim; }
void fill_zero(const DLTensor &t, long *shape) { shape[0] = 0; }
void fill_other(const DLTensor &t, long *shape, long *other) {
  other[0] = t.shape[0];
}
void declared_only(const DLTensor &t, long *shape);
void use(void *data, long *shape, long *strides, int n);

void reads(const DLTensor &t, DLTensor *p, const DLTensor &u) {
  long shape[4], strides[4], zeros[4], others[4], unknown[4], untouched[4];
  int n = 0;
  long *heap = new long[4];
  fill_layout(t, shape, strides);
  fill_layout(u, shape, heap);
  fill_ndim(p, &n);
  fill_zero(t, zeros);
  fill_other(t, others, unknown);
  declared_only(t, untouched);
  use(t.data, shape, strides, n);
  use(t.data, zeros, others, n);
  use(t.data, untouched, heap, n);
  use(t.data, (long *)strides, unknown, n);
}
)cpp";

/// The names of the tensors that filled the local named Local, as they
/// filled it ("t u"), read at its first use as an argument of `use` in
/// `reads`.
std::string filledBy(ASTContext &Ctx, const DLPackLayoutFillers &F,
                     llvm::StringRef Local) {
  const FunctionDecl *Reads = functionNamed(Ctx, "reads");
  const CallExpr *Use = nullptr;
  const Expr *Arg = nullptr;
  firstNode<CallExpr>(Reads->getBody(), [&](const CallExpr &CE) {
    if (!CE.getDirectCallee() || CE.getDirectCallee()->getName() != "use")
      return false;
    for (const Expr *A : CE.arguments())
      if (const auto *DRE = dyn_cast<DeclRefExpr>(A->IgnoreParenCasts()))
        if (DRE->getDecl()->getName() == Local) {
          Use = &CE;
          Arg = A;
          return true;
        }
    return false;
  });
  if (!Use)
    return "<no use of " + Local.str() + ">";
  std::string Out;
  for (const DeclRefExpr *T : F.tensorsFilling(Arg))
    Out += (Out.empty() ? "" : " ") + T->getDecl()->getNameAsString();
  return Out;
}

TEST(DLPackLayoutFillers, LocalsAHelperFillsFromALayoutField) {
  auto AST = parseDLPackCode(std::string(DLPackPrelude) + Snippet);
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  ASSERT_FALSE(Ctx.getDiagnostics().hasErrorOccurred());
  DLPackLayoutFillers F(*functionNamed(Ctx, "reads"));
  // Both calls that filled `shape` count, by reference or by pointer; a
  // cast or decay in front of the local changes nothing.
  EXPECT_EQ(filledBy(Ctx, F, "shape"), "t u");
  EXPECT_EQ(filledBy(Ctx, F, "strides"), "t");
  EXPECT_EQ(filledBy(Ctx, F, "heap"), "u");
}

TEST(DLPackLayoutFillers, WhatIsNotAFill) {
  auto AST = parseDLPackCode(std::string(DLPackPrelude) + Snippet);
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  DLPackLayoutFillers F(*functionNamed(Ctx, "reads"));
  // A constant written, not a layout field.
  EXPECT_EQ(filledBy(Ctx, F, "zeros"), "");
  // The layout went through the other parameter.
  EXPECT_EQ(filledBy(Ctx, F, "others"), "");
  EXPECT_EQ(filledBy(Ctx, F, "unknown"), "t");
  // `*n = t->ndim` through `&n`: only a local array or pointer named by
  // the argument is filled.
  EXPECT_EQ(filledBy(Ctx, F, "n"), "");
  // A helper without a body here fills nothing.
  EXPECT_EQ(filledBy(Ctx, F, "untouched"), "");
  // Anything but a local: null, a parameter, a member.
  EXPECT_TRUE(F.tensorsFilling(nullptr).empty());
  const FunctionDecl *Reads = functionNamed(Ctx, "reads");
  const MemberExpr *Data = firstNode<MemberExpr>(Reads->getBody());
  ASSERT_NE(Data, nullptr);
  EXPECT_TRUE(F.tensorsFilling(Data).empty());
  EXPECT_TRUE(F.tensorsFilling(Data->getBase()).empty());
}

} // namespace
