//===--- ArrayDeviceEvents.h - what the array checks judge ------*- C++ -*-===//
//
// The events of the array/device family: one SinkFact per sink call
// (to_dlpack, from_dlpack, cuda_array_interface), with what is proven about
// its subject on every path to it, and the FactFamily bits a configuration
// tracks. Which calls are sinks, and what their subject is, is the API
// model's (ApiModel.h).
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICEEVENTS_H
#define INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICEEVENTS_H

#include "lib/arraydevice/ApiModel.h"

#include "clang/AST/Expr.h"

#include <optional>

namespace clang::interop {

/// What is known about one property at one program point.
enum class Proof : unsigned char {
  Unknown, ///< Holds on some paths or is not known.
  Holds,   ///< Holds on every path reaching the point.
  Refuted, ///< Fails on every path reaching the point.
};

/// Where a value may have come from; the strongest origin over all paths.
struct Origin {
  enum Kind : unsigned char {
    None,          ///< Nothing recorded (a parameter, a local, a member).
    Parameter,     ///< Copied from a parameter (Site names it).
    Producer,      ///< Returned by a function the model does not know.
    GlobalDevices, ///< Taken from a list of every process's devices.
  };
  Kind K = None;
  /// The call that produced the value, or the expression naming the
  /// parameter it was copied from.
  const Expr *Site = nullptr;

  bool operator==(const Origin &O) const { return K == O.K && Site == O.Site; }
  bool operator!=(const Origin &O) const { return !(*this == O); }
};

/// The calls the checks judge.
enum class SinkKind : unsigned char {
  Export,             ///< ExportFunctions (to_dlpack).
  Import,             ///< ImportFunctions (from_dlpack onto a device).
  CudaArrayInterface, ///< CudaArrayInterfaceFunctions.
};

/// Everything the analysis proved about the subject of one sink call on the
/// paths that reach it. Arrays (Export, CudaArrayInterface) fill the array
/// proofs, devices (Import) fill Addressable.
struct SinkFact {
  SinkKind Kind = SinkKind::Export;
  const CallExpr *Call = nullptr;
  /// The array or target-device argument (or the receiver of a member sink).
  const Expr *Subject = nullptr;
  /// False when the subject has no storage location the model tracks; the
  /// checks stay silent then rather than guess.
  bool Modelled = false;
  Proof SingleDevice = Proof::Unknown;
  /// Holds or Unknown (whether the array is proven not to be on TPU is not
  /// computed: no check needs it).
  Proof Tpu = Proof::Unknown;
  /// Only computed when Tpu holds (the only case a check needs it).
  Proof PinnedHost = Proof::Unknown;
  /// In the device's own memory (DeviceMemoryKinds); Refuted means unpinned
  /// host memory. Only computed when PinnedHost is Refuted, for the wording.
  Proof DeviceMemory = Proof::Unknown;
  Proof Addressable = Proof::Unknown;
  Origin From;
  /// When the subject is not proven: a call of a function without a visible
  /// body that would prove it if the API model listed it as a predicate
  /// (ArrayDeviceUnseenGuards.h), for the note naming the option.
  const CallExpr *UnseenGuard = nullptr;
};

/// Families of facts the analysis can track. Each family costs boolean
/// values on every modelled object and SAT work at every join, so only the
/// families some enabled check needs are tracked.
enum FactFamily : unsigned {
  SingleDeviceFacts = 1u << 0, ///< Arrays/shardings on one device.
  TpuMemoryFacts = 1u << 1,    ///< On TPU; in pinned host memory.
  AddressableFacts = 1u << 2,  ///< Devices addressable by this process.
  AllFacts = SingleDeviceFacts | TpuMemoryFacts | AddressableFacts,
};

/// The sink kind of a callee, if any (for matchers and the pre-filter).
std::optional<SinkKind> sinkKindOf(const ApiModel &Model,
                                   const FunctionDecl *Callee);

/// The expression a sink call judges: the first argument of the array type
/// (Export, CudaArrayInterface) or device type (Import), else the receiver of
/// a member call. Null when there is none.
const Expr *sinkSubject(const ApiModel &Model, const CallExpr &Call,
                        SinkKind Kind);

/// value(), operator* or operator-> of a modelled Result.
bool isResultUnwrap(const ApiModel &M, const CallExpr &CE);

} // namespace clang::interop

#endif // INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICEEVENTS_H
