// Unit tests of the same-TU DLPack helper summaries
// (lib/dlpackfields/DLPackHelperSummaries.h): what a helper's body says of
// its one DLDevice or tensor, never its name.

#include "lib/dlpackfields/DLPackHelperSummaries.h"
#include "lib/engine/FlowRunner.h"

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Frontend/ASTUnit.h"

#include "dlpack_snippets.h"
#include "gtest/gtest.h"

#include <map>
#include <string>

using namespace clang;
using namespace clang::interop;
using namespace clang::ast_matchers;

namespace {

/// Each helper's summary, written as the facts it holds ("host-if-true",
/// "strides-if-false", "data+offset", "data", "read" for a body read that
/// proves nothing), or "none" when its body is not read; by callee name.
std::map<std::string, std::string> summaries(llvm::StringRef Code,
                                             unsigned *Evaluated = nullptr,
                                             const FlowBounds &Bounds = {}) {
  std::map<std::string, std::string> Out;
  auto AST = interop_test::parseDLPackCode(
      std::string(interop_test::DLPackPrelude) + Code.str());
  if (!AST)
    return Out;
  ASTContext &Ctx = AST->getASTContext();
  EXPECT_FALSE(Ctx.getDiagnostics().hasErrorOccurred());
  DLPackHelperSummaries Summaries{Bounds};
  auto Calls = match(
      callExpr(hasAncestor(functionDecl(hasName("calls")))).bind("c"), Ctx);
  for (const BoundNodes &B : Calls) {
    const auto *CE = B.getNodeAs<CallExpr>("c");
    const FunctionDecl *F = CE->getDirectCallee();
    if (!F || !F->getIdentifier())
      continue;
    const DLPackHelperSummary *S = Summaries.of(*CE, Ctx);
    std::string Text;
    auto Add = [&](bool On, const char *Name) {
      if (On)
        Text += (Text.empty() ? "" : " ") + std::string(Name);
    };
    if (S) {
      Add(S->HostIfTrue, "host-if-true");
      Add(S->HostIfFalse, "host-if-false");
      Add(S->StridesNonNullIfTrue, "strides-if-true");
      Add(S->StridesNonNullIfFalse, "strides-if-false");
      Add(S->HostIfReturns, "host-if-returns");
      Add(S->StridesNonNullIfReturns, "strides-if-returns");
      Add(S->ReturnsData && S->AddsByteOffset, "data+offset");
      Add(S->ReturnsData && !S->AddsByteOffset, "data");
      if (Text.empty())
        Text = "read";
    }
    Out[F->getNameAsString()] = S ? Text : "none";
  }
  if (Evaluated)
    *Evaluated = Summaries.evaluated();
  return Out;
}

TEST(DLPackHelperSummaries, HostPredicates) {
  auto S = summaries(R"cpp(
namespace {
bool readable(const DLDevice &d) {
  switch (d.device_type) {
  case kDLCPU:
  case kDLCUDAHost:
  case kDLCUDAManaged:
    return true;
  case kDLCUDA:
    break;
  default:
    return false;
  }
  return false;
}
bool through_local(const DLTensor *t) {
  const int type = t->device.device_type;
  return type == kDLCPU || type == kDLCUDAHost;
}
bool needs_copy(DLDevice d) {
  if (d.device_type == kDLCPU)
    return false;
  return true;
}
bool on_host(const DLDevice &d) { return d.device_type != kDLCUDA; }
bool or_id(const DLDevice &d) {
  return d.device_type == kDLCPU || d.device_id == 0;
}
bool throws_otherwise(const DLDevice &d) {
  if (d.device_type != kDLCPU)
    throw 1;
  return d.device_id == 0;
}
bool changed(const DLDevice &d) {
  int type = d.device_type;
  ++type;
  return type == kDLCPU;
}
bool changes_param(DLDevice d) {
  d.device_type = kDLCPU;
  return d.device_type == kDLCPU;
}
bool two(const DLDevice &a, const DLDevice &b) {
  return a.device_type == kDLCPU;
}
} // namespace
bool declared(const DLDevice &d);
void calls(const DLTensor &t, DLDevice d) {
  readable(t.device);
  through_local(&t);
  needs_copy(d);
  on_host(d);
  or_id(d);
  throws_otherwise(d);
  changed(d);
  changes_param(d);
  two(d, d);
  declared(d);
}
)cpp");
  EXPECT_EQ(S["readable"], "host-if-true");
  EXPECT_EQ(S["through_local"], "host-if-true");
  EXPECT_EQ(S["needs_copy"], "host-if-false");
  EXPECT_EQ(S["on_host"], "read");
  EXPECT_EQ(S["or_id"], "read");
  // Only host types reach a return: both results mean host memory.
  EXPECT_EQ(S["throws_otherwise"], "host-if-true host-if-false");
  EXPECT_EQ(S["changed"], "read");
  EXPECT_EQ(S["changes_param"], "none");
  EXPECT_EQ(S["two"], "none");
  EXPECT_EQ(S["declared"], "none");
}

TEST(DLPackHelperSummaries, BoundsAreTheFlowBoundsOptions) {
  const char *Code = R"cpp(
namespace {
bool readable(const DLDevice &d) {
  switch (d.device_type) {
  case kDLCPU:
  case kDLCUDAHost:
    return true;
  default:
    return false;
  }
}
bool scanned(const DLTensor &t) {
  for (int i = 0; i < 4; ++i)
    if (t.device.device_type == kDLCPU)
      return true;
  return false;
}
} // namespace
void calls(const DLTensor &t) {
  readable(t.device);
  scanned(t);
}
)cpp";
  auto Default = summaries(Code);
  EXPECT_EQ(Default["readable"], "host-if-true");
  EXPECT_EQ(Default["scanned"], "host-if-true");
  // Two constants and one other value need three tries.
  FlowBounds Values;
  Values.MaxSummaryValues = 2;
  auto FewValues = summaries(Code, nullptr, Values);
  EXPECT_EQ(FewValues["readable"], "none");
  // A loop the evaluator cannot finish within its steps gives no summary.
  FlowBounds Steps;
  Steps.MaxSummarySteps = 4;
  auto FewSteps = summaries(Code, nullptr, Steps);
  EXPECT_EQ(FewSteps["scanned"], "none");
  FlowBounds Statements;
  Statements.MaxSummaryStatements = 2;
  auto FewStatements = summaries(Code, nullptr, Statements);
  EXPECT_EQ(FewStatements["readable"], "none");
  EXPECT_EQ(FewStatements["scanned"], "none");
}

