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
  return classifyDLPackRecord(T->getAsRecordDecl());
}

llvm::StringRef tagName(const TagDecl *D) {
  if (!D)
    return "";
  if (const IdentifierInfo *II = D->getIdentifier())
    return II->getName();
  // C's `typedef struct { ... } DLTensor;` gives the record no name of its
  // own: the typedef names it.
  if (const TypedefNameDecl *TD = D->getTypedefNameForAnonDecl())
    return TD->getName();
  return "";
}

DLPackRecord classifyDLPackRecord(const RecordDecl *RD) {
  llvm::StringRef Name = tagName(RD);
  return Name.empty() ? DLPackRecord::None : classifyDLPackRecordName(Name);
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
