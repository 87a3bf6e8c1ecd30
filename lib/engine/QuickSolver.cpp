//===--- QuickSolver.cpp - small SAT queries without a CNF ----------------===//

#include "lib/engine/QuickSolver.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::interop {

using dataflow::Atom;
using dataflow::Formula;
using dataflow::Solver;

namespace {

/// Three-valued truth: what a formula is under a partial assignment.
enum class Tri : unsigned char { False, True, Unknown };

Tri lift(bool B) { return B ? Tri::True : Tri::False; }
Tri negate(Tri T) {
  return T == Tri::Unknown ? T : T == Tri::True ? Tri::False : Tri::True;
}

class Quick {
public:
  Quick(llvm::ArrayRef<const Formula *> Vals, QuickSolveBudget Budget)
      : Vals(Vals), Budget(Budget) {}

  /// True: satisfiable; false: unsatisfiable; nullopt: over budget.
  std::optional<bool> run(unsigned Depth) {
    std::optional<bool> Consistent = propagate();
    if (!Consistent || !*Consistent)
      return Consistent;
    // Decide an atom of the first formula not yet true, both ways.
    for (const Formula *F : Vals) {
      Tri T = eval(*F);
      if (OverBudget)
        return std::nullopt;
      if (T == Tri::True)
        continue;
      if (T == Tri::False)
        return false;
      if (Depth >= Budget.MaxDecisions)
        return std::nullopt;
      std::optional<Atom> A = unassignedAtom(*F);
      if (!A)
        return std::nullopt;
      for (bool Value : {true, false}) {
        size_t Mark = Trail.size();
        assign(*A, Value);
        std::optional<bool> R = run(Depth + 1);
        if (!R || *R)
          return R;
        undo(Mark);
      }
      return false;
    }
    return true;
  }

  Solver::Result model() const {
    llvm::DenseMap<Atom, Solver::Result::Assignment> Solution;
    for (const auto &[A, V] : Values)
      Solution[A] = V ? Solver::Result::Assignment::AssignedTrue
                      : Solver::Result::Assignment::AssignedFalse;
    // The rest may take any value: every formula is already true.
    llvm::DenseSet<const Formula *> Seen;
    for (const Formula *F : Vals)
      collectAtoms(*F, Solution, Seen);
    return Solver::Result::Satisfiable(std::move(Solution));
  }

private:
  /// Unit propagation to a fixpoint: false on a conflict.
  std::optional<bool> propagate() {
    do {
      Changed = false;
      for (const Formula *F : Vals)
        if (!force(*F, true))
          return OverBudget ? std::nullopt : std::optional<bool>(false);
      if (OverBudget)
        return std::nullopt;
    } while (Changed);
    return true;
  }

  bool visit() {
    if (++Visits > Budget.MaxVisits)
      OverBudget = true;
    return !OverBudget;
  }

  Tri eval(const Formula &F) {
    if (!visit())
      return Tri::Unknown;
    switch (F.kind()) {
    case Formula::AtomRef: {
      auto It = Values.find(F.getAtom());
      return It == Values.end() ? Tri::Unknown : lift(It->second);
    }
    case Formula::Literal:
      return lift(F.literal());
    case Formula::Not:
      return negate(eval(*F.operands()[0]));
    case Formula::And:
    case Formula::Or: {
      // The value that decides the connective on its own.
      Tri Decides = F.kind() == Formula::And ? Tri::False : Tri::True;
      Tri L = eval(*F.operands()[0]);
      if (L == Decides)
        return L;
      Tri R = eval(*F.operands()[1]);
      if (R == Decides)
        return R;
      return L == Tri::Unknown || R == Tri::Unknown ? Tri::Unknown
                                                    : negate(Decides);
    }
    case Formula::Implies: {
      Tri L = eval(*F.operands()[0]);
      if (L == Tri::False)
        return Tri::True;
      Tri R = eval(*F.operands()[1]);
      if (R == Tri::True)
        return Tri::True;
      return L == Tri::True && R == Tri::False ? Tri::False : Tri::Unknown;
    }
    case Formula::Equal: {
      Tri L = eval(*F.operands()[0]);
      Tri R = L == Tri::Unknown ? Tri::Unknown : eval(*F.operands()[1]);
      if (L == Tri::Unknown || R == Tri::Unknown)
        return Tri::Unknown;
      return lift(L == R);
    }
    }
    return Tri::Unknown;
  }

