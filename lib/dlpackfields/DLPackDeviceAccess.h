//===--- DLPackDeviceAccess.h - which memory a data use touches -*- C++ -*-===//
//
// A use of an imported tensor's `data` is only right on the memory its
// device type names. The host touches it through a dereference, a memcpy
// or a host view; a CUDA or HIP copy touches it on the side its kind or name
// gives; a call that also takes the tensor's shape makes a view of a kind
// only its callee knows (Kaldi's SubVector and CuSubVector alike). The
// first is wrong on any path where the type may not be host memory; the
// others are wrong in a function that never looks at the device at all and
// that nobody in the translation unit calls (so no caller can have looked
// either).
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_DLPACKFIELDS_DLPACKDEVICEACCESS_H
#define INTEROP_LIB_DLPACKFIELDS_DLPACKDEVICEACCESS_H

#include "lib/dlpackfields/DLPackFieldEvents.h"
#include "lib/support/NameLists.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

namespace clang::interop {

/// How a data event touches the memory `data` points to.
enum class DataAccessSide {
  /// Not an access this classification judges (freed, stored, handed to a
  /// callee that takes no layout, a copy whose side the runtime decides).
  None,
  /// Read or written by the host: a dereference, a subscript, a memcpy-like
  /// call, a HostMemory function, the host operand of a device copy.
  Host,
  /// The device operand of a CUDA or HIP copy or set, or a DeviceMemory
  /// function's argument (thrust::device_pointer_cast).
  Device,
  /// Wrapped by a call that also takes the tensor's layout (shape, ndim,
  /// strides or dtype, through locals too): a view whose memory kind only
  /// the callee knows.
  Wrapped,
};

/// The side of E (a DataDeref or DataCallArg event; None for the others).
DataAccessSide classifyDataAccess(const DLPackEvent &E,
                                  const NameList &HostMemory,
                                  const NameList &DeviceMemory,
                                  const ASTContext &Ctx);

/// The tensor whose `data` E reads (E.FieldRead) is a DLTensor parameter of
/// the function, directly or through a local reference or pointer bound to
/// it: an array descriptor its caller made and vouches for (TVM's packed
/// functions, a kernel's arguments), not a tensor exchanged here. A managed
/// tensor, a capsule's tensor, or one a call returned was exchanged.
bool readsDescriptorParameter(const DLPackEvent &E);

/// FD takes the device type of the tensors it reads on trust: its body
/// never reads a DLPack `device`, `device_type` or a device accessor, nor
/// passes a whole tensor to a callee whose parameter is a DLPack tensor (a
/// validator could look), and nothing in the translation unit calls FD (a
/// caller could have looked). Syntactic, once per function.
bool trustsDeviceType(const FunctionDecl &FD);

} // namespace clang::interop

#endif // INTEROP_LIB_DLPACKFIELDS_DLPACKDEVICEACCESS_H
