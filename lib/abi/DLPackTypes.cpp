//===--- DLPackTypes.cpp - recognise the DLPack C ABI by name -------------===//

#include "lib/abi/DLPackTypes.h"

#include "clang/AST/Decl.h"
#include "llvm/ADT/StringSwitch.h"

namespace clang::interop {

DLPackRecord classifyDLPackRecordName(llvm::StringRef Name) {
  return llvm::StringSwitch<DLPackRecord>(Name)
      .Case("DLTensor", DLPackRecord::Tensor)
      .Case("DLManagedTensor", DLPackRecord::ManagedTensor)
      .Case("DLManagedTensorVersioned", DLPackRecord::ManagedTensorVersioned)
      .Case("DLDevice", DLPackRecord::Device)
      .Case("DLContext", DLPackRecord::Device)
      .Case("DLDataType", DLPackRecord::DataType)
      .Case("DLPackVersion", DLPackRecord::PackVersion)
      .Default(DLPackRecord::None);
}

DLPackRecord classifyDLPackType(QualType T) {
  if (T.isNull())
    return DLPackRecord::None;
  T = T.getNonReferenceType().getCanonicalType().getUnqualifiedType();
  const auto *RD = T->getAsRecordDecl();
  if (!RD)
    return DLPackRecord::None;
  // C's `typedef struct { ... } DLTensor;` gives the record no name of its
  // own: the typedef names it.
  if (const IdentifierInfo *II = RD->getIdentifier())
    return classifyDLPackRecordName(II->getName());
  if (const TypedefNameDecl *TD = RD->getTypedefNameForAnonDecl())
    return classifyDLPackRecordName(TD->getName());
  return DLPackRecord::None;
}

llvm::StringRef managedTensorName(DLPackRecord R) {
  return R == DLPackRecord::ManagedTensorVersioned ? "DLManagedTensorVersioned"
                                                   : "DLManagedTensor";
}

DLPackRecord classifyDLPackPointee(QualType T) {
  if (T.isNull())
    return DLPackRecord::None;
  T = T.getNonReferenceType().getCanonicalType();
  if (const auto *PT = T->getAs<PointerType>())
    return classifyDLPackType(PT->getPointeeType());
  return DLPackRecord::None;
}

} // namespace clang::interop
