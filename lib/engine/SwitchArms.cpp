//===--- SwitchArms.cpp - what a case arm knows, for every family ---------===//

#include "lib/engine/SwitchArms.h"

#include "lib/support/AstHelpers.h"
#include "lib/support/LocalStores.h"

#include "clang/AST/Expr.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace clang::interop {

using namespace clang::dataflow;

namespace {

/// A block that only holds grouped labels: `case A:` directly followed by
/// `case B:`. Control passes through it to the next label's arm.
bool isLabelOnly(const CFGBlock &B) {
  return isa_and_nonnull<SwitchCase>(B.getLabel()) && B.empty() &&
         !B.getTerminatorStmt() && B.succ_size() == 1;
}

/// The labels through which control enters B from the switch block, or
/// false when it can also enter from a statement outside the arm
/// (fallthrough from another arm, a goto). A predecessor that the arm's
/// entry dominates (the back edge of a loop inside the arm) keeps what the
/// labels proved: the fact is a formula over values fixed when the switch
/// was entered.
bool enteringLabels(const CFGBlock &B, const CFGBlock &SwitchBlock,
                    const CFGBlock &ArmEntry, const CFGDomTree &Dom,
                    llvm::SmallVectorImpl<const SwitchCase *> &Out,
                    unsigned Depth = 0) {
  if (Depth > 64)
    return false;
  const auto *Label = dyn_cast_or_null<SwitchCase>(B.getLabel());
  if (!Label)
    return false;
  for (const CFGBlock::AdjacentBlock &P : B.preds()) {
    const CFGBlock *Pred = P.getReachableBlock();
    if (!Pred)
      continue;
    if (Pred == &SwitchBlock) {
      Out.push_back(Label);
      continue;
    }
    if (isLabelOnly(*Pred)) {
      if (!enteringLabels(*Pred, SwitchBlock, ArmEntry, Dom, Out, Depth + 1))
        return false;
      continue;
    }
    if (!Dom.dominates(&ArmEntry, Pred))
      return false;
  }
  return true;
}

/// The labels of the arm whose first element is in `Entry`, reached from
/// the label block `Start` (Entry itself, or an empty label block in front
/// of a loop or another unlabelled block); false as enteringLabels.
bool armLabels(const CFGBlock &Start, const CFGBlock &Entry,
               const CFGBlock &SwitchBlock, const CFGDomTree &Dom,
               llvm::SmallVectorImpl<const SwitchCase *> &Out) {
  if (&Start == &Entry)
    return enteringLabels(Entry, SwitchBlock, Entry, Dom, Out);
  // Entry has no label: every predecessor but Start must be inside the arm.
  for (const CFGBlock::AdjacentBlock &P : Entry.preds()) {
    const CFGBlock *Pred = P.getReachableBlock();
    if (Pred && Pred != &Start && !Dom.dominates(&Entry, Pred))
      return false;
  }
  return enteringLabels(Start, SwitchBlock, Entry, Dom, Out);
}

} // namespace

void SwitchArms::collect(const CFG &G, const FunctionDecl &FD,
                         const ASTContext &C) {
  Ctx = &C;
  std::unique_ptr<CFGDomTree> Dom;
  for (const CFGBlock *T : G) {
    if (!T)
      continue;
    const auto *Sw = dyn_cast_or_null<SwitchStmt>(T->getTerminatorStmt());
    if (!Sw || !Sw->getCond())
      continue;
    Conditions[Sw->getCond()] = Sw;
    Conditions[Sw->getCond()->IgnoreParenImpCasts()] = Sw;
    collectSwitch(G, *T, *Sw, Dom);
    collectConstantLocal(G, *Sw, FD, C);
  }
}

