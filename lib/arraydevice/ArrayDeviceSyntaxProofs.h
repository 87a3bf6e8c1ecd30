//===--- ArrayDeviceSyntaxProofs.h - sinks their guards prove ---*- C++ -*-===//
//
// The fast path in front of the array/device flow analysis. Correct code
// nearly always guards a sink in one of a few shapes:
//
//   if (a.is_single_device()) to_dlpack(a);
//   if (!a.is_single_device()) return;      // or continue, break, throw,
//   to_dlpack(a);                           // a noreturn call, assert()
//   const bool ok = a.is_single_device(); if (!ok) continue; to_dlpack(a);
//   a.is_single_device() ? to_dlpack(a) : fallback();
//   auto g = gather(a, d); cuda_array_interface(*g);
//   if (a.memory_kind() != MemoryKind::kPinnedHost) return;  // TPU exports
//
// When every sink of a function is guarded like that, and nothing in the
// function can change an array, sharding, device or Result (no assignment, no
// non-const member call, no non-const reference or pointer to one, no capture
// by reference), the guarded fact holds at the sink on every path, which is
// what the flow analysis would conclude at several times the cost. Anything
// else (a guard the shapes do not cover, a goto, a mutation, one unguarded
// sink) sends the whole function to the flow analysis: this pass only ever
// proves a fact, never refutes one, and never decides a diagnostic.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICESYNTAXPROOFS_H
#define INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICESYNTAXPROOFS_H

#include "lib/arraydevice/ApiModel.h"
#include "lib/arraydevice/ArrayDeviceEvents.h"

#include "clang/AST/Decl.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace clang::interop {

/// The facts of every sink call in FD's body and constructor initialisers
/// (not in its lambdas, which are functions of their own), each proven to
/// hold, when the guards above prove all of them; nullopt when any sink needs
/// the flow analysis. `Facts`: the FactFamily bits tracked for FD. Each fact
/// proven is SingleDevice (exports, CUDA array interfaces) or Addressable
/// (imports), plus PinnedHost for an export where TPU facts are tracked (`if
/// (a.memory_kind() != MemoryKind::kPinnedHost) return;`): with it the TPU
/// check is silent whatever the platform, which is left unknown.
std::optional<llvm::SmallVector<SinkFact>>
proveArrayDeviceSinksBySyntax(const ApiModel &Model, const FunctionDecl &FD,
                              unsigned Facts);

} // namespace clang::interop

#endif // INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICESYNTAXPROOFS_H
