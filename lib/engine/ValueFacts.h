//===--- ValueFacts.h - value properties with one meaning -------*- C++ -*-===//
//
// What values mean to every family, built once: the properties of a
// dataflow value that mean the same thing to every family, under one name,
// and the transfer cases every family's table starts with (valueCases()),
// so that a value keeps its meaning through variables and spellings the
// framework does not follow by itself.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_ENGINE_VALUEFACTS_H
#define INTEROP_LIB_ENGINE_VALUEFACTS_H

#include "lib/engine/CallResults.h"
#include "lib/engine/ExitConditions.h"
#include "lib/engine/StmtSwitch.h"
#include "lib/support/AstHelpers.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Analysis/FlowSensitive/DataflowEnvironment.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

namespace clang::interop {

/// A pointer value's "is NULL" atom (a BoolValue property): true on the
/// paths where the pointer is NULL.
inline constexpr llvm::StringLiteral kNull = "interop.null";

/// V's kNull atom, made on first use.
dataflow::BoolValue &nullAtomOf(dataflow::Value &V, dataflow::Environment &Env);

/// At a join: Joined's boolean property Name (a fact such as kNull) is V1's
/// on E1's paths and V2's on E2's. One value when both sides share it (no
/// new atom, no constraint for the solver); else a fresh atom equal to each
/// side's. A side without the property leaves the fact free on its paths
/// (a pointer NULL on one arm of an if and an export's result on the
/// other); with NeedBoth, such a join keeps no fact at all.
void joinBoolProperty(llvm::StringRef Name, const dataflow::Value &V1,
                      const dataflow::Environment &E1,
                      const dataflow::Value &V2,
                      const dataflow::Environment &E2, dataflow::Value &Joined,
                      dataflow::Environment &JoinedEnv, bool NeedBoth);

/// The synthetic fields of a record of type T, for a family whose
/// synthetic-field callback for one type is Own: Own's for T and for each
/// of T's base classes. The framework initialises a base subobject (the
/// base initialiser of a class derived from DLTensor) through the derived
/// object's location, asking for the base type's synthetic fields there,
/// so the derived object must hold them too; every family's callback goes
/// through here.
llvm::StringMap<QualType> syntheticFieldsWithBases(
    QualType T, ASTContext &Ctx,
    llvm::function_ref<llvm::StringMap<QualType>(QualType)> Own);

/// The synthetic field Name of Loc, or null when Loc has none (its type is
/// not one the family's synthetic-field callback names: a record recognised
/// only later, or reached through a cast). Every family asks here rather
/// than getSyntheticField(), which asserts.
dataflow::StorageLocation *
syntheticField(const dataflow::RecordStorageLocation *Loc,
               llvm::StringRef Name);

/// The truth of a comparison whose constant operand may hold any of
/// several values (a local chosen between constants: LocalValues.h), given
/// PerChoice, the comparison's truth for each of them. One choice: that
/// formula itself. Several: a fresh atom whose truth implies one of
/// PerChoice and whose falsity the failure of one of them, since which
/// choice the operand holds is not known. PerChoice must not be empty.
const dataflow::Formula &
oneOfChoices(llvm::ArrayRef<const dataflow::Formula *> PerChoice,
             dataflow::Environment &Env);

/// `flag == 0`, `flag != 0`, `0 == flag`: `flag` an integer holding a truth
/// value (a BoolValue: the C API's predicates return int, as
/// PyCapsule_IsValid does, and a family models the result as a truth), kept
/// in an int variable or not. The framework compares such values as
/// unknown integers.
bool isTruthComparison(const BinaryOperator &E,
                       const dataflow::Environment &Env);
/// The comparison's value: the truth, or its negation.
void transferTruthComparison(const BinaryOperator &E,
                             dataflow::Environment &Env);

/// `p = nullptr`, `T *p = NULL`: the framework's null pointer value of the
/// type is NULL; marked so (kNull true) once, for every family, so that a
/// pointer joined from a NULL arm and a read keeps which arm was NULL.
void markNullPointer(const CastExpr &E, dataflow::Environment &Env);

/// Values through variables at a join: a pointer assigned in both arms of an
/// if (`void *payload; if (v) payload = a; else payload = b;`) reaches the
/// code after the if as a new value the framework made at the join, which
/// no family tracks. Recorded at the join (a family's `join` hook), it is
/// each value it came from, under the condition of the paths that brought
/// it; a choice of choices is flattened.
class ValueChoices {
public:
  struct Choice {
    const dataflow::Value *V;
    /// The paths on which the joined value is V.
    const dataflow::Formula *When;
  };

  /// Joined is V1 on E1's paths and V2 on E2's; recorded when Tracked holds
  /// for a value on either side (or a side is itself a choice).
  void join(const dataflow::Value &V1, const dataflow::Environment &E1,
            const dataflow::Value &V2, const dataflow::Environment &E2,
            dataflow::Value &Joined, dataflow::Environment &JoinedEnv,
            llvm::function_ref<bool(const dataflow::Value &)> Tracked);

  /// What V stands for, each with its condition; empty when V is no choice.
  llvm::ArrayRef<Choice> of(const dataflow::Value &V) const;

