// Unit tests of the array/device model on annotated snippets.
//
// A snippet marks every sink call's line with what the analysis must find
// there, e.g. `// [[single=holds]]`, `// [[addressable=unknown
// origin=global]]`. Keys: single, tpu, pinned, addressable
// (holds|unknown|refuted), origin (none|parameter|producer|global). Every sink
// call must carry an annotation and every annotation must sit on a sink call,
// so a snippet cannot pass by being ignored. Snippets written with the SPELL_*
// macros run once per API spelling: the interop runtime's (the default model)
// and an XLA IFRT-style API described only through options.

#include "lib/arraydevice/ArrayDeviceFacts.h"

#include "arraydevice/array_device_snippets.h"
#include "syntax_vs_flow.h"

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringExtras.h"

#include "gtest/gtest.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

using namespace clang;
using namespace clang::interop;
using namespace clang::ast_matchers;
using interop_test::annotationBodies;
using interop_test::parseKeyValues;
using interop_test::proofName;

namespace {

struct Spelling {
  const char *Name;
  const char *Prelude;
  ApiModelOptions Options;
};

/// line -> key -> expected value, parsed from `// [[k=v k2=v2]]`.
std::map<unsigned, std::map<std::string, std::string>>
parseFactAnnotations(llvm::StringRef Code, unsigned FirstLine) {
  std::map<unsigned, std::map<std::string, std::string>> Result;
  for (const auto &[Line, Body] : annotationBodies(Code, FirstLine)) {
    llvm::SmallVector<llvm::StringRef> Pairs;
    Body.split(Pairs, ' ', -1, false);
    if (!Pairs.empty())
      Result[Line] = parseKeyValues(Pairs);
  }
  return Result;
}

/// The syntactic fast path answers only where it proves every sink of a
/// function; there, each fact must be what the flow analysis alone finds.
/// Describes every disagreement.
std::string
compareWithFlowAnalysis(ArrayDeviceQuery &Facts, llvm::ArrayRef<BoundNodes> Fns,
                        ASTContext &Ctx, const ApiModelOptions &Options,
                        const FlowBounds &Bounds, unsigned PreludeLines) {
  ArrayDeviceQuery FlowOnly(
      {Options, Bounds, AllFacts, /*SyntacticProofs=*/false});
  std::string Errors;
  for (const BoundNodes &N : Fns) {
    const auto *FD = N.getNodeAs<FunctionDecl>("fn");
    const ArrayDeviceFacts &Fast = Facts.facts(*FD, Ctx);
    if (!Fast.BySyntax)
      continue;
    const ArrayDeviceFacts &Flow = FlowOnly.facts(*FD, Ctx);
    std::string Where = "function " + FD->getNameAsString() + ", line ";
    for (const SinkFact &F : Fast.Events) {
      unsigned Line =
          Ctx.getSourceManager().getPresumedLineNumber(F.Call->getBeginLoc()) -
          PreludeLines;
      const SinkFact *G = findSink(Flow, F.Call);
      // The flow analysis does not judge unreachable calls.
      if (!G)
        continue;
      std::string Differs = interop_test::syntaxFlowDisagreement(F, *G);
      if (!Differs.empty())
        Errors += Where + std::to_string(Line) + ": " + Differs;
    }
    for (const SinkFact &G : Flow.Events)
      if (!findSink(Fast, G.Call))
        Errors += Where + "?: a sink the syntax did not see\n";
  }
  return Errors;
}

/// Parses Prelude + Snippet, analyses every function of the main file and
/// checks the annotations. Returns a description of every mismatch.
std::string runSnippet(const Spelling &S, llvm::StringRef Snippet,
                       const FlowBounds &Bounds = {}) {
  std::string Prelude = S.Prelude;
  unsigned PreludeLines = llvm::count(Prelude, '\n');
  std::string Code = Prelude + Snippet.str();
  std::vector<std::string> Args = {"-std=c++17", "-I" INTEROP_TEST_INPUTS,
                                   "-UNDEBUG"};
  // A fresh ASTContext may reuse the address of the previous snippet's.
  resetFactCache();
  std::unique_ptr<ASTUnit> AST =
      tooling::buildASTFromCodeWithArgs(Code, Args, "snippet.cpp");
  if (!AST)
    return "snippet did not parse";
  ASTContext &Ctx = AST->getASTContext();
  if (Ctx.getDiagnostics().hasErrorOccurred())
    return "snippet has compile errors";
  auto Expected = parseFactAnnotations(Snippet, PreludeLines + 1);

  ArrayDeviceQuery Facts({S.Options, Bounds});
  std::string Errors;
  std::map<unsigned, bool> Seen;
  auto Fns = match(
      functionDecl(isDefinition(), isExpansionInMainFile()).bind("fn"), Ctx);
  for (const BoundNodes &N : Fns) {
    const auto *FD = N.getNodeAs<FunctionDecl>("fn");
    const ArrayDeviceFacts &F = Facts.facts(*FD, Ctx);
    // Templates are analysed per instantiation; implicit members (a
    // lambda's destructor) have no body.
    if (F.Skipped == SkipReason::Dependent || F.Skipped == SkipReason::NoBody)
      continue;
    if (F.Skipped != SkipReason::None) {
      Errors += "function " + FD->getNameAsString() +
                " skipped: " + describeSkip(F.Skipped) + " " + F.Detail + "\n";
      continue;
    }
    for (const SinkFact &Fact : F.Events) {
      unsigned Line = Ctx.getSourceManager().getPresumedLineNumber(
          Fact.Call->getBeginLoc());
      if (Line <= PreludeLines)
        continue;
      Seen[Line] = true;
      auto It = Expected.find(Line);
      if (It == Expected.end()) {
        Errors += "line " + std::to_string(Line - PreludeLines) +
                  ": sink call without annotation\n";
        continue;
      }
      if (!Fact.Modelled) {
        Errors += "line " + std::to_string(Line - PreludeLines) +
                  ": subject not modelled\n";
        continue;
      }
      for (const auto &[Key, Want] : It->second) {
        std::string Got;
        if (Key == "single")
          Got = proofName(Fact.SingleDevice);
        else if (Key == "tpu")
          Got = proofName(Fact.Tpu);
        else if (Key == "pinned")
          Got = proofName(Fact.PinnedHost);
        else if (Key == "addressable")
          Got = proofName(Fact.Addressable);
        else if (Key == "origin")
          Got = interop_test::originName(Fact.From.K);
        else
          Got = "<unknown key " + Key + ">";
        if (Got != Want)
          Errors += "line " + std::to_string(Line - PreludeLines) + ": " + Key +
                    " is " + Got + ", expected " + Want + "\n";
      }
    }
  }
  for (const auto &[Line, Keys] : Expected)
    if (!Seen.count(Line))
      Errors += "line " + std::to_string(Line - PreludeLines) +
                ": annotated, but no sink call was judged there\n";
  Errors +=
      compareWithFlowAnalysis(Facts, Fns, Ctx, S.Options, Bounds, PreludeLines);
  return Errors;
}

//===----------------------------------------------------------------------===//
// The two spellings of the API
//===----------------------------------------------------------------------===//

const char *InteropPrelude = R"cpp(#include "interop/interop.h"
using namespace interop;
using Arr = Array;
#define SPELL_EXPORT(a) to_dlpack(a)
#define SPELL_IS_SINGLE(a) (a).is_single_device()
#define SPELL_COUNT(a) (a).sharding().devices().size()
#define SPELL_COPY_TO_ONE(a) gather(a, local_devices()[0])
#define SPELL_COPIED(r) (*r)
#define SPELL_IMPORT(t, d) from_dlpack(t, d)
#define SPELL_ADDRESSABLE(d) (d).is_addressable()
#define SPELL_ALL_DEVICES(c) devices()
#define SPELL_MY_DEVICES(c) local_devices()
using Tensor = DLManagedTensorVersioned;
using Dev = const Device &;
struct Ctx {};
)cpp";

