// Unit tests of the DLPack fast path
// (lib/dlpackfields/DLPackFieldSyntaxProofs.h).
//
// Every function of a snippet is named for what the fast path must do with
// it: `proven_*` functions have nothing any DLPack field check could report,
// provably from their syntax; `flow_*` functions must go to the flow model (a
// finding, a guard the shapes do not cover, or something that could
// invalidate one). For every proven function the flow model runs too, alone,
// and every event it produces must be fully proven, so the fast path is
// checked against the analysis it stands in for, not only against these
// expectations.

#include "lib/dlpackfields/DLPackFieldFacts.h"

#include "dlpack_snippets.h"
#include "snippet_annotations.h"
#include "syntax_vs_flow.h"
#include "gtest/gtest.h"

#include <string>

using namespace clang;
using namespace clang::interop;

namespace {

/// The DLPack snippets' prelude, and what these snippets call.
const std::string Prelude = std::string(interop_test::DLPackPrelude) + R"cpp(
[[noreturn]] void fail(const char *why);
bool IsHostDevice(DLDevice device);
bool is_compact(const int64_t *shape, const int64_t *strides, int32_t ndim);
void take(const float *values, size_t n);
void keep(DLManagedTensorVersioned *owner);
void normalize(DLTensor *t);
)cpp";

/// Describes every function that the fast path treats otherwise than its
/// name says, every proven function in which the flow model has no event at
/// all (the proof would then be vacuous), and every event of a proven
/// function that the flow model does not fully prove.
std::string runSnippet(llvm::StringRef Snippet) {
  resetFactCache();
  interop_test::ParsedSnippet P = interop_test::parseSnippet(
      Prelude, Snippet, interop_test::DLPackSnippetArgs);
  if (!P.Error.empty())
    return P.Error;
  ASTContext &Ctx = P.AST->getASTContext();
  DLPackFieldConfig FlowOnly;
  FlowOnly.SyntacticProofs = false;
  auto Check = [&](const FunctionDecl &FD, bool WantProven) -> std::string {
    std::string Name = FD.getNameAsString();
    const DLPackFieldFacts &Fast = getDLPackFieldFacts(FD, Ctx);
    if (Fast.BySyntax != WantProven)
      return Name + (WantProven ? ": sent to the flow model, expected proven\n"
                                : ": proven by the syntax, expected the flow "
                                  "model\n");
    if (!WantProven)
      return "";
    const DLPackFieldFacts &Flow = getDLPackFieldFacts(FD, Ctx, FlowOnly);
    std::string Errors;
    if (!Fast.Events.empty())
      Errors += Name + ": proven, yet has events\n";
    if (Flow.Events.empty())
      Errors += Name + ": the flow model has no event here\n";
    return Errors + interop_test::syntaxFlowDisagreement(FD, Fast, Flow);
  };
  std::string Errors = interop_test::forEachProvenOrFlowFunction(P, Check);
  resetFactCache();
  return Errors;
}

TEST(DLPackFieldSyntaxProofs, ConsumersInTheUsualShapes) {
  EXPECT_EQ(runSnippet(R"cpp(
int proven_versioned_consumer(DLManagedTensorVersioned *mt) {
  if (!mt || mt->version.major != DLPACK_MAJOR_VERSION)
    return -1;
  const DLTensor *t = &mt->dl_tensor;
  bool usable = t->device.device_type == kDLCPU && t->dtype.bits == 32;
  if (!usable)
    return -1;
  int64_t count = 1;
  int32_t axis = t->ndim;
  while (axis-- > 0) {
    if (t->strides != NULL && t->strides[axis] != count)
      return -1; // not row-major compact
    count *= t->shape[axis];
  }
  take(reinterpret_cast<const float *>(static_cast<const char *>(t->data) +
                                       t->byte_offset),
       static_cast<size_t>(count));
  return 0;
}
double proven_strided_element(const DLTensor *t, int64_t k) {
  if (t->device.device_type != kDLCPU &&
      t->device.device_type != kDLCUDAHost)
    return 0.0;
  int64_t step = t->strides ? t->strides[0] : 1;
  const double *p = reinterpret_cast<const double *>(
      static_cast<const char *>(t->data) + t->byte_offset);
  return p[k * step];
}
bool proven_compact_copy(const DLTensor &t, void *dst, size_t bytes) {
  if (t.device.device_type != kDLCPU)
    return false;
  if (t.strides) {
    int64_t expected = 1;
    for (int k = t.ndim - 1; k >= 0; --k) {
      if (t.strides[k] != expected)
        return false;
      expected *= t.shape[k];
    }
  }
  memcpy(dst, static_cast<const char *>(t.data) + t.byte_offset, bytes);
  return true;
}
void proven_checked_write(DLManagedTensorVersioned *mt, float v) {
  if (mt->version.major != DLPACK_MAJOR_VERSION)
    fail("unsupported DLPack major version");
  DLTensor &t = mt->dl_tensor;
  const bool writable = !(mt->flags & DLPACK_FLAG_BITMASK_READ_ONLY);
  if (!writable || t.device.device_type != kDLCPU)
    fail("not a writable host tensor");
  // The first element sits at data + byte_offset whatever the strides.
  *reinterpret_cast<float *>(static_cast<char *>(t.data) + t.byte_offset) = v;
}
void flow_second_element(DLManagedTensorVersioned *mt, float v) {
  if (mt->version.major != DLPACK_MAJOR_VERSION ||
      (mt->flags & DLPACK_FLAG_BITMASK_READ_ONLY) ||
      mt->dl_tensor.device.device_type != kDLCPU)
    fail("unsupported");
  float *p = reinterpret_cast<float *>(
      static_cast<char *>(mt->dl_tensor.data) + mt->dl_tensor.byte_offset);
  p[0] = v;
  p[1] = v;
}
)cpp"),
            "");
}

