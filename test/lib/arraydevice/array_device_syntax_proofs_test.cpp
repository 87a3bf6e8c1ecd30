// Unit tests of the syntactic fast path
// (lib/arraydevice/ArrayDeviceSyntaxProofs.h).
//
// Every function of a snippet is named for what the fast path must do with
// it: `proven_*` functions have every sink proven by their syntax, `flow_*`
// functions must go to the flow analysis (a guard the shapes do not cover,
// or something that could invalidate one). For every proven function the
// flow analysis runs too, alone, and must prove the same facts, so the fast
// path is checked against the analysis it stands in for, not only against
// these expectations.

#include "lib/arraydevice/ArrayDeviceFacts.h"
#include "lib/arraydevice/ArrayDeviceSyntaxProofs.h"

#include "snippet_annotations.h"
#include "syntax_vs_flow.h"
#include "gtest/gtest.h"

#include <string>

using namespace clang;
using namespace clang::interop;

namespace {

const char *Prelude = R"cpp(#include "interop/interop.h"
using namespace interop;
Array load();
void log_text(const char *);
[[noreturn]] void fail(const char *);
void consume(Array &);
template <class T> void keep(const T &);
#define assert(e) ((e) ? (void)0 : fail(#e))
)cpp";

/// Describes every function that the fast path treats otherwise than its
/// name says, and every proven fact the flow analysis does not confirm.
std::string runSnippet(llvm::StringRef Snippet, unsigned Facts = AllFacts,
                       const ApiModelOptions &Api = ApiModelOptions()) {
  resetFactCache();
  interop_test::ParsedSnippet P = interop_test::parseSnippet(
      Prelude, Snippet, {"-std=c++17", "-I" INTEROP_TEST_INPUTS});
  if (!P.Error.empty())
    return P.Error;
  ASTContext &Ctx = P.AST->getASTContext();
  ApiModel Model{Api};
  ArrayDeviceQuery FlowOnly({Api, {}, Facts, /*SyntacticProofs=*/false});
  auto Check = [&](const FunctionDecl &FD, bool WantProven) -> std::string {
    std::string Name = FD.getNameAsString();
    unsigned Tracked = Facts & factsUsedBy(Model, FD);
    std::optional<llvm::SmallVector<SinkFact>> Proved =
        proveArrayDeviceSinksBySyntax(Model, FD, Tracked);
    if (!WantProven)
      return Proved ? Name + ": proven by the syntax, expected the flow "
                             "analysis\n"
                    : "";
    if (!Proved)
      return Name + ": sent to the flow analysis, expected proven\n";
    std::string Errors;
    if (Proved->empty())
      Errors += Name + ": no sink found\n";
    const ArrayDeviceFacts &Flow = FlowOnly.facts(FD, Ctx);
    for (const SinkFact &F : *Proved) {
      const SinkFact *G = findSink(Flow, F.Call);
      std::string Where =
          Name + ", line " +
          std::to_string(interop_test::lineOf(Ctx.getSourceManager(),
                                              F.Call->getBeginLoc()) -
                         P.PreludeLines) +
          ": ";
      if (!F.Modelled) {
        Errors += Where + "not modelled\n";
        continue;
      }
      if (!G) {
        Errors += Where + "the flow analysis did not reach the call\n";
        continue;
      }
      std::string Differs = interop_test::syntaxFlowDisagreement(F, *G);
      if (!Differs.empty())
        Errors += Where + Differs;
    }
    return Errors;
  };
  return interop_test::forEachProvenOrFlowFunction(P, Check);
}

TEST(ArrayDeviceSyntaxProofs, IfAndElseArms) {
  EXPECT_EQ(runSnippet(R"cpp(
void proven_then(const Array &a) {
  if (a.is_single_device())
    keep(to_dlpack(a));
}
void proven_else(const Array &a) {
  if (!a.is_single_device())
    log_text("sharded");
  else
    keep(to_dlpack(a));
}
void proven_sharding(const Array &a) {
  if (a.sharding().is_single_device())
    keep(cuda_array_interface(a));
}
void proven_while(const Array &a) {
  while (a.is_single_device()) {
    keep(to_dlpack(a));
    break;
  }
}
void proven_ternary(const Array &a) {
  auto r = a.is_single_device()
               ? to_dlpack(a)
               : to_dlpack(gather(a, local_devices()[0]).value());
  keep(r);
}
void flow_ternary_unguarded_arm(const Array &a) {
  auto r = a.is_single_device() ? to_dlpack(a) : to_dlpack(load());
  keep(r);
}
void flow_then_wrong_arm(const Array &a) {
  if (a.is_single_device())
    log_text("one");
  else
    keep(to_dlpack(a));
}
void flow_other_array(const Array &a, const Array &b) {
  if (b.is_single_device())
    keep(to_dlpack(a));
}
)cpp"),
            "");
}

