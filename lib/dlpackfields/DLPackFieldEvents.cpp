//===--- DLPackFieldEvents.cpp - what the field model reports -------------===//

#include "lib/dlpackfields/DLPackFieldEvents.h"

#include "lib/abi/DLPackFields.h"
#include "lib/abi/MemoryCalls.h"
#include "lib/support/AstHelpers.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseMap.h"

namespace clang::interop {

bool readsOnlyFirstElement(const Expr *Use, const ASTContext &Ctx) {
  if (isa<UnaryOperator>(Use))
    return true;
  const auto *AS = dyn_cast<ArraySubscriptExpr>(Use);
  if (!AS)
    return false;
  std::optional<llvm::APSInt> Index = integerConstant(AS->getIdx(), Ctx);
  return Index && Index->isZero();
}

bool isFullyProven(const DLPackEvent &E, const ASTContext &Ctx) {
  switch (E.K) {
  case DLPackEvent::DataDeref:
  case DLPackEvent::DataCallArg:
    return E.Local ||
           ((E.OffsetApplied || E.OffsetZeroProven) && E.HostProven &&
            (E.StridesConsidered || E.StridesNullProven ||
             (E.K == DLPackEvent::DataDeref &&
              readsOnlyFirstElement(E.Use, Ctx))) &&
            !(E.IsWrite && E.FromVersioned && !E.ReadOnlyClearProven));
  case DLPackEvent::DataKept:
    return E.Local || ((E.OffsetApplied || E.OffsetZeroProven) &&
                       (E.StridesConsidered || E.StridesNullProven));
  case DLPackEvent::DataAddressTest:
  case DLPackEvent::DataStored:
    return E.Local || E.OffsetApplied || E.OffsetZeroProven;
  case DLPackEvent::StridesDeref:
    return E.NonNullProven;
  case DLPackEvent::VersionedAccess:
    return E.MajorChecked;
  case DLPackEvent::TensorCallArg:
    return !E.ProvenDeviceType;
  }
  return false;
}

namespace {

/// Collects the constant-index strides element reads of a body and the ones
/// whose value is compared or tested.
class StrideElementFinder : public RecursiveASTVisitor<StrideElementFinder> {
public:
  llvm::DenseSet<const ArraySubscriptExpr *> Reads, Tested;

  bool VisitVarDecl(VarDecl *VD) {
    const Expr *Init = VD->getInit();
    if (!Init)
      return true;
    Init = Init->IgnoreParenImpCasts();
    if (VD->getType()->isPointerType() && isStridesMember(Init))
      StridesLocals.insert(VD);
    else if (const auto *AS = dyn_cast<ArraySubscriptExpr>(Init))
      ElementLocals[VD] = AS;
    return true;
  }
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *AS) {
    const Expr *Base = AS->getBase()->IgnoreParenImpCasts();
    bool OfStrides = isStridesMember(Base);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Base))
      OfStrides |= StridesLocals.contains(DRE->getDecl());
    if (!OfStrides)
      return true;
    const auto *Index =
        dyn_cast<IntegerLiteral>(AS->getIdx()->IgnoreParenImpCasts());
    if (Index && Index->getValue() != 0)
      Reads.insert(AS);
    else
      ReadsFirstOrAny = true;
    return true;
  }
  /// Some element read is strides[0] (or `*strides`) or at a variable index.
  bool ReadsFirstOrAny = false;
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isComparisonOp() || BO->isLogicalOp()) {
      tested(BO->getLHS());
      tested(BO->getRHS());
    }
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->getOpcode() == UO_LNot)
      tested(UO->getSubExpr());
    if (UO->getOpcode() == UO_Deref) {
      const Expr *Base = UO->getSubExpr()->IgnoreParenImpCasts();
      const auto *DRE = dyn_cast<DeclRefExpr>(Base);
      if (isStridesMember(Base) ||
          (DRE && StridesLocals.contains(DRE->getDecl())))
        ReadsFirstOrAny = true;
    }
    return true;
  }
  bool VisitConditionalOperator(ConditionalOperator *CO) {
    tested(CO->getCond());
    return true;
  }
  bool VisitIfStmt(IfStmt *S) { return tested(S->getCond()); }
  bool VisitWhileStmt(WhileStmt *S) { return tested(S->getCond()); }
  bool VisitDoStmt(DoStmt *S) { return tested(S->getCond()); }
  bool VisitForStmt(ForStmt *S) { return tested(S->getCond()); }
  bool VisitSwitchStmt(SwitchStmt *S) { return tested(S->getCond()); }

private:
  static bool isStridesMember(const Expr *E) {
    const auto *ME = dyn_cast<MemberExpr>(E);
    const auto *FD = ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
    return FD && classifyDLPackField(FD) == DLPackField::Strides;
  }
  bool tested(const Expr *E) {
    if (!E)
      return true;
    E = E->IgnoreParenImpCasts();
    if (const auto *UO = dyn_cast<UnaryOperator>(E))
      if (UO->getOpcode() == UO_Minus)
        E = UO->getSubExpr()->IgnoreParenImpCasts();
    // `s[1] * width != pitch` compares the stride too.
    if (const auto *BO = dyn_cast<BinaryOperator>(E);
        BO && (BO->isMultiplicativeOp() || BO->isAdditiveOp()))
      return tested(BO->getLHS()) && tested(BO->getRHS());
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
      Tested.insert(AS);
    else if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      if (const ArraySubscriptExpr *AS = ElementLocals.lookup(DRE->getDecl()))
        Tested.insert(AS);
    return true;
  }

  llvm::DenseSet<const ValueDecl *> StridesLocals;
  llvm::DenseMap<const ValueDecl *, const ArraySubscriptExpr *> ElementLocals;
};

} // namespace

llvm::DenseSet<const ArraySubscriptExpr *>
uncomparedStrideElements(const Stmt *Body) {
  StrideElementFinder Finder;
  Finder.TraverseStmt(const_cast<Stmt *>(Body));
  llvm::DenseSet<const ArraySubscriptExpr *> Out;
  // A stride read as a number is honoured (`p[k * strides[0]]` walks a 1-d
  // tensor correctly); only a function that never reads the first
  // dimension's stride, nor any at a variable index, assumes one.
  if (Finder.ReadsFirstOrAny)
    return Out;
  for (const ArraySubscriptExpr *AS : Finder.Reads)
    if (!Finder.Tested.contains(AS))
      Out.insert(AS);
  return Out;
}

DataCallKind classifyDataCall(const DLPackEvent &E, const NameList &Listed) {
  switch (classifyMemoryCall(E.Callee)) {
  case MemoryCallKind::Dealloc:
    return DataCallKind::Dealloc;
  case MemoryCallKind::HostCopy:
  case MemoryCallKind::DeviceCopy:
    return DataCallKind::Copy;
  default:
    break;
  }
  if (Listed.matches(E.Callee))
    return DataCallKind::Listed;
  if (!E.CallPassesLayout)
    return DataCallKind::Other;
  return E.CallPassesShapeOnly ? DataCallKind::WithShapeOnly
                               : DataCallKind::WithLayout;
}

} // namespace clang::interop
