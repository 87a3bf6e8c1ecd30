//===--- DLPackSwitchProofs.cpp - proofs on switch cases ------------------===//

#include "lib/dlpackfields/DLPackSwitchProofs.h"

#include "lib/abi/DLPackFields.h"
#include "lib/support/AstHelpers.h"
#include "lib/support/LocalStores.h"

#include "clang/AST/RecursiveASTVisitor.h"

namespace clang::interop {

SwitchHostProof::SwitchHostProof(const FunctionDecl &FD, ASTContext &Ctx) {
  CFG::BuildOptions Opts;
  Opts.setAllAlwaysAdd();
  Cfg = CFG::buildCFG(&FD, FD.getBody(), &Ctx, Opts);
  if (!Cfg)
    return;
  for (const CFGBlock *B : *Cfg) {
    if (!B)
      continue;
    for (const CFGElement &E : *B)
      if (auto CS = E.getAs<CFGStmt>())
        StmtBlock.try_emplace(CS->getStmt(), B);
    const auto *SW = dyn_cast_or_null<SwitchStmt>(B->getTerminatorStmt());
    if (!SW)
      continue;
    if (!readsDLPackDeviceType(SW->getCond())) {
      if (const VarDecl *V = LocalStores::localNamed(SW->getCond());
          V && V->getType()->isIntegralOrEnumerationType())
        MappedSwitches.push_back({B, V});
      continue;
    }
    HasDeviceSwitch = true;
    for (const auto &[T, K] : caseEdges(*B, Ctx))
      if (isHostAccessibleDeviceType(K.getExtValue()))
        HostEdges.insert({B, T});
  }
  if (!HasDeviceSwitch || MappedSwitches.empty())
    return;
  // A device type mapped onto a local of the function's own (`case kDLCPU:
  // device = kCPU; break;`), then switched on: `case kCPU:` is a host edge
  // when every store of kCPU into the local is one only host edges reach.
  // Every store must be a constant: any other could hold kCPU too.
  const LocalStores &Stores = localStoresOf(FD);
  llvm::DenseSet<std::pair<const CFGBlock *, const CFGBlock *>> Mapped;
  for (auto [B, V] : MappedSwitches) {
    const LocalStores::Stores *St = Stores.of(V);
    if (!St || St->Opaque || !St->Partial.empty())
      continue;
    llvm::SmallVector<std::pair<llvm::APSInt, const Expr *>, 8> Constants;
    bool AllConstant = true;
    for (const Expr *E : St->Whole) {
      std::optional<llvm::APSInt> K = integerConstant(E, Ctx);
      if (!K) {
        AllConstant = false;
        break;
      }
      Constants.push_back({*K, E});
    }
    if (!AllConstant)
      continue;
    for (const auto &[T, K] : caseEdges(*B, Ctx)) {
      bool Stored = false, OnlyOnHostPaths = true;
      for (const auto &[C, E] : Constants)
        if (llvm::APSInt::isSameValue(C, K)) {
          Stored = true;
          OnlyOnHostPaths &= proves(E);
        }
      if (Stored && OnlyOnHostPaths)
        Mapped.insert({B, T});
    }
  }
  HostEdges.insert(Mapped.begin(), Mapped.end());
}

llvm::SmallVector<std::pair<const CFGBlock *, llvm::APSInt>, 8>
SwitchHostProof::caseEdges(const CFGBlock &B, ASTContext &Ctx) {
  llvm::SmallVector<std::pair<const CFGBlock *, llvm::APSInt>, 8> Out;
  for (const CFGBlock::AdjacentBlock &Succ : B.succs()) {
    const CFGBlock *T = Succ.getReachableBlock();
    if (!T)
      continue;
    const auto *Case = dyn_cast_or_null<CaseStmt>(T->getLabel());
    if (!Case || Case->getRHS())
      continue;
    if (std::optional<llvm::APSInt> V = integerConstant(Case->getLHS(), Ctx))
      Out.push_back({T, *V});
  }
  return Out;
}

bool SwitchHostProof::proves(const Stmt *S) const {
  if (!HasDeviceSwitch || HostEdges.empty())
    return false;
  const CFGBlock *Target = StmtBlock.lookup(S);
  if (!Target)
    return false;
  llvm::SmallVector<const CFGBlock *> Work{&Cfg->getEntry()};
  llvm::DenseSet<const CFGBlock *> Seen{&Cfg->getEntry()};
  while (!Work.empty()) {
    const CFGBlock *B = Work.pop_back_val();
    if (B == Target)
      return false;
    for (const CFGBlock::AdjacentBlock &Succ : B->succs()) {
      const CFGBlock *T = Succ.getReachableBlock();
      if (!T || HostEdges.contains({B, T}))
        continue;
      if (Seen.insert(T).second)
        Work.push_back(T);
    }
  }
  return true;
}

namespace {
/// SupportedMajorCases' walk.
class MajorCaseFinder : public RecursiveASTVisitor<MajorCaseFinder> {
public:
  MajorCaseFinder(ASTContext &Ctx, llvm::DenseSet<const Stmt *> &Inside)
      : Ctx(Ctx), Inside(Inside) {}

  bool VisitSwitchStmt(SwitchStmt *SW) {
    if (dlpackFieldOfMember(stripIdentityCasts(SW->getCond())) !=
        DLPackField::Major)
      return true;
    const auto *Body = dyn_cast_or_null<CompoundStmt>(SW->getBody());
    if (!Body) {
      // switch (major) case 1: stmt;
      if (const auto *C = dyn_cast_or_null<SwitchCase>(SW->getBody()))
        if (isSupportedLabel(C))
          collect(C->getSubStmt());
      return true;
    }
    // Labels nested deeper than the body's statements (Duff's device) are
    // not looked at: they prove nothing here.
    const Stmt *Prev = nullptr;
    bool InCase = false;
    for (const Stmt *S : Body->body()) {
      if (const auto *C = dyn_cast<SwitchCase>(S)) {
        InCase = isSupportedLabel(C) && (!Prev || endsInJump(Prev));
        if (InCase)
          collect(C->getSubStmt());
      } else if (InCase) {
        collect(S);
      }
      Prev = S;
    }
    return true;
  }

private:
  /// `case 1:` alone: not a range, not chained with another label.
  bool isSupportedLabel(const SwitchCase *C) const {
    const auto *Case = dyn_cast<CaseStmt>(C);
    if (!Case || Case->getRHS() || isa<SwitchCase>(Case->getSubStmt()))
      return false;
    std::optional<llvm::APSInt> V = integerConstant(Case->getLHS(), Ctx);
    return V && V->getExtValue() == 1;
  }
  /// The statement never falls through to the next one: it ends (through
  /// braces and labels) in a jump.
  static bool endsInJump(const Stmt *S) {
    if (const auto *CS = dyn_cast<CompoundStmt>(S))
      return !CS->body_empty() && endsInJump(CS->body_back());
    if (const auto *C = dyn_cast<SwitchCase>(S))
      return endsInJump(C->getSubStmt());
    return isJump(S);
  }
  void collect(const Stmt *S) {
    if (!S || !Inside.insert(S).second)
      return;
    for (const Stmt *Child : S->children())
      collect(Child);
  }
  ASTContext &Ctx;
  llvm::DenseSet<const Stmt *> &Inside;
};
} // namespace

SupportedMajorCases::SupportedMajorCases(const FunctionDecl &FD,
                                         ASTContext &Ctx) {
  MajorCaseFinder(Ctx, Inside).TraverseStmt(FD.getBody());
}

} // namespace clang::interop