TEST(DLPackHelperSummaries, StridesPredicatesAndDataHelpers) {
  unsigned Evaluated = 0;
  auto S = summaries(R"cpp(
namespace {
bool compact(const DLTensor &t) {
  if (t.strides == nullptr)
    return true;
  int64_t expect = 1;
  for (int i = t.ndim - 1; i >= 0; --i) {
    if (t.strides[i] != expect)
      return false;
    expect *= t.shape[i];
  }
  return true;
}
bool strided(const DLManagedTensor *mt) { return mt->dl_tensor.strides; }
bool either(const DLTensor &t) {
  if (!t.strides)
    return t.ndim == 1;
  return t.strides[0] == 1;
}
const char *first(const DLTensor &t) {
  return static_cast<const char *>(t.data) + t.byte_offset;
}
const void *base(const DLTensor *t) { return t->data; }
const char *at_offset(const DLTensor &t) {
  return &static_cast<const char *>(t.data)[t.byte_offset];
}
const void *sometimes(const DLTensor &t) {
  if (t.byte_offset)
    return nullptr;
  return t.data;
}
} // namespace
void calls(const DLTensor &t, const DLManagedTensor *mt) {
  compact(t);
  compact(t);
  strided(mt);
  either(t);
  first(t);
  base(&t);
  at_offset(t);
  sometimes(t);
}
)cpp",
                     &Evaluated);
  EXPECT_EQ(S["compact"], "strides-if-false");
  EXPECT_EQ(S["strided"], "strides-if-true");
  EXPECT_EQ(S["either"], "read");
  EXPECT_EQ(S["first"], "data+offset");
  EXPECT_EQ(S["base"], "data");
  EXPECT_EQ(S["at_offset"], "data+offset");
  EXPECT_EQ(S["sometimes"], "read");
  // Once per helper, however often it is called.
  EXPECT_EQ(Evaluated, 7u);
}

TEST(DLPackHelperSummaries, ValidatorsAndParametersOfOtherTypes) {
  auto S = summaries(R"cpp(
[[noreturn]] void fail(const char *what);
namespace {
void on_host(const DLTensor *t, const char *name) {
  if (t->device.device_type != kDLCPU)
    fail(name);
}
void not_cuda(const DLTensor &t, const char *name) {
  if (t.device.device_type == kDLCUDA)
    fail(name);
}
void strided(const DLTensor &t, int ndim, const char *name) {
  if (!t.strides || t.ndim != ndim)
    fail(name);
}
void logs(const DLTensor &t) {
  if (t.device.device_type != kDLCPU)
    return;
}
bool host_named(const DLDevice &d, const char *why) {
  return d.device_type == kDLCPU;
}
void two(const DLTensor &a, const DLTensor &b) {
  if (a.device.device_type != kDLCPU)
    fail("a");
}
} // namespace
void calls(const DLTensor &t) {
  on_host(&t, "t");
  not_cuda(t, "t");
  strided(t, 2, "t");
  logs(t);
  host_named(t.device, "t");
  two(t, t);
}
)cpp");
  EXPECT_EQ(S["on_host"], "host-if-returns");
  EXPECT_EQ(S["not_cuda"], "read") << "Vulkan memory passes";
  EXPECT_EQ(S["strided"], "strides-if-returns");
  EXPECT_EQ(S["logs"], "read") << "returns on every path";
  EXPECT_EQ(S["host_named"], "host-if-true");
  EXPECT_EQ(S["two"], "none") << "which tensor is the subject";
}

} // namespace
