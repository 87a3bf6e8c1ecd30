// Unit tests of lib/abi/ReturnedTensors.h: which functions build the DLPack
// tensor they return (their callers hold their own export), and which of
// those hand over a fresh managed tensor they keep nothing of (their
// callers own it).

#include "lib/abi/ReturnedTensors.h"

#include "dlpack_snippets.h"
#include "snippet_annotations.h"

#include "clang/AST/ASTContext.h"

#include "gtest/gtest.h"

#include <string>

using namespace clang;
using namespace clang::interop;
using namespace interop_test;

namespace {

/// For each function named in Names, in order: "fresh" (built and
/// fresh), "built", or "-"; or why it could not be asked.
std::string returned(llvm::StringRef Code,
                     std::initializer_list<const char *> Names) {
  auto AST = parseDLPackCode(std::string(DLPackPrelude) +
                             "#include <stdlib.h>\n#include <string.h>\n" +
                             Code.str());
  if (!AST)
    return "did not parse";
  ASTContext &Ctx = AST->getASTContext();
  if (Ctx.getDiagnostics().hasErrorOccurred())
    return "compile errors";
  std::string Out;
  for (const char *Name : Names) {
    const FunctionDecl *F = functionNamed(Ctx, Name);
    if (!F)
      return std::string("no function ") + Name;
    const ReturnedTensor &R = returnedTensorOf(*F);
    Out += std::string(Out.empty() ? "" : ", ") + (R.Fresh   ? "fresh"
                                                   : R.Built ? "built"
                                                             : "-");
  }
  return Out;
}

TEST(ReturnedTensors, FunctionsThatBuildTheTensorTheyReturn) {
  EXPECT_EQ(returned(R"cpp(
DLManagedTensor *made_new() {
  auto *m = new DLManagedTensor();
  m->dl_tensor.data = calloc(4, 4);
  return m;
}
DLManagedTensor *made_malloc(bool ok) {
  auto *m = (DLManagedTensor *)malloc(sizeof(DLManagedTensor));
  if (!m) return nullptr;
  memset(m, 0, sizeof(*m));
  if (!ok) { free(m); return nullptr; }
  m->deleter = nullptr;
  return m;
}
DLManagedTensor by_value() {
  DLManagedTensor m{};
  m.dl_tensor.ndim = 1;
  return m;
}
DLManagedTensor *direct() { return new DLManagedTensor(); }
DLTensor *plain_tensor() {
  DLTensor *t = new DLTensor();
  t->ndim = 1;
  return t;
}
)cpp",
                     {"made_new", "made_malloc", "by_value", "direct",
                      "plain_tensor"}),
            "fresh, fresh, built, fresh, built");
}

TEST(ReturnedTensors, AFreshTensorKeptElsewhereIsNotHandedOver) {
  EXPECT_EQ(returned(R"cpp(
DLManagedTensor *registry[4];
void keep(DLManagedTensor *);
DLManagedTensor *registered() {
  auto *m = new DLManagedTensor();
  m->dl_tensor.ndim = 1;
  registry[0] = m;
  return m;
}
DLManagedTensor *passed_on() {
  auto *m = new DLManagedTensor();
  m->dl_tensor.ndim = 1;
  keep(m);
  return m;
}
)cpp",
                     {"registered", "passed_on"}),
            "built, built");
}

TEST(ReturnedTensors, FunctionsThatReturnATensorTheyWereGiven) {
  EXPECT_EQ(returned(R"cpp(
DLManagedTensor *given(DLManagedTensor *in) { return in; }
DLManagedTensor *relabelled(DLManagedTensor *in) {
  DLManagedTensor *m = in;
  m->dl_tensor.ndim = 1;
  return m;
}
DLManagedTensor *either(DLManagedTensor *in, bool fresh) {
  if (!fresh) return in;
  auto *m = new DLManagedTensor();
  m->dl_tensor.ndim = 1;
  return m;
}
DLManagedTensor copied(const DLManagedTensor &in) {
  DLManagedTensor m = in;
  return m;
}
DLManagedTensor *none() { return nullptr; }
int not_a_tensor() { return 0; }
)cpp",
                     {"given", "relabelled", "either", "copied", "none",
                      "not_a_tensor"}),
            "-, -, -, -, -, -");
}

} // namespace