TEST(DLPackFieldSyntaxProofs, GuardsStoredCalledAndAsserted) {
  EXPECT_EQ(runSnippet(R"cpp(
float proven_stored(const DLTensor *t) {
  const bool on_host = t->device.device_type == kDLCPU;
  const bool compact = t->strides == nullptr;
  if (!on_host || !compact)
    return 0.f;
  return *reinterpret_cast<const float *>(static_cast<const char *>(t->data) +
                                          t->byte_offset);
}
float proven_host_guard_call(const DLTensor *t) {
  if (!IsHostDevice(t->device) || !is_compact(t->shape, t->strides, t->ndim))
    fail("not a compact host tensor");
  const char *base = static_cast<const char *>(t->data);
  return *reinterpret_cast<const float *>(base + t->byte_offset);
}
float proven_asserted_host(const DLTensor *t) {
  assert(t->device.device_type == kDLCPU && t->strides == NULL);
  return reinterpret_cast<const float *>(
      &static_cast<const char *>(t->data)[t->byte_offset])[0];
}
int64_t proven_call_in_between(DLTensor *t) {
  // Like the flow model, the proofs take a callee to leave a tensor's
  // fields alone (consumers treat them as read-only).
  if (!t->strides)
    return 0;
  normalize(t);
  return t->strides[0];
}
float proven_local_copies(const DLTensor *t) {
  auto type = t->device.device_type;
  size_t offset = t->byte_offset;
  if (type != kDLCUDAManaged || t->strides)
    return 0.f;
  if (!t->data)
    return 0.f;
  return *reinterpret_cast<const float *>(static_cast<const char *>(t->data) +
                                          offset);
}
)cpp"),
            "");
}

TEST(DLPackFieldSyntaxProofs, HelpersReadFromTheirBodies) {
  // Same-TU helpers (DLPackHelperSummaries.h) prove the same in both: a
  // host predicate like a comparison, a strides predicate like a NULL test;
  // a named guard whose body is read is judged by its body; data returned
  // by a helper sends the function to the flow model.
  EXPECT_EQ(runSnippet(R"cpp(
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
bool needs_copy(DLDevice d) { return d.device_type != kDLCPU; }
bool on_host(const DLDevice &d) { return d.device_type != kDLCUDA; }
bool compact(const DLTensor &t) {
  if (!t.strides)
    return true;
  return t.strides[0] == 1;
}
const char *first(const DLTensor &t) {
  return static_cast<const char *>(t.data) + t.byte_offset;
}
} // namespace
float proven_switch_helper(const DLTensor &t) {
  if (!readable(t.device) || t.strides)
    return 0.f;
  return *reinterpret_cast<const float *>(static_cast<const char *>(t.data) +
                                          t.byte_offset);
}
float proven_false_means_host(const DLTensor &t) {
  if (needs_copy(t.device) || t.strides)
    return 0.f;
  return *reinterpret_cast<const float *>(static_cast<const char *>(t.data) +
                                          t.byte_offset);
}
int64_t proven_compact_false(const DLTensor &t) {
  if (compact(t))
    return 0;
  return t.strides[0];
}
float flow_named_but_not_a_guard(const DLTensor &t) {
  if (!on_host(t.device) || t.strides)
    return 0.f;
  return *reinterpret_cast<const float *>(static_cast<const char *>(t.data) +
                                          t.byte_offset);
}
int64_t flow_compact_true(const DLTensor &t) {
  if (!compact(t))
    return 0;
  return t.strides[0];
}
float flow_data_helper(const DLTensor &t) {
  if (!readable(t.device) || t.strides)
    return 0.f;
  return *reinterpret_cast<const float *>(first(t));
}
)cpp"),
            "");
}

TEST(DLPackFieldSyntaxProofs, VersionedReadsWithoutReadOnly) {
  // Reading through a pointer to const needs no READ_ONLY check; a cast
  // that drops const anywhere in the function takes that proof away.
  EXPECT_EQ(runSnippet(R"cpp(
float proven_const_read(DLManagedTensorVersioned *mt) {
  if (mt->version.major != 1 || mt->dl_tensor.device.device_type != kDLCPU ||
      mt->dl_tensor.strides)
    fail("unsupported");
  const float *p = reinterpret_cast<const float *>(
      static_cast<const char *>(mt->dl_tensor.data) +
      mt->dl_tensor.byte_offset);
  return p[0];
}
void flow_const_cast(DLManagedTensorVersioned *mt) {
  if (mt->version.major == 1 && mt->dl_tensor.device.device_type == kDLCPU) {
    const char *first = static_cast<const char *>(mt->dl_tensor.data) +
                        mt->dl_tensor.byte_offset;
    *const_cast<char *>(first) = 0;
  }
}
void flow_write_unchecked(DLManagedTensorVersioned *mt) {
  if (mt->version.major != 1 || mt->dl_tensor.device.device_type != kDLCPU ||
      mt->dl_tensor.strides)
    fail("unsupported");
  float *p = reinterpret_cast<float *>(
      static_cast<char *>(mt->dl_tensor.data) + mt->dl_tensor.byte_offset);
  p[0] = 1.f;
}
int64_t flow_major_asserted(DLManagedTensorVersioned *mt) {
  assert(mt->version.major == DLPACK_MAJOR_VERSION);
  return mt->dl_tensor.ndim;
}
int64_t flow_major_on_one_path(DLManagedTensorVersioned *mt, bool trusted) {
  if (!trusted && mt->version.major != 1)
    return -1;
  return mt->dl_tensor.ndim;
}
)cpp"),
            "");
}

TEST(DLPackFieldSyntaxProofs, FindingsGoToTheFlowModel) {
  EXPECT_EQ(runSnippet(R"cpp(
float flow_offset_missing(const DLTensor &t) {
  if (t.device.device_type != kDLCPU || t.strides)
    return 0.f;
  return *static_cast<const float *>(t.data);
}
int64_t flow_strides_unchecked(const DLTensor *t) { return t->strides[0]; }
float flow_device_unchecked(const DLTensor *t) {
  if (t->strides)
    return 0.f;
  return *reinterpret_cast<const float *>(static_cast<const char *>(t->data) +
                                          t->byte_offset);
}
float flow_strides_never_considered(const DLTensor *t) {
  if (t->device.device_type != kDLCPU)
    return 0.f;
  return reinterpret_cast<const float *>(static_cast<const char *>(t->data) +
                                         t->byte_offset)[3];
}
float flow_guard_on_another_tensor(const DLTensor *a, const DLTensor *b) {
  if (a->device.device_type != kDLCPU || b->strides)
    return 0.f;
  return *reinterpret_cast<const float *>(static_cast<const char *>(b->data) +
                                          b->byte_offset);
}
float flow_offset_of_another_tensor(const DLTensor *a, const DLTensor *b) {
  if (b->device.device_type != kDLCPU || b->strides)
    return 0.f;
  return *reinterpret_cast<const float *>(static_cast<const char *>(b->data) +
                                          a->byte_offset);
}
float flow_guard_after_the_read(const DLTensor *t) {
  const char *p = static_cast<const char *>(t->data) + t->byte_offset;
  if (t->device.device_type != kDLCPU || t->strides)
    return 0.f;
  return *reinterpret_cast<const float *>(p);
}
float flow_guard_on_one_branch(const DLTensor *t, bool fast) {
  if (fast) {
    if (t->device.device_type != kDLCPU || t->strides)
      return 0.f;
  }
  return *reinterpret_cast<const float *>(static_cast<const char *>(t->data) +
                                          t->byte_offset);
}
float flow_guard_backwards(const DLTensor *t) {
  if (t->device.device_type == kDLCPU || t->strides)
    return 0.f;
  return *reinterpret_cast<const float *>(static_cast<const char *>(t->data) +
                                          t->byte_offset);
}
float flow_guard_not_host(const DLTensor *t) {
  if (t->device.device_type != kDLCUDA || t->strides)
    return 0.f;
  return *reinterpret_cast<const float *>(static_cast<const char *>(t->data) +
                                          t->byte_offset);
}
int64_t flow_major_backwards(DLManagedTensorVersioned *mt) {
  if (mt->version.major == DLPACK_MAJOR_VERSION)
    return -1;
  return mt->dl_tensor.ndim;
}
int64_t flow_strides_backwards(const DLTensor *t) {
  if (t->strides)
    return 0;
  return t->strides[0];
}
void flow_read_only_backwards(DLManagedTensorVersioned *mt) {
  if (mt->version.major != 1 || mt->dl_tensor.device.device_type != kDLCPU ||
      !(mt->flags & DLPACK_FLAG_BITMASK_READ_ONLY))
    fail("unsupported");
  *reinterpret_cast<float *>(static_cast<char *>(mt->dl_tensor.data) +
                             mt->dl_tensor.byte_offset) = 1.f;
}
void flow_import(DLManagedTensor *mt, const interop::Device &d) {
  if (mt->dl_tensor.device.device_type == kDLCPU)
    interop::from_dlpack(mt, d);
}
)cpp"),
            "");
}

