//===--- DerivedGhosts.cpp - ghost booleans kept whole through loops ------===//

#include "lib/engine/DerivedGhosts.h"

#include "clang/Analysis/FlowSensitive/Arena.h"

namespace clang::interop {

using namespace clang::dataflow;

void setGhost(Environment &Env, StorageLocation *L, bool V) {
  Env.setValue(*L, Env.getBoolLiteralValue(V));
}
void setGhost(Environment &Env, StorageLocation *L, BoolValue &V) {
  Env.setValue(*L, V);
}
void setGhostWhen(Environment &Env, StorageLocation *L, const Formula &F,
                  const Formula *When) {
  Arena &A = Env.arena();
  if (!When) {
    setGhost(Env, L, A.makeBoolValue(F));
    return;
  }
  auto *Old = Env.get<BoolValue>(*L);
  if (!Old)
    return;
  setGhost(
      Env, L,
      A.makeBoolValue(A.makeOr(A.makeAnd(*When, F),
                               A.makeAnd(A.makeNot(*When), Old->formula()))));
}
void setGhostWhen(Environment &Env, StorageLocation *L, bool V,
                  const Formula *When) {
  Arena &A = Env.arena();
  setGhostWhen(Env, L, V ? A.makeLiteral(true) : A.makeLiteral(false), When);
}

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
