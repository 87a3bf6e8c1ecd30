//===--- ArrayDeviceTransfer.h - the array/device transfers -----*- C++ -*-===//
//
// The array/device model's transfer functions, as one table
// (lib/engine/StmtSwitch.h), and the cheap gate in front of it.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICETRANSFER_H
#define INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICETRANSFER_H

#include "lib/arraydevice/ArrayDeviceState.h"
#include "lib/engine/StmtSwitch.h"

namespace clang::interop::arraydevice {

/// Only calls, constructions, comparisons and a few more statements can
/// matter, and a call only when it involves the model: the table runs only
/// where this holds.
bool mayMatter(const ApiModel &M, const Stmt *S, const ArrayDeviceLattice &L,
               const Environment &Env);

/// The transfer functions, one case per API role and statement kind.
const StmtSwitch<State> &transferSwitch();

} // namespace clang::interop::arraydevice

#endif // INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICETRANSFER_H