TEST(DLPackFieldSyntaxProofs, WhatCouldInvalidateAGuard) {
  EXPECT_EQ(runSnippet(R"cpp(
float flow_pointer_reassigned(const DLTensor *t, const DLTensor *other) {
  if (t->device.device_type != kDLCPU || t->strides)
    return 0.f;
  t = other;
  return *reinterpret_cast<const float *>(static_cast<const char *>(t->data) +
                                          t->byte_offset);
}
float flow_field_written(DLTensor *t, int64_t *strides) {
  if (t->device.device_type != kDLCPU || t->strides)
    return 0.f;
  t->strides = strides;
  return reinterpret_cast<const float *>(static_cast<const char *>(t->data) +
                                         t->byte_offset)[t->strides[0]];
}
float flow_field_address(DLTensor *t, int64_t ***out) {
  if (t->device.device_type != kDLCPU || t->strides)
    return 0.f;
  int64_t **where = &t->strides;
  *out = where;
  return *reinterpret_cast<const float *>(static_cast<const char *>(t->data) +
                                          t->byte_offset);
}
float flow_goto(const DLTensor *t) {
  if (t->device.device_type != kDLCPU || t->strides)
    goto out;
  return *reinterpret_cast<const float *>(static_cast<const char *>(t->data) +
                                          t->byte_offset);
out:
  return 0.f;
}
float flow_lambda_by_reference(DLTensor &t, int64_t *strides) {
  auto reset = [&] { t.strides = strides; };
  if (t.device.device_type != kDLCPU || t.strides)
    return 0.f;
  reset();
  return reinterpret_cast<const float *>(static_cast<const char *>(t.data) +
                                         t.byte_offset)[t.strides[1]];
}
int64_t flow_strides_arithmetic(const DLTensor *t) {
  if (!t->strides)
    return 0;
  return *(t->strides + 1);
}
int64_t flow_strides_alias_reassigned(const DLTensor *t, int64_t *other) {
  const int64_t *s = t->strides;
  if (!t->strides)
    return 0;
  s = other;
  return s[0];
}
)cpp"),
            "");
}

TEST(DLPackFieldSyntaxProofs, WorkIsBounded) {
  // Every dereference is guarded by the early return at the top, so each
  // proof reads back over all the statements before it: quadratic in the
  // body (over two million statements read here). Past a bound on the
  // conditions read, the proofs give up and the function goes to the flow
  // model, which has bounds of its own.
  std::string Body = "int64_t huge(const DLTensor *t) {\n"
                     "  if (!t->strides)\n    return 0;\n  int64_t s = 0;\n";
  for (int I = 0; I < 1500; ++I)
    Body += "  s += t->strides[0];\n";
  Body += "  return s;\n}\n";
  resetFactCache();
  interop_test::ParsedSnippet P = interop_test::parseSnippet(
      Prelude, Body, interop_test::DLPackSnippetArgs);
  ASSERT_EQ(P.Error, "");
  ASTContext &Ctx = P.AST->getASTContext();
  const FunctionDecl *FD = interop_test::functionNamed(Ctx, "huge");
  ASSERT_TRUE(FD);
  EXPECT_FALSE(getDLPackFieldFacts(*FD, Ctx).BySyntax);
  // The same shape, short, is proven.
  resetFactCache();
  EXPECT_EQ(runSnippet(R"cpp(
int64_t proven_short(const DLTensor *t) {
  if (!t->strides)
    return 0;
  int64_t s = 0;
  s += t->strides[0];
  s += t->strides[0];
  return s;
}
)cpp"),
            "");
  resetFactCache();
}

} // namespace