TEST(ArrayDeviceSyntaxProofs, EarlyExits) {
  EXPECT_EQ(runSnippet(R"cpp(
void proven_return(const Array &a, int n) {
  if (!a.is_single_device())
    return;
  for (int k = 0; k < n; ++k)
    log_text("k");
  keep(to_dlpack(a));
}
int proven_continue(const std::vector<Array> &items) {
  int done = 0;
  for (const Array &a : items) {
    if (!a.is_single_device())
      continue;
    keep(to_dlpack(a));
    ++done;
  }
  return done;
}
void proven_break(const std::vector<Array> &items) {
  for (const Array &a : items) {
    if (!a.is_single_device()) {
      log_text("stop");
      break;
    }
    keep(to_dlpack(a));
  }
}
void proven_noreturn_and_throw(const Array &a, const Array &b) {
  if (!a.is_single_device())
    fail("sharded");
  if (!b.is_single_device())
    throw 1;
  keep(to_dlpack(a));
  keep(to_dlpack(b));
}
void proven_assert(const Array &a) {
  assert(a.is_single_device());
  keep(to_dlpack(a));
}
void proven_in_switch(const Array &a, int k) {
  switch (k) {
  case 0:
    log_text("zero");
    if (!a.is_single_device())
      break;
    keep(to_dlpack(a));
    break;
  default:
    break;
  }
}
void flow_no_exit(const Array &a) {
  if (!a.is_single_device())
    log_text("sharded");
  keep(to_dlpack(a));
}
void flow_guard_on_one_path(const Array &a, bool careful) {
  if (careful) {
    if (!a.is_single_device())
      return;
  }
  keep(to_dlpack(a));
}
void flow_sink_before_guard(const Array &a) {
  keep(to_dlpack(a));
  if (!a.is_single_device())
    return;
}
void flow_case_label_between(const Array &a, int k) {
  switch (k) {
  case 0:
    log_text("zero");
    if (!a.is_single_device())
      return;
  case 1:
    keep(to_dlpack(a));
  }
}
void flow_goto_past_guard(const Array &a, bool skip) {
  if (skip)
    goto out;
  if (!a.is_single_device())
    return;
out:
  keep(to_dlpack(a));
}
void flow_case_inside_block(const Array &a, int k) {
  switch (k) {
  case 0:
    if (!a.is_single_device())
      return;
    {
    case 1:
      keep(to_dlpack(a));
    }
  }
}
)cpp"),
            "");
}

TEST(ArrayDeviceSyntaxProofs, ACountOfOne) {
  // `num_devices() == 1` is the single-device fact spelt as a count, either
  // way round, on the array or its sharding; another count is not.
  EXPECT_EQ(runSnippet(R"cpp(
void proven_count(const Array &a) {
  if (a.num_devices() != 1)
    return;
  keep(to_dlpack(a));
}
void proven_count_reversed(const Array &a) {
  if (1 == a.sharding().num_devices())
    keep(to_dlpack(a));
}
void flow_count_of_two(const Array &a) {
  if (a.num_devices() != 2)
    return;
  keep(to_dlpack(a));
}
void flow_count_of_another(const Array &a, const Array &b) {
  if (b.num_devices() != 1)
    return;
  keep(to_dlpack(a));
}
)cpp"),
            "");
}

TEST(ArrayDeviceSyntaxProofs, ConnectivesAndStoredGuards) {
  EXPECT_EQ(runSnippet(R"cpp(
void proven_or_exit(const Array &a, const Array &b, bool verbose) {
  if (!a.is_single_device() || !b.is_single_device())
    return;
  if (verbose)
    log_text("pair");
  keep(to_dlpack(a));
  keep(to_dlpack(b));
}
void proven_and(const Array &a, int n) {
  if (n > 0 && a.is_single_device())
    keep(to_dlpack(a));
}
void proven_and_rhs(const Array &a) {
  bool ok = a.is_single_device() && to_dlpack(a).ok();
  keep(ok);
}
void proven_stored(const std::vector<Array> &items) {
  for (const Array &a : items) {
    const bool ready = a.is_single_device();
    if (!ready)
      continue;
    keep(to_dlpack(a));
  }
}
void proven_stored_not_const(const Array &a) {
  bool sharded = !a.is_single_device();
  if (sharded)
    return;
  keep(to_dlpack(a));
}
void flow_and_exit(const Array &a, bool quick) {
  if (quick && !a.is_single_device())
    return;
  keep(to_dlpack(a));
}
void flow_or(const Array &a, bool forced) {
  if (forced || a.is_single_device())
    keep(to_dlpack(a));
}
void flow_stored_then_overwritten(const Array &a) {
  bool ready = a.is_single_device();
  ready = true;
  if (!ready)
    return;
  keep(to_dlpack(a));
}
void flow_stored_captured_by_reference(const Array &a) {
  bool ready = a.is_single_device();
  auto force = [&] { ready = true; };
  force();
  if (!ready)
    return;
  keep(to_dlpack(a));
}
)cpp"),
            "");
}

