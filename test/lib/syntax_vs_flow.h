//===--- syntax_vs_flow.h - fast paths against the flow ---------*- C++ -*-===//
//
// The array/device facts, the DLPack field facts and the ownership facts can
// come from syntactic proofs (lib/arraydevice/ArrayDeviceSyntaxProofs.h,
// lib/dlpackfields/DLPackFieldSyntaxProofs.h, OwnershipFacts::BySyntax) or from
// the flow analysis. Wherever the syntax answers, it must answer what the flow
// analysis alone would: the tests compare the two, sink by sink or event by
// event, with syntaxFlowDisagreement().
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_TEST_LIB_SYNTAX_VS_FLOW_H
#define INTEROP_TEST_LIB_SYNTAX_VS_FLOW_H

#include "lib/arraydevice/ArrayDeviceModel.h"
#include "lib/dlpackfields/DLPackFieldFacts.h"
#include "lib/ownership/OwnershipFacts.h"

#include "snippet_annotations.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace interop_test {

inline const char *proofName(clang::interop::Proof P) {
  using clang::interop::Proof;
  switch (P) {
  case Proof::Holds:
    return "holds";
  case Proof::Refuted:
    return "refuted";
  case Proof::Unknown:
    return "unknown";
  }
  return "?";
}

/// Empty when every fact the syntax proved at a sink (Syntax) the flow
/// analysis proves there too (Flow), and both model the sink alike;
/// otherwise one line per difference. The syntax proves facts and never
/// refutes one; it leaves the platform unknown, and the flow analysis
/// computes the memory kind only of arrays on TPU, the only ones whose
/// memory kind a check reads.
inline std::string
syntaxFlowDisagreement(const clang::interop::SinkFact &Syntax,
                       const clang::interop::SinkFact &Flow) {
  using clang::interop::Proof;
  std::string Out;
  if (Syntax.Modelled != Flow.Modelled)
    Out += std::string("modelled by ") +
           (Syntax.Modelled ? "the syntax only" : "the flow analysis only") +
           "\n";
  Proof FlowPinned =
      Flow.Tpu == Proof::Holds ? Flow.PinnedHost : Syntax.PinnedHost;
  for (auto [Label, S, F] :
       {std::tuple("single", Syntax.SingleDevice, Flow.SingleDevice),
        std::tuple("addressable", Syntax.Addressable, Flow.Addressable),
        std::tuple("tpu", Syntax.Tpu, Flow.Tpu),
        std::tuple("pinned", Syntax.PinnedHost, FlowPinned)})
    if (S != Proof::Unknown && !(S == Proof::Holds && F == Proof::Holds))
      Out += std::string(Label) + " is " + proofName(S) + " by the syntax, " +
             proofName(F) + " by the flow analysis\n";
  return Out;
}

/// The annotation name of a DLPack event kind ("data-deref").
inline const char *dlpackEventName(clang::interop::DLPackEvent::Kind K) {
  using clang::interop::DLPackEvent;
  switch (K) {
  case DLPackEvent::DataDeref:
    return "data-deref";
  case DLPackEvent::DataCallArg:
    return "data-arg";
  case DLPackEvent::DataAddressTest:
    return "data-address-test";
  case DLPackEvent::DataStored:
    return "data-stored";
  case DLPackEvent::DataKept:
    return "data-kept";
  case DLPackEvent::StridesDeref:
    return "strides-deref";
  case DLPackEvent::VersionedAccess:
    return "versioned";
  case DLPackEvent::TensorCallArg:
    return "tensor-arg";
  }
  return "?";
}

/// Empty when the syntax proved nothing for FD (Syntax.BySyntax is false),
/// or when every event the flow model produces there (Flow) is fully
/// proven, as the syntactic proofs claim; otherwise one line per event
/// that is not.
inline std::string
syntaxFlowDisagreement(const clang::FunctionDecl &FD,
                       const clang::interop::DLPackFieldFacts &Syntax,
                       const clang::interop::DLPackFieldFacts &Flow) {
  if (!Syntax.BySyntax)
    return "";
  if (Flow.Skipped != clang::interop::SkipReason::None)
    return FD.getNameAsString() +
           ": proven by the syntax, not analysed by the flow model\n";
  const clang::SourceManager &SM = FD.getASTContext().getSourceManager();
  std::string Out;
  for (const clang::interop::DLPackEvent &E : Flow.Events)
    if (!clang::interop::isFullyProven(E, FD.getASTContext()))
      Out += FD.getNameAsString() + ": proven by the syntax, but the " +
             dlpackEventName(E.K) + " event at line " +
             std::to_string(SM.getPresumedLineNumber(E.Use->getBeginLoc())) +
             " is not fully proven by the flow model\n";
  return Out;
}

/// Empty when the syntax decided nothing for FD, or when the ownership
/// model's flow analysis (Flow) finds the same events there (kind and
/// place), as the syntax claims.
inline std::string
syntaxFlowDisagreement(const clang::FunctionDecl &FD,
                       const clang::interop::OwnershipFacts &Syntax,
                       const clang::interop::OwnershipFacts &Flow) {
  if (!Syntax.BySyntax)
    return "";
  if (Flow.Skipped != clang::interop::SkipReason::None)
    return FD.getNameAsString() +
           ": proven by the syntax, not analysed by the ownership model\n";
  auto Key = [](const std::vector<clang::interop::OwnershipEvent> &Events) {
    std::vector<std::pair<unsigned, const clang::Stmt *>> Out;
    for (const clang::interop::OwnershipEvent &E : Events)
      Out.push_back({unsigned(E.K), E.At});
    llvm::sort(Out);
    return Out;
  };
  if (Key(Syntax.Events) != Key(Flow.Events))
    return FD.getNameAsString() + ": the syntax finds " +
           std::to_string(Syntax.Events.size()) +
           " event(s), the ownership model " +
           std::to_string(Flow.Events.size()) + " others\n";
  return "";
}

/// Calls Check(FD, WantProven) on every function of P named `proven_*`
/// (WantProven) or `flow_*` (the fast path must leave it to the flow
/// analysis), and returns what the calls return, one after the other. A
/// snippet without such a function is an error: it would test nothing.
inline std::string forEachProvenOrFlowFunction(
    const ParsedSnippet &P,
    llvm::function_ref<std::string(const clang::FunctionDecl &, bool)> Check) {
  std::string Errors;
  unsigned Functions = 0;
  for (const clang::FunctionDecl *FD : P.Functions) {
    std::string Name = FD->getNameAsString();
    bool WantProven = llvm::StringRef(Name).starts_with("proven_");
    if (!WantProven && !llvm::StringRef(Name).starts_with("flow_"))
      continue;
    ++Functions;
    Errors += Check(*FD, WantProven);
  }
  if (!Functions)
    Errors += "no proven_/flow_ function in the snippet\n";
  return Errors;
}

} // namespace interop_test

#endif // INTEROP_TEST_LIB_SYNTAX_VS_FLOW_H
