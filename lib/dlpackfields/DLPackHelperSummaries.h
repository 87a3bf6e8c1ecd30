//===--- DLPackHelperSummaries.h - same-TU DLPack helpers -------*- C++ -*-===//
//
// What a helper of the translation unit proves or produces about the one
// DLDevice or DLTensor it takes, read from its body, never from its name
// (the DLPack side of what lib/arraydevice/ArrayDeviceSummaries.h does for
// arrays and devices). The DLPack field model's facts are atoms on the
// values of fields, and clang's dataflow framework does not branch on
// switch cases, so a bool helper is read by evaluating its body once per
// value of the field it tests: every constant the body compares a device
// type with, and one value it compares with none (standing for every
// other, which includes types that are not host-accessible); NULL and
// non-NULL for strides. Everything else the body reads is unknown, so both
// branches of a condition on it are taken, and a loop's body is taken as
// running or not.
//
//   - a host predicate: its true (or false) result is returned only for
//     host-accessible device types (`zero_copy_readable(d)`, a switch whose
//     host arms return true; not `on_host(d)` returning `d.device_type !=
//     kDLCUDA`, true for Vulkan or ROCm memory);
//   - a strides predicate: its false (or true) result is never returned for
//     NULL strides (`is_compact(t)` with `if (!t.strides) return true;`);
//   - a data helper: every return returns the tensor's data pointer, with
//     byte_offset added on every return or not (`first_element(t)`);
//   - a validator: a void helper that returns only for host-accessible
//     device types, or only for non-NULL strides, and throws or aborts
//     otherwise (`require_host(t, "t")`).
//
// A helper whose body is read this way is judged by its body only: the
// HostDeviceGuards option, which names guards by their names, is for
// functions whose bodies are elsewhere (or beyond the bounds below).
//
// Helpers: a definition of this translation unit (isSameTUHelper), or a
// local lambda called by name, with one parameter, a DLDevice (by value or
// reference to const) or a DLTensor or managed tensor (reference or pointer
// to const, or a DLTensor by value), that the body never changes; its other
// parameters are of no DLPack type (a name for a message), unknown values.
// Bounds (FlowBounds, options of every check): MaxSummaryStatements statements,
// MaxSummaryValues values tried, MaxSummarySteps statements evaluated per
// value; goto, try, labels and other statements the evaluator does not know
// give no summary. Summaries are cached per translation unit by function.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_DLPACKFIELDS_DLPACKHELPERSUMMARIES_H
#define INTEROP_LIB_DLPACKFIELDS_DLPACKHELPERSUMMARIES_H

#include "lib/engine/FlowRunner.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"

#include <memory>

namespace clang::interop {

/// What one helper's body says of its parameter.
struct DLPackHelperSummary {
  /// The bool results that are returned only when the device (the
  /// parameter, or the tensor parameter's device) is host-accessible.
  bool HostIfTrue = false, HostIfFalse = false;
  /// The bool results that are returned only when the tensor parameter's
  /// strides are not NULL.
  bool StridesNonNullIfTrue = false, StridesNonNullIfFalse = false;
  /// A void helper (a validator) returns only when the device is
  /// host-accessible, or only when the strides are not NULL: it throws or
  /// aborts otherwise.
  bool HostIfReturns = false, StridesNonNullIfReturns = false;
  /// Every return returns the tensor parameter's `data`, and whether each
  /// of them adds its byte_offset.
  bool ReturnsData = false;
  bool AddsByteOffset = false;

  /// Whether a result of Value proves host-accessible memory.
  bool hostIf(bool Value) const { return Value ? HostIfTrue : HostIfFalse; }
  bool stridesNonNullIf(bool Value) const {
    return Value ? StridesNonNullIfTrue : StridesNonNullIfFalse;
  }
  /// Whether Call, a call of this helper, proves non-NULL strides: its
  /// result being Value, or (a void validator) its returning at all.
  bool stridesNonNullAfter(const CallExpr &Call, bool Value) const {
    return Call.getType()->isVoidType() ? StridesNonNullIfReturns
                                        : stridesNonNullIf(Value);
  }
};

/// The summaries of one translation unit.
class DLPackHelperSummaries {
public:
  /// Bounds: the MaxSummary* bounds are read.
  explicit DLPackHelperSummaries(const FlowBounds &Bounds) : Bounds(Bounds) {}

  /// The summary of the helper Call calls, or null when its body was not
  /// read (not a helper, over a bound, a statement not understood). A
  /// summary may say nothing: the body was read and proves nothing.
  const DLPackHelperSummary *of(const CallExpr &Call, ASTContext &Ctx);

  /// Helpers whose bodies were evaluated (tests and benchmarks).
  unsigned evaluated() const { return Evaluated; }

private:
  FlowBounds Bounds;
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<DLPackHelperSummary>>
      Cache;
  unsigned Evaluated = 0;
};

/// The argument of a helper call that designates its device or tensor
/// (through the copy of a DLDevice passed by value): a one-argument call's,
/// or the one of the callee's DLPack parameter beside parameters of other
/// types (after the closure, for a lambda called by name).
const Expr *helperArgument(const CallExpr &E);

} // namespace clang::interop

#endif // INTEROP_LIB_DLPACKFIELDS_DLPACKHELPERSUMMARIES_H
