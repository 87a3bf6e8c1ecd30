//===--- DLPackFields.cpp - DLPack fields and device types by name --------===//

#include "lib/abi/DLPackFields.h"

#include "lib/support/AstHelpers.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSwitch.h"

#include <tuple>

namespace clang::interop {

DLPackRecord dlpackOwnerOf(const FieldDecl *FD) {
  if (!FD)
    return DLPackRecord::None;
  return classifyDLPackRecord(FD->getParent());
}

DLPackField classifyDLPackField(const FieldDecl *FD) {
  if (!FD || !FD->getIdentifier())
    return DLPackField::None;
  llvm::StringRef Name = FD->getName();
  switch (dlpackOwnerOf(FD)) {
  case DLPackRecord::Tensor:
    return llvm::StringSwitch<DLPackField>(Name)
        .Case("data", DLPackField::Data)
        .Case("device", DLPackField::Device)
        .Case("ctx", DLPackField::Device)
        .Case("ndim", DLPackField::NDim)
        .Case("dtype", DLPackField::DType)
        .Case("shape", DLPackField::Shape)
        .Case("strides", DLPackField::Strides)
        .Case("byte_offset", DLPackField::ByteOffset)
        .Default(DLPackField::None);
  case DLPackRecord::Device:
    return llvm::StringSwitch<DLPackField>(Name)
        .Case("device_type", DLPackField::DeviceType)
        .Case("device_id", DLPackField::DeviceId)
        .Default(DLPackField::None);
  case DLPackRecord::ManagedTensor:
  case DLPackRecord::ManagedTensorVersioned:
    // DLPack 0.1 named the first three dlTensor, ctx and destructor
    // (caffe2's 2018 bridge was written against it).
    return llvm::StringSwitch<DLPackField>(Name)
        .Case("dl_tensor", DLPackField::DLTensor)
        .Case("dlTensor", DLPackField::DLTensor)
        .Case("manager_ctx", DLPackField::ManagerCtx)
        .Case("ctx", DLPackField::ManagerCtx)
        .Case("deleter", DLPackField::Deleter)
        .Case("destructor", DLPackField::Deleter)
        .Case("version", DLPackField::Version)
        .Case("flags", DLPackField::Flags)
        .Default(DLPackField::None);
  case DLPackRecord::PackVersion:
    return llvm::StringSwitch<DLPackField>(Name)
        .Case("major", DLPackField::Major)
        .Case("minor", DLPackField::Minor)
        .Default(DLPackField::None);
  default:
    return DLPackField::None;
  }
}

DLPackField dlpackFieldOfMember(const Expr *E) {
  if (!E)
    return DLPackField::None;
  const auto *ME = dyn_cast<MemberExpr>(E->IgnoreParens());
  if (!ME)
    return DLPackField::None;
  return classifyDLPackField(dyn_cast<FieldDecl>(ME->getMemberDecl()));
}

bool mentionsDLPackField(const FunctionDecl &FD,
                         llvm::ArrayRef<DLPackField> Fields, bool ReadsOnly) {
  struct Finder : RecursiveASTVisitor<Finder> {
    llvm::ArrayRef<DLPackField> Fields;
    bool ReadsOnly = false;
    /// Assignment targets, met before their operands (pre-order).
    llvm::SmallPtrSet<const Expr *, 4> Assigned;
    bool Found = false;
    bool VisitBinaryOperator(BinaryOperator *BO) {
      if (ReadsOnly && BO->getOpcode() == BO_Assign)
        Assigned.insert(BO->getLHS()->IgnoreParens());
      return true;
    }
    bool VisitMemberExpr(MemberExpr *ME) {
      DLPackField F = dlpackFieldOfMember(ME);
      Found |= F != DLPackField::None && !Assigned.contains(ME) &&
               (Fields.empty() || llvm::is_contained(Fields, F));
      return !Found;
    }
  } F;
  F.Fields = Fields;
  F.ReadsOnly = ReadsOnly;
  forEachInitializerExpr(FD, [&](const Expr &E) {
    if (!F.Found)
      F.TraverseStmt(const_cast<Expr *>(&E));
  });
  if (!F.Found && FD.getBody())
    F.TraverseStmt(FD.getBody());
  return F.Found;
}

bool majorComparisonAccepts(BinaryOperatorKind Op,
                            std::optional<std::int64_t> Bound) {
  return Bound ? evaluateComparison<std::int64_t>(Op, 1, *Bound)
               : (Op == BO_EQ || Op == BO_LE || Op == BO_GE);
}

std::optional<bool> majorTestAcceptsIfTrue(
    const Expr *C, llvm::function_ref<bool(const Expr *)> IsMajor,
    llvm::ArrayRef<std::string> DebugOnlyMacros, ASTContext &Ctx) {
  const auto *BO = dyn_cast_or_null<BinaryOperator>(C);
  if (!BO || !BO->isComparisonOp() ||
      isInMacroExpansion(BO->getBeginLoc(), Ctx.getSourceManager(),
                         Ctx.getLangOpts(), DebugOnlyMacros))
    return std::nullopt;
  // The major on the left, or on the right with the comparison mirrored.
  for (auto [Major, Bound, Op] :
       {std::tuple(BO->getLHS(), BO->getRHS(), BO->getOpcode()),
        std::tuple(BO->getRHS(), BO->getLHS(),
                   mirroredComparison(BO->getOpcode()))}) {
    if (!IsMajor(Major))
      continue;
    std::optional<llvm::APSInt> K = integerConstant(Bound, Ctx);
    return majorComparisonAccepts(Op, K ? std::optional(K->getExtValue())
                                        : std::nullopt);
  }
  return std::nullopt;
}

llvm::StringRef dlpackFieldName(DLPackField F) {
  switch (F) {
  case DLPackField::None:
    return "";
  case DLPackField::Data:
    return "data";
  case DLPackField::Device:
    return "device";
  case DLPackField::NDim:
    return "ndim";
  case DLPackField::DType:
    return "dtype";
  case DLPackField::Shape:
    return "shape";
  case DLPackField::Strides:
    return "strides";
  case DLPackField::ByteOffset:
    return "byte_offset";
  case DLPackField::DeviceType:
    return "device_type";
  case DLPackField::DeviceId:
    return "device_id";
  case DLPackField::DLTensor:
    return "dl_tensor";
  case DLPackField::ManagerCtx:
    return "manager_ctx";
  case DLPackField::Deleter:
    return "deleter";
  case DLPackField::Version:
    return "version";
  case DLPackField::Flags:
    return "flags";
  case DLPackField::Major:
    return "major";
  case DLPackField::Minor:
    return "minor";
  }
  return "";
}

bool isHostAccessibleDeviceType(std::int64_t Raw) {
  switch (Raw) {
  case 1:  // kDLCPU
  case 3:  // kDLCUDAHost (0.x: kDLCPUPinned)
  case 11: // kDLROCMHost
  case 13: // kDLCUDAManaged
  case 20: // kDLTPUHost
    return true;
  default:
    return false;
  }
}

llvm::StringRef dlpackDeviceTypeName(std::int64_t Raw) {
  switch (Raw) {
  case 1:
    return "kDLCPU";
  case 2:
    return "kDLCUDA";
  case 3:
    return "kDLCUDAHost";
  case 4:
    return "kDLOpenCL";
  case 7:
    return "kDLVulkan";
  case 8:
    return "kDLMetal";
  case 9:
    return "kDLVPI";
  case 10:
    return "kDLROCM";
  case 11:
    return "kDLROCMHost";
  case 12:
    return "kDLExtDev";
  case 13:
    return "kDLCUDAManaged";
  case 14:
    return "kDLOneAPI";
  case 15:
    return "kDLWebGPU";
  case 16:
    return "kDLHexagon";
  case 17:
    return "kDLMAIA";
  case 18:
    return "kDLTrn";
  case 19:
    return "kDLTPU";
  case 20:
    return "kDLTPUHost";
  case 21:
    return "kDLAscend";
  default:
    return "";
  }
}

std::optional<std::int64_t> parseDLPackDeviceType(llvm::StringRef Text) {
  Text = Text.trim();
  // No text names no device type (unnamed values have an empty name).
  if (Text.empty())
    return std::nullopt;
  std::int64_t Raw;
  if (!Text.getAsInteger(10, Raw))
    return Raw;
  // Older spellings of the same values.
  if (Text == "kDLGPU")
    return 2;
  if (Text == "kDLCPUPinned")
    return 3;
  for (std::int64_t V = 1; V <= 21; ++V)
    if (dlpackDeviceTypeName(V) == Text)
      return V;
  return std::nullopt;
}

bool isDLDeviceTypeEnum(QualType T) {
  if (T.isNull())
    return false;
  T = T.getCanonicalType();
  const auto *ET = T->getAs<EnumType>();
  if (!ET)
    return false;
  return tagName(ET->getDecl()) == "DLDeviceType";
}

bool readsDLPackDeviceType(const Expr *E) {
  const Expr *S = stripIdentityCasts(E);
  if (!S)
    return false;
  if (dlpackFieldOfMember(S) == DLPackField::DeviceType)
    return true;
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (Call->getNumArgs() == 1 && !Call->getType()->isBooleanType() &&
        classifyDLPackType(Call->getArg(0)->IgnoreImplicit()->getType()) ==
            DLPackRecord::Device)
      return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (VD->hasLocalStorage() && VD->getInit() && VD->getInit() != E)
        if (readsDLPackDeviceType(VD->getInit()))
          return true;
  return isDLDeviceTypeEnum(S->getType());
}

} // namespace clang::interop
