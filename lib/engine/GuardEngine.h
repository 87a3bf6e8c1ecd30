//===--- GuardEngine.h - facts a guard proves in the syntax -----*- C++ -*-===//
//
// The engine under the syntactic proofs in front of the flow analyses
// (lib/arraydevice/ArrayDeviceSyntaxProofs.h for the array/device checks,
// lib/dlpackfields/DLPackFieldSyntaxProofs.h for the DLPack field checks).
// Correct code nearly always establishes a fact right
// where it needs it, in one of a few shapes:
//
//   if (guard) use();
//   if (!guard) return;            // or continue, break, throw, a noreturn
//   use();                         // call, assert(guard)
//   require(guard); use();         // a validator that returns only if true
//   const bool ok = guard; if (!ok) return; use();
//   guard ? use() : fallback();    guard && use();    while (guard) use();
//
// When nothing between the guard and the use can change what the guard
// tested, the fact holds at the use on every path, which is what a flow
// analysis would conclude at several times the cost. GuardScan walks a body
// once, keeping the chain of statements around each node and refusing
// constructs that can jump past a guard; GuardProof reads the conditions
// along a chain. What a guard tests is the client's: it answers for the
// atomic conditions (comparisons, calls, pointers and integers tested for
// non-zero) and the engine handles !, &&, ||, casts to bool and stored
// bools.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_ENGINE_GUARDENGINE_H
#define INTEROP_LIB_ENGINE_GUARDENGINE_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::interop {

/// The statements enclosing a node, outermost first.
using StmtChain = llvm::SmallVector<const Stmt *, 16>;

/// A statement after which control never reaches the next one: a jump, a
/// noreturn call, or a block containing one.
bool neverFallsThrough(const Stmt *S);

/// One walk over a function body that keeps the chain of statements around
/// each node, and refuses the function at the first construct that lets
/// control past a guard: goto, asm, coroutines, SEH, blocks, and case labels
/// anywhere but directly in their switch's body. A lambda's body is a
/// function of its own and is not walked (its capture initialisers are); a
/// capture by reference is reported to capturedByRef().
class GuardScan {
public:
  virtual ~GuardScan() = default;

  void walk(const Stmt *S);

  bool Refused = false;
  /// Variables that may change after their initialisation: assigned,
  /// incremented, bound to a non-const reference, address taken, captured by
  /// reference. Subclasses may add to it (a non-const member call).
  llvm::DenseSet<const VarDecl *> Written;

protected:
  /// How a statement may change the object an expression denotes.
  enum class Change {
    /// Assigned (=, op=, an operator= call), incremented or decremented.
    Assigned,
    /// Its address taken, or bound to a non-const reference (a local, or a
    /// parameter of a call or constructor): it may change through that.
    Bound,
  };
  /// Called for every such change before inspect(S) of the statement that
  /// makes it; the variable E names is already in Written.
  virtual void changes(const Expr &E, Change How) {}
  /// Called on every statement before its children; Stack holds the
  /// statements around it.
  virtual void inspect(const Stmt *S) = 0;
  /// A by-reference capture of V (V is already in Written); false refuses
  /// the function.
  virtual bool capturedByRef(const VarDecl &V) = 0;

  StmtChain Stack;

private:
  void findChanges(const Stmt *S);
  void changed(const Expr *E, Change How);
  void caseLabel();
  void lambda(const class LambdaExpr &L);
  unsigned Nodes = 0;
};

/// Reads the conditions around a statement. `Atom(C, Value)` answers whether
/// the condition C evaluating to Value proves the fact wanted; the engine
/// calls it for every condition that is not !, &&, ||, a cast to bool or a
/// local bool initialised once (those it looks through itself). C has its
/// parentheses, implicit casts and temporaries stripped. A call of a void
/// function standing as a statement before the node is asked as a condition
/// that is true: whether returning from it proves the fact (a validator
/// that throws or aborts otherwise, `require_host(t);`).
class GuardProof {
public:
  using AtomFn = llvm::function_ref<bool(const Expr *C, bool Value)>;

  /// `Written`: the variables of FD that may change (GuardScan::Written); a
  /// stored bool among them proves nothing.
  GuardProof(const FunctionDecl &FD,
             const llvm::DenseSet<const VarDecl *> &Written)
      : FD(FD), Written(Written) {}

  /// True when some statement around Node (Above: the statements around it,
  /// outermost first) lets control reach Node only where the fact holds.
  /// The caller vouches that nothing between a guard and Node changes what
  /// the guard tested.
  bool guarded(llvm::ArrayRef<const Stmt *> Above, const Stmt *Node,
               AtomFn Atom);

  /// Whether the condition C evaluating to Value proves the fact.
  bool implies(const Expr *C, bool Value, AtomFn Atom, unsigned Depth = 0);

  /// D when it is a parameter or local variable of FD itself (not of an
  /// enclosing function, not static), null otherwise.
  const VarDecl *localOf(const VarDecl *D) const;

private:
  bool guardsChild(const Stmt *Parent, const Stmt *Child, AtomFn Atom);
  bool guardsAfter(const Stmt *S, AtomFn Atom);

  const FunctionDecl &FD;
  const llvm::DenseSet<const VarDecl *> &Written;
  /// Conditions and statements read so far; past a bound nothing more is
  /// proven (see MaxConditions).
  unsigned Conditions = 0;
};

} // namespace clang::interop

#endif // INTEROP_LIB_ENGINE_GUARDENGINE_H
