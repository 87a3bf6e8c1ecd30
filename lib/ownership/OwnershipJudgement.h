//===--- OwnershipJudgement.h - ownership events from states ----*- C++ -*-===//
//
// Turns the ownership model's states into events: the states recorded
// before each judged statement during the fixpoint (deleter calls, capsule
// calls, imports, dereferences of a capsule's pointer), and the state at
// each exit of the function (what is still owned, which capsule is not
// claimed after an ownership-taking import). Read-only: it asks the solver
// and never changes a state.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_OWNERSHIP_OWNERSHIPJUDGEMENT_H
#define INTEROP_LIB_OWNERSHIP_OWNERSHIPJUDGEMENT_H

#include "lib/engine/FlowRunner.h"
#include "lib/ownership/OwnershipEvents.h"
#include "lib/ownership/OwnershipSites.h"

#include "clang/Analysis/CFG.h"
#include "clang/Analysis/FlowSensitive/DataflowEnvironment.h"

#include <vector>

namespace clang::interop::ownership {

/// The statements judged in the state just before them: calls and
/// dereferences of a tracked pointer.
bool isJudgedStatement(const Stmt *St);

/// The events at every recorded statement, in its recorded state.
std::vector<OwnershipEvent> judgeStatements(RunContext &RC,
                                            const LastVisitStates &Recorded,
                                            ASTContext &Ctx);

/// The events at one exit: B leaves the function in State.
void judgeExit(const RunContext &RC, const FunctionDecl &FD, const CFGBlock &B,
               const dataflow::Environment &State,
               std::vector<OwnershipEvent> &Out);

} // namespace clang::interop::ownership

#endif // INTEROP_LIB_OWNERSHIP_OWNERSHIPJUDGEMENT_H
