//===--- LocalValues.cpp - values through variables, for every family -----===//

#include "lib/engine/LocalValues.h"

#include "lib/support/AstHelpers.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace clang::interop {

namespace {

/// A chain of locals each assigned the next is rare beyond two links; the
/// bound only keeps a pathological body cheap.
constexpr unsigned kMaxDepth = 6;

class Collector {
public:
  Collector(const ASTContext &Ctx, unsigned Max) : Ctx(Ctx), Max(Max) {}

  bool collect(const Expr *E, unsigned Depth) {
    if (!E || Depth > kMaxDepth || E->isValueDependent())
      return false;
    E = E->IgnoreParenImpCasts();
    // A variable first, even a constant one: its initialiser names the
    // enumerator (`const MemoryKind want = MemoryKind::kPinnedHost;`) that
    // a family may compare by identity rather than by value.
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl())) {
        size_t Before = Out.size();
        if (variable(*VD, Depth))
          return true;
        Out.resize(Before);
      }
    if (integerConstant(E, Ctx)) {
      Out.push_back(E);
      return Out.size() <= Max;
    }
    if (const auto *CO = dyn_cast<ConditionalOperator>(E))
      return collect(CO->getTrueExpr(), Depth + 1) &&
             collect(CO->getFalseExpr(), Depth + 1);
    // static_cast<int>(kind): the value of the operand, when both sides are
    // integers or enumerations (the values compared are small enumerators).
    if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E))
      return Cast->getType()->isIntegralOrEnumerationType() &&
             Cast->getSubExpr()->getType()->isIntegralOrEnumerationType() &&
             collect(Cast->getSubExpr(), Depth + 1);
    return false;
  }

  /// The values VD can hold: a constant's initialiser, or every value
  /// stored into a local nothing else can change.
  bool variable(const VarDecl &VD, unsigned Depth) {
    if (isa<ParmVarDecl>(VD) || VD.getType()->isReferenceType() ||
        !VD.getType()->isIntegralOrEnumerationType())
      return false;
    if (!VD.hasLocalStorage()) {
      const Expr *Init = VD.getAnyInitializer();
      return Init && VD.getType().isConstQualified() &&
             collect(Init, Depth + 1);
    }
    const auto *FD = dyn_cast_or_null<FunctionDecl>(
        VD.getParentFunctionOrMethod(/*LexicalParent=*/true));
    const LocalStores::Stores *S = FD ? localStoresOf(*FD).of(&VD) : nullptr;
    if (!S || S->Opaque || !S->Partial.empty() || S->Whole.empty() ||
        !Seen.insert(&VD).second)
      return false;
    // Seen holds the locals being expanded: `k = j; j = k;` stops, a local
    // named twice (`f ? want : want`) does not.
    bool All = llvm::all_of(
        S->Whole, [&](const Expr *W) { return collect(W, Depth + 1); });
    Seen.erase(&VD);
    return All;
  }

  llvm::SmallVector<const Expr *, 4> Out;

private:
  const ASTContext &Ctx;
  unsigned Max;
  llvm::SmallPtrSet<const VarDecl *, 4> Seen;
};

} // namespace

std::optional<llvm::SmallVector<const Expr *, 4>>
constantChoices(const Expr *E, const ASTContext &Ctx, unsigned MaxChoices) {
  Collector C(Ctx, MaxChoices);
  if (!C.collect(E, 0))
    return std::nullopt;
  return std::move(C.Out);
}

std::optional<llvm::SmallVector<llvm::APSInt, 4>>
integerChoices(const Expr *E, const ASTContext &Ctx, unsigned MaxChoices) {
  std::optional<llvm::SmallVector<const Expr *, 4>> Leaves =
      constantChoices(E, Ctx, MaxChoices);
  if (!Leaves)
    return std::nullopt;
  llvm::SmallVector<llvm::APSInt, 4> Values;
  for (const Expr *Leaf : *Leaves) {
    std::optional<llvm::APSInt> K = integerConstant(Leaf, Ctx);
    if (!K)
      return std::nullopt;
    if (llvm::none_of(Values, [&](const llvm::APSInt &V) {
          return llvm::APSInt::isSameValue(V, *K);
        }))
      Values.push_back(*K);
  }
  llvm::sort(Values, [](const llvm::APSInt &A, const llvm::APSInt &B) {
    return llvm::APSInt::compareValues(A, B) < 0;
  });
  return Values;
}

} // namespace clang::interop
