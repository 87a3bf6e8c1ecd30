//===--- DLPackFieldMarks.h - field values and what they carry -*- C++ -*-===//
//
// The DLPack field model's values: which fields it tracks, the markers and
// atoms a field's value carries (DLPackFieldValues.h), how they move with a
// value (copies, casts, assignments) and become a producer's own, and the
// truth of a comparison or a test of a field. The transfer functions of
// DLPackFieldModel.cpp are built on these.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_DLPACKFIELDS_DLPACKFIELDMARKS_H
#define INTEROP_LIB_DLPACKFIELDS_DLPACKFIELDMARKS_H

#include "lib/abi/DLPackFields.h"
#include "lib/dlpackfields/DLPackFieldValues.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/Analysis/FlowSensitive/DataflowEnvironment.h"

#include <initializer_list>

namespace clang::interop::dlpackfield {

/// What the transfer functions receive.
struct FieldState {
  dataflow::Environment &Env;
  RunContext &RC;
  ASTContext &Ctx;
};

/// The callee contracts the engine applies (lib/engine/ValueFacts.h); a run
/// context made without a configuration reads bodies only.
const ExitConditions &exitConditionsOf(const FieldState &S);

/// The scalar fields whose values carry the model's facts.
bool isTrackedField(DLPackField F);

/// Marks V as the value of a field (Marker) and gives it the atoms the
/// model's conditions constrain, once.
void markField(dataflow::Value &V, llvm::StringRef Marker,
               std::initializer_list<llvm::StringRef> Atoms,
               dataflow::Environment &Env);

/// The first read of field F through ME (at Site): its value gets the
/// field's marker and atoms, and where it was read.
void initFieldValue(dataflow::Value &V, DLPackField F, const MemberExpr *ME,
                    const Expr *Site, FieldState &S);

/// A value of NewType carrying V's markers and facts (a cast), or null.
dataflow::Value *cloneTracked(dataflow::Value &V, QualType NewType,
                              FieldState &S);

/// The value of From, with what it carries, becomes To's.
void propagate(const Expr *To, const Expr *From, FieldState &S);

/// The strides E reads were looked at.
void noteStridesSeen(const Expr *E, FieldState &S);

/// Every tracked field of R (and of the records in it, Depth levels down)
/// is the producer's own.
void markLocal(dataflow::RecordStorageLocation *R, FieldState &S,
               int Depth = 0);

/// LHS is assigned RHS: a field written is the writer's own, and so is a
/// whole record written, but for a copy of another record of its type,
/// which holds what that one held.
void assignment(const Expr *LHS, const Expr *RHS, FieldState &S);

/// The truth of a comparison of a tracked field (`t->strides == NULL`,
/// `device_type == kDLCPU`), or null when it compares nothing tracked.
dataflow::BoolValue *comparisonValue(const BinaryOperator *E, FieldState &S);

/// What entering a case arm through Label (null: the implicit default)
/// proves of a switch over V: `case K:` over a device type, that it is K
/// (so host memory or not); `default:`, that it is none of the listed
/// types; over a version's major, `case 1:` that it is supported and
/// another label that it is not. The literal true when the label proves
/// nothing; null when V is neither a device type nor a major.
const dataflow::Formula *caseFormula(const SwitchStmt &Sw,
                                     const SwitchCase *Label,
                                     dataflow::Value &V, FieldState &S);

/// The truth of a tracked value tested as a condition (`if (t->strides)`).
dataflow::BoolValue *truthValue(dataflow::Value &V, FieldState &S);
/// The same for the operand of a truth test (C++'s bool conversion of it,
/// or C's bare operand): null when it is not tracked.
dataflow::BoolValue *operandTruth(const Expr *Operand, FieldState &S);

} // namespace clang::interop::dlpackfield

#endif // INTEROP_LIB_DLPACKFIELDS_DLPACKFIELDMARKS_H
