// RUN: %check_interop %s interop-sharded-dlpack-export %t -- \
// RUN:   -config="{CheckOptions: {interop-sharded-dlpack-export.ReportSkippedFunctions: true}}" \
// RUN:   -- -std=c++17 -I%S/Inputs
// RUN: %check_interop -check-suffix=QUIET %s interop-sharded-dlpack-export %t.quiet -- -- -std=c++17 -I%S/Inputs

// A function over the analysis bound is skipped, never analysed partially
// (no false positive, no crash, no hang), and never silently: by default one
// line for the file says how many functions were dropped and how to list
// them; ReportSkippedFunctions lists each.

#include "interop/interop.h"

using namespace interop;

bool flag();

#define TEN(x) x x x x x x x x x x
#define THOUSAND(x) TEN(TEN(TEN(x)))

void huge(const Array &a) {
  // CHECK-MESSAGES: :[[@LINE-1]]:6: warning: function 'huge' was not analysed: it is larger than the analysis bound ({{[0-9]+}} CFG blocks) [interop-sharded-dlpack-export]
  // CHECK-MESSAGES-QUIET: :[[@LINE-2]]:6: warning: 1 function of this file was not analysed by the interop checks, starting with 'huge': it is larger than the analysis bound ({{[0-9]+}} CFG blocks); set ReportSkippedFunctions to list them, or raise the bound [interop-sharded-dlpack-export]
  int n = 0;
  THOUSAND(if (flag()) ++n;)
  auto t = to_dlpack(a);
}

// Functions that fit are still analysed and judged.
void small(const Array &a) {
  auto t = to_dlpack(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to_dlpack' needs an array on a single device, but 'a' is not proven
  // CHECK-MESSAGES: :[[@LINE-3]]:25: note: 'a' is a parameter
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: check 'is_single_device()' first
  // CHECK-MESSAGES-QUIET: :[[@LINE-4]]:12: warning: 'to_dlpack' needs an array on a single device, but 'a' is not proven
  // CHECK-MESSAGES-QUIET: :[[@LINE-6]]:25: note: 'a' is a parameter
  // CHECK-MESSAGES-QUIET: :[[@LINE-6]]:12: note: check 'is_single_device()' first
}

// Templates are analysed per instantiation: the pattern is not a give-up.
template <typename T> void generic(const T &a) {
  if (a.is_single_device())
    auto t = to_dlpack(a);
}
template void generic<Array>(const Array &);
