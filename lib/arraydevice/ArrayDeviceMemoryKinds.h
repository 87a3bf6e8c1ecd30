//===--- ArrayDeviceMemoryKinds.h - which memory an array is in -*- C++ -*-===//
//
// The TPU export check needs to know whether an array is in pinned host
// memory (kPinned); to say in a finding where else the array is ("it is in
// TPU device memory", "it is in unpinned host memory"), it also needs
// which other memory it is in: the device's own memory (kDeviceMem,
// DeviceMemoryKinds) or, when it is neither, unpinned host memory. The
// second fact is kept beside the first wherever the first is made, copied
// or compared; these are the pieces the transfer functions
// (ArrayDeviceTransfer.cpp) call for it. With DeviceMemoryKinds empty the
// second fact is never known, so no finding names a memory kind (a kind that
// is not pinned is not thereby unpinned host memory). Internal to
// lib/arraydevice/.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICEMEMORYKINDS_H
#define INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICEMEMORYKINDS_H

#include "lib/arraydevice/ArrayDeviceState.h"

namespace clang::interop::arraydevice {

/// The "device memory" formula of a memory-kind argument, like pinnedOf(): a
/// literal for an enumerator, the accessor's fact for a value read from
/// memory_kind(), a fresh unknown otherwise.
BoolValue &deviceMemOf(const ApiModel &M, const Expr *Arg, Environment &Env);

/// Gives a memory-kind value (an enumerator, or memory_kind() of `Owner`
/// when `Owner` is not null) its device-memory property beside kIsPinned.
void linkDeviceMemory(const ApiModel &M, const EnumConstantDecl *E,
                      const RecordStorageLocation *Owner, Value &V,
                      Environment &Env);

/// `kind == E` (Eq: its formula, already related to kIsPinned) for a value
/// V carrying kIsDeviceMem: relates the comparison to the device-memory
/// fact too (equal to a device-memory kind exactly when in device memory;
/// equal to another kind implies not in device memory).
void compareDeviceMemory(const ApiModel &M, const Value &V,
                         const EnumConstantDecl *E, const dataflow::Formula &Eq,
                         Environment &Env);

} // namespace clang::interop::arraydevice

#endif // INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICEMEMORYKINDS_H
