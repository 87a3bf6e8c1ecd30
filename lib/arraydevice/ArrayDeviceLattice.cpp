//===--- ArrayDeviceLattice.cpp - provenance and accessors ----------------===//

#include "lib/arraydevice/ArrayDeviceLattice.h"

namespace clang::interop {

using namespace dataflow;

Origin strongerOrigin(const Origin &A, const Origin &B) {
  if (A.K != B.K)
    return A.K > B.K ? A : B;
  if (!A.Site || !B.Site)
    return A.Site ? A : B;
  return A.Site->getBeginLoc().getRawEncoding() <=
                 B.Site->getBeginLoc().getRawEncoding()
             ? A
             : B;
}

LatticeEffect ArrayDeviceLattice::join(const ArrayDeviceLattice &O) {
  LatticeEffect Effect = LatticeEffect::Unchanged;
  for (const auto &[Loc, Org] : O.Origins) {
    auto [It, Inserted] = Origins.try_emplace(Loc, Org);
    if (Inserted) {
      Effect = LatticeEffect::Changed;
      continue;
    }
    Origin Joined = strongerOrigin(It->second, Org);
    if (Joined != It->second) {
      It->second = Joined;
      Effect = LatticeEffect::Changed;
    }
  }
  // Keep a cached accessor only where both sides agree on it.
  for (auto It = Accessors.begin(); It != Accessors.end();) {
    auto Other = O.Accessors.find(It->first);
    if (Other == O.Accessors.end() || Other->second != It->second) {
      Accessors.erase(It++);
      Effect = LatticeEffect::Changed;
    } else {
      ++It;
    }
  }
  return Effect;
}

void ArrayDeviceLattice::forgetAccessors(const StorageLocation &Obj) {
  for (auto It = Accessors.begin(); It != Accessors.end();) {
    if (std::get<0>(It->first) == &Obj)
      Accessors.erase(It++);
    else
      ++It;
  }
}

} // namespace clang::interop
