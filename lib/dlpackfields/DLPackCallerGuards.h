//===--- DLPackCallerGuards.h - tests every caller makes --------*- C++ -*-===//
//
// A helper that dereferences the strides of a tensor parameter, or touches
// its data from the host, is correct when every call of it in the
// translation unit sits behind the test it needs: a NULL test of that
// tensor's strides (XLA's GetByteStrides in its dlpack.cc, only called under
// `if (dl_tensor.strides)`), or a host device-type test (metatensor's
// vector_from_dlpack, only called after `device_type != kDLCPU` threw). The
// helper cannot be called from another translation unit, or is judged there
// with that unit's calls, so the calls in this one are all there are.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_DLPACKFIELDS_DLPACKCALLERGUARDS_H
#define INTEROP_LIB_DLPACKFIELDS_DLPACKCALLERGUARDS_H

#include "lib/engine/CallSites.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

namespace clang::interop {

struct DLPackFieldCompiled;

/// What every caller must test on the argument.
enum class CallerTest {
  /// Its strides non-NULL (`if (a.strides)`, `if (!a.strides) return;`,
  /// `a.strides ? f(a) : g()`, ...).
  StridesNonNull,
  /// Its device type host-accessible (`if (a.device.device_type != kDLCPU)
  /// throw ...;`, `if (a.device.device_type == kDLCUDAHost) f(a);`).
  HostDevice,
  /// Its version.major the supported one, outside debug-only assertions
  /// (`if (mt->version.major > 1) return nullptr;`).
  MajorSupported,
};

/// True when `Read` (a read of a parameter's `strides` for StridesNonNull, of
/// its `data` for HostDevice, of a versioned tensor's `dl_tensor` for
/// MajorSupported, in FD: `t.strides`, `mt->dl_tensor.data`) is
/// vouched for by FD's callers: FD is a free function whose calls in this
/// translation unit are all there are (internal linkage and no template; a C++
/// function no header declares and nothing exports, such as a helper that lacks
/// `static`; or an inline function or a template instantiation, whose calls
/// elsewhere are judged with that unit's copy), it is never referred to in the
/// translation unit except as the callee of a call (no address taken), it is
/// called at most MaxGuardedCallSites times, and at every call the argument's
/// tensor is tested as Test says around the call (GuardProof's shapes: a
/// comparison, a predicate or a validator of the file that Compiled's
/// helper summaries read, a HostDeviceGuards function) in a caller that
/// assigns no DLPack field and never changes the variable the argument
/// names; or the argument names the caller's own export, a local initialised
/// by a call of one of Compiled's TensorSources (a tensor the code made is
/// not an import, as where it is made). Compiled may be null (comparisons
/// only). Bounded: the translation unit's calls come from one memoised walk
/// (CallSites.h), then one GuardScan per caller.
bool callerGuards(const FunctionDecl &FD, const Expr *Read, CallerTest Test,
                  const DLPackFieldCompiled *Compiled = nullptr);

} // namespace clang::interop

#endif // INTEROP_LIB_DLPACKFIELDS_DLPACKCALLERGUARDS_H
