//===--- ArrayDeviceSwitches.cpp - what a case arm knows ------------------===//

#include "lib/arraydevice/ArrayDeviceSwitches.h"

#include "lib/arraydevice/ArrayDeviceObjects.h"
#include "lib/support/AstHelpers.h"

#include "clang/AST/Decl.h"
#include "clang/Analysis/Analyses/Dominators.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <memory>

namespace clang::interop::arraydevice {

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

void SwitchArms::collect(const CFG &G) {
  std::unique_ptr<CFGDomTree> Dom;
  for (const CFGBlock *T : G) {
    if (!T)
      continue;
    const auto *Sw = dyn_cast_or_null<SwitchStmt>(T->getTerminatorStmt());
    if (!Sw || !Sw->getCond())
      continue;
    Conditions[Sw->getCond()] = Sw;
    Conditions[Sw->getCond()->IgnoreParenImpCasts()] = Sw;
    // The arms: the switch's successors, and after grouped labels the arm
    // they lead to. An empty label block in front of an unlabelled block
    // (`case 1: while (...)`) starts the arm at that block.
    llvm::SmallVector<const CFGBlock *, 8> Work;
    llvm::SmallPtrSet<const CFGBlock *, 8> Seen;
    for (const CFGBlock::AdjacentBlock &Succ : T->succs())
      if (const CFGBlock *B = Succ.getReachableBlock())
        Work.push_back(B);
    while (!Work.empty()) {
      const CFGBlock *B = Work.pop_back_val();
      if (!Seen.insert(B).second)
        continue;
      const CFGBlock *Entry = B;
      if (isLabelOnly(*B)) {
        const CFGBlock *Next = B->succ_begin()->getReachableBlock();
        if (!Next)
          continue;
        if (isa_and_nonnull<SwitchCase>(Next->getLabel())) {
          Work.push_back(Next);
          continue;
        }
        Entry = Next;
      }
      if (Entry->empty())
        continue;
      if (!Dom) {
        Dom = std::make_unique<CFGDomTree>();
        Dom->buildDominatorTree(const_cast<CFG *>(&G));
      }
      Arm A{Sw, {}};
      if (armLabels(*B, *Entry, *T, *Dom, A.Labels) && !A.Labels.empty())
        Arms[&*Entry->begin()] = std::move(A);
    }
  }
}

namespace {

/// What entering through one label proves of the fact F behind `Property`
/// (a formula implied by it; `true` when it proves nothing).
const Formula &labelFormula(const SwitchStmt &Sw, const SwitchCase &Label,
                            llvm::StringRef Property, const BoolValue &Fact,
                            State &S) {
  Arena &A = S.Env.arena();
  const Formula &F = Fact.formula();
  const Formula &Nothing = A.makeLiteral(true);
  auto CountOf = [&](const CaseStmt &C) -> std::optional<llvm::APSInt> {
    if (C.getRHS())
      return std::nullopt; // a GNU case range
    Expr::EvalResult R;
    if (!C.getLHS() || C.getLHS()->isValueDependent() ||
        !C.getLHS()->EvaluateAsInt(R, S.AST))
      return std::nullopt;
    return R.Val.getInt();
  };
  auto EnumOf = [](const CaseStmt &C) -> const EnumConstantDecl * {
    return C.getRHS() || !C.getLHS() ? nullptr
                                     : enumerator(C.getLHS()->IgnoreImplicit());
  };
  if (const auto *C = dyn_cast<CaseStmt>(&Label)) {
    if (Property == kCountIsOne) {
      std::optional<llvm::APSInt> K = CountOf(*C);
      if (!K)
        return Nothing;
      if (*K == 1)
        return F;
      return K->isSigned() && K->isNegative() ? A.makeLiteral(false)
             : K->isZero()                    ? A.makeLiteral(false)
                                              : A.makeNot(F);
    }
    const EnumConstantDecl *E = EnumOf(*C);
    if (!E)
      return Nothing;
    return enumeratorMatches(S.Model, Property, E) ? F : A.makeNot(F);
  }
  // default: none of the listed labels. It refutes the fact when every
  // value meaning the fact is listed (`case 1:` for a count; every TPU
  // enumerator for a platform).
  bool AllListed = false;
  const EnumDecl *Enum = nullptr;
  llvm::SmallPtrSet<const EnumConstantDecl *, 4> Listed;
  for (const SwitchCase *SC = Sw.getSwitchCaseList(); SC;
       SC = SC->getNextSwitchCase()) {
    const auto *C = dyn_cast<CaseStmt>(SC);
    if (!C)
      continue;
    if (Property == kCountIsOne) {
      std::optional<llvm::APSInt> K = CountOf(*C);
      AllListed |= K && *K == 1;
    } else if (const EnumConstantDecl *E = EnumOf(*C)) {
      Listed.insert(E);
      Enum = dyn_cast<EnumDecl>(E->getDeclContext());
    }
  }
  if (Enum) {
    AllListed = false;
    for (const EnumConstantDecl *E : Enum->enumerators()) {
      if (!enumeratorMatches(S.Model, Property, E))
        continue;
      AllListed = Listed.count(E);
      if (!AllListed)
        break;
    }
  }
  return AllListed ? A.makeNot(F) : Nothing;
}

} // namespace

void SwitchArms::noteCondition(const CFGElement &Elt, State &S) {
  auto CS = Elt.getAs<CFGStmt>();
  if (!CS)
    return;
  auto It = Conditions.find(CS->getStmt());
  if (It == Conditions.end())
    return;
  const auto *E = dyn_cast<Expr>(CS->getStmt());
  if (Value *V = E ? valueThroughCasts(E, S.Env) : nullptr)
    Values[It->second] = V;
  else
    Values.erase(It->second);
}

void SwitchArms::enterArm(const CFGElement &Elt, State &S) {
  auto It = Arms.find(&Elt);
  if (It == Arms.end())
    return;
  const Value *V = Values.lookup(It->second.Switch);
  llvm::StringRef Property;
  BoolValue *F = V ? linkedFact(*V, &Property) : nullptr;
  if (!F)
    return;
  Arena &A = S.Env.arena();
  const Formula *Entered = nullptr;
  for (const SwitchCase *L : It->second.Labels) {
    const Formula &G = labelFormula(*It->second.Switch, *L, Property, *F, S);
    Entered = Entered ? &A.makeOr(*Entered, G) : &G;
  }
  if (Entered && !Entered->isLiteral(true))
    S.Env.assume(*Entered);
}

} // namespace clang::interop::arraydevice
