// RUN: %check_interop %s interop-dlpack-byte-offset %t -- \
// RUN:   -config="{CheckOptions: {interop-dlpack-byte-offset.ReportSkippedFunctions: true}}" \
// RUN:   -- -I%S/Inputs/dlpack/v06
// RUN: %check_interop -check-suffix=QUIET %s interop-dlpack-byte-offset %t -- -- -I%S/Inputs/dlpack/v06

// clang's dataflow framework analyses C++ only. A C function is skipped,
// silently by default and visibly with ReportSkippedFunctions.

#include <dlpack/dlpack.h>
#include <string.h>

void copy_out(const DLTensor *t, void *dst, size_t n) {
  // CHECK-MESSAGES: :[[@LINE-1]]:6: warning: function 'copy_out' was not analysed: its control-flow graph could not be built (Can only analyze C++) [interop-dlpack-byte-offset]
  memcpy(dst, t->data, n);
}

// Functions that do not touch DLPack are never analysed, so never reported.
int unrelated(int x) { return x + 1; }
