//===--- AstHelpers.h - what every analysis asks of the AST -----*- C++ -*-===//
//
// Small questions about expressions and statements that every layer above
// asks (the guard engine, the three families, the checks): what an
// expression names once casts and temporaries are stripped, the receiver
// and parameter types of a call, constants, jumps. Nothing here knows DLPack
// or the array API.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_SUPPORT_ASTHELPERS_H
#define INTEROP_LIB_SUPPORT_ASTHELPERS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/OperationKinds.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/Diagnostic.h"
#include "llvm/ADT/APSInt.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace clang::interop {

//===----------------------------------------------------------------------===//
// What an expression is, under its wrappers
//===----------------------------------------------------------------------===//

/// E without parentheses, implicit casts, cleanups and temporaries
/// (ExprWithCleanups, MaterializeTemporaryExpr, CXXBindTemporaryExpr): the
/// expression that names or makes the value.
const Expr *ignoreTemporaries(const Expr *E);

/// Strips parentheses and casts that keep a pointer's or integer's identity
/// (no-op, bit, integral, lvalue-to-rvalue, and their explicit spellings).
const Expr *stripIdentityCasts(const Expr *E);

/// E under the copies and moves that keep its value: temporaries, a copy or
/// move construction (a by-value argument, `T(x)`) and `std::move(x)`; the
/// expression that names or makes the value copied.
const Expr *underCopies(const Expr *E);

/// The variable an expression names, through a copy or move of it
/// (`std::move(v)` included); null for anything else and, unless Captures,
/// for a capture of an enclosing function's variable (a lambda is judged as
/// a function of its own; one whose body is read where it is called names
/// the enclosing function's variables).
const VarDecl *namedVar(const Expr *E, bool Captures = false);

/// The pointer a call calls through, parentheses and a dereference
/// stripped: `t->deleter` of `t->deleter(t)` and of `(*(t->deleter))(t)`,
/// so that a test of the pointer is found on the expression the call reads.
const Expr *calledPointer(const CallExpr &Call);

/// The declaration E names (through parentheses and casts) when it is a
/// DeclRefExpr; null otherwise.
const ValueDecl *referencedDecl(const Expr *E);

/// Whether S names V anywhere (a release before S would free what S
/// reads).
bool mentionsVariable(const Stmt *S, const ValueDecl *V);

/// The variable a member chain starts from: `mt` in `mt->dl_tensor.data`
/// (through parentheses and implicit casts); null when the chain starts
/// from anything else.
const ValueDecl *memberChainRoot(const Expr *E);

/// A member chain from a variable: `mt->dl_tensor.strides` is mt followed
/// by dl_tensor and strides.
struct MemberChain {
  const ValueDecl *Root = nullptr;
  llvm::SmallVector<const FieldDecl *, 4> Fields;
  bool operator==(const MemberChain &O) const {
    return Root == O.Root && Fields == O.Fields;
  }
};

/// E as a member chain, through `*`, `&`, `->` and `.`, and through a local
/// reference bound by its initialiser to another chain (with
/// FollowPointers, a local pointer initialised with one too: the caller
/// knows it is not reassigned where it matters); nullopt when E is no
/// chain. Values through variables, once for every family that compares
/// or roots a chain.
std::optional<MemberChain> memberChainOf(const Expr *E,
                                         bool FollowPointers = false);

/// The parameter E names, through `*p`, a smart pointer's `*` and `->`,
/// parentheses and implicit casts; null for anything else.
const ParmVarDecl *parameterNamedBy(const Expr *E);

/// `std::make_shared<T>(a)`, `std::make_unique<T>(a)`: the constructor of T
/// the factory forwards its arguments to, so that the call is also a call
/// of that constructor (its arguments are the constructor's, and what the
/// constructor takes by value the factory's forwarding reference does not
/// change). The construction itself lies in a system header; the
/// constructor is the one whose parameters take the arguments' types
/// exactly (after references and qualifiers), when one alone does. Null
/// otherwise.
const CXXConstructorDecl *forwardedConstructor(const CallExpr &CE);

