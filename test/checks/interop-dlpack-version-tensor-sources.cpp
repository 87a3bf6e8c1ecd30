// RUN: %check_interop %s interop-dlpack-version %t -- -- -std=c++17 -I%S/Inputs/dlpack/v1
// RUN: %check_interop -check-suffix=GLOBAL %s interop-dlpack-version %t.global -- \
// RUN:   -config="{CheckOptions: {TensorSources: '::mylib::export_tensor$'}}" \
// RUN:   -- -std=c++17 -I%S/Inputs/dlpack/v1

// TensorSources (a global option, or per check) names the producers whose
// returned tensor the caller owns: the code's own export. Read where it is
// made (a library's test of its export), its version is the producer's
// own, not an import's. With the list changed, the default names no longer
// count and the listed one does.

#include <dlpack/dlpack.h>

struct Array {
  DLManagedTensorVersioned *ToDLPackVersioned() const;
};
namespace mylib {
DLManagedTensorVersioned *export_tensor(const Array &a);
}

long exported_ndim(const Array &a) {
  DLManagedTensorVersioned *mt = a.ToDLPackVersioned();
  long n = mt->dl_tensor.ndim;
  // CHECK-MESSAGES-GLOBAL: :[[@LINE-1]]:16: warning: 'dl_tensor' of a versioned tensor used without checking 'version.major' on this path [interop-dlpack-version]
  mt->deleter(mt);
  return n;
}

long listed_ndim(const Array &a) {
  DLManagedTensorVersioned *mt = mylib::export_tensor(a);
  long n = mt->dl_tensor.ndim;
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'dl_tensor' of a versioned tensor used without checking 'version.major' on this path [interop-dlpack-version]
  mt->deleter(mt);
  return n;
}
