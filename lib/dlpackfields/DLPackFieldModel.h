//===--- DLPackFieldModel.h - what is proven of DLPack fields ---*- C++ -*-===//
//
// A dataflow model (clang's framework, run through lib/engine/FlowRunner.h)
// of what a function has checked about the DLTensors and managed tensors it
// receives:
//
//   - whether `strides` is NULL               (a "null" atom on the pointer)
//   - whether `byte_offset` is zero           (a "zero" atom on the integer)
//   - whether `byte_offset` was added to a pointer derived from `data`
//   - whether the device type is host-accessible, or one given type
//   - whether `version.major` was checked, and whether only inside assert
//   - whether the READ_ONLY flag is set
//
// Each fact is a boolean formula attached as a property to the value read
// from the field (DLPackFieldValues.h), so a check stored in a local `bool`,
// `&&`/`||`, early returns, and values copied into locals (`int64_t *s =
// t->strides;`) are understood. Values the function wrote itself (a
// producer filling in its own tensor) are marked local and never reported.
// The transfer functions are named, one per statement kind, in one table
// (lib/engine/StmtSwitch.h); states are recorded during the fixpoint and
// judged into events at its end (DLPackEventCollector.h).
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_DLPACKFIELDS_DLPACKFIELDMODEL_H
#define INTEROP_LIB_DLPACKFIELDS_DLPACKFIELDMODEL_H

#include "lib/dlpackfields/DLPackEventCollector.h"
#include "lib/dlpackfields/DLPackFieldEvents.h"
#include "lib/dlpackfields/DLPackFieldValues.h"
#include "lib/engine/FlowRunner.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Analysis/FlowSensitive/DataflowAnalysis.h"
#include "clang/Analysis/FlowSensitive/NoopLattice.h"

#include <memory>
#include <vector>

namespace clang::interop {

/// The side tables and the judge of one function's run.
struct DLPackFieldRun {
  DLPackFieldRun(const FunctionDecl &FD, const DLPackFieldConfig &Config,
                 const DLPackFieldCompiled &Compiled);
  dlpackfield::RunContext RC;
  /// Made with the analysis (it keeps RC's address).
  std::unique_ptr<DLPackEventCollector> Collector;
};

class DLPackFieldModel
    : public dataflow::DataflowAnalysis<DLPackFieldModel,
                                        dataflow::NoopLattice> {
public:
  /// Also finds the run's accessor parameters and makes its collector.
  DLPackFieldModel(ASTContext &Ctx, dataflow::Environment &Env,
                   DLPackFieldRun &Run);

  static dataflow::NoopLattice initialElement() { return {}; }

  void transfer(const CFGElement &Elt, dataflow::NoopLattice &L,
                dataflow::Environment &Env);

  /// What an operand C tests for truth with no bool conversion (`if (p)`,
  /// `!t->byte_offset`) stands for: what its conversion would in C++
  /// (lib/engine/LanguageBridge.h asks); null when it is not tracked.
  dataflow::BoolValue *truthOfOperand(const Expr &E,
                                      dataflow::Environment &Env);

  /// What entering a case arm through Label proves of a switch over a
  /// device type or a version's major (lib/engine/SwitchArms.h decides
  /// which labels enter where); null when V is neither.
  const dataflow::Formula *caseFormula(const SwitchStmt &Sw,
                                       const SwitchCase *Label,
                                       dataflow::Value &V,
                                       dataflow::Environment &Env);

  /// Keeps the model's facts on values joined at merge points (a pointer
  /// reassigned on one branch and copied on the other).
  void join(QualType, const dataflow::Value &V1,
            const dataflow::Environment &E1, const dataflow::Value &V2,
            const dataflow::Environment &E2, dataflow::Value &Joined,
            dataflow::Environment &JoinedEnv) override;

  /// The events of every recorded statement, judged in its recorded state.
  /// Called after the fixpoint (the side tables the judgement reads, such as
  /// which subscripts only take an address, are complete only then).
  std::vector<DLPackEvent> judgeRecorded();

private:
  dlpackfield::RunContext &RC;
  /// The state after each statement that may have events, on its last
  /// visit: the fixpoint's last visit of a block sees its final state, so
  /// judging these after the fixpoint finds what a diagnosis pass would,
  /// without that pass re-transferring every block.
  LastVisitStates Recorded;
};

} // namespace clang::interop

#endif // INTEROP_LIB_DLPACKFIELDS_DLPACKFIELDMODEL_H
