//===--- DLPackAllocations.h - tensors a call allocates here ----*- C++ -*-===//
//
// A runtime's array handle made by a call that is given a device
// (`NDArray::Empty(shape, dtype, device)`) holds a tensor allocated here:
// the function did not import it, so its layout (byte_offset 0, compact)
// is known, and its device is the one passed in. The handle's accessor
// (`x->data`) returns that tensor through lib/engine/CallResults.h; a
// handle some other call returns (a runtime's output) stays an import.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_DLPACKFIELDS_DLPACKALLOCATIONS_H
#define INTEROP_LIB_DLPACKFIELDS_DLPACKALLOCATIONS_H

#include "lib/dlpackfields/DLPackFieldMarks.h"

#include "clang/AST/Expr.h"

namespace clang::interop::dlpackfield {

/// `NDArray::Empty(shape, dtype, dev)`: a call given a device that returns
/// a handle whose `operator->` gives a DLTensor allocates that tensor. Its
/// layout is the function's own (byte_offset 0, compact), its device the
/// one it was given; the handle's accessor then returns that tensor
/// (CallResults.h), so a host access is judged by the device passed in.
/// A handle some other call returns (an output of a runtime) is an import.
/// False when E is no such call (the family's other cases then apply).
bool allocatedOnDevice(const CallExpr *E, FieldState &S);

} // namespace clang::interop::dlpackfield

#endif // INTEROP_LIB_DLPACKFIELDS_DLPACKALLOCATIONS_H
