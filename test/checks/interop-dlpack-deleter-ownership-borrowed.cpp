// RUN: %check_interop %s interop-dlpack-deleter-ownership %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// A function that receives a borrowed `const DLManagedTensor *` and calls
// its deleter (casting the const away) as "borrowing is done" deletes a
// tensor its caller (a capsule) still owns: it is deleted twice
// (cudf's gdf_from_dlpack). A release function of
// that one tensor, an importer that hands the tensor on, and a deleter
// deferred in a callback are not borrowing.

#include <dlpack/dlpack.h>

void *copy_bytes(void *dst, const void *src, unsigned long n);

int copy_out(char *out, const DLManagedTensor *t) {
  const DLTensor &d = t->dl_tensor;
  if (d.device.device_type != kDLCPU || d.strides)
    return -1;
  unsigned long n = d.dtype.bits / 8;
  for (int i = 0; i < d.ndim; ++i)
    n *= d.shape[i];
  copy_bytes(out, static_cast<const char *>(d.data) + d.byte_offset, n);
  // the caller still owns t:
  t->deleter(const_cast<DLManagedTensor *>(t));
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: deleter called on 't', a tensor this function only borrowed (a pointer to const it never hands on); its owner will delete it again [interop-dlpack-deleter-ownership]
  // CHECK-MESSAGES: :14:48: note: 't' declared here
  return 0;
}

// A release function of one tensor, whatever its constness.
void release(const DLManagedTensor *t) {
  if (t && t->deleter)
    t->deleter(const_cast<DLManagedTensor *>(t));
}

// Borrowed and not deleted: nothing to say.
long numel(const DLManagedTensor *t) {
  long n = 1;
  for (int i = 0; i < t->dl_tensor.ndim; ++i)
    n *= t->dl_tensor.shape[i];
  return n;
}

// Handed on for good (stored), deleted only when that fails: an importer.
struct Holder {
  const DLManagedTensor *held;
};
bool adopt(Holder *h, const DLManagedTensor *t, bool ok) {
  if (!ok) {
    t->deleter(const_cast<DLManagedTensor *>(t));
    return false;
  }
  h->held = t;
  return true;
}

// Deferred: the callback owns it (its maker passes it on).
template <typename F> void on_release(F f) { f(); }
void defer(const DLManagedTensor *t, int) {
  on_release([t] { t->deleter(const_cast<DLManagedTensor *>(t)); });
}
