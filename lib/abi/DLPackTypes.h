//===--- DLPackTypes.h - recognise the DLPack C ABI by name -----*- C++ -*-===//
//
// The checks must work whatever dlpack.h the user compiles against (0.x with
// DLContext, 0.6+, 1.x, or our backfill), so DLPack types are recognised by
// their record names, never by a declaration from one header; a project's
// own copy of the managed tensor under another name, by its fields.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_ABI_DLPACKTYPES_H
#define INTEROP_LIB_ABI_DLPACKTYPES_H

#include "clang/AST/Decl.h"
#include "clang/AST/Type.h"
#include "llvm/ADT/StringRef.h"

namespace clang::interop {

/// The DLPack records the checks know about.
enum class DLPackRecord {
  None,
  Tensor,                 // DLTensor
  ManagedTensor,          // DLManagedTensor
  ManagedTensorVersioned, // DLManagedTensorVersioned
  Device,                 // DLDevice, or 0.x's DLContext
  DataType,               // DLDataType
  PackVersion,            // DLPackVersion
};

/// Classifies a record name ("DLTensor", "DLContext", ...).
DLPackRecord classifyDLPackRecordName(llvm::StringRef Name);
/// The name a record or enum goes by: its own, or for C's `typedef struct
/// { ... } DLTensor;` the typedef's.
llvm::StringRef tagName(const TagDecl *D);

/// Classifies a record by the name it goes by (tagName) or a typedef beside
/// it gives it (`typedef struct DLDevice_ { ... } DLDevice;`), or, for a
/// project's own copy of the managed-tensor ABI under another name
/// (nanobind's managed_dltensor), by its fields: a `deleter` function pointer
/// taking a pointer to the record and a context (a `manager_ctx` pointer, or
/// under another name a `void *` beside a record with `data` and `shape`
/// pointers) make a managed tensor, the versioned one when it also has a
/// `version` field.
DLPackRecord classifyDLPackRecord(const RecordDecl *RD);

/// Classifies a type after stripping typedefs, references and cv-qualifiers
/// (but not pointers): `const DLTensor &` is a Tensor, `DLTensor *` is None.
DLPackRecord classifyDLPackType(QualType T);

/// Like classifyDLPackType, for the pointee of a pointer type.
DLPackRecord classifyDLPackPointee(QualType T);

/// The C name of a managed-tensor generation ("DLManagedTensorVersioned"
/// for the versioned one, "DLManagedTensor" otherwise).
llvm::StringRef managedTensorName(DLPackRecord R);

/// True for either managed-tensor generation.
inline bool isManagedTensor(DLPackRecord R) {
  return R == DLPackRecord::ManagedTensor ||
         R == DLPackRecord::ManagedTensorVersioned;
}

/// A pointer to a managed tensor of either generation.
inline bool isManagedPointer(QualType T) {
  return isManagedTensor(classifyDLPackPointee(T));
}

} // namespace clang::interop

#endif // INTEROP_LIB_ABI_DLPACKTYPES_H
