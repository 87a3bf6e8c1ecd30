//===--- ArrayDeviceEquivalentForms.h - other spellings of a fact -*- C++
//-*-===//
//
// Facts written another way than with the API's predicate: a device's
// process index compared with this process's index is its addressability
// (`d.process_index() == interop::current_topology().process_index` is
// `d.is_addressable()`, as device.h documents is_addressable()). The
// accessor and the sources of the current index are API-model options
// (ProcessIndexFunctions, CurrentProcessIndexSources); a comparison with
// anything else (`== 0`) is no fact.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICEEQUIVALENTFORMS_H
#define INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICEEQUIVALENTFORMS_H

#include "lib/arraydevice/ArrayDeviceState.h"

namespace clang::interop::arraydevice {

/// `d.process_index()` (ProcessIndexFunctions), a function or field listed
/// in CurrentProcessIndexSources: an integer value that remembers whose
/// index it is.
bool readsProcessIndex(const ApiModel &M, const Stmt &St);
void transferProcessIndexRead(const Stmt *St, State &S);

/// A lambda's integer capture: whether the captured variable holds this
/// process's index where the lambda is created (`const int me =
/// current_topology().process_index; [me](const Device &d) {...}`), and,
/// in the lambda's body, giving its copy that value.
bool holdsCurrentProcessIndex(const VarDecl &V, const Environment &Env);
void setCurrentProcessIndex(const VarDecl &V, Environment &Env);

/// `==` / `!=` of a device's process index and this process's.
bool comparesProcessIndices(const BinaryOperator &BO, const Environment &Env);
void transferProcessIndexComparison(const BinaryOperator *BO, State &S);

/// `ok ? *r : local.front()` (a glvalue conditional of a modelled type
/// whose arms are both calls): at the end of each arm, the arm's object's
/// facts and origin are copied into the conditional's own object in that
/// arm's state, so the join of the arms keeps them, correlated with each
/// arm's path, even for a temporary of one arm (whose facts the joined
/// state would not have). noteConditionalArm() runs after each transferred
/// statement; conditionalFromArms() at the conditional says whether it
/// applied.
void noteConditionalArm(const Stmt &St, State &S);
bool conditionalFromArms(const AbstractConditionalOperator &CO, State &S);

} // namespace clang::interop::arraydevice

#endif // INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICEEQUIVALENTFORMS_H
