//===--- DerivedGhosts.h - ghost booleans kept whole through loops -*- C++ -*-//
//
// A family keeps its facts in ghost booleans and judges some of them
// together: a tensor leaks where it is live and neither NULL nor given to a
// capsule that failed. Through a loop the framework widens each ghost on
// its own: a ghost whose value differs between iterations becomes unknown,
// and how the ghosts related is lost. A tensor made and handed to a capsule
// in every iteration is live exactly where its capsule failed; widened
// apart, "live and the capsule did not fail" becomes possible after the
// loop. A derived ghost holds the judged combination itself, recomputed
// by a transfer that sets one of its parts and otherwise joined and
// widened as one value: false on every back edge, it stays false.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_ENGINE_DERIVEDGHOSTS_H
#define INTEROP_LIB_ENGINE_DERIVEDGHOSTS_H

#include "clang/Analysis/FlowSensitive/DataflowEnvironment.h"
#include "clang/Analysis/FlowSensitive/StorageLocation.h"
#include "clang/Analysis/FlowSensitive/Value.h"
#include "llvm/ADT/SmallVector.h"

#include <vector>

namespace clang::interop {

/// Sets the ghost boolean at L to V (on every path from here).
void setGhost(dataflow::Environment &Env, dataflow::StorageLocation *L, bool V);
void setGhost(dataflow::Environment &Env, dataflow::StorageLocation *L,
              dataflow::BoolValue &V);
/// Sets the ghost at L to F (or V) where When holds (every path when When is
/// null) and leaves it as it was elsewhere: an event on the paths where a
/// joined pointer stands for the ghost's tensor.
void setGhostWhen(dataflow::Environment &Env, dataflow::StorageLocation *L,
                  const dataflow::Formula &F, const dataflow::Formula *When);
void setGhostWhen(dataflow::Environment &Env, dataflow::StorageLocation *L,
                  bool V, const dataflow::Formula *When);

/// Ghost booleans each defined as the conjunction of some ghosts and the
/// negations of others. Use: snapshot() before a transfer, update() after
/// it.
class DerivedGhosts {
public:
  /// Target holds All and not any of None, from now on.
  void add(dataflow::StorageLocation &Target,
           llvm::ArrayRef<dataflow::StorageLocation *> All,
           llvm::ArrayRef<dataflow::StorageLocation *> None);

  /// The parts' values in Env, in the order update() expects.
  using Snapshot = llvm::SmallVector<const dataflow::Value *, 16>;
  Snapshot snapshot(const dataflow::Environment &Env) const;

  /// Recomputes each derived ghost one of whose parts Env now holds a
  /// different value from Before (a transfer set it). A part with no value
  /// yet leaves its ghost unset.
  void update(const Snapshot &Before, dataflow::Environment &Env) const;

private:
  struct Def {
    dataflow::StorageLocation *Target;
    llvm::SmallVector<dataflow::StorageLocation *, 2> All, None;
  };
  std::vector<Def> Defs;
};

} // namespace clang::interop

#endif // INTEROP_LIB_ENGINE_DERIVEDGHOSTS_H
