//===--- DLPackCheckSupport.h - what every DLPack check does ----*- C++ -*-===//
//
// The DLPack checks share one shape: match function definitions, keep only
// those that touch DLPack fields (the cheap pre-filter), look up the model's
// facts (computed once per function for all checks), and turn some of them
// into diagnostics. This header holds the shared first three steps.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_DLPACKCHECKSUPPORT_H
#define INTEROP_LIB_DLPACKCHECKSUPPORT_H

#include "DLPackFlowModel.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"

#include <string>

namespace clang::interop {

/// Function definitions outside system headers, bound to "fn".
ast_matchers::DeclarationMatcher dlpackFunctionMatcher();

/// The pre-filter as a matcher: reads of the DLPack fields the field model
/// reports on, outside system headers, with their enclosing function bound
/// to "fn". Only functions that touch DLPack ever reach a check.
ast_matchers::StatementMatcher dlpackFieldUseMatcher();

/// The facts for the function bound to "fn", or null when it does not touch
/// DLPack at all (the pre-filter) or is not analysable code.
const DLPackFacts *
dlpackFactsFor(const ast_matchers::MatchFinder::MatchResult &Result,
               const DLPackModelConfig &Config = {});

/// "function 'f' was not analysed: <reason>" for a skipped function.
std::string describeSkippedFunction(const FunctionDecl &FD,
                                    const DLPackFacts &Facts);

} // namespace clang::interop

#endif // INTEROP_LIB_DLPACKCHECKSUPPORT_H
