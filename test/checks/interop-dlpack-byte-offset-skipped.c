// RUN: %check_interop %s interop-dlpack-byte-offset %t -- \
// RUN:   -config="{CheckOptions: {interop-dlpack-byte-offset.ReportSkippedFunctions: true}}" \
// RUN:   -- -I%S/Inputs/dlpack/v06
// RUN: %check_interop -check-suffix=BOUND %s interop-dlpack-byte-offset %t -- \
// RUN:   -config="{CheckOptions: {MaxCFGBlocks: 3, interop-dlpack-byte-offset.ReportSkippedFunctions: true}}" \
// RUN:   -- -I%S/Inputs/dlpack/v06

// ReportSkippedFunctions in C: C is analysed as C++ is (clang's dataflow
// framework takes C only through the checks' bridge, which gives C's bare
// truth tests their boolean), so nothing is listed; a C function over a
// bound is listed like any other.

#include <dlpack/dlpack.h>
#include <string.h>

void copy_out(const DLTensor *t, void *dst, size_t n) {
  // CHECK-MESSAGES-BOUND: :[[@LINE-1]]:6: warning: function 'copy_out' was not analysed: it is larger than the analysis bound ({{[0-9]+}} CFG blocks) [interop-dlpack-byte-offset]
  if (!dst || !n)
    return;
  memcpy(dst, t->data, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'data' used as the address of the first element without adding 'byte_offset' [interop-dlpack-byte-offset]
}

/* C's bare test of byte_offset: the zero branch may use data alone. */
void copy_tested(const DLTensor *t, void *dst, size_t n) {
  // CHECK-MESSAGES-BOUND: :[[@LINE-1]]:6: warning: function 'copy_tested' was not analysed: it is larger than the analysis bound ({{[0-9]+}} CFG blocks) [interop-dlpack-byte-offset]
  if (t->byte_offset)
    return;
  memcpy(dst, t->data, n);
}

// Functions that do not touch DLPack are never analysed, so never reported.
int unrelated(int x) { return x + 1; }
