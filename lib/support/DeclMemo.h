//===--- DeclMemo.h - one answer per declaration of a TU ---------*- C++
//-*-===//
//
// A question asked of a declaration's body (a callee's contract, the stores
// into a function's locals) is answered once per translation unit. The
// answers point into one AST, so they are all forgotten together: by
// forgetDeclMemos(), which the fact cache's reset calls between
// translation units (lib/engine/FactCache.h), and whenever a declaration of
// another AST is asked about (a new AST may be allocated where the last one
// was).
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_SUPPORT_DECLMEMO_H
#define INTEROP_LIB_SUPPORT_DECLMEMO_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclBase.h"
#include "llvm/ADT/DenseMap.h"

namespace clang::interop {

/// Changes at every forgetDeclMemos().
unsigned declMemoGeneration();
/// Forgets the answers of every DeclMemo.
void forgetDeclMemos();

/// One answer per declaration of the current translation unit.
template <typename T> class DeclMemo {
public:
  /// The answer for D, computed by Compute() on first use.
  template <typename Fn> const T &get(const Decl *D, Fn Compute) const {
    const ASTContext *Ctx = &D->getASTContext();
    if (Generation != declMemoGeneration() || Owner != Ctx) {
      Map.clear();
      Generation = declMemoGeneration();
      Owner = Ctx;
    }
    auto [It, New] = Map.try_emplace(D);
    if (New)
      It->second = Compute();
    return It->second;
  }

private:
  mutable llvm::DenseMap<const Decl *, T> Map;
  mutable unsigned Generation = 0;
  mutable const ASTContext *Owner = nullptr;
};

} // namespace clang::interop

#endif // INTEROP_LIB_SUPPORT_DECLMEMO_H
