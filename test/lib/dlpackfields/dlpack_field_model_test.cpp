// Unit tests of the DLPack field model (lib/dlpackfields/DLPackFieldModel.h) on
// annotated snippets.
//
// A snippet marks every line where the model must produce an event with the
// event's kind and what must be proven there, e.g.
// `// [[data-deref offset=no zero=yes]]`. Several events on one line are
// separated by `;` and matched, kind by kind, in source order. Every event
// must be annotated and every annotation must match an event, so a snippet
// cannot pass by being ignored. Only the keys an annotation names are
// compared. Kinds and their keys:
//
//   data-deref, data-arg: write, offset (byte_offset added), zero (byte_offset
//     proven zero), host, dtchecked (device type tested at all), snull
//     (strides proven NULL), strides (strides considered), layout (the call
//     passes the layout too), versioned, roclear, flagsnever, callee, arg
//   strides-deref: nonnull
//   versioned: field (dl_tensor|flags), major, asserted, assert
//   tensor-arg: device (a number, or none), check, callee, arg
//
// and for every kind `read`: where the field was read. Locations (read,
// assert, check) are written as the line's offset from the event's line
// ("0", "-2") or "none". Booleans are yes/no.

#include "lib/abi/TranslationUnitNames.h"
#include "lib/dlpackfields/DLPackFieldFacts.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringExtras.h"

#include "dlpack_snippets.h"
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

std::string yesNo(bool B) { return B ? "yes" : "no"; }

/// Everything an annotation may ask about one event.
std::map<std::string, std::string> describe(const DLPackEvent &E,
                                            const SourceManager &SM) {
  unsigned Line = lineOf(SM, E.Use->getBeginLoc());
  auto Offset = [&](const Expr *At) -> std::string {
    if (!At)
      return "none";
    return std::to_string(int(lineOf(SM, At->getBeginLoc())) - int(Line));
  };
  std::map<std::string, std::string> D;
  D["read"] = Offset(E.FieldRead);
  if (E.Callee)
    D["callee"] = E.Callee->getNameAsString();
  if (E.Call)
    D["arg"] = std::to_string(E.ArgIndex);
  switch (E.K) {
  case DLPackEvent::DataDeref:
  case DLPackEvent::DataCallArg:
  case DLPackEvent::DataAddressTest:
  case DLPackEvent::DataStored:
  case DLPackEvent::DataKept:
    D["write"] = yesNo(E.IsWrite);
    D["offset"] = yesNo(E.OffsetApplied);
    D["zero"] = yesNo(E.OffsetZeroProven);
    D["host"] = yesNo(E.HostProven);
    D["dtchecked"] = yesNo(E.DeviceTypeChecked);
    D["snull"] = yesNo(E.StridesNullProven);
    D["strides"] = yesNo(E.StridesConsidered);
    D["layout"] = yesNo(E.CallPassesLayout);
    D["versioned"] = yesNo(E.FromVersioned);
    D["roclear"] = yesNo(E.ReadOnlyClearProven);
    D["flagsnever"] = yesNo(E.FlagsNeverRead);
    break;
  case DLPackEvent::StridesDeref:
    D["nonnull"] = yesNo(E.NonNullProven);
    break;
  case DLPackEvent::VersionedAccess:
    if (const auto *ME = dyn_cast<MemberExpr>(E.Use))
      D["field"] = ME->getMemberDecl()->getNameAsString();
    D["major"] = yesNo(E.MajorChecked);
    D["asserted"] = yesNo(E.MajorAssertedOnly);
    D["assert"] = Offset(E.AssertCheck);
    break;
  case DLPackEvent::TensorCallArg:
    D["device"] = E.ProvenDeviceType ? std::to_string(*E.ProvenDeviceType)
                                     : std::string("none");
    D["check"] = Offset(E.DeviceCheck);
    break;
  }
  return D;
}

const char *const Prelude = DLPackPrelude;
const std::vector<std::string> &Args = DLPackSnippetArgs;