const char *IfrtPrelude = R"cpp(#include "ifrt/ifrt.h"
using namespace xla::ifrt;
using Arr = Array;
#define SPELL_EXPORT(a) bridge::ToDlpack(a)
#define SPELL_IS_SINGLE(a) ((a).sharding().devices().size() == 1)
#define SPELL_COUNT(a) (a).sharding().devices().size()
#define SPELL_COPY_TO_ONE(a) bridge::CopyToDevice(a, nullptr)
#define SPELL_COPIED(r) (**r)
#define SPELL_IMPORT(t, d) bridge::FromDlpack(t, d)
#define SPELL_ADDRESSABLE(d) (d)->IsAddressable()
#define SPELL_ALL_DEVICES(c) (c).devices()
#define SPELL_MY_DEVICES(c) (c).addressable_devices()
using Tensor = DLManagedTensor;
using Dev = Device *;
using Ctx = Client;
)cpp";

ApiModelOptions ifrtOptions() {
  ApiModelOptions O;
  O.ArrayTypes = "::xla::ifrt::Array";
  O.ShardingTypes = "::xla::ifrt::Sharding";
  O.DeviceTypes = "::xla::ifrt::Device";
  O.DeviceListTypes = "::xla::ifrt::DeviceList";
  O.ResultTypes = "::absl::StatusOr";
  O.ExportFunctions = "::bridge::ToDlpack";
  O.ImportFunctions = "::bridge::FromDlpack";
  O.CudaArrayInterfaceFunctions = "";
  O.SingleDevicePredicates = "";
  O.DeviceCountFunctions = "";
  O.ShardingFunctions = "::xla::ifrt::Array::sharding";
  O.DeviceListFunctions =
      "::xla::ifrt::Sharding::devices;::xla::ifrt::DeviceList::devices";
  O.AddressablePredicates = "::xla::ifrt::Device::IsAddressable";
  O.GlobalDeviceSources =
      "::xla::ifrt::Client::devices;::xla::ifrt::Client::LookupDevice";
  O.AddressableDeviceSources = "::xla::ifrt::Client::addressable_devices";
  O.SingleDeviceProducers = "::bridge::CopyToDevice;::bridge::FromDlpack";
  O.ShardFunctions = "";
  O.PlatformFunctions = "";
  O.TpuPlatforms = "";
  O.MemoryKindFunctions = "";
  O.PinnedHostMemoryKinds = "";
  return O;
}

