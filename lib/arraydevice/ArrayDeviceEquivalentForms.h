//===--- ArrayDeviceEquivalentForms.h - other spellings of a fact -*- C++
//-*-===//
//
// Facts written another way than with the API's predicate (issue 14,
// capability 5): a device's process index compared with this process's
// index is its addressability (`d.process_index() ==
// interop::current_topology().process_index` is `d.is_addressable()`, as
// device.h documents is_addressable()). The accessor and the sources of the
// current index are API-model options (ProcessIndexFunctions,
// CurrentProcessIndexSources); a comparison with anything else (`== 0`) is
// no fact.
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

/// `==` / `!=` of a device's process index and this process's.
bool comparesProcessIndices(const BinaryOperator &BO, const Environment &Env);
void transferProcessIndexComparison(const BinaryOperator *BO, State &S);

} // namespace clang::interop::arraydevice

#endif // INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICEEQUIVALENTFORMS_H
