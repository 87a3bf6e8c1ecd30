//===--- ArrayDeviceSwitches.h - what a case arm knows ----------*- C++ -*-===//
//
// clang's dataflow framework adds a branch condition to the flow condition
// for `if`, loops, `&&`, `||` and `?:`, but a `switch` edge carries nothing.
// For a switch over a value that encodes a fact (num_devices(), platform(),
// memory_kind(), Sharding::kind(): ArrayDeviceState.h's linked values), this
// gives each case arm what it was entered with:
//
//   switch (a.num_devices()) { case 1: ... }        // single(a)
//   switch (a.platform()) { case Platform::kTpu: }  // tpu(a)
//   default: (with case 1: listed)                  // !single(a)
//
// An arm entered through grouped labels (`case kCpu: case kCuda:`) knows
// the disjunction of theirs; an arm also entered by falling through from a
// statement of another arm (or by a goto) knows nothing, nor does an arm
// without a statement of its own (`case 1: break;`), since the fact is
// assumed at the arm's first CFG element. A loop inside the arm keeps the
// fact: the arm's entry dominates its back edges (CFGDomTree, built once per
// function with a switch). Bound: grouped labels are followed 64 deep.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICESWITCHES_H
#define INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICESWITCHES_H

#include "lib/arraydevice/ArrayDeviceState.h"

#include "clang/AST/Stmt.h"
#include "clang/Analysis/CFG.h"
#include "clang/Analysis/FlowSensitive/AdornedCFG.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::interop::arraydevice {

/// The switches of one function and the arms their labels enter.
class SwitchArms {
public:
  /// Collects the switches of CFG (none when it has no switch).
  void collect(const CFG &G);
  bool empty() const { return Arms.empty(); }

  /// Called before the transfer of every element: at the first element of
  /// an arm, assumes what its labels prove.
  void enterArm(const CFGElement &Elt, State &S);
  /// Called after the transfer of every element: remembers the value of a
  /// switch condition.
  void noteCondition(const CFGElement &Elt, State &S);

private:
  struct Arm {
    const SwitchStmt *Switch;
    /// The labels that enter the arm directly or through empty grouped
    /// labels.
    llvm::SmallVector<const SwitchCase *, 2> Labels;
  };
  /// First element of each arm -> the arm.
  llvm::DenseMap<const CFGElement *, Arm> Arms;
  /// Switch condition -> its switch.
  llvm::DenseMap<const Stmt *, const SwitchStmt *> Conditions;
  /// The value of each switch's condition, as of its last transfer.
  llvm::DenseMap<const SwitchStmt *, const Value *> Values;
};

} // namespace clang::interop::arraydevice

#endif // INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICESWITCHES_H
