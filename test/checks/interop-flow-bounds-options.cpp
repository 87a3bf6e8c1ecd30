// The bounds of the flow analysis (MaxSATIterations, MaxMilliseconds,
// MaxBlockVisits, MaxCFGBlocks, MaxSummaryStatements; the other summary
// bounds in interop-summary-bounds-options.cpp) are options of every
// check, shown by --dump-config; one global setting reaches every family; an
// invalid value is refused with a configuration warning naming it (the
// default stays); and a function over a bound is reported, one by one when
// ReportSkippedFunctions asks, else by one line for the file: never dropped
// silently.
//
// RUN: %clang_tidy --checks='-*,interop-dlpack-byte-offset,interop-dlpack-deleter-ownership,interop-sharded-dlpack-export' --dump-config -- -std=c++17 | FileCheck %s --check-prefix=DEFAULTS
// DEFAULTS-DAG: interop-dlpack-byte-offset.MaxSATIterations: '1000000'
// DEFAULTS-DAG: interop-dlpack-byte-offset.MaxMilliseconds: '10000'
// DEFAULTS-DAG: interop-dlpack-byte-offset.MaxBlockVisits: '20000'
// DEFAULTS-DAG: interop-dlpack-byte-offset.MaxCFGBlocks: '2000'
// DEFAULTS-DAG: interop-dlpack-byte-offset.MaxSummaryStatements: '400'
// DEFAULTS-DAG: interop-dlpack-deleter-ownership.MaxSATIterations: '1000000'
// DEFAULTS-DAG: interop-dlpack-deleter-ownership.MaxMilliseconds: '10000'
// DEFAULTS-DAG: interop-dlpack-deleter-ownership.MaxBlockVisits: '20000'
// DEFAULTS-DAG: interop-dlpack-deleter-ownership.MaxCFGBlocks: '2000'
// DEFAULTS-DAG: interop-sharded-dlpack-export.MaxSATIterations: '1000000'
// DEFAULTS-DAG: interop-sharded-dlpack-export.MaxMilliseconds: '10000'
// DEFAULTS-DAG: interop-sharded-dlpack-export.MaxBlockVisits: '20000'
// DEFAULTS-DAG: interop-sharded-dlpack-export.MaxCFGBlocks: '2000'
// DEFAULTS-DAG: interop-sharded-dlpack-export.MaxSummaryStatements: '400'
//
// RUN: %clang_tidy --checks='-*,interop-dlpack-strides,interop-dlpack-capsule-protocol,interop-nonaddressable-dlpack-import' --config="{CheckOptions: {MaxSATIterations: 5000000, MaxCFGBlocks: 500, interop-dlpack-strides.MaxCFGBlocks: 100}}" --dump-config -- -std=c++17 | FileCheck %s --check-prefix=GLOBAL
// GLOBAL-DAG: interop-dlpack-strides.MaxSATIterations: '5000000'
// GLOBAL-DAG: interop-dlpack-strides.MaxCFGBlocks: '100'
// GLOBAL-DAG: interop-dlpack-capsule-protocol.MaxSATIterations: '5000000'
// GLOBAL-DAG: interop-dlpack-capsule-protocol.MaxCFGBlocks: '500'
// GLOBAL-DAG: interop-nonaddressable-dlpack-import.MaxSATIterations: '5000000'
// GLOBAL-DAG: interop-nonaddressable-dlpack-import.MaxCFGBlocks: '500'
//
// RUN: %clang_tidy --checks='-*,interop-dlpack-version' --config="{CheckOptions: {MaxCFGBlocks: 0, interop-dlpack-version.MaxMilliseconds: -5}}" --quiet %s -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1 2>&1 | FileCheck %s --check-prefix=INVALID
// INVALID-DAG: warning: invalid value '0' for option 'MaxCFGBlocks' of check 'interop-dlpack-version': it must be positive; using 2000 [clang-tidy-config]
// INVALID-DAG: warning: invalid value '-5' for option 'MaxMilliseconds' of check 'interop-dlpack-version': it must be 0 or more; using 10000 [clang-tidy-config]
//
// Over a bound, reported:
// RUN: %check_interop -check-suffix=BLOCKS %s interop-dlpack-byte-offset %t -- \
// RUN:   -config="{CheckOptions: {MaxCFGBlocks: 3, interop-dlpack-byte-offset.ReportSkippedFunctions: true}}" -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1
// RUN: %check_interop -check-suffix=VISITS %s interop-dlpack-byte-offset %t -- \
// RUN:   -config="{CheckOptions: {interop-dlpack-byte-offset.MaxBlockVisits: 2, interop-dlpack-byte-offset.ReportSkippedFunctions: true}}" -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1
// Over a bound and not listed: one line for the file, whichever check says
// it (every check that dropped the function counts it once).
// RUN: %check_interop -check-suffix=SILENT %s interop-dlpack-byte-offset,interop-dlpack-deleter-ownership %t -- \
// RUN:   -config="{CheckOptions: {MaxCFGBlocks: 3}}" -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1
// Within the bounds, the same function is analysed:
// RUN: %check_interop -check-suffix=DEFAULT %s interop-dlpack-byte-offset %t -- \
// RUN:   -config="{CheckOptions: {interop-dlpack-byte-offset.ReportSkippedFunctions: true}}" -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

#include <dlpack/dlpack.h>
#include <string.h>

void fail(const char *);

int import_checked(DLManagedTensorVersioned *mt, char *dst, size_t bytes,
                   bool strict) {
  // CHECK-MESSAGES-BLOCKS: :[[@LINE-2]]:5: warning: function 'import_checked' was not analysed: it is larger than the analysis bound ({{[0-9]+}} CFG blocks) [interop-dlpack-byte-offset]
  // CHECK-MESSAGES-VISITS: :[[@LINE-3]]:5: warning: function 'import_checked' was not analysed: the analysis exceeded its iteration bound (maximum number of blocks processed) [interop-dlpack-byte-offset]
  // CHECK-MESSAGES-SILENT: :[[@LINE-4]]:5: warning: 1 function of this file was not analysed by the interop checks, starting with 'import_checked': it is larger than the analysis bound ({{[0-9]+}} CFG blocks); set ReportSkippedFunctions to list them, or raise the bound [interop-dlpack-{{byte-offset|deleter-ownership}}]
  if (mt->version.major != DLPACK_MAJOR_VERSION) {
    mt->deleter(mt);
    return -1;
  }
  const DLTensor &t = mt->dl_tensor;
  if (strict && t.ndim != 2) {
    fail("ndim");
    mt->deleter(mt);
    return 1;
  }
  if (strict && t.dtype.bits != 32) {
    fail("bits");
    mt->deleter(mt);
    return 2;
  }
  if (strict && t.device.device_type != kDLCPU) {
    fail("device");
    mt->deleter(mt);
    return 3;
  }
  memcpy(dst, t.data, bytes);
  // CHECK-MESSAGES-DEFAULT: :[[@LINE-1]]:15: warning: 'data' used as the address of the first element without adding 'byte_offset' [interop-dlpack-byte-offset]
  // CHECK-MESSAGES-DEFAULT: :[[@LINE-2]]:15: note: add 'byte_offset' (in bytes) to 'data', or reject tensors whose 'byte_offset' is not zero
  mt->deleter(mt);
  return 0;
}