std::vector<Spelling> spellings() {
  return {{"interop", InteropPrelude, ApiModelOptions()},
          {"ifrt", IfrtPrelude, ifrtOptions()}};
}

void PrintTo(const Spelling &S, std::ostream *OS) { *OS << S.Name; }

class BothSpellings : public ::testing::TestWithParam<Spelling> {};

std::string spellingName(const ::testing::TestParamInfo<Spelling> &I) {
  return I.param.Name;
}

#define EXPECT_SNIPPET(Code) EXPECT_EQ(runSnippet(GetParam(), Code), "")

//===----------------------------------------------------------------------===//
// Single-device proofs, in both spellings
//===----------------------------------------------------------------------===//

TEST_P(BothSpellings, UncheckedParameterIsUnknown) {
  EXPECT_SNIPPET(R"cpp(
void f(const Arr &a) {
  auto t = SPELL_EXPORT(a); // [[single=unknown origin=none]]
}
)cpp");
}

TEST_P(BothSpellings, IfGuard) {
  EXPECT_SNIPPET(R"cpp(
void f(const Arr &a) {
  if (SPELL_IS_SINGLE(a)) {
    auto t = SPELL_EXPORT(a); // [[single=holds]]
  } else {
    auto t = SPELL_EXPORT(a); // [[single=refuted]]
  }
  auto t = SPELL_EXPORT(a); // [[single=unknown]]
}
)cpp");
}

TEST_P(BothSpellings, NegatedEarlyExits) {
  EXPECT_SNIPPET(R"cpp(
bool more();
void ret(const Arr &a) {
  if (!SPELL_IS_SINGLE(a))
    return;
  auto t = SPELL_EXPORT(a); // [[single=holds]]
}
void cont(const Arr &a) {
  while (more()) {
    if (!SPELL_IS_SINGLE(a))
      continue;
    auto t = SPELL_EXPORT(a); // [[single=holds]]
  }
}
void brk(const Arr &a) {
  for (;;) {
    if (!SPELL_IS_SINGLE(a))
      break;
    auto t = SPELL_EXPORT(a); // [[single=holds]]
  }
  auto t = SPELL_EXPORT(a); // [[single=refuted]]
}
)cpp");
}

TEST_P(BothSpellings, StoredGuardAndConnectives) {
  EXPECT_SNIPPET(R"cpp(
void f(const Arr &a, const Arr &b) {
  const bool both = SPELL_IS_SINGLE(a) && SPELL_IS_SINGLE(b);
  if (both) {
    auto ta = SPELL_EXPORT(a); // [[single=holds]]
    auto tb = SPELL_EXPORT(b); // [[single=holds]]
  }
  if (SPELL_IS_SINGLE(a) || SPELL_IS_SINGLE(b))
    auto t = SPELL_EXPORT(a); // [[single=unknown]]
  if (!SPELL_IS_SINGLE(a) || !SPELL_IS_SINGLE(b))
    return;
  auto t = SPELL_EXPORT(b); // [[single=holds]]
}
)cpp");
}

