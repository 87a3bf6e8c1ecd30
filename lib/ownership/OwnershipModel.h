//===--- OwnershipModel.h - who owns a DLPack managed tensor ----*- C++ -*-===//
//
// The ownership family's dataflow model (clang's framework, run through
// lib/engine/FlowRunner.h). Each site of the function (OwnershipSites.h)
// has ghost booleans (still owned here, deleted, handed on, escaped), each
// capsule ghosts for claimed, renamed, unconsumed and imported, and a
// capsule destructor one for "the exception in flight was saved". Ghosts
// are formulas, so correlated conditions (`bool handed = ...; if (!handed)
// delete`) are understood; NULL tests of the tensor and of its deleter are
// atoms. The transfer functions are named, one per statement kind and one
// per capsule-API call, in one table (lib/engine/StmtSwitch.h); states are
// recorded before each judged statement for OwnershipJudgement.h.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_OWNERSHIP_OWNERSHIPMODEL_H
#define INTEROP_LIB_OWNERSHIP_OWNERSHIPMODEL_H

#include "lib/engine/DerivedGhosts.h"
#include "lib/engine/FlowRunner.h"
#include "lib/ownership/OwnershipSites.h"

#include "clang/AST/ASTContext.h"
#include "clang/Analysis/FlowSensitive/DataflowAnalysis.h"
#include "clang/Analysis/FlowSensitive/NoopLattice.h"

namespace clang::interop {

class OwnershipModel
    : public dataflow::DataflowAnalysis<OwnershipModel, dataflow::NoopLattice> {
public:
  /// Makes the ghost locations of RC's sites and capsules.
  OwnershipModel(ASTContext &Ctx, dataflow::Environment &Env,
                 ownership::RunContext &RC);

  static dataflow::NoopLattice initialElement() { return {}; }

  void transfer(const CFGElement &Elt, dataflow::NoopLattice &L,
                dataflow::Environment &Env);

  /// What an operand C tests for truth with no bool conversion (`if (p)`,
  /// `if (strcmp(name, "dltensor"))`) stands for: what its conversion would
  /// in C++ (lib/engine/LanguageBridge.h asks); null when nothing is known.
  dataflow::BoolValue *truthOfOperand(const Expr &E,
                                      dataflow::Environment &Env);

  /// A pointer joined from tracked tensors stands for each of them on the
  /// paths that brought it (lib/engine/ValueFacts.h, ValueChoices).
  void join(QualType, const dataflow::Value &V1,
            const dataflow::Environment &E1, const dataflow::Value &V2,
            const dataflow::Environment &E2, dataflow::Value &Joined,
            dataflow::Environment &JoinedEnv) override;

  /// The state before each statement the judgement looks at
  /// (ownership::isJudgedStatement), as of its last visit: the fixpoint's
  /// last visit sees the final state, so no diagnosis pass is needed.
  LastVisitStates Recorded;

private:
  ownership::RunContext &RC;
  /// Each site's Owed.
  DerivedGhosts Derived;
};

} // namespace clang::interop

#endif // INTEROP_LIB_OWNERSHIP_OWNERSHIPMODEL_H