/// Parses Prelude + Snippet, runs the model over every function of the main
/// file and checks the annotations. Returns a description of every mismatch.
/// The annotations describe the flow model's events, so the syntactic
/// proofs are off for them; every function the proofs do prove is checked
/// against the flow model's events (each must be fully proven there).
std::string runSnippet(llvm::StringRef Snippet, DLPackFieldConfig Config = {}) {
  // A fresh ASTContext may reuse the address of the previous snippet's.
  resetFactCache();
  ParsedSnippet P = parseSnippet(Prelude, Snippet, Args);
  if (!P.Error.empty())
    return P.Error;
  ASTContext &Ctx = P.AST->getASTContext();
  const SourceManager &SM = Ctx.getSourceManager();
  DLPackFieldConfig Fast = Config;
  Fast.SyntacticProofs = true;
  Config.SyntacticProofs = false;

  std::string Errors;
  std::map<unsigned, std::vector<ReportedEvent>> Got;
  for (const FunctionDecl *FD : P.Functions) {
    const DLPackFieldFacts &F = getDLPackFieldFacts(*FD, Ctx, Config);
    Errors +=
        syntaxFlowDisagreement(*FD, getDLPackFieldFacts(*FD, Ctx, Fast), F);
    if (F.Skipped == SkipReason::Dependent || F.Skipped == SkipReason::NoBody)
      continue;
    if (F.Skipped != SkipReason::None) {
      Errors += "function " + FD->getNameAsString() +
                " skipped: " + describeSkip(F.Skipped, F.Detail) + "\n";
      continue;
    }
    for (const DLPackEvent &E : F.Events)
      Got[lineOf(SM, E.Use->getBeginLoc())].push_back(
          {interop_test::dlpackEventName(E.K), describe(E, SM)});
  }

  return Errors +
         compareEvents(std::move(Got), std::move(P.Expected), P.PreludeLines);
}

#define EXPECT_SNIPPET(Code) EXPECT_EQ(runSnippet(Code), "")

//===----------------------------------------------------------------------===//
// byte_offset
//===----------------------------------------------------------------------===//

TEST(DLPackByteOffset, AddedOrNot) {
  EXPECT_SNIPPET(R"cpp(
float forgotten(const DLTensor *t) {
  return static_cast<const float *>(t->data)[0]; // [[data-deref offset=no zero=no read=0]]
}
float added(const DLTensor *t) {
  const char *base = static_cast<const char *>(t->data) + t->byte_offset;
  return reinterpret_cast<const float *>(base)[0]; // [[data-deref offset=yes read=-1]]
}
void passed(const DLTensor *t, void *dst, size_t n) {
  memcpy(dst, static_cast<const char *>(t->data) + t->byte_offset, n); // [[data-arg offset=yes callee=memcpy arg=1]]
  memcpy(dst, t->data, n); // [[data-arg offset=no zero=no callee=memcpy arg=1]]
}
)cpp");
}

TEST(DLPackByteOffset, CallsThatTakeTheOffsetOrTheLayout) {
  // A call given byte_offset beside `data` adds it itself; a call given the
  // shape as well wraps the tensor (CallPassesLayout).
  EXPECT_SNIPPET(R"cpp(
void copy_from(void *dst, const void *src, uint64_t offset, size_t n);
void *wrap(void *data, const int64_t *shape, int32_t ndim);
void copies(const DLTensor *t, void *dst, size_t n) {
  copy_from(dst, t->data, t->byte_offset, n); // [[data-arg offset=yes layout=no callee=copy_from arg=1]]
}
void *wraps(const DLTensor *t) {
  return wrap(t->data, t->shape, t->ndim); // [[data-arg offset=no layout=yes callee=wrap arg=0]]
}
)cpp");
}

TEST(DLPackByteOffset, StoredAsideThenAdded) {
  // The offset is read into a local first and added to a copy of `data`
  // later: the local carries the field's marker.
  EXPECT_SNIPPET(R"cpp(
float later(const DLTensor *t) {
  uint64_t off = t->byte_offset;
  void *d = t->data;
  const char *p = static_cast<const char *>(d) + off;
  return *reinterpret_cast<const float *>(p); // [[data-deref offset=yes read=-2]]
}
)cpp");
}

