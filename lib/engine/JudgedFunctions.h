//===--- JudgedFunctions.h - the functions the checks judge -----*- C++ -*-===//
//
// Which functions are judged, decided once for every family: the matcher
// every check base registers, the predicate that keeps a matched function,
// and the gate in front of each family's syntactic proof and flow analysis.
// Checks match function definitions, never calls or fields with
// `forFunction`: that would make clang-tidy build the parent map of the
// whole translation unit; each family scans a kept body once instead.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_ENGINE_JUDGEDFUNCTIONS_H
#define INTEROP_LIB_ENGINE_JUDGEDFUNCTIONS_H

#include "lib/engine/SkipReason.h"

#include "clang/AST/Decl.h"
#include "clang/ASTMatchers/ASTMatchers.h"

namespace clang::interop {

/// Function definitions outside system headers (lambda call operators and
/// template instantiations included), neither implicit nor defaulted, bound
/// to "fn".
ast_matchers::DeclarationMatcher judgedFunctionMatcher();

/// True for a definition the checks judge: it has a body, is not a template
/// pattern (instances are judged one by one) and is a valid declaration
/// (the compiler reports invalid code itself).
bool isJudgedFunction(const FunctionDecl &FD);

/// Why no family analyses FD (None when they can): it has no body, it is a
/// template pattern, or it does not compile. A translation unit with errors
/// has recovery expressions whose CFG and values mean nothing, so today any
/// error in the translation unit skips every function in it.
SkipReason whyNotAnalysable(const FunctionDecl &FD);

} // namespace clang::interop

#endif // INTEROP_LIB_ENGINE_JUDGEDFUNCTIONS_H