TEST_P(BothSpellings, CountComparisons) {
  EXPECT_SNIPPET(R"cpp(
void f(const Arr &a) {
  if (SPELL_COUNT(a) == 1)
    auto t = SPELL_EXPORT(a); // [[single=holds]]
  if (SPELL_COUNT(a) != 1)
    auto t = SPELL_EXPORT(a); // [[single=refuted]]
  if (SPELL_COUNT(a) > 1)
    auto t = SPELL_EXPORT(a); // [[single=refuted]]
  if (SPELL_COUNT(a) < 2)
    auto t = SPELL_EXPORT(a); // [[single=holds]]
  if (2 <= SPELL_COUNT(a))
    auto t = SPELL_EXPORT(a); // [[single=refuted]]
  if (SPELL_COUNT(a) == 4)
    auto t = SPELL_EXPORT(a); // [[single=refuted]]
  if (SPELL_COUNT(a) < 4)
    auto t = SPELL_EXPORT(a); // [[single=unknown]]
  if (SPELL_COUNT(a) >= 4)
    auto t = SPELL_EXPORT(a); // [[single=refuted]]
  auto n = SPELL_COUNT(a);
  if (n <= 1)
    auto t = SPELL_EXPORT(a); // [[single=holds]]
}
)cpp");
}

TEST_P(BothSpellings, GuardOnOnePathProvesNothing) {
  EXPECT_SNIPPET(R"cpp(
bool flag();
void f(const Arr &a) {
  if (flag()) {
    if (!SPELL_IS_SINGLE(a))
      return;
  }
  auto t = SPELL_EXPORT(a); // [[single=unknown]]
}
)cpp");
}

TEST_P(BothSpellings, GuardOnOtherArrayProvesNothing) {
  EXPECT_SNIPPET(R"cpp(
void f(const Arr &a, const Arr &b) {
  if (!SPELL_IS_SINGLE(a))
    return;
  auto t = SPELL_EXPORT(b); // [[single=unknown origin=none]]
}
)cpp");
}

TEST_P(BothSpellings, MembersAndLambdas) {
  EXPECT_SNIPPET(R"cpp(
struct Holder { const Arr &array; };
void member(const Holder &h) {
  if (SPELL_IS_SINGLE(h.array))
    auto t = SPELL_EXPORT(h.array); // [[single=holds]]
}
void lambda(const Arr &a) {
  auto f = [&a] {
    if (SPELL_IS_SINGLE(a))
      auto t = SPELL_EXPORT(a); // [[single=holds]]
    auto u = SPELL_EXPORT(a); // [[single=unknown]]
  };
  f();
}
)cpp");
}

TEST_P(BothSpellings, TernaryArms) {
  EXPECT_SNIPPET(R"cpp(
template <class T> int use(const T &);
void f(const Arr &a) {
  int x = SPELL_IS_SINGLE(a) ? use(SPELL_EXPORT(a)) // [[single=holds]]
                             : use(SPELL_EXPORT(a)); // [[single=refuted]]
}
)cpp");
}

TEST_P(BothSpellings, CopiedToOneDevice) {
  EXPECT_SNIPPET(R"cpp(
void f(const Arr &a) {
  auto r = SPELL_COPY_TO_ONE(a);
  if (!r.ok())
    return;
  auto t = SPELL_EXPORT(SPELL_COPIED(r)); // [[single=holds]]
}
)cpp");
}

//===----------------------------------------------------------------------===//
// Device addressability, in both spellings
//===----------------------------------------------------------------------===//

TEST_P(BothSpellings, GlobalDeviceList) {
  EXPECT_SNIPPET(R"cpp(
void f(Tensor *t, const Ctx &c, Dev param) {
  auto r1 = SPELL_IMPORT(t, SPELL_ALL_DEVICES(c)[1]); // [[addressable=unknown origin=global]]
  auto r2 = SPELL_IMPORT(t, SPELL_MY_DEVICES(c)[1]); // [[addressable=holds]]
  auto r3 = SPELL_IMPORT(t, param); // [[addressable=unknown origin=none]]
  for (Dev d : SPELL_ALL_DEVICES(c)) {
    if (!SPELL_ADDRESSABLE(d))
      continue;
    auto r = SPELL_IMPORT(t, d); // [[addressable=holds origin=global]]
  }
  for (Dev d : SPELL_ALL_DEVICES(c)) {
    if (SPELL_ADDRESSABLE(d))
      continue;
    auto r = SPELL_IMPORT(t, d); // [[addressable=refuted origin=global]]
  }
}
)cpp");
}

