//===--- DLPackWrittenDeviceTypes.h - device types a function sets -*- C++
//-*-===//
//
// A producer that labels its own tensor with a device type and imports it
// in the same function (`mt->dl_tensor.device = DLDevice{kDLVulkan, id};
// return from_dlpack(mt, cpu);`) makes an import whose outcome is known.
// The field model marks what a function writes as its own (kLocal) and
// judges nothing about it; this keeps, on the written device type, the
// constant written and where, so that the import of that tensor is judged
// like one whose type a comparison proved. Understood writes: the whole
// device from a braced initialiser whose first element is a constant, the
// device_type field from a constant, and a call to a function whose body
// only copies its second argument into its first's device_type
// (`interop::dl::set_device_type(device, kROCM)`, read from its body).
// Anything else written stays unknown. Internal to lib/dlpackfields/.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_DLPACKFIELDS_DLPACKWRITTENDEVICETYPES_H
#define INTEROP_LIB_DLPACKFIELDS_DLPACKWRITTENDEVICETYPES_H

#include "lib/dlpackfields/DLPackFieldValues.h"

#include <cstdint>
#include <optional>

namespace clang::interop::dlpackfield {

/// After the assignment `LHS = RHS` (Site) made the written fields the
/// function's own: records a constant device type written by it.
void noteWrittenDeviceType(const Expr *LHS, const Expr *RHS, const Expr *Site,
                           dataflow::Environment &Env, RunContext &RC,
                           ASTContext &Ctx);

/// A call of a device-type writer (see above): records its constant.
/// True when the call was one.
bool noteDeviceTypeWriterCall(const CallExpr &Call, dataflow::Environment &Env,
                              RunContext &RC, ASTContext &Ctx);

/// The constant device type written into DT on every path, and the write.
std::optional<std::int64_t> writtenDeviceType(const Value &DT,
                                              const dataflow::Environment &Env,
                                              const RunContext &RC,
                                              const Expr **Site);

} // namespace clang::interop::dlpackfield

#endif // INTEROP_LIB_DLPACKFIELDS_DLPACKWRITTENDEVICETYPES_H
