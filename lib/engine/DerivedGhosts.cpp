//===--- DerivedGhosts.cpp - ghost booleans kept whole through loops ------===//

#include "lib/engine/DerivedGhosts.h"

#include "clang/Analysis/FlowSensitive/Arena.h"

namespace clang::interop {

using namespace clang::dataflow;

void DerivedGhosts::add(StorageLocation &Target,
                        llvm::ArrayRef<StorageLocation *> All,
                        llvm::ArrayRef<StorageLocation *> None) {
  Defs.push_back({&Target, {All.begin(), All.end()},
                  {None.begin(), None.end()}});
}

DerivedGhosts::Snapshot
DerivedGhosts::snapshot(const Environment &Env) const {
  Snapshot Out;
  for (const Def &D : Defs) {
    for (StorageLocation *L : D.All)
      Out.push_back(Env.getValue(*L));
    for (StorageLocation *L : D.None)
      Out.push_back(Env.getValue(*L));
  }
  return Out;
}

void DerivedGhosts::update(const Snapshot &Before, Environment &Env) const {
  Arena &A = Env.arena();
  unsigned I = 0;
  for (const Def &D : Defs) {
    bool Changed = false, Missing = false;
    const Formula *F = &A.makeLiteral(true);
    auto Part = [&](StorageLocation *L, bool Negated) {
      auto *V = Env.get<BoolValue>(*L);
      Changed |= I >= Before.size() || Before[I] != V;
      ++I;
      if (!V) {
        Missing = true;
        return;
      }
      F = &A.makeAnd(*F, Negated ? A.makeNot(V->formula()) : V->formula());
    };
    for (StorageLocation *L : D.All)
      Part(L, false);
    for (StorageLocation *L : D.None)
      Part(L, true);
    if (Changed && !Missing)
      Env.setValue(*D.Target, A.makeBoolValue(*F));
  }
}

} // namespace clang::interop