INSTANTIATE_TEST_SUITE_P(ApiSpellings, BothSpellings,
                         ::testing::ValuesIn(spellings()), spellingName);

//===----------------------------------------------------------------------===//
// The runtime's API only (platforms, memory kinds, shards, Result accessors)
//===----------------------------------------------------------------------===//

std::string interopSnippet(llvm::StringRef Code,
                           const FlowBounds &Bounds = {}) {
  return runSnippet(spellings()[0], Code, Bounds);
}

TEST(ArrayDeviceModel, ResultAccessorsOfGather) {
  EXPECT_EQ(interopSnippet(R"cpp(
void f(const Array &a, const Device &d) {
  auto g = gather(a, d);
  auto t1 = to_dlpack(*g);         // [[single=holds origin=none]]
  auto t2 = to_dlpack(g.value());  // [[single=holds]]
  auto t3 = to_dlpack(*g.operator->()); // [[single=holds]]
  auto p = g->unsafe_buffer_pointer(); // [[single=holds]]
  Array moved = std::move(g).value();
  auto t4 = to_dlpack(moved); // [[single=holds]]
}
)cpp"),
            "");
}

// ASSIGN_OR_RETURN's `std::move(r).value()`: std::move, std::forward and
// std::as_const are the object itself, provenance included.
TEST(ArrayDeviceModel, StdMoveKeepsProvenance) {
  EXPECT_EQ(interopSnippet(R"cpp(
void f(DLManagedTensorVersioned *t) {
  auto r = device_by_id(Platform::kCuda, 1);
  Device d = std::move(r).value();
  auto a = from_dlpack(t, d); // [[addressable=unknown origin=global]]
  auto r2 = device_by_id(Platform::kCuda, 2);
  auto b = from_dlpack(t, *std::move(r2)); // [[addressable=unknown origin=global]]
}
)cpp"),
            "");
}

TEST(ArrayDeviceModel, ShardsAreSingleDevice) {
  EXPECT_EQ(interopSnippet(R"cpp(
void f(const Array &a) {
  for (const Array &s : a.addressable_shards())
    auto t = to_dlpack(s); // [[single=holds]]
  auto shards = a.addressable_shards();
  auto t0 = to_dlpack(shards.at(0)); // [[single=holds]]
  auto one = a.addressable_data(0);
  auto t1 = to_dlpack(one.value()); // [[single=holds]]
}
)cpp"),
            "");
}

// A std::optional of an array is a range of at most one element, with an
// engaged flag its tests read.
TEST(ArrayDeviceModel, OptionalHoldsAtMostOneElement) {
  EXPECT_EQ(interopSnippet(R"cpp(
void f(const Array &a, const Device &d) {
  std::optional<Array> o;
  auto t0 = to_dlpack(*o); // [[single=holds]]
  o = a;
  auto t1 = to_dlpack(*o); // [[single=unknown]]
  o = *gather(a, d);
  auto t2 = to_dlpack(*o); // [[single=holds]]
  o.reset();
  o.emplace(a);
  auto t3 = to_dlpack(o.value()); // [[single=unknown]]
  if (!a.is_single_device())
    o = std::nullopt;
  const Array &p = o ? *o : a;
  auto t4 = to_dlpack(p); // [[single=unknown]]
  if (o.has_value())
    auto t5 = to_dlpack(*o); // [[single=holds]]
}
)cpp"),
            "");
}

TEST(ArrayDeviceModel, RangesOfHoldersKeepWhatAllOfProvesOfAField) {
  EXPECT_EQ(interopSnippet(R"cpp(
struct Entry { int id; Array array; Array other; };
bool ok(const Entry &e) { return e.array.is_single_device(); }
void f(std::vector<Entry> &v, const Entry &extra) {
  if (!std::all_of(v.begin(), v.end(), ok))
    return;
  for (const Entry &e : v) {
    auto t1 = to_dlpack(e.array); // [[single=holds]]
    auto t2 = to_dlpack(e.other); // [[single=unknown]]
  }
  v.push_back(extra);
  for (const Entry &e : v)
    auto t3 = to_dlpack(e.array); // [[single=unknown]]
}
)cpp"),
            "");
}

