// Unit tests of the ownership family's syntactic proof
// (lib/ownership/OwnershipSyntaxProofs.h), each proof checked against the
// flow analysis run alone.

#include "lib/ownership/OwnershipFacts.h"
#include "lib/ownership/OwnershipSyntaxProofs.h"

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

/// The syntactic proof (OwnershipSyntaxProofs.h) on functions named for
/// what it must do: `proven_*` ones have no event by their syntax, `flow_*`
/// ones must go to the flow analysis. Every proven one is checked against
/// the flow analysis run alone, which must find nothing there either.
std::string runProofSnippet(llvm::StringRef Snippet) {
  resetFactCache();
  ParsedSnippet P = parseSnippet(OwnershipPrelude, Snippet, OwnershipArgs);
  if (!P.Error.empty())
    return P.Error;
  ASTContext &Ctx = P.AST->getASTContext();
  OwnershipConfig FlowOnly;
  FlowOnly.SyntacticProofs = false;
  std::string Errors = forEachProvenOrFlowFunction(
      P, [&](const FunctionDecl &FD, bool WantProven) -> std::string {
        const OwnershipFacts &Fast = getOwnershipFacts(FD, Ctx, false);
        if (Fast.BySyntax != WantProven)
          return FD.getNameAsString() +
                 (WantProven ? ": analysed, expected proven by the syntax\n"
                             : ": proven by the syntax, expected the flow "
                               "analysis\n");
        return syntaxFlowDisagreement(
            FD, Fast, getOwnershipFacts(FD, Ctx, false, FlowOnly));
      });
  resetFactCache();
  return Errors;
}

TEST(OwnershipSyntax, ReleasesThatEndTheFunction) {
  EXPECT_EQ(runProofSnippet(R"cpp(
[[noreturn]] void fail(const char *why);
void proven_release_on_every_exit(void *ctx, float v) {
  auto *mt = static_cast<DLManagedTensorVersioned *>(ctx);
  if (mt->version.major != DLPACK_MAJOR_VERSION) {
    mt->deleter(mt);
    return;
  }
  if (mt->flags & DLPACK_FLAG_BITMASK_READ_ONLY) {
    if (mt->deleter)
      mt->deleter(mt);
    fail("read-only tensor");
  }
  static_cast<float *>(mt->dl_tensor.data)[0] = v;
  mt->deleter(mt);
}
PyObject *proven_capsule_or_release(DLManagedTensor *mt) {
  PyObject *capsule = PyCapsule_New(mt, "dltensor", nullptr);
  if (capsule == nullptr) {
    mt->deleter(mt);
    return nullptr;
  }
  return capsule;
}
void proven_free(DLManagedTensor *mt, bool done) {
  if (done)
    (void)free(mt);
}
void flow_twice(DLManagedTensor *mt) {
  mt->deleter(mt);
  mt->deleter(mt);
}
void flow_release_then_more(DLManagedTensor *mt, bool early) {
  if (early)
    mt->deleter(mt);
  wrap(at::fromDLPack(mt));
}
void flow_in_a_loop(DLManagedTensor **mts, int n) {
  for (int i = 0; i < n; ++i)
    mts[i]->deleter(mts[i]);
}
void flow_throw_caught(DLManagedTensor *mt) {
  try {
    mt->deleter(mt);
    throw python_error();
  } catch (const python_error &) {
  }
  mt->deleter(mt);
}
void flow_owned(const at::Tensor &source) {
  DLManagedTensor *mt = at::toDLPack(source);
  mt->deleter(mt);
}
void flow_capsule(PyObject *capsule) {
  auto *mt = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule, "dltensor"));
  if (mt)
    mt->deleter(mt);
}
void flow_switch(DLManagedTensor *mt, int how) {
  switch (how) {
  case 0:
    mt->deleter(mt);
    return;
  default:
    return;
  }
}
)cpp"),
            "");
}

TEST(OwnershipSyntaxProofs, ReleasesOnlyAtExit) {
  auto AST = parseOwnershipCode(std::string(OwnershipPrelude) + R"cpp(
void last(DLManagedTensor *mt) { mt->deleter(mt); }
void then_return(DLManagedTensor *mt, bool b) {
  if (b) { mt->deleter(mt); return; }
  mt->deleter(mt);
}
void then_more(DLManagedTensor *mt) { mt->deleter(mt); free(mt); }
)cpp");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  ownership::ReleaseFunctions Releases;
  auto AtExit = [&](llvm::StringRef Name) {
    return ownership::releasesOnlyAtExit(*functionNamed(Ctx, Name), Releases);
  };
  EXPECT_TRUE(AtExit("last"));
  EXPECT_TRUE(AtExit("then_return"));
  EXPECT_FALSE(AtExit("then_more"));
}

} // namespace

TEST(OwnershipSyntax, ForeignDeletersNeverTested) {
  // A parameter's deleter the body never reads otherwise is called unchecked
  // wherever it is called: the syntax says so, as the flow would. One the
  // body tests is left to the flow.
  EXPECT_EQ(runProofSnippet(R"cpp(
void proven_unchecked_param(DLManagedTensorVersioned *mt, float v) {
  if (mt->version.major != DLPACK_MAJOR_VERSION) {
    mt->deleter(mt);
    return;
  }
  static_cast<float *>(mt->dl_tensor.data)[0] = v;
  mt->deleter(mt);
}
void flow_tested_on_one_path(DLManagedTensor *mt, bool checked) {
  if (checked && !mt->deleter)
    return;
  mt->deleter(mt);
}
)cpp"),
            "");
}
