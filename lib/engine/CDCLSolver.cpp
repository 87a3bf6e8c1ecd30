//===--- CDCLSolver.cpp - conflict-driven clause learning -----------------===//

#include "lib/engine/CDCLSolver.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <queue>
#include <utility>
#include <vector>

namespace clang::interop {

using dataflow::Atom;
using dataflow::Formula;

namespace {

/// A literal: variable V true is 2V, V false is 2V + 1.
using Lit = unsigned;
Lit lit(unsigned Var, bool Negated) { return 2 * Var + (Negated ? 1 : 0); }
unsigned var(Lit L) { return L >> 1; }
Lit neg(Lit L) { return L ^ 1; }

/// The Luby sequence 1 1 2 1 1 2 4 1 1 2 ..., I from 0: how long each run
/// between two restarts is, in units of conflicts.
unsigned luby(unsigned I) {
  unsigned Size = 1, Seq = 0;
  while (Size < I + 1) {
    ++Seq;
    Size = 2 * Size + 1;
  }
  while (Size - 1 != I) {
    Size = (Size - 1) >> 1;
    --Seq;
    I = I % Size;
  }
  return 1u << Seq;
}

/// The formulas as clauses (Tseitin): one variable per atom and per
/// connective, shared subformulas encoded once.
class Encoding {
public:
  unsigned NumVars = 0;
  std::vector<llvm::SmallVector<Lit, 4>> Clauses;
  llvm::DenseMap<Atom, unsigned> AtomVar;

  /// The literal that stands for Root. Iterative: flow conditions chain
  /// deep.
  Lit encode(const Formula &Root) {
    llvm::SmallVector<std::pair<const Formula *, bool>, 32> Stack;
    Stack.push_back({&Root, false});
    while (!Stack.empty()) {
      auto [F, Expanded] = Stack.pop_back_val();
      if (Done.count(F))
        continue;
      switch (F->kind()) {
      case Formula::AtomRef: {
        auto [It, New] = AtomVar.try_emplace(F->getAtom(), 0);
        if (New)
          It->second = NumVars++;
        Done[F] = lit(It->second, false);
        continue;
      }
      case Formula::Literal:
        Done[F] = lit(trueVar(), !F->literal());
        continue;
      default:
        break;
      }
      if (!Expanded) {
        Stack.push_back({F, true});
        for (const Formula *Op : F->operands())
          if (!Done.count(Op))
            Stack.push_back({Op, false});
        continue;
      }
      Lit A = Done.lookup(F->operands()[0]);
      if (F->kind() == Formula::Not) {
        Done[F] = neg(A);
        continue;
      }
      Lit B = Done.lookup(F->operands()[1]);
      Lit X = lit(NumVars++, false);
      switch (F->kind()) {
      case Formula::And:
        add({neg(X), A});
        add({neg(X), B});
        add({X, neg(A), neg(B)});
        break;
      case Formula::Or:
        add({neg(X), A, B});
        add({X, neg(A)});
        add({X, neg(B)});
        break;
      case Formula::Implies:
        add({neg(X), neg(A), B});
        add({X, A});
        add({X, neg(B)});
        break;
      case Formula::Equal:
        add({neg(X), neg(A), B});
        add({neg(X), A, neg(B)});
        add({X, A, B});
        add({X, neg(A), neg(B)});
        break;
      default:
        break;
      }
      Done[F] = X;
    }
    return Done.lookup(&Root);
  }

  void add(std::initializer_list<Lit> Ls) { Clauses.emplace_back(Ls); }

private:
  unsigned trueVar() {
    if (True < 0) {
      True = static_cast<int>(NumVars++);
      add({lit(static_cast<unsigned>(True), false)});
    }
    return static_cast<unsigned>(True);
  }

  llvm::DenseMap<const Formula *, Lit> Done;
  /// The variable that Literal true stands for, once made; -1 before.
  int True = -1;
};

/// The search over one query's clauses.
class Search {
public:
  Search(unsigned NumVars, std::int64_t &WorkLeft)
      : Watches(2 * static_cast<size_t>(NumVars)), Assign(NumVars, -1), Level(NumVars, 0),
        Reason(NumVars, -1), Activity(NumVars, 0), Phase(NumVars, 0),
        Seen(NumVars, 0), WorkLeft(WorkLeft) {
    for (unsigned V = 0; V < NumVars; ++V)
      Order.push({0.0, V});
  }

