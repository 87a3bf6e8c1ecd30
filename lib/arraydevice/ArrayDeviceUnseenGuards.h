//===--- ArrayDeviceUnseenGuards.h - guards the analysis cannot see -*- C++
//-*-===//
//
// A finding whose path is guarded by a call the analysis could not look into
// (a function with no body in the translation unit, defined in another one)
// is often correct code whose guard the API model does not describe. For
// each sink whose subject is not proven, this finds such a call: a bool
// function without a visible body, no role in the API model and not a
// member of a modelled type, taking the sink's subject variable, that would
// prove the sink if it were a predicate of the option the subject needs
// (SingleDevicePredicates for an export or buffer pointer,
// AddressablePredicates for an import): the engine's guard shapes
// (GuardEngine.h) let control reach the sink only where it returned true,
// and nothing in the function may change the variable. The checks name the
// option in a note. Run only for functions with such a sink, after the flow
// analysis.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICEUNSEENGUARDS_H
#define INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICEUNSEENGUARDS_H

#include "lib/arraydevice/ArrayDeviceEvents.h"

#include <vector>

namespace clang::interop {

/// Sets SinkFact::UnseenGuard of every sink of `Events` whose subject is not
/// proven (see above).
void findUnseenGuards(const ApiModel &M, const FunctionDecl &FD,
                      std::vector<SinkFact> &Events);

} // namespace clang::interop

#endif // INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICEUNSEENGUARDS_H
