// The bounds of same-file helper summaries (MaxSummaryStatements,
// MaxSummaryDepth, MaxSummaryBlocks, MaxSummaryValues, MaxSummarySteps) are
// options of every check, read as global options too: a helper over a bound
// is judged as a function whose body is unknown, so a guard it proves no
// longer counts. The array/device half (ARRAYS) and the DLPack half (FIELDS)
// are compiled apart: their mock headers declare DLDevice each.
//
// RUN: %clang_tidy --checks='-*,interop-sharded-dlpack-export,interop-unsupported-dlpack-device' --dump-config -- -std=c++17 | FileCheck %s --check-prefix=DEFAULTS
// DEFAULTS-DAG: interop-sharded-dlpack-export.MaxSummaryDepth: '2'
// DEFAULTS-DAG: interop-sharded-dlpack-export.MaxSummaryBlocks: '64'
// DEFAULTS-DAG: interop-sharded-dlpack-export.MaxSummaryValues: '64'
// DEFAULTS-DAG: interop-sharded-dlpack-export.MaxSummarySteps: '4096'
// DEFAULTS-DAG: interop-unsupported-dlpack-device.MaxSummaryDepth: '2'
// DEFAULTS-DAG: interop-unsupported-dlpack-device.MaxSummaryBlocks: '64'
// DEFAULTS-DAG: interop-unsupported-dlpack-device.MaxSummaryValues: '64'
// DEFAULTS-DAG: interop-unsupported-dlpack-device.MaxSummarySteps: '4096'
//
// RUN: %clang_tidy --checks='-*,interop-sharded-dlpack-export' --config="{CheckOptions: {MaxSummaryDepth: 0}}" --quiet %s -- -std=c++17 -I%S/Inputs -DARRAYS 2>&1 | FileCheck %s --check-prefix=INVALID
// INVALID: warning: invalid value '0' for option 'MaxSummaryDepth' of check 'interop-sharded-dlpack-export': it must be positive; using 2 [clang-tidy-config]
//
// Within the default bounds every guard below is read from its helper:
// RUN: %check_interop %s interop-sharded-dlpack-export %t -- -- -std=c++17 -I%S/Inputs -DARRAYS
// RUN: %check_interop %s interop-unsupported-dlpack-device %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1 -DFIELDS
// One level of helpers only: the helper of a helper is unknown.
// RUN: %check_interop -check-suffix=DEPTH %s interop-sharded-dlpack-export %t -- \
// RUN:   -config="{CheckOptions: {MaxSummaryDepth: 1}}" -- -std=c++17 -I%S/Inputs -DARRAYS
// Helpers' control-flow graphs of at most three blocks: the two-condition
// predicate is over it.
// RUN: %check_interop -check-suffix=BLOCKS %s interop-sharded-dlpack-export %t -- \
// RUN:   -config="{CheckOptions: {interop-sharded-dlpack-export.MaxSummaryBlocks: 3}}" -- -std=c++17 -I%S/Inputs -DARRAYS
// Two statements per helper: no body is read.
// RUN: %check_interop -check-suffix=STATEMENTS-ARRAYS %s interop-sharded-dlpack-export %t -- \
// RUN:   -config="{CheckOptions: {MaxSummaryStatements: 2}}" -- -std=c++17 -I%S/Inputs -DARRAYS
// RUN: %check_interop -check-suffix=STATEMENTS-FIELDS %s interop-unsupported-dlpack-device %t -- \
// RUN:   -config="{CheckOptions: {MaxSummaryStatements: 2}}" -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1 -DFIELDS
// Two values tried: the switch compares two device types, and one other
// value stands for the rest; the chain of conditions compares one.
// RUN: %check_interop -check-suffix=VALUES %s interop-unsupported-dlpack-device %t -- \
// RUN:   -config="{CheckOptions: {interop-unsupported-dlpack-device.MaxSummaryValues: 2}}" -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1 -DFIELDS
// Six statements evaluated per value: the switch fits, the chain of
// conditions does not (each condition on the device id is taken both ways).
// RUN: %check_interop -check-suffix=STEPS %s interop-unsupported-dlpack-device %t -- \
// RUN:   -config="{CheckOptions: {MaxSummarySteps: 6}}" -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1 -DFIELDS

#ifdef ARRAYS
#include "interop/interop.h"

using namespace interop;

namespace {

bool exportable(const Array &a) {
  return a.is_single_device() && a.is_fully_addressable();
}
bool exportable_too(const Array &a) { return exportable(a); }

} // namespace

void export_guarded(const Array &a) {
  if (!exportable(a))
    return;
  auto t = to_dlpack(a);
  // CHECK-MESSAGES-BLOCKS: :[[@LINE-1]]:12: warning: 'to_dlpack' needs an array on a single device, but 'a' is not proven to be single-device on every path to this call [interop-sharded-dlpack-export]
  // CHECK-MESSAGES-STATEMENTS-ARRAYS: :[[@LINE-2]]:12: warning: 'to_dlpack' needs an array on a single device, but 'a' is not proven to be single-device on every path to this call [interop-sharded-dlpack-export]
}

void export_guarded_twice(const Array &a) {
  if (!exportable_too(a))
    return;
  auto t = to_dlpack(a);
  // CHECK-MESSAGES-DEPTH: :[[@LINE-1]]:12: warning: 'to_dlpack' needs an array on a single device, but 'a' is not proven to be single-device on every path to this call [interop-sharded-dlpack-export]
  // CHECK-MESSAGES-BLOCKS: :[[@LINE-2]]:12: warning: 'to_dlpack' needs an array on a single device, but 'a' is not proven to be single-device on every path to this call [interop-sharded-dlpack-export]
  // CHECK-MESSAGES-STATEMENTS-ARRAYS: :[[@LINE-3]]:12: warning: 'to_dlpack' needs an array on a single device, but 'a' is not proven to be single-device on every path to this call [interop-sharded-dlpack-export]
}
#endif

#ifdef FIELDS
#include <dlpack/dlpack.h>
#include <string.h>

namespace {

bool readable(const DLDevice &device) {
  switch (device.device_type) {
  case kDLCPU:
  case kDLCUDAHost:
    return true;
  default:
    return false;
  }
}

bool readable_checked(const DLDevice &device) {
  if (!device.device_id)
    return false;
  if (device.device_id & 1)
    return false;
  return device.device_type == kDLCPU;
}

} // namespace

void copy_readable(const DLTensor &t, void *dst, size_t bytes) {
  if (!readable(t.device))
    return;
  memcpy(dst, static_cast<const char *>(t.data) + t.byte_offset, bytes);
  // CHECK-MESSAGES-VALUES: :[[@LINE-1]]:15: warning: data of an imported DLTensor accessed from the host without checking its device type [interop-unsupported-dlpack-device]
  // CHECK-MESSAGES-STATEMENTS-FIELDS: :[[@LINE-2]]:15: warning: data of an imported DLTensor accessed from the host without checking its device type [interop-unsupported-dlpack-device]
}

void copy_readable_checked(const DLTensor &t, void *dst, size_t bytes) {
  if (!readable_checked(t.device))
    return;
  memcpy(dst, static_cast<const char *>(t.data) + t.byte_offset, bytes);
  // CHECK-MESSAGES-STEPS: :[[@LINE-1]]:15: warning: data of an imported DLTensor accessed from the host without checking its device type [interop-unsupported-dlpack-device]
  // CHECK-MESSAGES-STATEMENTS-FIELDS: :[[@LINE-2]]:15: warning: data of an imported DLTensor accessed from the host without checking its device type [interop-unsupported-dlpack-device]
}
#endif