  /// Adds an input clause before the search (level 0).
  void addClause(llvm::SmallVector<Lit, 4> Ls) {
    if (Unsat)
      return;
    llvm::sort(Ls);
    Ls.erase(std::unique(Ls.begin(), Ls.end()), Ls.end());
    for (unsigned I = 1; I < Ls.size(); ++I)
      if (Ls[I] == neg(Ls[I - 1]))
        return; // x or not x
    // Drop what is already false; a clause already true is kept, as it may
    // become the reason of nothing but costs nothing either.
    llvm::erase_if(Ls, [&](Lit L) { return value(L) == 0; });
    if (Ls.empty()) {
      Unsat = true;
      return;
    }
    if (Ls.size() == 1) {
      if (value(Ls[0]) < 0)
        enqueue(Ls[0], -1);
      return;
    }
    attach(Ls);
  }

  enum class Outcome { Sat, Unsat, OutOfWork };

  Outcome run() {
    if (Unsat)
      return Outcome::Unsat;
    unsigned Conflicts = 0, Restarts = 0;
    unsigned NextRestart = 100 * luby(0);
    llvm::SmallVector<Lit, 16> Learnt;
    while (true) {
      if (WorkLeft <= 0)
        return Outcome::OutOfWork;
      int Conflict = propagate();
      if (Conflict >= 0) {
        ++Conflicts;
        if (level() == 0)
          return Outcome::Unsat;
        unsigned Back = analyze(Conflict, Learnt);
        backtrack(Back);
        if (Learnt.size() == 1) {
          enqueue(Learnt[0], -1);
        } else {
          int Index = attach(Learnt);
          enqueue(Learnt[0], Index);
        }
        Increment *= 1 / 0.95;
        continue;
      }
      if (Conflicts >= NextRestart) {
        backtrack(0);
        NextRestart = Conflicts + 100 * luby(++Restarts);
      }
      --WorkLeft;
      int V = pickBranch();
      if (V < 0)
        return Outcome::Sat;
      TrailLim.push_back(Trail.size());
      enqueue(lit(V, Phase[V] == 0), -1);
    }
  }

  bool isTrue(unsigned Var) const { return Assign[Var] == 1; }

private:
  /// 1 true, 0 false, -1 unassigned.
  int value(Lit L) const {
    int A = Assign[var(L)];
    return A < 0 ? -1 : A ^ static_cast<int>(L & 1);
  }
  unsigned level() const { return TrailLim.size(); }

  void enqueue(Lit L, int From) {
    unsigned V = var(L);
    Assign[V] = (L & 1) ? 0 : 1;
    Level[V] = static_cast<int>(level());
    Reason[V] = From;
    Trail.push_back(L);
  }

  /// Watches the first two literals; the first is the one a learnt clause
  /// propagates.
  int attach(llvm::ArrayRef<Lit> Ls) {
    int Index = static_cast<int>(Clauses.size());
    Clauses.emplace_back(Ls.begin(), Ls.end());
    Watches[Ls[0]].push_back(Index);
    Watches[Ls[1]].push_back(Index);
    return Index;
  }

  /// Unit propagation over the two watched literals of each clause; the
  /// clause that became false, or -1. A clause propagating a literal holds
  /// it first (analyze() relies on it).
  int propagate() {
    while (QHead < Trail.size()) {
      Lit False = neg(Trail[QHead++]);
      std::vector<int> &WS = Watches[False];
      size_t I = 0, J = 0;
      while (I < WS.size()) {
        int Index = WS[I++];
        --WorkLeft;
        llvm::SmallVector<Lit, 4> &Ls = Clauses[Index];
        if (Ls[0] == False)
          std::swap(Ls[0], Ls[1]);
        if (value(Ls[0]) == 1) {
          WS[J++] = Index;
          continue;
        }
        bool Moved = false;
        for (size_t K = 2; K < Ls.size(); ++K)
          if (value(Ls[K]) != 0) {
            std::swap(Ls[1], Ls[K]);
            Watches[Ls[1]].push_back(Index);
            Moved = true;
            break;
          }
        if (Moved)
          continue;
        WS[J++] = Index;
        if (value(Ls[0]) == 0) {
          while (I < WS.size())
            WS[J++] = WS[I++];
          WS.resize(J);
          QHead = Trail.size();
          return Index;
        }
        enqueue(Ls[0], Index);
      }
      WS.resize(J);
    }
    return -1;
  }

  /// The first-UIP clause of Conflict into Learnt (its asserting literal
  /// first, a literal of the level to jump back to second); returns that
  /// level.
  unsigned analyze(int Conflict, llvm::SmallVectorImpl<Lit> &Learnt) {
    Learnt.assign(1, 0);
    int Open = 0;
    bool HaveP = false;
    Lit P = 0;
    size_t Index = Trail.size();
    do {
      llvm::ArrayRef<Lit> Ls = Clauses[Conflict];
      for (size_t K = HaveP ? 1 : 0; K < Ls.size(); ++K) {
        unsigned V = var(Ls[K]);
        if (Seen[V] || Level[V] == 0)
          continue;
        Seen[V] = 1;
        bump(V);
        if (Level[V] >= static_cast<int>(level()))
          ++Open;
        else
          Learnt.push_back(Ls[K]);
      }
      while (!Seen[var(Trail[Index - 1])])
        --Index;
      P = Trail[--Index];
      HaveP = true;
      Conflict = Reason[var(P)];
      Seen[var(P)] = 0;
      --Open;
    } while (Open > 0);
    Learnt[0] = neg(P);
    unsigned Back = 0;
    size_t At = 1;
    for (size_t K = 1; K < Learnt.size(); ++K) {
      Seen[var(Learnt[K])] = 0;
      if (static_cast<unsigned>(Level[var(Learnt[K])]) > Back) {
        Back = Level[var(Learnt[K])];
        At = K;
      }
    }
    if (Learnt.size() > 1)
      std::swap(Learnt[1], Learnt[At]);
    return Back;
  }

  void backtrack(unsigned ToLevel) {
    if (level() <= ToLevel)
      return;
    for (size_t K = Trail.size(); K-- > TrailLim[ToLevel];) {
      unsigned V = var(Trail[K]);
      Phase[V] = Assign[V];
      Assign[V] = -1;
      Reason[V] = -1;
      Order.push({Activity[V], V});
    }
    Trail.resize(TrailLim[ToLevel]);
    TrailLim.resize(ToLevel);
    QHead = Trail.size();
  }

  void bump(unsigned V) {
    Activity[V] += Increment;
    if (Activity[V] > 1e100) {
      for (double &A : Activity)
        A *= 1e-100;
      Increment *= 1e-100;
    }
    if (Assign[V] < 0)
      Order.push({Activity[V], V});
  }

  /// The unassigned variable of highest activity, or -1 when every one is
  /// assigned. Every unassigned variable has an entry in Order (stale
  /// entries of assigned ones are dropped here).
  int pickBranch() {
    while (!Order.empty()) {
      unsigned V = Order.top().second;
      Order.pop();
      --WorkLeft;
      if (Assign[V] < 0)
        return static_cast<int>(V);
    }
    return -1;
  }

  std::vector<llvm::SmallVector<Lit, 4>> Clauses;
  std::vector<std::vector<int>> Watches;
  std::vector<int> Assign, Level, Reason;
  std::vector<double> Activity;
  std::vector<int> Phase;
  std::vector<char> Seen;
  std::vector<Lit> Trail;
  std::vector<size_t> TrailLim;
  size_t QHead = 0;
  double Increment = 1;
  std::priority_queue<std::pair<double, unsigned>> Order;
  bool Unsat = false;
  std::int64_t &WorkLeft;
};

} // namespace

CDCLSolver::Result
CDCLSolver::solve(llvm::ArrayRef<const dataflow::Formula *> Vals) {
  if (WorkLeft <= 0)
    return Result::TimedOut();
  Encoding E;
  llvm::SmallVector<Lit, 16> Roots;
  for (const Formula *F : Vals)
    Roots.push_back(E.encode(*F));
  WorkLeft -= static_cast<std::int64_t>(E.Clauses.size());
  Search S(E.NumVars, WorkLeft);
  for (llvm::SmallVector<Lit, 4> &C : E.Clauses)
    S.addClause(std::move(C));
  for (Lit R : Roots)
    S.addClause({R});
  switch (S.run()) {
  case Search::Outcome::Unsat:
    return Result::Unsatisfiable();
  case Search::Outcome::OutOfWork:
    return Result::TimedOut();
  case Search::Outcome::Sat:
    break;
  }
  llvm::DenseMap<Atom, Result::Assignment> Solution;
  for (auto [A, V] : E.AtomVar)
    Solution[A] = S.isTrue(V) ? Result::Assignment::AssignedTrue
                              : Result::Assignment::AssignedFalse;
  return Result::Satisfiable(std::move(Solution));
}

} // namespace clang::interop
