//===--- SwitchArms.h - what a case arm knows, for every family -*- C++ -*-===//
//
// clang's dataflow framework adds a branch condition to the flow condition
// for `if`, loops, `&&`, `||` and `?:`, but a `switch` edge carries nothing.
// This gives each case arm what its labels prove, for every family, inside
// the flow (FlowRunner wraps each family's analysis with it):
//
//   switch (a.num_devices()) { case 1: ... }         // single(a)
//   switch (t->device.device_type) { case kDLCPU: }  // host memory
//   default: (with case 1: listed)                   // !single(a)
//
// What one label proves of the condition's value is the family's answer
// (its `caseFormula` hook: a device count, a platform, a DLPack device type
// or version); the engine decides where an arm starts and which labels
// enter it:
//   - an arm entered through grouped labels (`case kCpu: case kCuda:`)
//     knows the disjunction of theirs; an arm also entered by falling
//     through from another arm's statement (or by a goto) knows nothing;
//   - where arms meet again and one of them has no statement of its own
//     (`case kDLCPU: break;`) or the switch has no `default:`, the first
//     element after them knows the disjunction of every arm that leads
//     there: the framework's join keeps what each arm with a statement
//     assumed, but an empty arm had no element to assume it at;
//   - a loop inside the arm keeps the fact: the arm's entry dominates its
//     back edges (CFGDomTree, built once per function with a switch).
//
// A switch over a local that only ever holds constants (`int kind;` set in
// each arm of an earlier switch, then switched on) needs no family: `case
// K:` is entered only on a path through one of the stores of K, so it knows
// the disjunction of the flow conditions those stores were reached under
// (the earlier switch's arm, an if's branch). Values through variables, in
// the flow.
//
// Bound: grouped labels are followed 64 deep.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_ENGINE_SWITCHARMS_H
#define INTEROP_LIB_ENGINE_SWITCHARMS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "clang/Analysis/Analyses/Dominators.h"
#include "clang/Analysis/CFG.h"
#include "clang/Analysis/FlowSensitive/DataflowEnvironment.h"
#include "llvm/ADT/APSInt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

namespace clang::interop {

/// A family's answer to "what does entering through Label prove of the
/// switch condition's value V": a formula, the literal true when the label
/// proves nothing, or null when the family tracks nothing of V (the engine
/// then offers the value under the next implicit cast). Label is null for
/// the implicit default of a switch without `default:`.
using CaseFormulaFn = llvm::function_ref<const dataflow::Formula *(
    const SwitchStmt &Sw, const SwitchCase *Label, dataflow::Value &V,
    dataflow::Environment &Env)>;

/// The switches of one function and the arms their labels enter.
class SwitchArms {
public:
  /// Collects the switches of G, FD's CFG (none when it has no switch).
  void collect(const CFG &G, const FunctionDecl &FD, const ASTContext &Ctx);
  bool empty() const { return Entries.empty(); }

  /// Called before the transfer of every element: at the first element of
  /// an arm (or where arms meet), assumes what its labels prove.
  void enter(const CFGElement &Elt, dataflow::Environment &Env,
             CaseFormulaFn Family);
  /// Called after the transfer of every element: remembers the value of a
  /// switch condition, and the flow condition a store of a constant into a
  /// switched-on local was reached under.
  void note(const CFGElement &Elt, dataflow::Environment &Env);

private:
  struct Entry {
    const SwitchStmt *Switch;
    /// The labels through which control reaches the element; null stands
    /// for the implicit default.
    llvm::SmallVector<const SwitchCase *, 2> Labels;
  };
  /// A switch over a local that only ever holds constants: each store and
  /// its constant.
  struct ConstantLocal {
    llvm::SmallVector<std::pair<const Stmt *, llvm::APSInt>, 4> Stores;
  };

  void collectSwitch(const CFG &G, const CFGBlock &T, const SwitchStmt &Sw,
                     std::unique_ptr<CFGDomTree> &Dom);
  void collectConstantLocal(const CFG &G, const SwitchStmt &Sw,
                            const FunctionDecl &FD, const ASTContext &Ctx);
  /// What entering Sw through Label proves; null when nothing.
  const dataflow::Formula *labelFormula(const SwitchStmt &Sw,
                                        const SwitchCase *Label,
                                        dataflow::Environment &Env,
                                        CaseFormulaFn Family);

  /// First element of each arm (or meeting point) -> what enters it.
  llvm::DenseMap<const CFGElement *, llvm::SmallVector<Entry, 1>> Entries;
  /// Switch condition -> its switch.
  llvm::DenseMap<const Stmt *, const SwitchStmt *> Conditions;
  /// The values of each switch's condition (outermost implicit cast
  /// first), as of its last transfer.
  llvm::DenseMap<const SwitchStmt *, llvm::SmallVector<dataflow::Value *, 2>>
      Values;
  llvm::DenseMap<const SwitchStmt *, ConstantLocal> ConstantLocals;
  /// Store statement of a switched-on local -> the flow condition token of
  /// its last transfer.
  llvm::DenseMap<const Stmt *, std::optional<dataflow::Atom>> StoreConditions;
  const ASTContext *Ctx = nullptr;
};

/// Whether a family's analysis answers caseFormula.
template <typename AnalysisT, typename = void>
struct HasCaseFormula : std::false_type {};
template <typename AnalysisT>
struct HasCaseFormula<
    AnalysisT,
    std::void_t<decltype(std::declval<AnalysisT &>().caseFormula(
        std::declval<const SwitchStmt &>(), std::declval<const SwitchCase *>(),
        std::declval<dataflow::Value &>(),
        std::declval<dataflow::Environment &>()))>> : std::true_type {};

} // namespace clang::interop

#endif // INTEROP_LIB_ENGINE_SWITCHARMS_H