TEST(DLPackByteOffset, ProvenZeroByACheck) {
  // Rejecting a non-zero offset proves it zero; a check on one path only
  // proves nothing. OffsetZeroProven is only asked when OffsetApplied is
  // false, so it stays false where the offset was added.
  EXPECT_SNIPPET(R"cpp(
float rejected(const DLTensor *t) {
  if (t->byte_offset != 0)
    return 0;
  return static_cast<const float *>(t->data)[0]; // [[data-deref offset=no zero=yes]]
}
float stored_check(const DLTensor *t) {
  const bool plain = t->byte_offset == 0;
  if (!plain)
    return 0;
  return static_cast<const float *>(t->data)[0]; // [[data-deref offset=no zero=yes]]
}
float one_path(const DLTensor *t, bool fast) {
  if (fast && t->byte_offset != 0)
    return 0;
  return static_cast<const float *>(t->data)[0]; // [[data-deref offset=no zero=no]]
}
float both(const DLTensor *t) {
  if (t->byte_offset != 0)
    return 0;
  return *reinterpret_cast<const float *>(static_cast<const char *>(t->data) + t->byte_offset); // [[data-deref offset=yes zero=no]]
}
)cpp");
}

TEST(DLPackProducer, OwnTensorsAreNotReported) {
  // A producer filling in its own tensor wrote every field it reads.
  EXPECT_SNIPPET(R"cpp(
void export_compact(DLTensor *out, float *buffer, int64_t *shape) {
  out->data = buffer;
  out->shape = shape;
  out->strides = nullptr;
  out->byte_offset = 0;
  memcpy(out->data, buffer, 4);
}
void local_tensor(float *buffer) {
  DLTensor t{};
  t.data = buffer;
  static_cast<float *>(t.data)[1] = 0;
}
)cpp");
}

TEST(DLPackProducer, AnAllocationOnAGivenDevice) {
  // A handle a call given a device returns holds a tensor allocated there:
  // its layout is this function's, its device the one passed in.
  EXPECT_SNIPPET(R"cpp(
struct NDArray {
  const DLTensor *operator->() const;
  static NDArray Empty(long n, DLDevice device);
};
void given(DLDevice device, float f) {
  NDArray x = NDArray::Empty(1, device);
  static_cast<float *>(x->data)[0] = f; // [[data-deref zero=yes strides=yes host=no read=0]]
}
void tested(DLDevice device, float f) {
  if (device.device_type != kDLCPU)
    return;
  NDArray x = NDArray::Empty(1, device);
  static_cast<float *>(x->data)[0] = f; // [[data-deref zero=yes host=yes read=0]]
}
float through_a_handle(const NDArray &a) {
  return static_cast<float *>(a->data)[0]; // [[data-deref zero=no host=no read=0]]
}
)cpp");
}

//===----------------------------------------------------------------------===//
// Device type of host accesses
//===----------------------------------------------------------------------===//

TEST(DLPackDevice, HostAccessWithAndWithoutACheck) {
  EXPECT_SNIPPET(R"cpp(
void unchecked(const DLTensor *t, void *dst, size_t n) {
  memcpy(dst, static_cast<const char *>(t->data) + t->byte_offset, n); // [[data-arg host=no dtchecked=no]]
}
void checked(const DLTensor *t, void *dst, size_t n) {
  if (t->device.device_type != kDLCPU && t->device.device_type != kDLCUDAHost)
    return;
  memcpy(dst, static_cast<const char *>(t->data) + t->byte_offset, n); // [[data-arg host=yes dtchecked=yes]]
}
void stored(const DLTensor *t, void *dst, size_t n) {
  const bool on_host = t->device.device_type == kDLCPU;
  if (on_host)
    memcpy(dst, static_cast<const char *>(t->data) + t->byte_offset, n); // [[data-arg host=yes]]
}
)cpp");
}

