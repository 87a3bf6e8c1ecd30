//===--- DLPackEventCollector.h - the field model's judge -------*- C++ -*-===//
//
// Turns the DLPack field model's recorded states into events: after the
// fixpoint, each statement that may have events is judged in the state of
// its last visit (what a diagnosis pass over every block would see, without
// that pass). Read-only: it asks the solver and never changes a state.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_DLPACKFIELDS_DLPACKEVENTCOLLECTOR_H
#define INTEROP_LIB_DLPACKFIELDS_DLPACKEVENTCOLLECTOR_H

#include "lib/dlpackfields/DLPackCallerGuards.h"
#include "lib/dlpackfields/DLPackFieldEvents.h"
#include "lib/dlpackfields/DLPackFieldValues.h"
#include "lib/dlpackfields/DLPackLayoutFillers.h"
#include "lib/support/LocalStores.h"

#include "clang/Analysis/FlowSensitive/DataflowEnvironment.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace clang::interop {

class DLPackEventCollector {
public:
  explicit DLPackEventCollector(dlpackfield::RunContext &RC) : RC(RC) {}

  /// Whether St can have events in this state, without any SAT query: what
  /// decides whether the state is kept for judge().
  bool mayReport(const Stmt *St, const dataflow::Environment &Env);

  /// The events at St, in the state after it.
  llvm::SmallVector<DLPackEvent> judge(const Stmt *St,
                                       const dataflow::Environment &Env);

private:
  void accessed(const Expr *Use, const Expr *Base,
                const dataflow::Environment &Env,
                llvm::SmallVectorImpl<DLPackEvent> &Out);

  void addressTest(const BinaryOperator *BO, const dataflow::Environment &Env,
                   llvm::SmallVectorImpl<DLPackEvent> &Out);

  /// The function names byte_offset somewhere (copies it along, applies it
  /// later): its body and initialisers walked once per run.
  bool functionNamesByteOffset(const dataflow::Environment &Env);

  /// The pointer member St initialises, when St is the expression of one
  /// of the constructor's initialisers.
  const FieldDecl *initialisedMember(const Stmt *St,
                                     const dataflow::Environment &Env);

  /// Stored (a data pointer, maybe) kept in an object's Member (of `this`
  /// when ByThis).
  void kept(const Expr *Stored, const FieldDecl *Member, bool ByThis,
            const dataflow::Environment &Env,
            llvm::SmallVectorImpl<DLPackEvent> &Out);

  void called(const Expr *Call, const FunctionDecl *Callee,
              llvm::ArrayRef<const Expr *> Args,
              const dataflow::Environment &Env,
              llvm::SmallVectorImpl<DLPackEvent> &Out);

  void tensorArgument(const Expr *Call, const FunctionDecl *Callee, unsigned I,
                      const Expr *Arg, const dataflow::Environment &Env,
                      llvm::SmallVectorImpl<DLPackEvent> &Out);

  void dataFacts(DLPackEvent &E, dataflow::Value &D,
                 const dataflow::Environment &Env);

  void versionedAccess(const MemberExpr *ME, const dataflow::Environment &Env,
                       llvm::SmallVectorImpl<DLPackEvent> &Out);

  /// The strides value V, read at Read, is known not to be NULL here: the
  /// library's own tensor object, a NULL test on this path, or every
  /// caller's test (the one rule for a dereference and for a range).
  bool stridesNonNull(const dataflow::Value &V, const Expr *Read,
                      const dataflow::Environment &Env);

  /// What Read (a strides or data read) needs is tested by every caller of
  /// the function (callerGuards), asked once per read.
  bool guardedByCallers(const Expr *Read, CallerTest Test,
                        const dataflow::Environment &Env);

  /// Proofs are SAT queries; a dry run answers "maybe" without asking.
  bool holds(const dataflow::Environment &Env,
             const dataflow::Formula &F) const;
  bool propHolds(const dataflow::Environment &Env, const dataflow::Value *V,
                 llvm::StringRef Name, bool Negated = false) const;

  /// Arg names a local that a helper filled with the layout of the tensor
  /// whose record is Owner (DLPackLayoutFillers, made on first use).
  bool filledWithLayoutOf(const Expr *Arg,
                          const dataflow::StorageLocation *Owner,
                          const dataflow::Environment &Env);

  /// Sets E's facts about what a call passes beside the data (Others: its
  /// other arguments): the layout, the shape alone, the whole tensor,
  /// byte_offset.
  void besideData(DLPackEvent &E, llvm::ArrayRef<const Expr *> Others,
                  const dataflow::StorageLocation *Owner,
                  const LocalStores &Locals, const dataflow::Environment &Env);
  /// For each call in Func's body that passes the holder of the data (an
  /// argument Names accepts: the holder variable, a copy or move of it, or
  /// the holder made in place), its other arguments.
  static llvm::SmallVector<llvm::SmallVector<const Expr *, 8>, 2>
  argumentsBeside(llvm::function_ref<bool(const Expr *)> Names,
                  const Decl *Func);

  bool DryRun = false;
  dlpackfield::RunContext &RC;
  std::optional<DLPackLayoutFillers> Fillers;
};

} // namespace clang::interop

#endif // INTEROP_LIB_DLPACKFIELDS_DLPACKEVENTCOLLECTOR_H
