//===--- DLPackFieldPreFilter.cpp - what a body does with DLPack ----------===//

#include "lib/dlpackfields/DLPackFieldPreFilter.h"

#include "lib/abi/DLPackFields.h"
#include "lib/abi/DLPackTypes.h"
#include "lib/dlpackfields/DLPackHelperSummaries.h"
#include "lib/support/AstHelpers.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseSet.h"

namespace clang::interop {

namespace {

/// Finds a read the model can turn into an event: data, strides, the device
/// type (imports of a known type), or dl_tensor/flags of a versioned tensor.
/// A function that only writes fields (a producer) or only passes tensors
/// around has nothing to report and is not analysed.
class DLPackUseScan : public RecursiveASTVisitor<DLPackUseScan> {
public:
  DLPackUseScan(ASTContext &Ctx, DLPackHelperSummaries *Summaries)
      : Ctx(Ctx), Summaries(Summaries) {}
  DLPackUse Use;

  /// An event needs a read of data or strides, or an access to a versioned
  /// tensor; a device-type read only matters with a tensor passed to a call
  /// (a proven device type at an import). A producer that only fills in a
  /// tensor's fields has nothing to judge.
  void finish() {
    Use.ReadsModelledFields =
        ReadsPointerField || (ReadsDeviceType && PassesTensor);
  }

  bool VisitBinaryOperator(BinaryOperator *BO) {
    // Visited before its operands: `t.data = p` writes the field.
    if (BO->getOpcode() == BO_Assign)
      if (const auto *ME = dyn_cast<MemberExpr>(BO->getLHS()->IgnoreParens()))
        Written.insert(ME);
    return true;
  }
  bool VisitMemberExpr(MemberExpr *ME) {
    if (Written.contains(ME))
      return true;
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    switch (classifyDLPackField(FD)) {
    case DLPackField::Data:
    case DLPackField::Strides:
      ReadsPointerField = true;
      break;
    case DLPackField::DeviceType:
      ReadsDeviceType = true;
      break;
    case DLPackField::DLTensor:
    case DLPackField::Flags:
      if (dlpackOwnerOf(FD) == DLPackRecord::ManagedTensorVersioned)
        ReadsPointerField = true;
      break;
    default:
      break;
    }
    return true;
  }
  bool VisitCallExpr(CallExpr *Call) {
    for (const Expr *Arg : Call->arguments())
      notePassed(Arg);
    // first_element(t): the tensor's data, read through a helper.
    if (!ReadsPointerField && Summaries)
      if (const DLPackHelperSummary *S = Summaries->of(*Call, Ctx))
        ReadsPointerField = S->ReturnsData;
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *Ctor) {
    for (const Expr *Arg : Ctor->arguments())
      notePassed(Arg);
    return true;
  }
  bool VisitSwitchStmt(SwitchStmt *SW) {
    if (!Use.MapsDeviceTypes && readsDLPackDeviceType(SW->getCond()))
      Use.MapsDeviceTypes = true;
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Op) {
    if (!Use.MapsDeviceTypes && Op->getOperator() == OO_Subscript &&
        Op->getNumArgs() == 2 && readsDLPackDeviceType(Op->getArg(1)))
      Use.MapsDeviceTypes = true;
    return true;
  }
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *MC) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    if (!Use.MapsDeviceTypes && MD && MD->getIdentifier() &&
        (MD->getName() == "find" || MD->getName() == "lookup") &&
        MC->getNumArgs() >= 1 && readsDLPackDeviceType(MC->getArg(0)))
      Use.MapsDeviceTypes = true;
    return true;
  }

private:
  void notePassed(const Expr *Arg) {
    if (!Arg || PassesTensor)
      return;
    DLPackRecord K =
        classifyDLPackPointee(Arg->IgnoreParenImpCasts()->getType());
    PassesTensor = K == DLPackRecord::Tensor || isManagedTensor(K);
  }
  ASTContext &Ctx;
  DLPackHelperSummaries *Summaries;
  llvm::DenseSet<const MemberExpr *> Written;
  bool ReadsPointerField = false;
  bool ReadsDeviceType = false;
  bool PassesTensor = false;
};

} // namespace

DLPackUse scanDLPackUse(const FunctionDecl &FD,
                        DLPackHelperSummaries *Summaries) {
  DLPackUseScan V(FD.getASTContext(), Summaries);
  // A constructor's initialisers read fields too (`dptr_(t.data)`).
  forEachInitializerExpr(
      FD, [&](const Expr &E) { V.TraverseStmt(const_cast<Expr *>(&E)); });
  V.TraverseStmt(FD.getBody());
  V.finish();
  return V.Use;
}

} // namespace clang::interop
