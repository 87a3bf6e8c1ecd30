//===--- JudgedFunctions.h - the functions the checks judge -----*- C++ -*-===//
//
// The DLPack checks share one shape: match function definitions, keep only
// those that touch DLPack (the cheap pre-filter, dlpackUseOf), look up the
// model's facts (computed once per function for all checks), and turn some of
// them into diagnostics. This header holds what the check bases in checks/
// need from lib/ for the first three steps.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_ENGINE_JUDGEDFUNCTIONS_H
#define INTEROP_LIB_ENGINE_JUDGEDFUNCTIONS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"

#include <string>

namespace clang::interop {

/// Function definitions outside system headers, bound to "fn". Checks match
/// definitions, never calls or fields with `forFunction`: that would make
/// clang-tidy build the parent map of the whole translation unit.
ast_matchers::DeclarationMatcher dlpackFunctionMatcher();

/// True for a definition the models judge: it has a body, is not an
/// uninstantiated template (instances are judged one by one) and is valid
/// (the compiler reports invalid code itself).
bool isJudgedDefinition(const FunctionDecl &FD);

/// False when no DLPack record name (DLTensor, DLManagedTensor...) and no
/// PyCapsule function name the checks know was ever spelled in the
/// translation unit: then no function in it can touch DLPack or a DLPack
/// capsule, and the checks skip their per-function scans (what they would
/// otherwise cost code that never uses DLPack). True when identifiers may
/// come from a precompiled preamble or module, which are loaded lazily.
bool translationUnitMayUseDLPack(const ASTContext &Ctx);

} // namespace clang::interop

#endif // INTEROP_LIB_ENGINE_JUDGEDFUNCTIONS_H