TEST(DLPackDevice, GuardOnOnePathOnly) {
  // The device type is tested, but not on every path to the copy.
  EXPECT_SNIPPET(R"cpp(
void one_path(const DLTensor *t, void *dst, size_t n, bool trusted) {
  if (!trusted && t->device.device_type != kDLCPU)
    return;
  memcpy(dst, static_cast<const char *>(t->data) + t->byte_offset, n); // [[data-arg host=no dtchecked=yes]]
}
void cuda_or_else(const DLTensor *t, void *dst, size_t n) {
  const char *src = static_cast<const char *>(t->data) + t->byte_offset;
  if (t->device.device_type == kDLCUDA)
    return;
  memcpy(dst, src, n); // [[data-arg host=no dtchecked=yes read=-3]]
}
)cpp");
}

TEST(DLPackDevice, SwitchCasesAndGuardFunctions) {
  // A switch case is proven on the CFG after the flow analysis; a
  // bool-returning guard named like a host test (HostDeviceGuards) is
  // trusted.
  EXPECT_SNIPPET(R"cpp(
bool IsHostDevice(DLDevice device);
void by_switch(const DLTensor *t, void *dst, size_t n) {
  const char *src = static_cast<const char *>(t->data) + t->byte_offset;
  switch (t->device.device_type) {
  case kDLCPU:
    memcpy(dst, src, n); // [[data-arg host=yes]]
    break;
  case kDLCUDA:
    memcpy(dst, src, n); // [[data-arg host=no]]
    break;
  default:
    break;
  }
}
void by_guard(const DLTensor *t, void *dst, size_t n) {
  if (!IsHostDevice(t->device))
    return;
  memcpy(dst, static_cast<const char *>(t->data) + t->byte_offset, n); // [[data-arg host=yes dtchecked=yes]]
}
)cpp");
}

//===----------------------------------------------------------------------===//
// strides
//===----------------------------------------------------------------------===//

TEST(DLPackStrides, NullCheckOfADereference) {
  EXPECT_SNIPPET(R"cpp(
int64_t unchecked(const DLTensor *t) {
  return t->strides[0]; // [[strides-deref nonnull=no read=0]]
}
int64_t checked(const DLTensor *t) {
  if (t->strides == nullptr)
    return 1;
  return t->strides[t->ndim - 1]; // [[strides-deref nonnull=yes]]
}
int64_t copied(const DLTensor *t) {
  const int64_t *s = t->strides;
  if (!s)
    return 1;
  return s[0]; // [[strides-deref nonnull=yes read=-3]]
}
int64_t guarded(const DLTensor *t, int i) {
  return t->strides ? t->strides[i] : 1; // [[strides-deref nonnull=yes]]
}
int64_t one_path(const DLTensor *t, bool fast) {
  if (fast && t->strides == nullptr)
    return 1;
  return t->strides[0]; // [[strides-deref nonnull=no]]
}
)cpp");
}

TEST(DLPackStrides, CompactUse) {
  // A compact copy is fine when the strides are proven NULL or looked at
  // somewhere; StridesNullProven is only asked when they are not looked at.
  EXPECT_SNIPPET(R"cpp(
bool is_compact(const DLTensor *t);
bool small(const DLTensor *t) { return t->ndim < 2; }
void never(const DLTensor *t, void *dst, size_t n) {
  memcpy(dst, static_cast<const char *>(t->data) + t->byte_offset, n); // [[data-arg strides=no snull=no]]
}
void rejected(const DLTensor *t, void *dst, size_t n) {
  if (t->strides != nullptr)
    return;
  memcpy(dst, static_cast<const char *>(t->data) + t->byte_offset, n); // [[data-arg strides=no snull=yes]]
}
void compared(const DLTensor *t, void *dst, size_t n) {
  if (t->strides != nullptr && t->strides[0] != 1) // [[strides-deref nonnull=yes]]
    return;
  memcpy(dst, static_cast<const char *>(t->data) + t->byte_offset, n); // [[data-arg strides=yes snull=no]]
}
void helper_unknown(const DLTensor *t, void *dst, size_t n) {
  // A helper without a body may check the strides.
  if (!is_compact(t))
    return;
  memcpy(dst, static_cast<const char *>(t->data) + t->byte_offset, n); // [[data-arg strides=yes]]
}
void helper_known(const DLTensor *t, void *dst, size_t n) {
  // This helper's body never reads the strides.
  if (!small(t))
    return;
  memcpy(dst, static_cast<const char *>(t->data) + t->byte_offset, n); // [[data-arg strides=no snull=no]]
}
)cpp");
}

