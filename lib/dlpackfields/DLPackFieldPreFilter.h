//===--- DLPackFieldPreFilter.h - what a body does with DLPack --*- C++ -*-===//
//
// The pre-filter of the DLPack field family: one syntactic scan of a body
// (no CFG, no parent map) that says whether the field model can have
// anything to report there, and whether the body maps device types (what
// the unsupported-device check judges syntactically).
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_DLPACKFIELDS_DLPACKFIELDPREFILTER_H
#define INTEROP_LIB_DLPACKFIELDS_DLPACKFIELDPREFILTER_H

#include "clang/AST/Decl.h"

namespace clang::interop {

class DLPackHelperSummaries;

/// What a function's body does with DLPack, from one syntactic scan (no CFG,
/// no parent map) cached per translation unit: the cheap pre-filter every
/// DLPack check applies before any flow analysis.
struct DLPackUse {
  /// Has something the flow model reports on: a read (not a plain
  /// assignment) of data or strides, an access to a versioned tensor's
  /// dl_tensor or flags, or a device-type read together with a tensor
  /// passed to a call (an import whose device type may be proven).
  bool ReadsModelledFields = false;
  /// Switches over, subscripts or looks up (find/lookup) a table by a DLPack
  /// device type: what findSilentDeviceMappings judges.
  bool MapsDeviceTypes = false;
};
/// Scans FD's body. With Summaries, a call of a same-TU helper returning a
/// tensor's data is a read of data.
DLPackUse scanDLPackUse(const FunctionDecl &FD,
                        DLPackHelperSummaries *Summaries = nullptr);

} // namespace clang::interop

#endif // INTEROP_LIB_DLPACKFIELDS_DLPACKFIELDPREFILTER_H