/// T, when CE is `std::make_unique<T>(...)` or `std::make_shared<T>(...)`;
/// null otherwise. The one recognition of the factories, for
/// forwardedConstructor and for the object such a smart pointer holds
/// (engine/CallResults, smartPointerMade).
QualType smartPointerFactoryType(const CallExpr &CE);

/// RD's specialisation when RD is the standard library's `std::unique_ptr`
/// or `std::shared_ptr` (whatever it holds); null otherwise. The one
/// recognition of the owning smart pointers by name.
const ClassTemplateSpecializationDecl *stdSmartPointer(const CXXRecordDecl *RD);

/// A temporary (nothing else can observe a change made through it).
bool isTemporary(const Expr *E);

bool isNonConstReference(QualType T);

/// The enumerator an expression names (through a default argument), if it
/// is one.
const EnumConstantDecl *enumerator(const Expr *E);

/// The value of E when it is an integer constant (a literal, an enumerator,
/// a constexpr or a macro expanding to one); nullopt otherwise, and for a
/// dependent E.
std::optional<llvm::APSInt> integerConstant(const Expr *E,
                                            const ASTContext &Ctx);

/// True when E is a null pointer constant (nullptr, NULL, 0).
bool isNullConstant(const Expr *E, ASTContext &Ctx);

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

/// The receiver of a member or member-operator call (null for any other).
const Expr *receiverOf(const CallExpr &CE);

/// The type of parameter I of the callee (the argument's own type for
/// variadic arguments).
QualType paramType(const CallExpr &CE, unsigned I);

/// A call of a non-static, non-const member function on a receiver.
bool isNonConstMemberCall(const CallExpr &CE);

/// The callee as a diagnostic names it, quoted: its name without
/// template arguments (a lambda's type would print the path of its file),
/// and for a constructor the class it constructs (`'unique_ptr'`);
/// for an indirect call (FD null), "a function pointer".
std::string calleeNameForDiagnostic(const FunctionDecl *FD);

//===----------------------------------------------------------------------===//
// Constructors
//===----------------------------------------------------------------------===//

/// Calls F with the expression of every member and base initialiser of FD
/// when it is a constructor, in order: what it writes in its initialiser
/// list, and the default member initialiser (the in-class `= expr`) of each
/// member it does not initialise itself. Nothing for other functions.
void forEachInitializerExpr(const FunctionDecl &FD,
                            llvm::function_ref<void(const Expr &)> F);

//===----------------------------------------------------------------------===//
// Control flow and comparisons
//===----------------------------------------------------------------------===//

/// True when control never continues past S to the next statement: a
/// break, return, continue, goto, or an expression that never completes
/// (neverReturns).
bool isJump(const Stmt *S);

/// True for an expression that never completes: a throw, a direct call of a
/// noreturn function, a construction that ends the path
/// (constructionEndsPath), or an expression that evaluates one of those
/// whatever its operands are (not in a conditional operator's arm, the
/// right-hand side of `&&`/`||`, or a lambda's body).
bool neverReturns(const Expr &E);

/// S never completes normally: an expression that never returns, or a
/// block whose last non-empty statement is one.
bool alwaysExits(const Stmt *S);

/// The object E makes ends the path when its full expression ends: its
/// class's destructor never returns (declared noreturn, or a visible body
/// that always exits: a logger that throws or aborts as it is destroyed),
/// or E is a logger made with a fatal severity (an argument that is an
/// enumerator or constant named FATAL, kFatal, GLOG_FATAL, ...) whose
/// user-written destructor is out of sight or exits on some path: the
/// LOG(FATAL) of glog-style logging libraries.
bool constructionEndsPath(const CXXConstructExpr &E);

/// The operator that compares the same operands the other way round (`a < b`
/// is `b > a`); any other operator is returned as it is. Not
/// BinaryOperator::reverseComparisonOp, which is unreachable for C++20's
/// `<=>`, a comparison by isComparisonOp().
BinaryOperatorKind mirroredComparison(BinaryOperatorKind Op);

