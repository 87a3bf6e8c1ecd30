//===--- DLPackFieldModel.h - what is proven of DLPack fields ---*- C++ -*-===//
//
// A dataflow model (clang's framework, run through lib/engine/FlowRunner.h) of
// what a function has checked about the DLTensors and managed tensors it
// receives:
//
//   - whether `strides` is NULL               (a "null" atom on the pointer)
//   - whether `byte_offset` is zero           (a "zero" atom on the integer)
//   - whether `byte_offset` was added to a pointer derived from `data`
//   - whether the device type is host-accessible, or one given type
//   - whether `version.major` was checked, and whether only inside assert
//   - whether the READ_ONLY flag is set
//
// Each fact is a boolean formula attached as a property to the value read
// from the field, so a check stored in a local `bool`, `&&`/`||`, early
// returns, and values copied into locals (`int64_t *s = t->strides;`) are
// understood. Values the function wrote itself (a producer filling in its own
// tensor) are marked local and never reported.
//
// The model produces events (uses of data, strides, versioned fields, calls
// that take a tensor) together with what was proven at each; checks filter
// the events. One run per function serves every check: results are cached
// until the end of the translation unit. A function whose syntax proves that
// none of its events could be reported (DLPackFieldSyntaxProofs.h) is not run
// at all (DLPackFacts::BySyntax).
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_DLPACKFIELDS_DLPACKFIELDMODEL_H
#define INTEROP_LIB_DLPACKFIELDS_DLPACKFIELDMODEL_H

#include "lib/abi/DLPackFields.h"
#include "lib/engine/FlowRunner.h"

#include "lib/support/NameLists.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace clang::interop {

/// One thing the model saw, with the facts proven on every path to it.
struct DLPackEvent {
  enum Kind {
    /// `data` (or a pointer derived from it) dereferenced or subscripted.
    DataDeref,
    /// `data` (or a pointer derived from it) passed to a call or constructor.
    DataCallArg,
    /// `strides` (or a copy of it) dereferenced or subscripted.
    StridesDeref,
    /// `dl_tensor` or `flags` of a DLManagedTensorVersioned accessed.
    VersionedAccess,
    /// A pointer to a DLTensor or managed tensor passed to one of the
    /// configuration's ImportFunctions.
    TensorCallArg,
  };
  Kind K;
  /// The expression the event is about (the deref, the argument, the member).
  const Expr *Use = nullptr;
  /// For call events: the CallExpr or CXXConstructExpr, its callee (the
  /// constructor for constructions) and the argument's index.
  const Expr *Call = nullptr;
  const FunctionDecl *Callee = nullptr;
  unsigned ArgIndex = 0;
  /// Where the tracked field was read (`t->data`, `t->strides`).
  const Expr *FieldRead = nullptr;

  /// Data events: the use writes through the pointer (assignment target).
  bool IsWrite = false;
  /// Data events: the tensor was created in this function (a producer's).
  bool Local = false;
  /// Data events: byte_offset was added to this pointer on every path.
  bool OffsetApplied = false;
  /// Data events: byte_offset is proven zero on every path. Each SAT-proven
  /// flag below is only proven where it can change a finding (here: only
  /// when OffsetApplied is false); otherwise it stays false.
  bool OffsetZeroProven = false;
  /// Data events: the device type is proven host-accessible on every path.
  bool HostProven = false;
  /// Data events: the function compares or tests the device type at all.
  bool DeviceTypeChecked = false;
  /// Data events: the tensor's strides are proven NULL (compact); only
  /// proven when StridesConsidered is false.
  bool StridesNullProven = false;
  /// Data events: the function looks at this tensor's strides (reads an
  /// element or passes them on) somewhere.
  bool StridesConsidered = false;
  /// Data call events: another argument of the call mentions the shape,
  /// ndim, strides or dtype of a DLTensor (the call wraps the tensor).
  bool CallPassesLayout = false;
  /// Data events: the data belongs to a DLManagedTensorVersioned.
  bool FromVersioned = false;
  /// Data events on versioned tensors: READ_ONLY is proven clear; only
  /// proven for writes.
  bool ReadOnlyClearProven = false;
  /// Data events on versioned tensors: the flags were never read.
  bool FlagsNeverRead = false;

  /// StridesDeref: strides proven non-NULL on every path.
  bool NonNullProven = false;

