//===--- DLPackFields.h - DLPack fields by name -----------------*- C++ -*-===//
//
// Field-level recognisers for the DLPack C ABI, on top of DLPackTypes.h. Every
// generation of dlpack.h names the same fields the same way (0.x calls the
// device `ctx`), so fields are recognised by the owning record's name and the
// field's name, never by a declaration from one header. Device types are
// classified by their raw value, which is stable across generations even where
// the enumerator was renamed (kDLGPU/kDLCUDA, kDLCPUPinned/kDLCUDAHost).
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_ABI_DLPACKFIELDS_H
#define INTEROP_LIB_ABI_DLPACKFIELDS_H

#include "lib/abi/DLPackTypes.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/APSInt.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace clang::interop {

/// The DLPack fields the analyses track.
enum class DLPackField {
  None,
  // DLTensor
  Data,
  Device, // `device`, or 0.x's `ctx`
  NDim,
  DType,
  Shape,
  Strides,
  ByteOffset,
  // DLDevice / DLContext
  DeviceType,
  DeviceId,
  // DLManagedTensor / DLManagedTensorVersioned
  DLTensor, // `dl_tensor`
  ManagerCtx,
  Deleter,
  Version, // versioned only
  Flags,   // versioned only
  // DLPackVersion
  Major,
  Minor,
};

/// Classifies a field by its owning DLPack record and its name; None for
/// fields of other records.
DLPackField classifyDLPackField(const FieldDecl *FD);

/// The record that declares FD, classified (None for non-DLPack records).
DLPackRecord dlpackOwnerOf(const FieldDecl *FD);

/// If E (after parentheses) is a member access of a DLPack field, the field.
DLPackField dlpackFieldOfMember(const Expr *E);

/// True when a member access somewhere in FD's body or constructor
/// initialisers names one of Fields (any DLPack field when Fields is
/// empty); with ReadsOnly, an access that is the target of an assignment
/// (`t.byte_offset = 0`) does not count. One walk; stops at the first.
bool mentionsDLPackField(const FunctionDecl &FD,
                         llvm::ArrayRef<DLPackField> Fields = {},
                         bool ReadsOnly = false);

/// Whether `major Op Bound` (version.major on the left, Bound the constant
/// it is compared with, if it is one) is true for the supported major
/// version, DLPACK_MAJOR_VERSION (1): the polarity of a version test.
/// Against a non-constant bound, ==, <= and >= accept and the others reject.
bool majorComparisonAccepts(BinaryOperatorKind Op,
                            std::optional<std::int64_t> Bound);

/// When C is a comparison of a `version.major` that IsMajor accepts (either
/// side) with a bound, outside the expansion of one of DebugOnlyMacros:
/// whether C being true accepts the supported major version
/// (majorComparisonAccepts). Nothing for any other condition.
std::optional<bool> majorTestAcceptsIfTrue(
    const Expr *C, llvm::function_ref<bool(const Expr *)> IsMajor,
    llvm::ArrayRef<std::string> DebugOnlyMacros, ASTContext &Ctx);

/// The spelling of a field in diagnostics ("byte_offset").
llvm::StringRef dlpackFieldName(DLPackField F);

/// Device types that the host can read and write directly: CPU, CUDA pinned
/// host (0.x's kDLCPUPinned), ROCm pinned host, CUDA managed memory and TPU
/// pinned host. Everything else (including values unknown to this table)
/// needs a device-aware copy.
bool isHostAccessibleDeviceType(std::int64_t Raw);

/// The upstream enumerator name of a device type ("kDLCUDA"), or "" when the
/// value is not one DLPack defines.
llvm::StringRef dlpackDeviceTypeName(std::int64_t Raw);

/// Parses a device type written either as a number or as an enumerator name
/// ("kDLCPU", 0.x's "kDLGPU"); std::nullopt when neither.
std::optional<std::int64_t> parseDLPackDeviceType(llvm::StringRef Text);

/// True when T (after typedefs) is a DLDeviceType enumeration.
bool isDLDeviceTypeEnum(QualType T);

/// True when E reads a device type: t->device.device_type (through casts),
/// a local initialised from one, a one-argument non-bool reader of a DLDevice,
/// or any expression of DLDeviceType type.
bool readsDLPackDeviceType(const Expr *E);

} // namespace clang::interop

#endif // INTEROP_LIB_ABI_DLPACKFIELDS_H
