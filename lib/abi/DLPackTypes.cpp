//===--- DLPackTypes.cpp - recognise the DLPack C ABI by name -------------===//

#include "lib/abi/DLPackTypes.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include <utility>

namespace clang::interop {

/// The record names of the DLPack ABI, every generation.
static constexpr std::pair<llvm::StringLiteral, DLPackRecord> kRecordNames[] = {
    {"DLTensor", DLPackRecord::Tensor},
    {"DLManagedTensor", DLPackRecord::ManagedTensor},
    {"DLManagedTensorVersioned", DLPackRecord::ManagedTensorVersioned},
    {"DLDevice", DLPackRecord::Device},
    {"DLContext", DLPackRecord::Device},
    {"DLDataType", DLPackRecord::DataType},
    {"DLPackVersion", DLPackRecord::PackVersion},
};

DLPackRecord classifyDLPackRecordName(llvm::StringRef Name) {
  for (const auto &[Known, Kind] : kRecordNames)
    if (Name == Known)
      return Kind;
  return DLPackRecord::None;
}

/// A record whose tag is not its DLPack name but which a typedef beside it
/// gives that name: `typedef struct DLDevice_ { ... } DLDevice;` (a copy of
/// the header edited to allow forward declarations). Only tags starting
/// with "DL" are looked at, so other records cost one comparison.
static DLPackRecord classifyByTypedef(const RecordDecl &RD,
                                      llvm::StringRef Tag) {
  if (!Tag.starts_with("DL"))
    return DLPackRecord::None;
  const DeclContext *DC = RD.getDeclContext()->getRedeclContext();
  IdentifierTable &Idents = RD.getASTContext().Idents;
  const Decl *Self = RD.getCanonicalDecl();
  for (const auto &[Known, Kind] : kRecordNames) {
    auto It = Idents.find(Known);
    if (It == Idents.end())
      continue;
    for (const NamedDecl *D : DC->lookup(It->getValue()))
      if (const auto *TD = dyn_cast<TypedefNameDecl>(D))
        if (const RecordDecl *Named =
                TD->getUnderlyingType()->getAsRecordDecl();
            Named && Named->getCanonicalDecl() == Self)
          return Kind;
  }
  return DLPackRecord::None;
}

/// The field of RD named Name, if any.
static const FieldDecl *fieldNamed(const RecordDecl &RD,
                                   const IdentifierInfo *Name) {
  if (!Name)
    return nullptr;
  for (const NamedDecl *D : RD.lookup(Name))
    if (const auto *F = dyn_cast<FieldDecl>(D))
      return F;
  return nullptr;
}

/// A managed tensor by its fields (see classifyDLPackRecord).
static DLPackRecord classifyManagedLayout(const RecordDecl &RD) {
  const RecordDecl *Def = RD.getDefinition();
  if (!Def || Def->isUnion())
    return DLPackRecord::None;
  IdentifierTable &Idents = Def->getASTContext().Idents;
  auto Find = [&](llvm::StringRef Name) -> const IdentifierInfo * {
    auto It = Idents.find(Name);
    return It == Idents.end() ? nullptr : It->getValue();
  };
  const FieldDecl *Deleter = fieldNamed(*Def, Find("deleter"));
  const auto *FnPtr =
      Deleter ? Deleter->getType()->getAs<PointerType>() : nullptr;
  const auto *Fn =
      FnPtr ? FnPtr->getPointeeType()->getAs<FunctionProtoType>() : nullptr;
  if (!Fn || Fn->getNumParams() != 1)
    return DLPackRecord::None;
  const auto *Param = Fn->getParamType(0)->getAs<PointerType>();
  const RecordDecl *Self =
      Param ? Param->getPointeeType()->getAsRecordDecl() : nullptr;
  if (!Self || Self->getCanonicalDecl() != Def->getCanonicalDecl())
    return DLPackRecord::None;
  // The context: `manager_ctx`, or in a copy that renamed it, a `void *`
  // beside a record laid out as a tensor (`data` and `shape` pointers), so
  // that any record with a self-deleter and user data is not a tensor.
  const FieldDecl *Ctx = fieldNamed(*Def, Find("manager_ctx"));
  if (!Ctx || !Ctx->getType()->isPointerType()) {
    auto IsPointer = [&](const RecordDecl &R, llvm::StringRef Name) {
      const FieldDecl *F = fieldNamed(R, Find(Name));
      return F && F->getType()->isPointerType();
    };
    bool VoidContext = false, TensorLayout = false;
    for (const FieldDecl *F : Def->fields()) {
      VoidContext |= F->getType()->isVoidPointerType();
      if (const RecordDecl *R = F->getType()->getAsRecordDecl())
        if (const RecordDecl *RDef = R->getDefinition())
          TensorLayout |= IsPointer(*RDef, "data") && IsPointer(*RDef, "shape");
    }
    if (!VoidContext || !TensorLayout)
      return DLPackRecord::None;
  }
  return fieldNamed(*Def, Find("version"))
             ? DLPackRecord::ManagedTensorVersioned
             : DLPackRecord::ManagedTensor;
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
  if (!RD)
    return DLPackRecord::None;
  llvm::StringRef Name = tagName(RD);
  DLPackRecord ByName =
      Name.empty() ? DLPackRecord::None : classifyDLPackRecordName(Name);
  if (ByName != DLPackRecord::None)
    return ByName;
  if (DLPackRecord ByTypedef = classifyByTypedef(*RD, Name);
      ByTypedef != DLPackRecord::None)
    return ByTypedef;
  return classifyManagedLayout(*RD);
}

DLPackRecord classifyDLPackType(QualType T) {
  if (T.isNull())
    return DLPackRecord::None;
  T = T.getNonReferenceType().getCanonicalType().getUnqualifiedType();
  return classifyDLPackRecord(T->getAsRecordDecl());
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
