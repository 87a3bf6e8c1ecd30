//===--- TranslationUnitNames.h - does a TU spell DLPack at all -*- C++ -*-===//
//
// The cheapest pre-filter of the DLPack families: a translation unit whose
// identifier table holds no DLPack record name and no capsule-API function
// name cannot touch DLPack, so no function in it is scanned.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_ABI_TRANSLATIONUNITNAMES_H
#define INTEROP_LIB_ABI_TRANSLATIONUNITNAMES_H

#include "clang/AST/ASTContext.h"

namespace clang::interop {

/// False when no DLPack record name (DLTensor, DLManagedTensor...) and no
/// PyCapsule function name the checks know was ever spelled in the
/// translation unit: then no function in it can touch DLPack or a DLPack
/// capsule, and the checks skip their per-function scans (what they would
/// otherwise cost code that never uses DLPack). True when identifiers may
/// come from a precompiled preamble or module, which are loaded lazily.
bool translationUnitMayUseDLPack(const ASTContext &Ctx);

} // namespace clang::interop

#endif // INTEROP_LIB_ABI_TRANSLATIONUNITNAMES_H
