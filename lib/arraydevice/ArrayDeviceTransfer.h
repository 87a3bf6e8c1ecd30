//===--- ArrayDeviceTransfer.h - the array/device transfers -----*- C++ -*-===//
//
// The array/device model's transfer functions, as one table
// (lib/engine/StmtSwitch.h). Each case's guard is cheap and says exactly when
// the case matters, so the table is its own gate (StmtSwitch::applies()).
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICETRANSFER_H
#define INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICETRANSFER_H

#include "lib/arraydevice/ArrayDeviceState.h"
#include "lib/engine/StmtSwitch.h"

namespace clang::interop::arraydevice {

/// The transfer functions, one case per API role and statement kind.
const StmtSwitch<State> &transferSwitch();

} // namespace clang::interop::arraydevice

#endif // INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICETRANSFER_H