void SwitchArms::collectSwitch(const CFG &G, const CFGBlock &T,
                               const SwitchStmt &Sw,
                               std::unique_ptr<CFGDomTree> &Dom) {
  auto Dominators = [&]() -> const CFGDomTree & {
    if (!Dom) {
      Dom = std::make_unique<CFGDomTree>();
      Dom->buildDominatorTree(const_cast<CFG *>(&G));
    }
    return *Dom;
  };
  // The arms: the switch's successors, and after grouped labels the arm
  // they lead to. An empty label block in front of an unlabelled block
  // (`case 1: while (...)`) starts the arm at that block.
  llvm::SmallVector<std::pair<const CFGBlock *, const Entry *>, 8> Arms;
  llvm::SmallVector<const CFGBlock *, 8> Work;
  llvm::SmallPtrSet<const CFGBlock *, 8> Seen;
  bool EmptyWay = false;
  for (const CFGBlock::AdjacentBlock &Succ : T.succs())
    if (const CFGBlock *B = Succ.getReachableBlock()) {
      Work.push_back(B);
      // The implicit default leads straight past the switch.
      EmptyWay |= !isa_and_nonnull<SwitchCase>(B->getLabel());
    }
  while (!Work.empty()) {
    const CFGBlock *B = Work.pop_back_val();
    if (!Seen.insert(B).second)
      continue;
    const CFGBlock *Start = B, *ArmEntry = B;
    if (isLabelOnly(*B)) {
      const CFGBlock *Next = B->succ_begin()->getReachableBlock();
      if (!Next)
        continue;
      if (isa_and_nonnull<SwitchCase>(Next->getLabel())) {
        Work.push_back(Next);
        continue;
      }
      ArmEntry = Next;
    }
    if (ArmEntry->empty()) {
      EmptyWay |= isa_and_nonnull<SwitchCase>(Start->getLabel());
      continue;
    }
    Entry A{&Sw, {}};
    if (armLabels(*Start, *ArmEntry, T, Dominators(), A.Labels) &&
        !A.Labels.empty()) {
      auto &At = Entries[&*ArmEntry->begin()];
      At.push_back(std::move(A));
      Arms.push_back({ArmEntry, &At.back()});
    }
  }
  if (!EmptyWay)
    return;
  // Where arms meet again: a block no arm's entry dominates whose every
  // predecessor is the switch (its implicit default), an empty arm entered
  // only through labels, or a block inside an arm. The framework's join
  // keeps what an arm with statements assumed; an empty arm assumed
  // nothing, so the meeting point assumes the disjunction of them all.
  const CFGDomTree &D = Dominators();
  auto ArmOf = [&](const CFGBlock *B) -> const Entry * {
    for (const auto &[Head, A] : Arms)
      if (D.dominates(Head, B))
        return A;
    return nullptr;
  };
  for (const CFGBlock *B : G) {
    if (!B || B == &T || B->empty() || B->pred_empty() || ArmOf(B))
      continue;
    Entry Met{&Sw, {}};
    bool ThroughArms = true, ThroughEmpty = false;
    for (const CFGBlock::AdjacentBlock &P : B->preds()) {
      const CFGBlock *Pred = P.getReachableBlock();
      if (!Pred)
        continue;
      if (Pred == &T) {
        ThroughArms = !isa_and_nonnull<SwitchCase>(B->getLabel());
        Met.Labels.push_back(nullptr);
        ThroughEmpty = true;
      } else if (Pred->empty() &&
                 isa_and_nonnull<SwitchCase>(Pred->getLabel())) {
        ThroughArms = enteringLabels(*Pred, T, *Pred, D, Met.Labels);
        ThroughEmpty = true;
      } else if (const Entry *A = ArmOf(Pred)) {
        Met.Labels.append(A->Labels.begin(), A->Labels.end());
      } else {
        ThroughArms = false;
      }
      if (!ThroughArms)
        break;
    }
    if (ThroughArms && ThroughEmpty && !Met.Labels.empty())
      Entries[&*B->begin()].push_back(std::move(Met));
  }
}