TEST(ArrayDeviceModel, ReassignmentInvalidates) {
  EXPECT_EQ(interopSnippet(R"cpp(
Array make();
void f(Array a) {
  if (!a.is_single_device())
    return;
  auto t1 = to_dlpack(a); // [[single=holds]]
  a = make();
  auto t2 = to_dlpack(a); // [[single=unknown origin=producer]]
  a = gather(a, local_devices()[0]).value();
  auto t3 = to_dlpack(a); // [[single=holds]]
}
)cpp"),
            "");
}

TEST(ArrayDeviceModel, PlatformsAndMemoryKinds) {
  EXPECT_EQ(interopSnippet(R"cpp(
void f(const Array &a, const Device &d) {
  auto t0 = to_dlpack(a); // [[tpu=unknown]]
  if (a.platform() == Platform::kTpu) {
    auto t1 = to_dlpack(a); // [[tpu=holds pinned=unknown]]
    if (a.memory_kind() == MemoryKind::kPinnedHost)
      auto t2 = to_dlpack(a); // [[tpu=holds pinned=holds]]
    if (a.memory_kind() == MemoryKind::kUnpinnedHost)
      auto t3 = to_dlpack(a); // [[tpu=holds pinned=refuted]]
    if (a.memory_kind() != MemoryKind::kDevice)
      auto t4 = to_dlpack(a); // [[tpu=holds pinned=unknown]]
  }
  if (a.platform() == Platform::kCuda)
    auto t5 = to_dlpack(a); // [[tpu=unknown]]
  Platform p = a.sharding().platform();
  if (p != Platform::kCpu)
    auto t6 = to_dlpack(a); // [[tpu=unknown]]
  if (d.platform() == Platform::kTpu) {
    auto g = gather(a, d, MemoryKind::kPinnedHost);
    auto t7 = to_dlpack(*g); // [[single=holds tpu=holds pinned=holds]]
    auto h = gather(a, d);
    auto t8 = to_dlpack(*h); // [[tpu=holds pinned=refuted]]
  }
  auto cpu = gather(a, local_devices(Platform::kCpu)[0]);
  auto t9 = to_dlpack(*cpu); // [[tpu=refuted]]
}
)cpp"),
            "");
}

TEST(ArrayDeviceModel, ShardingsCarryTheirArraysFacts) {
  EXPECT_EQ(interopSnippet(R"cpp(
void f(const Array &a, const void *data, const Sharding &s) {
  const Sharding &sh = a.sharding();
  if (sh.num_devices() == 1)
    auto t = to_dlpack(a); // [[single=holds]]
  auto one = Sharding::single_device(local_devices()[0], MemoryKind::kPinnedHost);
  auto b = Array::from_host(data, 4, {}, DLDataType{2, 32, 1}, one);
  auto tb = to_dlpack(*b); // [[single=holds]]
  auto c = Array::from_host(data, 4, {}, DLDataType{2, 32, 1}, s);
  auto tc = to_dlpack(*c); // [[single=unknown]]
}
)cpp"),
            "");
}

TEST(ArrayDeviceModel, GettersAreCachedUntilTheHolderChanges) {
  EXPECT_EQ(interopSnippet(R"cpp(
struct Holder {
  const Array &array() const;
  void reset();
};
void f(Holder &h) {
  if (!h.array().is_single_device())
    return;
  auto t1 = to_dlpack(h.array()); // [[single=holds origin=producer]]
  h.reset();
  auto t2 = to_dlpack(h.array()); // [[single=unknown]]
}
)cpp"),
            "");
}

TEST(ArrayDeviceModel, DeviceProvenanceJoinsAsMay) {
  EXPECT_EQ(interopSnippet(R"cpp(
bool flag();
void f(DLManagedTensorVersioned *t) {
  Device d = local_devices()[0];
  auto r1 = from_dlpack(t, d); // [[addressable=holds origin=none]]
  if (flag())
    d = devices()[5];
  auto r2 = from_dlpack(t, d); // [[addressable=unknown origin=global]]
  d = local_devices()[1];
  auto r3 = from_dlpack(t, d); // [[addressable=holds origin=none]]
  auto id = device_by_id(Platform::kCpu, 3);
  auto r4 = from_dlpack(t, *id); // [[addressable=unknown origin=global]]
}
)cpp"),
            "");
}

