//===--- LocalStores.h - what a body stores into its locals ------*- C++ -*-===//
//
// Values through variables, syntactically and once: for each local variable
// of a function body, every expression stored into it (its initialiser,
// `v = e`, `v op= e`, and element writes `v[i] = e`, `v.at(i) = e`,
// `*(v + i) = e`) and whether it also changes in a way no expression says
// (`++v`, its address taken). A name chosen in both arms of an if, a count
// multiplied up from a tensor's shape, an array filled from it element by
// element: every reader of "what can this local hold" asks here.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_SUPPORT_LOCALSTORES_H
#define INTEROP_LIB_SUPPORT_LOCALSTORES_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::interop {

class LocalStores {
public:
  /// What is stored into one local.
  struct Stores {
    /// The initialiser and the right-hand sides of plain assignments to the
    /// whole variable, in source order.
    llvm::SmallVector<const Expr *, 2> Whole;
    /// Right-hand sides of compound assignments (`n *= e`) and of writes to
    /// an element (`v[i] = e`).
    llvm::SmallVector<const Expr *, 2> Partial;
    /// The variable also changes in a way none of the above says: `++v`,
    /// `v--`, `&v`, or, for a scalar, a non-const reference bound to it (an
    /// argument for an `int &` parameter, `int &r = v;`).
    bool Opaque = false;
  };

  /// Scans Body once (lambdas in it included: a capture by reference may
  /// store into a local).
  explicit LocalStores(const Stmt *Body);

  /// The stores into VD, a local variable of the body; null when the body
  /// stores nothing into it and it has no initialiser.
  const Stores *of(const VarDecl *VD) const;

  /// The one value VD ever holds: the only expression stored into it as a
  /// whole, when nothing else changes it (an alias: `PyObject *c =
  /// caps.ptr();`, `T *out = owner.get();`); null otherwise.
  const Expr *onlyValue(const VarDecl *VD) const;

  /// The local whose one value (onlyValue) is E, through parentheses,
  /// implicit casts and cleanups: what holds the object E makes
  /// (`std::shared_ptr<void> p{t->data, del};` holds the construction);
  /// null when none does. With ThroughCasts, explicit casts too (`auto *mt
  /// = (DLManagedTensor *)PyCapsule_GetPointer(...)` holds the call).
  const VarDecl *holderOf(const Expr *E, bool ThroughCasts = false) const;

  /// E followed through the locals that only ever hold one value
  /// (onlyValue), at most four: `p` after `float *p = v.data();` is
  /// `v.data()`. Each local is named through parentheses, temporaries and
  /// identity casts; with ThroughCasts, through every explicit cast too.
  /// E itself when it names no such local.
  const Expr *valueOf(const Expr *E, bool ThroughCasts = false) const;

  /// The local variable E names as a whole (through parentheses and
  /// implicit casts), or null.
  static const VarDecl *localNamed(const Expr *E);

  /// The local variable whose element or whole E designates as the target
  /// of a write (`v`, `v[i]`, `v.at(i)`, `*(v + i)`), and whether it is an
  /// element.
  static const VarDecl *writeTarget(const Expr *E, bool &Element);

private:
  llvm::DenseMap<const VarDecl *, Stores> Map;
};

/// The stores into the locals of FD's body, scanned on first use and kept
/// until the next translation unit (DeclMemo): every reader of a function
/// shares one scan.
const LocalStores &localStoresOf(const FunctionDecl &FD);

} // namespace clang::interop

#endif // INTEROP_LIB_SUPPORT_LOCALSTORES_H