  void assign(Atom A, bool V) {
    Values[A] = V;
    Trail.push_back(A);
    Changed = true;
  }

  void undo(size_t Mark) {
    while (Trail.size() > Mark)
      Values.erase(Trail.pop_back_val());
  }

  /// Makes F have value V where that is forced; false on a conflict. What is
  /// not forced yet (an `or` with two open operands) is left for a later
  /// round of propagate().
  bool force(const Formula &F, bool V) {
    if (!visit())
      return false;
    switch (F.kind()) {
    case Formula::AtomRef: {
      auto It = Values.find(F.getAtom());
      if (It != Values.end())
        return It->second == V;
      assign(F.getAtom(), V);
      return true;
    }
    case Formula::Literal:
      return F.literal() == V;
    case Formula::Not:
      return force(*F.operands()[0], !V);
    case Formula::And:
    case Formula::Or: {
      const Formula &L = *F.operands()[0], &R = *F.operands()[1];
      // `and` true / `or` false: both operands are forced.
      bool Both = (F.kind() == Formula::And) == V;
      if (Both)
        return force(L, V) && force(R, V);
      return forceOneOf(L, V, R, V);
    }
    case Formula::Implies: {
      const Formula &L = *F.operands()[0], &R = *F.operands()[1];
      if (!V)
        return force(L, true) && force(R, false);
      return forceOneOf(L, false, R, true);
    }
    case Formula::Equal: {
      const Formula &L = *F.operands()[0], &R = *F.operands()[1];
      Tri EL = eval(L);
      if (EL != Tri::Unknown)
        return force(R, (EL == Tri::True) == V);
      Tri ER = eval(R);
      if (ER != Tri::Unknown)
        return force(L, (ER == Tri::True) == V);
      return !OverBudget;
    }
    }
    return false;
  }

  /// "L has value VL or R has value VR": forced once one side fails.
  bool forceOneOf(const Formula &L, bool VL, const Formula &R, bool VR) {
    Tri EL = eval(L);
    if (EL == lift(VL))
      return true;
    Tri ER = eval(R);
    if (ER == lift(VR))
      return true;
    if (EL != Tri::Unknown && ER != Tri::Unknown)
      return false;
    if (EL != Tri::Unknown)
      return force(R, VR);
    if (ER != Tri::Unknown)
      return force(L, VL);
    return !OverBudget;
  }

  /// An atom of F without a value (F is not yet decided, so one exists
  /// unless the budget ran out).
  std::optional<Atom> unassignedAtom(const Formula &F) {
    if (!visit())
      return std::nullopt;
    if (F.kind() == Formula::AtomRef)
      return Values.count(F.getAtom()) ? std::nullopt
                                       : std::optional<Atom>(F.getAtom());
    for (const Formula *Op : F.operands())
      if (eval(*Op) == Tri::Unknown)
        if (std::optional<Atom> A = unassignedAtom(*Op))
          return A;
    return std::nullopt;
  }

  static void
  collectAtoms(const Formula &F,
               llvm::DenseMap<Atom, Solver::Result::Assignment> &Out,
               llvm::DenseSet<const Formula *> &Seen) {
    // Formulas share operands: visit each node once.
    if (!Seen.insert(&F).second)
      return;
    if (F.kind() == Formula::AtomRef) {
      Out.try_emplace(F.getAtom(), Solver::Result::Assignment::AssignedFalse);
      return;
    }
    for (const Formula *Op : F.operands())
      collectAtoms(*Op, Out, Seen);
  }

  llvm::ArrayRef<const Formula *> Vals;
  QuickSolveBudget Budget;
  llvm::DenseMap<Atom, bool> Values;
  llvm::SmallVector<Atom, 32> Trail;
  unsigned Visits = 0;
  bool Changed = false;
  bool OverBudget = false;
};

} // namespace

std::optional<Solver::Result> quickSolve(llvm::ArrayRef<const Formula *> Vals,
                                         QuickSolveBudget Budget) {
  Quick Q(Vals, Budget);
  std::optional<bool> Sat = Q.run(0);
  if (!Sat)
    return std::nullopt;
  return *Sat ? Q.model() : Solver::Result::Unsatisfiable();
}

} // namespace clang::interop
