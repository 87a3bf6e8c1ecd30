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

namespace clang {
class Preprocessor;
class SourceManager;
} // namespace clang

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
/// template pattern, or it does not compile. Compile errors are judged per
/// function, as editors need (they lint code with errors all day, and a
/// missing generated header makes every file that includes it fail): a
/// function is skipped when it is an invalid declaration, when its
/// parameters, member initialisers or body hold an expression that contains
/// errors or an invalid declaration (recovery expressions, whose CFG and
/// values mean nothing), or, where recordCompileErrors() was called, when the
/// compiler reported an error inside its source range (clang drops a statement
/// with a syntax error or a name in an undeclared namespace, and a member
/// initialiser that does not compile, without a trace in the AST). Functions
/// elsewhere in the translation unit are analysed. After a fatal error the
/// compiler reports nothing more, and only the AST tells; warnings turned into
/// errors (-Werror) do not count.
SkipReason whyNotAnalysable(const FunctionDecl &FD);

/// True for a definition that is no judged function only because it does
/// not compile: it has a body, is not a template pattern, and is an invalid
/// declaration (a return type from a missing header). Its statements that
/// compile (statementDoesNotCompile) still say what the function does, e.g.
/// which function a capsule it makes gets as its destructor.
bool isUncompiledDefinition(const FunctionDecl &FD);

/// Whether S is code that does not compile, by the same tests as a
/// function's body in whyNotAnalysable(): an expression in it that contains
/// errors, an invalid declaration, or (where recordCompileErrors() was
/// called) an error the compiler reported inside S's source range.
bool statementDoesNotCompile(const Stmt &S, const ASTContext &Ctx);

/// True for a helper whose body a same-TU summary may read (both families'
/// summaries ask this): an analysable definition (whyNotAnalysable) outside
/// system headers, not a template instance, and not a lambda's call
/// operator (its captures are not parameters; unless LambdaCallOperator,
/// for a lambda that is an algorithm's predicate, where the captures are the
/// enclosing function's), a constructor, a destructor or a non-const member
/// (which may change the object it is called on).
bool isSameTUHelper(const FunctionDecl &FD, const SourceManager &SM,
                    bool LambdaCallOperator = false);

/// Records, for whyNotAnalysable(), where the compiler reports errors in the
/// translation unit PP preprocesses: every diagnostic still reaches the
/// consumer it went to before, unchanged. Called by every check base before
/// parsing (registerPPCallbacks); once per translation unit is enough, and
/// later calls do nothing.
void recordCompileErrors(Preprocessor &PP);

} // namespace clang::interop

#endif // INTEROP_LIB_ENGINE_JUDGEDFUNCTIONS_H
