//===--- syntax_vs_flow.h - the fast path against the flow analysis -*- C++
//-*-===//
//
// The array/device facts can come from the syntactic proofs
// (lib/GuardedSinks.h) or from the flow analysis. Wherever the syntax
// answers, it must answer what the flow analysis alone would: the tests
// compare the two sink by sink with syntaxFlowDisagreement().
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_TEST_LIB_SYNTAX_VS_FLOW_H
#define INTEROP_TEST_LIB_SYNTAX_VS_FLOW_H

#include "lib/ArrayDeviceModel.h"

#include <string>
#include <tuple>

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

} // namespace interop_test

#endif // INTEROP_TEST_LIB_SYNTAX_VS_FLOW_H