//===----------------------------------------------------------------------===//
// Versioned tensors: version.major and READ_ONLY
//===----------------------------------------------------------------------===//

TEST(DLPackVersion, MajorCheckedOrNot) {
  // keep(t) makes each function more than an accessor of its parameter
  // (an accessor leaves the check to its caller and has no events).
  EXPECT_SNIPPET(R"cpp(
void keep(DLManagedTensorVersioned *owner);
int64_t unchecked(DLManagedTensorVersioned *t) {
  keep(t);
  return t->dl_tensor.ndim; // [[versioned field=dl_tensor major=no asserted=no]]
}
int64_t checked(DLManagedTensorVersioned *t) {
  if (t->version.major != DLPACK_MAJOR_VERSION) {
    keep(t);
    return -1;
  }
  keep(t);
  return t->dl_tensor.ndim + (t->flags & 1); // [[versioned field=dl_tensor major=yes; versioned field=flags major=yes]]
}
int64_t one_branch(DLManagedTensorVersioned *t, bool trusted) {
  if (!trusted && t->version.major != 1)
    return -1;
  keep(t);
  return t->dl_tensor.ndim; // [[versioned major=no asserted=no]]
}
)cpp");
}

TEST(DLPackVersion, CheckedOnlyInsideAssert) {
  // assert is compiled out under NDEBUG: the check proves nothing there.
  EXPECT_SNIPPET(R"cpp(
void keep(DLManagedTensorVersioned *owner);
int64_t asserted(DLManagedTensorVersioned *t) {
  assert(t->version.major == DLPACK_MAJOR_VERSION);
  keep(t);
  return t->dl_tensor.ndim; // [[versioned major=no asserted=yes assert=-2]]
}
)cpp");
}

TEST(DLPackVersion, SwitchOnMajor) {
  // `case 1:` alone proves the version; a label chained with another does
  // not (major 2 reaches the body too), nor does one that another case
  // falls into.
  EXPECT_SNIPPET(R"cpp(
void keep(DLManagedTensorVersioned *owner);
int64_t use(DLManagedTensorVersioned *owner, int64_t value);
int64_t by_switch(DLManagedTensorVersioned *t) {
  switch (t->version.major) {
  case 1:
    return use(t, t->dl_tensor.ndim); // [[versioned major=yes]]
  default:
    keep(t);
    return -1;
  }
}
int64_t braced(DLManagedTensorVersioned *t) {
  switch (t->version.major) {
  case 1: {
    keep(t);
    return t->dl_tensor.ndim; // [[versioned major=yes]]
  }
  default:
    keep(t);
    return -1;
  }
}
int64_t shared_label(DLManagedTensorVersioned *t) {
  switch (t->version.major) {
  case 1:
  case 2:
    keep(t);
    return t->dl_tensor.ndim; // [[versioned major=no]]
  default:
    keep(t);
    return -1;
  }
}
int64_t unbraced(DLManagedTensorVersioned *t) {
  // Every statement up to the next label belongs to the case.
  switch (t->version.major) {
  case 1:
    keep(t);
    return t->dl_tensor.ndim; // [[versioned major=yes]]
  default:
    keep(t);
    return -1;
  }
}
int64_t falls_through(DLManagedTensorVersioned *t, int64_t extra) {
  // Case 0 falls into case 1: major 0 reaches the access as well.
  switch (t->version.major) {
  case 0:
    extra = 1;
  case 1:
    keep(t);
    return t->dl_tensor.ndim + extra; // [[versioned major=no]]
  default:
    keep(t);
    return -1;
  }
}
)cpp");
}