  /// VersionedAccess: version.major checked on every path; or checked only
  /// by a debug-only assertion (AssertCheck is that comparison).
  bool MajorChecked = false;
  bool MajorAssertedOnly = false;
  const Expr *AssertCheck = nullptr;

  /// TensorCallArg: the device type proven on every path, if one is.
  std::optional<std::int64_t> ProvenDeviceType;
  /// TensorCallArg: where that device type was compared.
  const Expr *DeviceCheck = nullptr;
};

/// True when every fact that any DLPack field check can ask of E is proven,
/// so that no check reports E whatever its options: for data, byte_offset
/// added (or proven zero), host-accessible memory, the strides looked at (or
/// proven NULL, or only the first element is accessed) and, for a write into
/// a versioned tensor, READ_ONLY clear;
/// strides proven non-NULL where dereferenced; version.major checked for a
/// versioned access; no device type proven at an import.
bool isFullyProven(const DLPackEvent &E, const ASTContext &Ctx);

/// When E calls a host guard (a one-argument bool function whose name one of
/// HostGuards, the HostDeviceGuards, matches: IsHostDevice(t->device)), the
/// device or tensor it tests; null otherwise.
const Expr *hostGuardArgument(const CallExpr &E,
                              const FunctionNameList &HostGuards);

/// The use of a data pointer reads or writes its first element only (`*p`,
/// `p[0]`), which sits at the same address whatever the strides.
bool readsOnlyFirstElement(const Expr *Use, const ASTContext &Ctx);

/// Everything the model found in one function.
struct DLPackFacts {
  SkipReason Skipped = SkipReason::None;
  std::string Detail;
  std::vector<DLPackEvent> Events;
  /// The syntax proved that every event of the function is fully proven
  /// (DLPackFieldSyntaxProofs.h); the flow model did not run and Events is
  /// empty.
  bool BySyntax = false;
};

/// The model's configuration: what it needs to know beyond the DLPack ABI.
struct DLPackModelConfig {
  /// Macros whose condition disappears under NDEBUG (`assert`, DCHECK...).
  std::vector<std::string> DebugOnlyAssertMacros = {
      "assert",    "DCHECK",    "DCHECK_EQ",
      "DCHECK_NE", "DCHECK_LT", "DCHECK_LE",
      "DCHECK_GT", "DCHECK_GE", "TORCH_INTERNAL_ASSERT_DEBUG_ONLY"};
  /// Bool-returning functions of a device or tensor whose true result means
  /// "host-accessible" (unanchored regexes over the function's name).
  std::vector<std::string> HostDeviceGuards = {"[Hh]ost", "[Cc]pu", "CPU"};
  /// Functions that import a tensor (a FunctionNameList): only
  /// tensors passed to these get TensorCallArg events, so that no other call
  /// pays for proving a device type.
  std::vector<std::string> ImportFunctions = {"::interop::from_dlpack$"};
  FlowBounds Bounds;
  /// Try the syntactic proofs first (DLPackFieldSyntaxProofs.h): a function
  /// they prove has nothing to report is not flow-analysed. Tests turn this off
  /// to compare the two.
  bool SyntacticProofs = true;

  std::string key() const;
};

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
const DLPackUse &dlpackUseOf(const FunctionDecl &FD);

/// Runs the model over FD, once per function and configuration in a
/// translation unit; later calls return the cached facts. `ConfigKey`:
/// Config.key(), from a caller that asks for many functions with one
/// configuration (building the key costs more than the lookup); computed
/// here when empty.
const DLPackFacts &getDLPackFacts(const FunctionDecl &FD, ASTContext &Ctx,
                                  const DLPackModelConfig &Config = {},
                                  llvm::StringRef ConfigKey = {});

/// Drops the cache; checks call it at the end of each translation unit.
void clearDLPackFactsCache();

/// How a call treats memory passed to it.
enum class MemoryCallKind {
  None,
  /// memcpy, memmove, memset, memcmp, std::copy...: the host reads/writes.
  HostCopy,
  /// cudaMemcpy*, hipMemcpy*, ...: a device-aware copy.
  DeviceCopy,
  /// free, cudaFree, ...: the base pointer is what is wanted.
  Dealloc,
};
MemoryCallKind classifyMemoryCall(const FunctionDecl *Callee);

/// True when argument ArgIndex of a copy call is the destination.
bool isCopyDestination(const FunctionDecl *Callee, unsigned ArgIndex);

} // namespace clang::interop

#endif // INTEROP_LIB_DLPACKFIELDS_DLPACKFIELDMODEL_H
