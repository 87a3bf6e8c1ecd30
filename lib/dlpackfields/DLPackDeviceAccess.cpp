//===--- DLPackDeviceAccess.cpp - which memory a data use touches ---------===//

#include "lib/dlpackfields/DLPackDeviceAccess.h"

#include "lib/abi/DLPackFields.h"
#include "lib/abi/DLPackTypes.h"
#include "lib/abi/MemoryCalls.h"
#include "lib/engine/CallSites.h"
#include "lib/engine/FactCache.h"
#include "lib/support/AstHelpers.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace clang::interop {

DataAccessSide classifyDataAccess(const DLPackEvent &E,
                                  const NameList &HostMemory,
                                  const NameList &DeviceMemory,
                                  const ASTContext &Ctx) {
  if (E.K == DLPackEvent::DataDeref)
    return DataAccessSide::Host;
  if (E.K != DLPackEvent::DataCallArg)
    return DataAccessSide::None;
  switch (classifyMemoryCall(E.Callee)) {
  case MemoryCallKind::HostCopy:
    return DataAccessSide::Host;
  case MemoryCallKind::Dealloc:
    return DataAccessSide::None;
  case MemoryCallKind::DeviceCopy: {
    const auto *Call = dyn_cast_or_null<CallExpr>(E.Call);
    switch (Call ? deviceCopySide(*Call, E.ArgIndex, Ctx)
                 : MemorySide::Unknown) {
    case MemorySide::Host:
      return DataAccessSide::Host;
    case MemorySide::Device:
      return DataAccessSide::Device;
    case MemorySide::Unknown:
      return DataAccessSide::None;
    }
    return DataAccessSide::None;
  }
  case MemoryCallKind::None:
    break;
  }
  if (HostMemory.matches(E.Callee))
    return DataAccessSide::Host;
  if (DeviceMemory.matches(E.Callee))
    return DataAccessSide::Device;
  return E.CallPassesLayout ? DataAccessSide::Wrapped : DataAccessSide::None;
}

bool readsDescriptorParameter(const DLPackEvent &E) {
  const auto *Read = dyn_cast_or_null<MemberExpr>(
      E.FieldRead ? E.FieldRead->IgnoreParenImpCasts() : nullptr);
  std::optional<MemberChain> Base =
      Read ? memberChainOf(Read->getBase(), /*FollowPointers=*/true)
           : std::nullopt;
  const auto *P = Base && Base->Fields.empty()
                      ? dyn_cast<ParmVarDecl>(Base->Root)
                      : nullptr;
  if (!P)
    return false;
  QualType T = P->getType().getNonReferenceType();
  return classifyDLPackType(T) == DLPackRecord::Tensor ||
         classifyDLPackPointee(T) == DLPackRecord::Tensor;
}

namespace {

/// Finds a look at a DLPack device in a body.
class DeviceLook : public RecursiveASTVisitor<DeviceLook> {
public:
  bool Found = false;

  bool VisitMemberExpr(MemberExpr *ME) {
    DLPackField F = dlpackFieldOfMember(ME);
    if (F == DLPackField::Device || F == DLPackField::DeviceType)
      Found = true;
    return !Found;
  }
  bool VisitCallExpr(CallExpr *CE) {
    Found = readsDLPackDeviceType(CE) || takesTensor(CE->getDirectCallee());
    return !Found;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *CE) {
    // A copy of a DLPack record itself looks at nothing.
    const CXXConstructorDecl *Ctor = CE->getConstructor();
    if (classifyDLPackRecord(Ctor->getParent()) != DLPackRecord::None)
      return true;
    Found = takesTensor(Ctor);
    return !Found;
  }

private:
  /// A callee with a DLPack tensor parameter may look at its device (a
  /// validator, a converter): what it does is not seen here.
  static bool takesTensor(const FunctionDecl *Callee) {
    if (!Callee)
      return false;
    for (const ParmVarDecl *P : Callee->parameters()) {
      QualType T = P->getType().getNonReferenceType();
      if (classifyDLPackType(T) != DLPackRecord::None ||
          classifyDLPackPointee(T) != DLPackRecord::None)
        return true;
    }
    return false;
  }
};

} // namespace

bool trustsDeviceType(const FunctionDecl &FD) {
  static DeclMemo<bool> Memo;
  return Memo.get(&FD, [&] {
    if (!FD.hasBody() || !isEntryPoint(FD))
      return false;
    DeviceLook Look;
    Look.TraverseStmt(FD.getBody());
    return !Look.Found;
  });
}

} // namespace clang::interop