TEST(ArrayDeviceSyntaxProofs, MutationsSendTheFunctionToTheFlowAnalysis) {
  EXPECT_EQ(runSnippet(R"cpp(
void flow_reassigned(Array a) {
  if (!a.is_single_device())
    return;
  a = load();
  keep(to_dlpack(a));
}
void flow_non_const_reference(Array a) {
  if (!a.is_single_device())
    return;
  consume(a);
  keep(to_dlpack(a));
}
void flow_alias(Array a) {
  Array &r = a;
  if (!a.is_single_device())
    return;
  keep(to_dlpack(a));
}
void flow_address_taken(Array a) {
  Array *p = &a;
  if (!a.is_single_device())
    return;
  keep(to_dlpack(a));
}
void flow_moved(Array a) {
  if (!a.is_single_device())
    return;
  Array b = std::move(a);
  keep(to_dlpack(a));
}
void flow_captured_by_reference(Array a) {
  if (!a.is_single_device())
    return;
  auto reset = [&] { a = load(); };
  reset();
  keep(to_dlpack(a));
}
void proven_captured_by_copy(const Array &a) {
  if (!a.is_single_device())
    return;
  auto show = [a] { return a.num_devices(); };
  keep(show());
  keep(to_dlpack(a));
}
)cpp"),
            "");
}

TEST(ArrayDeviceSyntaxProofs, ProducersAndDevices) {
  EXPECT_EQ(runSnippet(R"cpp(
void proven_gathered(const Array &a) {
  auto g = gather(a, local_devices()[0]);
  if (!g.ok())
    return;
  keep(g->unsafe_buffer_pointer());
  keep(cuda_array_interface(*g));
  keep(to_dlpack(g.value()));
}
void proven_gathered_inline(const Array &a) {
  keep(to_dlpack(gather(a, local_devices()[0]).value()));
}
void proven_imported_local(DLManagedTensorVersioned *t) {
  keep(from_dlpack(t, local_devices()[0]));
}
void proven_imported_checked(DLManagedTensorVersioned *t, int rank) {
  auto all = devices();
  const Device &d = all[rank % 4];
  if (!d.is_addressable())
    return;
  keep(from_dlpack(t, d));
}
void flow_imported_global(DLManagedTensorVersioned *t) {
  keep(from_dlpack(t, devices()[1]));
}
void flow_loaded(int n) {
  Array a = load();
  keep(to_dlpack(a));
}
)cpp"),
            "");
}

// SingleDevicePredicates and AddressablePredicates accept free functions;
// the flow analysis reads them like the syntax does (their first argument of
// the array or device type).
TEST(ArrayDeviceSyntaxProofs, FreePredicatesListedInTheModel) {
  ApiModelOptions Api;
  Api.SingleDevicePredicates += ";::fits";
  Api.AddressablePredicates += ";::owned";
  EXPECT_EQ(runSnippet(R"cpp(
bool fits(const Array &);
bool owned(int, const Device &);
void proven_free_predicate(const Array &a) {
  if (!fits(a))
    return;
  keep(to_dlpack(a));
}
void proven_free_predicate_on_device(DLManagedTensorVersioned *t,
                                     const Device &d) {
  if (owned(1, d))
    keep(from_dlpack(t, d));
}
void flow_free_predicate_other_array(const Array &a, const Array &b) {
  if (!fits(b))
    return;
  keep(to_dlpack(a));
}
)cpp",
                       AllFacts, Api),
            "");
}

TEST(ArrayDeviceSyntaxProofs, TpuExportsNeedAProvenMemoryKind) {
  EXPECT_EQ(runSnippet(R"cpp(
void proven_pinned(const Array &a) {
  if (!a.is_single_device() || a.platform() != Platform::kTpu)
    return;
  if (a.memory_kind() != MemoryKind::kPinnedHost)
    return;
  keep(to_dlpack(a));
}
void proven_pinned_reversed(const Array &a) {
  if (a.platform() == Platform::kTpu && a.is_single_device() &&
      MemoryKind::kPinnedHost == a.memory_kind())
    keep(to_dlpack(a));
}
void flow_platform_only(const Array &a) {
  if (a.is_single_device() && a.platform() == Platform::kTpu)
    keep(to_dlpack(a));
}
void flow_other_memory_kind(const Array &a) {
  if (a.is_single_device() && a.platform() == Platform::kTpu &&
      a.memory_kind() == MemoryKind::kDevice)
    keep(to_dlpack(a));
}
)cpp"),
            "");
}

TEST(ArrayDeviceSyntaxProofs, OnlyTheTrackedFamiliesAreProven) {
  // With only TPU facts tracked (the TPU check alone), an export needs a
  // proven memory kind and nothing else.
  EXPECT_EQ(runSnippet(R"cpp(
void proven_pinned_only(const Array &a) {
  if (a.platform() == Platform::kTpu &&
      a.memory_kind() == MemoryKind::kPinnedHost)
    keep(to_dlpack(a));
}
void flow_platform_only(const Array &a) {
  if (a.platform() == Platform::kTpu)
    keep(to_dlpack(a));
}
)cpp",
                       TpuMemoryFacts),
            "");
}

} // namespace
