// Unit tests of lib/dlpackfields/DLPackEventCollector.h, the field model's
// judge, through the flow analysis alone: the events it makes of an
// address test, a `data` stored into another tensor and strides passed as
// an array to a constructor, and the facts it proves for them (byte_offset
// carried along, the layout passed beside `data`, strides known non-NULL
// from a test on the way, every caller's test, or the library's own tensor
// object).

#include "lib/dlpackfields/DLPackEventCollector.h"

#include "lib/dlpackfields/DLPackFieldFacts.h"

#include "dlpack_snippets.h"
#include "snippet_annotations.h"
#include "syntax_vs_flow.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"

#include "gtest/gtest.h"

#include <map>
#include <string>
#include <vector>

using namespace clang;
using namespace clang::interop;
using namespace interop_test;

namespace {

using Events = std::vector<std::string>;

/// One event as "kind key=value ...", with the facts this unit decides.
std::string describe(const DLPackEvent &E) {
  auto YesNo = [](bool B) { return B ? "yes" : "no"; };
  std::string S = dlpackEventName(E.K);
  switch (E.K) {
  case DLPackEvent::DataDeref:
  case DLPackEvent::DataCallArg:
  case DLPackEvent::DataAddressTest:
  case DLPackEvent::DataStored:
    S += std::string(" offset=") + YesNo(E.OffsetApplied) +
         " layout=" + YesNo(E.CallPassesLayout);
    break;
  case DLPackEvent::DataKept:
    S += std::string(" in=") + E.KeptIn->getNameAsString() +
         " offset=" + YesNo(E.OffsetApplied) +
         " shape=" + YesNo(E.KeptWithShape) +
         " snull=" + YesNo(E.StridesNullProven);
    break;
  case DLPackEvent::StridesDeref:
    S += std::string(" nonnull=") + YesNo(E.NonNullProven) +
         " range=" + YesNo(E.StridesAsRange);
    break;
  default:
    break;
  }
  return S;
}

/// Per function of the snippet, its events in source order.
std::map<std::string, Events> eventsOf(llvm::StringRef Snippet) {
  resetFactCache();
  std::map<std::string, Events> Out;
  ParsedSnippet P = parseSnippet(DLPackPrelude, Snippet, DLPackSnippetArgs);
  EXPECT_EQ(P.Error, "");
  if (!P.Error.empty())
    return Out;
  ASTContext &Ctx = P.AST->getASTContext();
  DLPackFieldConfig Config;
  Config.SyntacticProofs = false;
  for (const FunctionDecl *FD : P.Functions) {
    const DLPackFieldFacts &F = getDLPackFieldFacts(*FD, Ctx, Config);
    Events &Got = Out[FD->getNameAsString()];
    if (F.Skipped != SkipReason::None && F.Skipped != SkipReason::NoBody) {
      Got.push_back("skipped: " + describeSkip(F.Skipped, F.Detail));
      continue;
    }
    std::vector<const DLPackEvent *> Sorted;
    for (const DLPackEvent &E : F.Events)
      Sorted.push_back(&E);
    llvm::sort(Sorted, [](const DLPackEvent *A, const DLPackEvent *B) {
      return A->Use->getBeginLoc() < B->Use->getBeginLoc();
    });
    for (const DLPackEvent *E : Sorted)
      Got.push_back(describe(*E));
  }
  return Out;
}

TEST(DLPackEventCollector, AddressTestsAndStoredData) {
  auto Got = eventsOf(R"cpp(
bool aligned(const DLTensor *t) {
  return reinterpret_cast<uintptr_t>(t->data) % 64 == 0;
}
bool masked(const DLTensor *t) {
  return (reinterpret_cast<uintptr_t>(t->data) & 63) == 0;
}
bool compared(const DLTensor *t, const void *p) { return t->data == p; }
void alias(DLTensor *inner, const DLTensor *t) { inner->data = t->data; }
void alias_with_offset(DLTensor *inner, const DLTensor *t) {
  inner->data = t->data;
  inner->byte_offset = t->byte_offset;
}
void other_field(DLTensor *inner, const DLTensor *t) {
  inner->ndim = t->ndim;
}
)cpp");
  EXPECT_EQ(Got["aligned"], Events{"data-address-test offset=no layout=no"});
  EXPECT_EQ(Got["masked"], Events{"data-address-test offset=no layout=no"});
  EXPECT_EQ(Got["compared"], Events{});
  EXPECT_EQ(Got["alias"], Events{"data-stored offset=no layout=no"});
  // Copying byte_offset along, anywhere in the function, is the fix.
  EXPECT_EQ(Got["alias_with_offset"],
            Events{"data-stored offset=yes layout=no"});
  EXPECT_EQ(Got["other_field"], Events{});
}

TEST(DLPackEventCollector, DataKeptInAMember) {
  auto Got = eventsOf(R"cpp(
struct Blob {
  Blob(const DLTensor &t) : dptr(t.data), n(t.ndim) {}
  void bind(const DLTensor *t) {
    base = static_cast<char *>(t->data) + t->byte_offset;
  }
  void bind_checked(const DLTensor *t) {
    if (t->strides)
      return;
    base = static_cast<char *>(t->data);
  }
  void keep_int(const DLTensor *t) { n = t->ndim; }
  void *dptr;
  char *base;
  int n;
};
void not_a_member(const DLTensor *t, void **out) { *out = t->data; }
)cpp");
  EXPECT_EQ(Got["Blob"],
            Events{"data-kept in=dptr offset=no shape=yes snull=no"});
  EXPECT_EQ(Got["bind"],
            Events{"data-kept in=base offset=yes shape=no snull=no"});
  EXPECT_EQ(Got["bind_checked"],
            Events{"data-kept in=base offset=no shape=no snull=yes"});
  EXPECT_EQ(Got["keep_int"], Events{});
  EXPECT_EQ(Got["not_a_member"], Events{});
}

TEST(DLPackEventCollector, WhatACallReceivesBesideData) {
  auto Got = eventsOf(R"cpp(
void consume(const void *p, size_t n);
void wrap(void *data, const DLTensor *t);
void wrap_opaque(void *data, void *ctx);
void view(void *data, const int64_t *shape);
static void fill_shape(const DLTensor &t, int64_t *shape) {
  for (int i = 0; i < t.ndim; ++i)
    shape[i] = t.shape[i];
}
void bare(const DLTensor *t) { consume(t->data, 4); }
void with_tensor(const DLTensor *t) { wrap(t->data, t); }
void with_opaque_tensor(DLTensor *t) { wrap_opaque(t->data, t); }
void filled(const DLTensor &t) {
  int64_t shape[8];
  int64_t other[8] = {};
  fill_shape(t, shape);
  view(t.data, shape);
  view(t.data, other);
}
)cpp");
  EXPECT_EQ(Got["bare"], Events{"data-arg offset=no layout=no"});
  // The whole tensor, as a DLTensor, carries byte_offset to the callee; as
  // an opaque pointer it is not read.
  EXPECT_EQ(Got["with_tensor"], Events{"data-arg offset=yes layout=no"});
  EXPECT_EQ(Got["with_opaque_tensor"], Events{"data-arg offset=no layout=no"});
  // A local a helper filled with the tensor's layout is its layout.
  EXPECT_EQ(Got["filled"], (Events{"data-arg offset=no layout=yes",
                                   "data-arg offset=no layout=no"}));
}

TEST(DLPackEventCollector, StridesPassedAsAnArray) {
  auto Got = eventsOf(R"cpp(
struct Span {
  Span(const int64_t *p, int n);
};
struct Range {
  Range(const int64_t *first, const int64_t *last);
};
bool compact(const int64_t *strides, int ndim);
void unchecked_span(const DLTensor *t) { Span s(t->strides, t->ndim); }
void checked_span(const DLTensor *t) {
  if (t->strides) {
    Span checked(t->strides, t->ndim);
  }
}
void ranges(const DLTensor *t) {
  Range r(t->strides, t->strides + t->ndim);
}
void empty_when_null(const DLTensor &t) {
  assert(t.strides || t.ndim == 0);
  Span s(t.strides, t.ndim);
}
void not_a_construction(const DLTensor *t) { compact(t->strides, t->ndim); }
void other_length(const DLTensor *t, int n) { Span s(t->strides, n); }
)cpp");
  EXPECT_EQ(Got["unchecked_span"],
            Events{"strides-deref nonnull=no range=yes"});
  EXPECT_EQ(Got["checked_span"], Events{"strides-deref nonnull=yes range=yes"});
  EXPECT_EQ(Got["ranges"], Events{"strides-deref nonnull=no range=yes"});
  // Tested for NULL on the way: NULL is left to an array of no elements.
  EXPECT_EQ(Got["empty_when_null"],
            Events{"strides-deref nonnull=yes range=yes"});
  // A function taking (strides, ndim) may handle NULL itself; a length that
  // is not ndim does not make the pair an array of the strides.
  EXPECT_EQ(Got["not_a_construction"], Events{});
  EXPECT_EQ(Got["other_length"], Events{});
}

TEST(DLPackEventCollector, StridesKnownNonNullWithoutATestHere) {
  auto Got = eventsOf(R"cpp(
struct OwnTensor : DLTensor {
  int64_t first_stride() const { return strides[0]; }
};
int64_t through_reference(OwnTensor *o) {
  const DLTensor &t = *o;
  return t.strides[0];
}
static int64_t first(const DLTensor &t) { return t.strides[0]; }
int64_t caller(const DLTensor &t) { return t.strides ? first(t) : 1; }
static int64_t second(const DLTensor &t) { return t.strides[1]; }
int64_t unguarded_caller(const DLTensor &t) { return second(t); }
)cpp");
  // The library's own tensor object always has strides.
  EXPECT_EQ(Got["first_stride"], Events{"strides-deref nonnull=yes range=no"});
  EXPECT_EQ(Got["through_reference"],
            Events{"strides-deref nonnull=yes range=no"});
  // Every caller tests them.
  EXPECT_EQ(Got["first"], Events{"strides-deref nonnull=yes range=no"});
  EXPECT_EQ(Got["second"], Events{"strides-deref nonnull=no range=no"});
}

} // namespace
