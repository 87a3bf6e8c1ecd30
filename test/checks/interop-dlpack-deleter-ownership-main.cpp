// RUN: %check_interop %s interop-dlpack-deleter-ownership %t -- -- -std=c++17 -I%S/Inputs/dlpack/v1

// Leaving main ends the process: a tensor still owned at one of its exits
// (a test's early error return) is reclaimed with everything else, not
// leaked. The same exits of any other function are leaks.

#include <dlpack/dlpack.h>

DLManagedTensor *to_dlpack(int n);
int check_shape(const DLManagedTensor *m);

int run_check(int n) {
  DLManagedTensor *m = to_dlpack(n);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: managed tensor obtained here is neither deleted nor handed on on some path [interop-dlpack-deleter-ownership]
  if (m->dl_tensor.ndim != 1)
    return 1;
  // CHECK-MESSAGES: :[[@LINE-1]]:5: note: still owned when the function returns here
  m->deleter(m);
  return 0;
}

int main() {
  DLManagedTensor *m = to_dlpack(4);
  if (m->dl_tensor.ndim != 1)
    return 1;
  if (check_shape(m) != 0)
    return 2;
  m->deleter(m);
  return run_check(3);
}