TEST(ArrayDeviceModel, EachIterationHasItsOwnElement) {
  // A check of the first element says nothing about the next ones.
  EXPECT_EQ(interopSnippet(R"cpp(
void f(const std::vector<Array> &arrays) {
  bool checked = false;
  for (const Array &a : arrays) {
    if (!checked) {
      if (!a.is_single_device())
        return;
      checked = true;
    }
    auto t = to_dlpack(a); // [[single=unknown]]
  }
}
)cpp"),
            "");
}

TEST(ArrayDeviceModel, UnreachableSinksAreNotJudged) {
  EXPECT_EQ(interopSnippet(R"cpp(
void f(const Array &a) {
  return;
  auto t = to_dlpack(a);
}
)cpp"),
            "");
}

TEST(ArrayDeviceModel, LoopsConverge) {
  // Loops that create values on every iteration must still reach a fixpoint
  // well inside the default bounds (a skipped function would be reported).
  EXPECT_EQ(interopSnippet(R"cpp(
bool more();
void f(const std::vector<Array> &arrays, DLManagedTensorVersioned *t) {
  Array cur = arrays[0];
  while (more()) {
    for (const Array &a : arrays) {
      if (a.num_devices() == 1) {
        cur = a;
        continue;
      }
      auto g = gather(a, local_devices()[0]);
      if (!g.ok())
        break;
      cur = *g;
    }
    for (const Device &d : devices()) {
      auto r = from_dlpack(t, d); // [[addressable=unknown origin=global]]
    }
    auto e = to_dlpack(cur); // [[single=unknown]]
  }
}
)cpp"),
            "");
}

TEST(ArrayDeviceModel, CollectingDuringTheFixpointMatchesTheDiagnoser) {
  // The array/device facts judge sinks as the fixpoint reaches them; the
  // diagnoser judges them in the framework's extra pass over the final
  // states. Both must agree, loops included.
  auto AST = interop_test::parseInteropCode(R"cpp(#include "interop/interop.h"
using namespace interop;
bool more();
void f(const std::vector<Array> &arrays, DLManagedTensorVersioned *t) {
  Array cur = arrays[0];
  while (more()) {
    for (const Array &a : arrays) {
      if (!a.is_single_device())
        continue;
      auto e = to_dlpack(a);
      cur = a;
    }
    auto e = to_dlpack(cur);
    for (const Device &d : devices()) {
      if (more() && d.is_addressable())
        auto r = from_dlpack(t, d);
      auto r = from_dlpack(t, d);
    }
  }
  if (cur.num_devices() > 1)
    auto e = to_dlpack(cur);
})cpp");
  ASTContext &Ctx = AST->getASTContext();
  const auto *FD =
      match(functionDecl(hasName("f"), isDefinition()).bind("f"), Ctx)[0]
          .getNodeAs<FunctionDecl>("f");
  ArrayDeviceQuery Facts{ArrayDeviceConfig()};
  const ArrayDeviceFacts &Collected = Facts.facts(*FD, Ctx);
  ASSERT_EQ(Collected.Skipped, SkipReason::None) << Collected.Detail;

  ApiModel M{ApiModelOptions()};
  ArrayDeviceDiagnoser Diagnoser(M);
  FlowResult<SinkFact> R = runFlowAnalysisWith<ArrayDeviceModel, SinkFact>(
      *FD, Ctx,
      [&](ASTContext &C, dataflow::Environment &Env) {
        return ArrayDeviceModel(C, Env, M, factsUsedBy(M, *FD));
      },
      dataflow::DiagnosisCallbacks<ArrayDeviceModel, SinkFact>{Diagnoser,
                                                               nullptr});
  ASSERT_EQ(R.Skipped, SkipReason::None) << R.Detail;
  ASSERT_EQ(R.Diagnostics.size(), Collected.Events.size());
  ASSERT_EQ(R.Diagnostics.size(), 5u);
  for (const SinkFact &D : R.Diagnostics) {
    const SinkFact *C = findSink(Collected, D.Call);
    ASSERT_TRUE(C);
    EXPECT_EQ(C->SingleDevice, D.SingleDevice);
    EXPECT_EQ(C->Addressable, D.Addressable);
    EXPECT_EQ(C->From.K, D.From.K);
  }
}

} // namespace