/// `L Op R` for a comparison operator (false for any other, and for `<=>`).
template <typename T>
bool evaluateComparison(BinaryOperatorKind Op, const T &L, const T &R) {
  switch (Op) {
  case BO_EQ:
    return L == R;
  case BO_NE:
    return L != R;
  case BO_LT:
    return L < R;
  case BO_GT:
    return L > R;
  case BO_LE:
    return L <= R;
  case BO_GE:
    return L >= R;
  default:
    return false;
  }
}

//===----------------------------------------------------------------------===//
// Macros
//===----------------------------------------------------------------------===//

/// The lambda expression in Body whose closure class is Closure (where the
/// lambda is made), or null.
const LambdaExpr *lambdaOfClosure(const CXXRecordDecl &Closure,
                                  const Stmt *Body);

/// The lambda a local variable holds: one initialised with a lambda of the
/// variable's own closure type, or with a copy of such a variable (nothing
/// else has that type, so whatever happens later it calls that lambda).
const LambdaExpr *heldLambda(const VarDecl *Var);

/// The lambda Call runs when it calls, by name, a lambda made in the same
/// function (`auto consume = [&] {...}; ... consume();`): a local variable
/// initialised with the lambda and never assigned, or the lambda itself.
/// Its body is then part of the caller at the call, where what it does to
/// the variables it captures happens. Null for any other call.
const LambdaExpr *calledLocalLambda(const CallExpr &Call);

//===----------------------------------------------------------------------===//
// Where a fix-it may insert a statement
//===----------------------------------------------------------------------===//

/// The statements directly inside the blocks (`{...}`) of Body: one walk of
/// a function with a finding, where the translation unit's parent map would
/// cost every run.
llvm::SmallPtrSet<const Stmt *, 32> blockStatements(const Stmt *Body);

/// The bodies of Body's ifs, elses and loops written without braces (`if
/// (c) return x;`): a statement inserted before one needs braces around
/// both.
llvm::SmallPtrSet<const Stmt *, 8> unbracedBodies(const Stmt *Body);

/// The edits that insert Code (a statement) so that it runs right before S:
/// a line of its own when S is a statement of a block (Blocks), braces
/// around both when S is an unbraced body (Unbraced); none when S is
/// neither, or is written by a macro.
llvm::SmallVector<FixItHint, 2>
insertBefore(const Stmt &S, llvm::StringRef Code,
             const llvm::SmallPtrSetImpl<const Stmt *> &Blocks,
             const llvm::SmallPtrSetImpl<const Stmt *> &Unbraced,
             ASTContext &Ctx);

/// The innermost statement of Blocks (blockStatements()) whose source range
/// holds E, when it is an expression statement or a declaration (E is then
/// evaluated by it, not by a condition, a loop or a return); null otherwise.
const Stmt *
evaluatingBlockStatement(const Expr &E,
                         const llvm::SmallPtrSetImpl<const Stmt *> &Blocks,
                         const SourceManager &SM);

/// Where a new statement goes after S (a statement of a block, with its
/// semicolon) and the text that starts its line at S's indentation; an
/// invalid location when S is written by a macro.
std::pair<SourceLocation, std::string> afterStatement(const Stmt &S,
                                                      ASTContext &Ctx);

/// The declarations a qualified name (`interop::gather`, a leading "::"
/// allowed) names in Ctx's translation unit, looked up namespace by
/// namespace from the top; empty when a scope on the way is no namespace.
llvm::SmallVector<const NamedDecl *, 2> declsNamed(ASTContext &Ctx,
                                                   llvm::StringRef Qualified);

/// True when Loc comes from the expansion of one of Macros (at any depth).
bool isInMacroExpansion(SourceLocation Loc, const SourceManager &SM,
                        const LangOptions &LO,
                        llvm::ArrayRef<std::string> Macros);

} // namespace clang::interop

#endif // INTEROP_LIB_SUPPORT_ASTHELPERS_H
