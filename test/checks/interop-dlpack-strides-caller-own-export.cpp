// RUN: %check_interop %s interop-dlpack-strides %t -- -- -std=c++17 -I%S/Inputs/dlpack/v1

// A file-local helper that reads a tensor's strides is correct when every
// caller hands it a tensor the code exported itself (a local initialised by
// one of TensorSources, `to_dlpack`-like): that tensor is the producer's,
// not an import, as it is where the export is called. One caller with a
// foreign tensor and the helper is judged on its own.

#include <dlpack/dlpack.h>

struct Frame;
DLManagedTensor *to_dlpack(const Frame &f);
DLManagedTensor *from_somewhere();

namespace {
int64_t pitch(const DLTensor &t) { return t.strides[0] * t.dtype.bits / 8; }

int64_t pitch_of_foreign(const DLTensor &t) {
  return t.strides[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'strides' dereferenced without a NULL check on this path [interop-dlpack-strides]
  // CHECK-MESSAGES: :[[@LINE-2]]:10: note: a NULL 'strides' means a compact row-major tensor; producers before DLPack 1.2 may send it
}
} // namespace

int64_t export_pitch(const Frame &f) {
  DLManagedTensor *mt = to_dlpack(f);
  int64_t p = pitch(mt->dl_tensor);
  mt->deleter(mt);
  return p;
}

int64_t mixed(const Frame &f) {
  DLManagedTensor *own = to_dlpack(f);
  DLManagedTensor *other = from_somewhere();
  int64_t p = pitch_of_foreign(own->dl_tensor) +
              pitch_of_foreign(other->dl_tensor);
  own->deleter(own);
  other->deleter(other);
  return p;
}
