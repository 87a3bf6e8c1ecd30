//===--- StmtSwitch.h - one dispatcher for transfers ------------*- C++ -*-===//
//
// Every family's transfer function is a table of cases, in the shape of
// clang's CFGMatchSwitch: ordered cases, each a node type, a predicate and a
// named transfer function; the first case whose node type and predicate
// apply runs, and no other. Plain C++ predicates instead of AST matchers:
// CFGMatchSwitch builds a MatchFinder for every statement it looks at, which
// cost more than a whole model. Which cases can apply to a statement class is
// worked out the first time a statement of that class is seen, so a
// statement no case is about costs one table lookup.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_ENGINE_STMTSWITCH_H
#define INTEROP_LIB_ENGINE_STMTSWITCH_H

#include "clang/AST/Stmt.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Casting.h"

#include <array>
#include <cstdint>
#include <vector>

namespace clang::interop {

/// A table of transfer functions over statements, for a state type StateT
/// (what the transfer functions read and change). Build it once, case by
/// case, and call it for every statement; all it learns afterwards is which
/// cases can apply to each statement class.
template <typename StateT> class StmtSwitch {
public:
  /// Adds a case for statements of type NodeT: when Applies(node, state)
  /// (or always, when Applies is null), Transfer(node, state) runs and the
  /// switch stops. Cases are tried in the order they were added.
  template <typename NodeT>
  StmtSwitch &caseOf(bool (*Applies)(const NodeT &, StateT &),
                     void (*Transfer)(const NodeT *, StateT &)) {
    Cases.push_back({&isA<NodeT>, &test<NodeT>, &run<NodeT>,
                     reinterpret_cast<void (*)()>(Applies),
                     reinterpret_cast<void (*)()>(Transfer), false});
    return *this;
  }
  /// A case that applies to every statement of type NodeT.
  template <typename NodeT>
  StmtSwitch &caseOf(void (*Transfer)(const NodeT *, StateT &)) {
    return caseOf<NodeT>(nullptr, Transfer);
  }

  /// A case that, when Applies(node, state), runs Transfer(node, state) and
  /// lets the switch go on to the later cases: what the engine learns from
  /// a statement whatever the family also does with it (a call that returns
  /// only on a condition is still the family's call).
  template <typename NodeT>
  StmtSwitch &alsoOf(bool (*Applies)(const NodeT &, StateT &),
                     void (*Transfer)(const NodeT *, StateT &)) {
    caseOf<NodeT>(Applies, Transfer);
    Cases.back().GoesOn = true;
    return *this;
  }

  /// True when a case applies to S: what operator() would run something
  /// for, without running it. The table is its own gate, so no hand-kept
  /// list of "statements that may matter" can drift from it.
  bool applies(const Stmt &S, StateT &State) const {
    for (unsigned I : casesFor(S))
      if (Cases[I].Test(Cases[I], S, State))
        return true;
    return false;
  }

  /// Runs the first case that applies to S (and the alsoOf cases before
  /// it that apply); false when none does.
  bool operator()(const Stmt &S, StateT &State) const {
    bool Ran = false;
    for (unsigned I : casesFor(S))
      if (Cases[I].Run(Cases[I], S, State)) {
        if (!Cases[I].GoesOn)
          return true;
        Ran = true;
      }
    return Ran;
  }

private:
  /// One case. The predicate and the transfer function are kept as plain
  /// function pointers and cast back to their own type by Run, which knows
  /// NodeT.
  struct Case {
    bool (*IsA)(const Stmt &);
    bool (*Test)(const Case &, const Stmt &, StateT &);
    bool (*Run)(const Case &, const Stmt &, StateT &);
    void (*Applies)();
    void (*Transfer)();
    /// An alsoOf case: the switch goes on after it.
    bool GoesOn = false;
  };

  template <typename NodeT> static bool isA(const Stmt &S) {
    return llvm::isa<NodeT>(S);
  }
  template <typename NodeT>
  static bool test(const Case &C, const Stmt &S, StateT &State) {
    auto *Applies =
        reinterpret_cast<bool (*)(const NodeT &, StateT &)>(C.Applies);
    return !Applies || Applies(llvm::cast<NodeT>(S), State);
  }
  template <typename NodeT>
  static bool run(const Case &C, const Stmt &S, StateT &State) {
    if (!test<NodeT>(C, S, State))
      return false;
    reinterpret_cast<void (*)(const NodeT *, StateT &)>(C.Transfer)(
        &llvm::cast<NodeT>(S), State);
    return true;
  }

  /// The indices of the cases whose node type S is, in order: whether a
  /// statement is a NodeT depends on its class alone.
  const llvm::SmallVector<unsigned, 4> &casesFor(const Stmt &S) const {
    unsigned Class = S.getStmtClass();
    if (!Known[Class]) {
      for (unsigned I = 0; I < Cases.size(); ++I)
        if (Cases[I].IsA(S))
          ByClass[Class].push_back(I);
      Known[Class] = true;
    }
    return ByClass[Class];
  }

  static constexpr unsigned NumClasses = Stmt::lastStmtConstant + 1;
  std::vector<Case> Cases;
  mutable std::array<bool, NumClasses> Known{};
  mutable std::array<llvm::SmallVector<unsigned, 4>, NumClasses> ByClass;
};

} // namespace clang::interop

#endif // INTEROP_LIB_ENGINE_STMTSWITCH_H