  /// To is From under another static type (`static_cast<DLManagedTensor *>
  /// (payload)` of a joined `void *`): the framework gives the cast a new
  /// value, which stands for the same choices. False when From is none.
  bool cast(const dataflow::Value &From, const dataflow::Value &To);

private:
  llvm::DenseMap<const dataflow::Value *, llvm::SmallVector<Choice, 2>> Map;
};

/// Values through joins of pointers: two different pointers to records (a
/// tensor pointer made afresh in each iteration of a loop, or assigned in
/// both arms of an if) reach the join as a new pointer to a new record,
/// whose fields the framework knows nothing of, so everything a family
/// learnt about `t->strides` before the join would be lost after it. A join
/// keeps, for each field both sides' records hold a value of (depth two),
/// the same value when they agree, else Merge(type, V1, V2): a new value
/// with the family's facts of both sides joined (its `join`), or null to
/// leave the field alone. The framework builds the joined state's values
/// after the family's join hook returns, so the kept values wait here and
/// are put in place when the field is first read (valueAt).
class JoinedFields {
public:
  void join(const dataflow::Value &V1, const dataflow::Environment &E1,
            const dataflow::Value &V2, const dataflow::Environment &E2,
            dataflow::Value &Joined,
            llvm::function_ref<dataflow::Value *(QualType, dataflow::Value &,
                                                 dataflow::Value &)>
                Merge);
  /// join() with the family's own join hook as Merge: a field's kept value
  /// is a new one whose facts are both sides' joined by ModelT::join.
  template <typename ModelT>
  void joinWith(ModelT &Model, const dataflow::Value &V1,
                const dataflow::Environment &E1, const dataflow::Value &V2,
                const dataflow::Environment &E2, dataflow::Value &Joined,
                dataflow::Environment &JoinedEnv) {
    join(V1, E1, V2, E2, Joined,
         [&](QualType T, dataflow::Value &F1,
             dataflow::Value &F2) -> dataflow::Value * {
           dataflow::Value *F = JoinedEnv.createValue(T);
           if (F)
             Model.join(T, F1, E1, F2, E2, *F, JoinedEnv);
           return F;
         });
  }
  /// L's value in Env: its own, else the one a join kept for it, else a
  /// new one (both then set in Env); null for a type without values.
  dataflow::Value *valueAt(dataflow::StorageLocation &L,
                           dataflow::Environment &Env) const;

private:
  void joinRecords(const dataflow::RecordStorageLocation &R1,
                   const dataflow::Environment &E1,
                   const dataflow::RecordStorageLocation &R2,
                   const dataflow::Environment &E2,
                   dataflow::RecordStorageLocation &Joined, unsigned Depth,
                   unsigned &Budget,
                   llvm::function_ref<dataflow::Value *(
                       QualType, dataflow::Value &, dataflow::Value &)>
                       Merge);
  llvm::DenseMap<const dataflow::StorageLocation *, dataflow::Value *> Kept;
};

/// A transfer table for a family whose state StateT has an `Env` member,
/// starting with the cases every family shares (above, and the callee
/// contracts of lib/engine/ExitConditions.h, which `exitConditionsOf(State)`
/// gives); the family adds its own after them.
template <typename StateT> StmtSwitch<StateT> valueCases() {
  StmtSwitch<StateT> Switch;
  // getTensor()->data: the result of a call is a value inline as it is
  // through a local; the family's own case for the call still runs.
  Switch.template alsoOf<CallExpr>(
      [](const CallExpr &E, StateT &S) { return lacksCallResult(E, S.Env); },
      [](const CallExpr *E, StateT &S) { makeCallResult(*E, S.Env); });
  // auto x = NDArray::Empty(...) (a move before C++17), y = x: the copy's
  // accessors return what the original's did.
  Switch.template alsoOf<CXXConstructExpr>(
      [](const CXXConstructExpr &E, StateT &S) {
        return copiesAccessedObject(E, S.Env);
      },
      [](const CXXConstructExpr *E, StateT &S) { copyCallResults(*E, S.Env); });
  Switch.template alsoOf<CXXOperatorCallExpr>(
      [](const CXXOperatorCallExpr &E, StateT &S) {
        return copiesAccessedObject(E, S.Env);
      },
      [](const CXXOperatorCallExpr *E, StateT &S) {
        copyCallResults(*E, S.Env);
      });
  // DLManagedTensor *m = nullptr; if (valid) m = read(); if (m) ...: the
  // NULL arm's pointer is known NULL at the join.
  Switch.template alsoOf<CastExpr>(
      [](const CastExpr &E, StateT &) {
        return E.getCastKind() == CK_NullToPointer;
      },
      [](const CastExpr *E, StateT &S) { markNullPointer(*E, S.Env); });
  // validate(cond, ...), throw_if(p == nullptr, ...): the condition holds
  // after the call, and the call is still the family's.
  Switch.template alsoOf<CallExpr>(
      [](const CallExpr &E, StateT &S) {
        return exitConditionsOf(S).of(E).has_value();
      },
      [](const CallExpr *E, StateT &S) {
        assumeExitCondition(*E, exitConditionsOf(S), S.Env);
      });
  // LOG(FATAL) << ...: a logger whose destructor never returns ends the
  // path (the CFG ends it only for a destructor declared noreturn).
  Switch.template alsoOf<CXXConstructExpr>(
      [](const CXXConstructExpr &E, StateT &) {
        return constructionEndsPath(E);
      },
      [](const CXXConstructExpr *, StateT &S) {
        S.Env.assume(S.Env.arena().makeLiteral(false));
      });
  Switch.template caseOf<BinaryOperator>(
      [](const BinaryOperator &E, StateT &S) {
        return isTruthComparison(E, S.Env);
      },
      [](const BinaryOperator *E, StateT &S) {
        transferTruthComparison(*E, S.Env);
      });
  return Switch;
}

} // namespace clang::interop

#endif // INTEROP_LIB_ENGINE_VALUEFACTS_H
