//===--- OwnershipNames.h - capsule names read back -------------*- C++ -*-===//
//
// What the ownership model reads from a capsule's name: the name a
// PyCapsule_GetName call returns (a pointer that is NULL for a capsule
// named NULL, and on error) and comparisons of it with a DLPack name, which
// tell whether the capsule is unconsumed (`strcmp(name, "dltensor") == 0`,
// `name == kName`).
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_OWNERSHIP_OWNERSHIPNAMES_H
#define INTEROP_LIB_OWNERSHIP_OWNERSHIPNAMES_H

#include "lib/ownership/OwnershipSites.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Analysis/FlowSensitive/DataflowEnvironment.h"
#include "clang/Analysis/FlowSensitive/Value.h"

namespace clang::interop::ownership {

/// PyCapsule_GetName(c): its result gets a value, recorded in
/// RC.NameResults, so that the model reads its NULL tests (its NULL atom)
/// and the judgement its uses.
void transferGetName(const CallExpr &E, Environment &Env, RunContext &RC);

/// strcmp(name-of(c), "dltensor") as "the names differ": not unconsumed
/// (for an unconsumed name) or unconsumed (for a used_ name); null when E is
/// no such comparison of a tracked capsule's name.
dataflow::BoolValue *namesDiffer(const Expr *E, Environment &Env,
                                 RunContext &RC, ASTContext &Ctx);

/// name-of(c) == "dltensor" compared as strings (`std::string name =
/// PyCapsule_GetName(c); if (name == "used_dltensor")`): the value of E, an
/// `==` or `!=`; null when E compares no tracked capsule's name.
dataflow::BoolValue *stringNamesCompared(const CXXOperatorCallExpr &E,
                                         Environment &Env, RunContext &RC,
                                         ASTContext &Ctx);

/// name-of(c) == "dltensor" compared as pointers: equal pointers mean equal
/// names (the converse does not hold, so the result is an atom that only
/// implies the name).
dataflow::BoolValue *namePointerEquals(const Expr *L, const Expr *R,
                                       Environment &Env, RunContext &RC,
                                       ASTContext &Ctx);

/// True when the name of the capsule Get reads under its current name
/// (`cap.get_pointer()`, `PyCapsule_GetPointer(c, PyCapsule_GetName(c))`)
/// is checked before Get: in Get's function (nameComparedBefore), or, for
/// a capsule that is a parameter of a function only this translation unit
/// calls, by every caller before its call (everyCallVouches: a helper that
/// consumes a capsule its callers validated, directly or through a
/// validator of their own).
bool nameCheckedBefore(const CallExpr &Get, ASTContext &Ctx);

/// A C string function that reads the string its argument I points to
/// (strcmp, strncmp, strlen, strstr, strchr, strdup and their kin): a NULL
/// argument crashes it.
bool readsCString(const CallExpr &Call, unsigned I);

} // namespace clang::interop::ownership

#endif // INTEROP_LIB_OWNERSHIP_OWNERSHIPNAMES_H