void SwitchArms::collectConstantLocal(const CFG &G, const SwitchStmt &Sw,
                                      const FunctionDecl &FD,
                                      const ASTContext &C) {
  const VarDecl *V = LocalStores::localNamed(Sw.getCond());
  if (!V || !V->getType()->isIntegralOrEnumerationType())
    return;
  const LocalStores::Stores *St = localStoresOf(FD).of(V);
  if (!St || St->Opaque || !St->Partial.empty())
    return;
  // Every store must be a constant, and a statement of the CFG: a store the
  // flow never transfers (in a lambda, in unreachable code) could hold K.
  ConstantLocal L;
  for (const CFGBlock *B : G) {
    if (!B)
      continue;
    for (const CFGElement &E : *B) {
      auto CS = E.getAs<CFGStmt>();
      if (!CS)
        continue;
      const Stmt *S = CS->getStmt();
      const Expr *Stored = nullptr;
      if (const auto *DS = dyn_cast<DeclStmt>(S)) {
        if (DS->isSingleDecl() && DS->getSingleDecl() == V)
          Stored = V->getInit();
      } else if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
        if (BO->getOpcode() == BO_Assign &&
            LocalStores::localNamed(BO->getLHS()) == V)
          Stored = BO->getRHS();
      }
      if (!Stored)
        continue;
      std::optional<llvm::APSInt> K = integerConstant(Stored, C);
      if (!K)
        return;
      L.Stores.push_back({S, *K});
    }
  }
  if (L.Stores.size() != St->Whole.size())
    return;
  for (const auto &[S, K] : L.Stores)
    StoreConditions.try_emplace(S);
  ConstantLocals[&Sw] = std::move(L);
}

const Formula *SwitchArms::labelFormula(const SwitchStmt &Sw,
                                        const SwitchCase *Label,
                                        Environment &Env,
                                        CaseFormulaFn Family) {
  Arena &A = Env.arena();
  if (auto It = ConstantLocals.find(&Sw); It != ConstantLocals.end()) {
    // `case K:` of a local of constants: one of the stores of K was
    // reached, under the flow condition it was reached under.
    const auto *Case = dyn_cast_or_null<CaseStmt>(Label);
    std::optional<llvm::APSInt> K = Case && !Case->getRHS()
                                        ? integerConstant(Case->getLHS(), *Ctx)
                                        : std::nullopt;
    if (!K)
      return nullptr;
    const Formula *Reached = nullptr;
    for (const auto &[S, Stored] : It->second.Stores) {
      if (!llvm::APSInt::isSameValue(Stored, *K))
        continue;
      std::optional<Atom> Cond = StoreConditions.lookup(S);
      if (!Cond)
        return nullptr; // not transferred yet: after the switch, in a loop
      const Formula &F = A.makeAtomRef(*Cond);
      Reached = Reached ? &A.makeOr(*Reached, F) : &F;
    }
    return Reached;
  }
  auto Found = Values.find(&Sw);
  if (Found == Values.end())
    return nullptr;
  for (Value *V : Found->second)
    if (const Formula *F = Family(Sw, Label, *V, Env))
      return F->isLiteral(true) ? nullptr : F;
  return nullptr;
}

void SwitchArms::enter(const CFGElement &Elt, Environment &Env,
                       CaseFormulaFn Family) {
  auto It = Entries.find(&Elt);
  if (It == Entries.end())
    return;
  Arena &A = Env.arena();
  for (const Entry &E : It->second) {
    const Formula *Entered = nullptr;
    for (const SwitchCase *L : E.Labels) {
      const Formula *G = labelFormula(*E.Switch, L, Env, Family);
      if (!G) {
        Entered = nullptr; // this way in proves nothing
        break;
      }
      Entered = Entered ? &A.makeOr(*Entered, *G) : G;
    }
    if (Entered)
      Env.assume(*Entered);
  }
}

void SwitchArms::note(const CFGElement &Elt, Environment &Env) {
  auto CS = Elt.getAs<CFGStmt>();
  if (!CS)
    return;
  const Stmt *S = CS->getStmt();
  if (auto Store = StoreConditions.find(S); Store != StoreConditions.end()) {
    Store->second = Env.getFlowConditionToken();
    return;
  }
  auto It = Conditions.find(S);
  if (It == Conditions.end())
    return;
  // Every value along the implicit casts: the framework may carry a value
  // over a cast or give the cast a fresh one, and the family knows which
  // it tracks.
  llvm::SmallVector<Value *, 2> &Vs = Values[It->second];
  Vs.clear();
  for (const Expr *E = dyn_cast<Expr>(S); E;) {
    if (Value *V = Env.getValue(*E); V && !llvm::is_contained(Vs, V))
      Vs.push_back(V);
    const auto *ICE = dyn_cast<ImplicitCastExpr>(E->IgnoreParens());
    E = ICE ? ICE->getSubExpr() : nullptr;
  }
}

} // namespace clang::interop