TEST(DLPackVersion, AccessorsLeaveTheCheckToTheirCaller) {
  // The parameter is only ever a member base: no VersionedAccess event.
  EXPECT_SNIPPET(R"cpp(
int64_t ndim(const DLManagedTensorVersioned *t) { return t->dl_tensor.ndim; }
bool read_only(const DLManagedTensorVersioned &m) {
  return (m.flags & DLPACK_FLAG_BITMASK_READ_ONLY) != 0;
}
)cpp");
}

TEST(DLPackVersion, WriteThroughDataAndReadOnly) {
  // These functions use `t` only through its fields (accessors), so the
  // version accesses are not events and only the data events remain.
  // ReadOnlyClearProven is only asked for writes.
  EXPECT_SNIPPET(R"cpp(
void unchecked(DLManagedTensorVersioned *t) {
  float *p = reinterpret_cast<float *>(static_cast<char *>(t->dl_tensor.data) + t->dl_tensor.byte_offset);
  p[0] = 1; // [[data-deref write=yes versioned=yes roclear=no flagsnever=yes read=-1]]
}
void checked(DLManagedTensorVersioned *t) {
  if (t->flags & DLPACK_FLAG_BITMASK_READ_ONLY)
    return;
  float *p = reinterpret_cast<float *>(static_cast<char *>(t->dl_tensor.data) + t->dl_tensor.byte_offset);
  p[0] = 1; // [[data-deref write=yes versioned=yes roclear=yes flagsnever=no]]
}
void stored_check(DLManagedTensorVersioned *t, size_t n) {
  const bool writable = (t->flags & DLPACK_FLAG_BITMASK_READ_ONLY) == 0;
  if (writable)
    memset(static_cast<char *>(t->dl_tensor.data) + t->dl_tensor.byte_offset, 0, n); // [[data-arg write=yes roclear=yes callee=memset arg=0]]
}
void fill_unchecked(DLManagedTensorVersioned *t, size_t n) {
  memset(static_cast<char *>(t->dl_tensor.data) + t->dl_tensor.byte_offset, 0, n); // [[data-arg write=yes roclear=no]]
}
float read(DLManagedTensorVersioned *t) {
  if (t->flags & DLPACK_FLAG_BITMASK_READ_ONLY)
    return 0;
  const float *p = reinterpret_cast<const float *>(static_cast<const char *>(t->dl_tensor.data) + t->dl_tensor.byte_offset);
  return p[0]; // [[data-deref write=no versioned=yes roclear=no flagsnever=no]]
}
float legacy(DLManagedTensor *t) {
  return *static_cast<float *>(t->dl_tensor.data); // [[data-deref versioned=no]]
}
)cpp");
}

//===----------------------------------------------------------------------===//
// Tensors passed to an importer
//===----------------------------------------------------------------------===//

const char *ImportSnippet = R"cpp(
namespace mylib {
void consume(DLManagedTensor *tensor);
}
void import_vulkan(DLManagedTensor *mt, const interop::Device &device) {
  if (mt->dl_tensor.device.device_type == kDLVulkan) {
    interop::from_dlpack(mt, device); // [[tensor-arg device=7 check=-1 callee=from_dlpack arg=0]]
    mylib::consume(mt);
  }
  interop::from_dlpack(mt, device);
}
)cpp";

TEST(DLPackImport, ProvenDeviceTypeAtAnImporter) {
  // Only ImportFunctions get TensorCallArg events (mylib::consume does not),
  // and only where a device type is proven (not after the if).
  EXPECT_SNIPPET(ImportSnippet);
}

TEST(DLPackImport, ImportFunctionsAreConfigurable) {
  DLPackFieldConfig Config;
  Config.ImportFunctions = {"::mylib::consume$"};
  EXPECT_EQ(runSnippet(R"cpp(
namespace mylib {
void consume(DLManagedTensor *tensor);
}
void import_vulkan(DLManagedTensor *mt, const interop::Device &device) {
  if (mt->dl_tensor.device.device_type == kDLVulkan) {
    interop::from_dlpack(mt, device);
    mylib::consume(mt); // [[tensor-arg device=7 check=-2 callee=consume]]
  }
}
)cpp",
                       Config),
            "");
}

} // namespace
