// RUN: %check_interop %s interop-dlpack-strides %t -- -- -std=c++17 -I%S/Inputs/dlpack/v1

// A helper with internal linkage that dereferences a tensor parameter's
// strides is correct when every call of it in the translation unit tests
// those strides first: it cannot be called from anywhere else. One unguarded
// call, an address taken, or external linkage and the helper is judged on its
// own. (XLA's GetByteStrides, only called under
// `if (dl_tensor.strides)`.)

#include <dlpack/dlpack.h>

namespace {
int64_t byte_stride(const DLTensor &t, int i) {
  return t.strides[i] * t.dtype.bits / 8;
}

int64_t managed_stride(const DLManagedTensor *mt) {
  return mt->dl_tensor.strides[0];
}

int64_t once_unguarded(const DLTensor &t) {
  return t.strides[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'strides' dereferenced without a NULL check on this path [interop-dlpack-strides]
  // CHECK-MESSAGES: :[[@LINE-2]]:10: note: a NULL 'strides' means a compact row-major tensor; producers before DLPack 1.2 may send it
}

int64_t address_taken(const DLTensor &t) {
  return t.strides[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'strides' dereferenced without a NULL check on this path [interop-dlpack-strides]
  // CHECK-MESSAGES: :[[@LINE-2]]:10: note: a NULL 'strides' means a compact row-major tensor; producers before DLPack 1.2 may send it
}
} // namespace

static int64_t static_helper(const DLTensor *t) { return t->strides[1]; }

// External linkage: callers in other translation units are not seen.
int64_t exported_stride(const DLTensor &t) {
  return t.strides[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'strides' dereferenced without a NULL check on this path [interop-dlpack-strides]
  // CHECK-MESSAGES: :[[@LINE-2]]:10: note: a NULL 'strides' means a compact row-major tensor; producers before DLPack 1.2 may send it
}

int64_t (*keep)(const DLTensor &) = address_taken;

int64_t callers(const DLManagedTensor *mt, const DLTensor &other,
                const DLTensor *ptr) {
  int64_t total = 0;
  if (mt->dl_tensor.strides) {
    total += byte_stride(mt->dl_tensor, 0);
    total += managed_stride(mt);
  }
  const DLTensor &dt = mt->dl_tensor;
  if (dt.strides == nullptr)
    return total;
  total += byte_stride(dt, 1);
  total += ptr->strides ? static_helper(ptr) : 0;
  total += once_unguarded(other);
  if (other.strides)
    total += once_unguarded(other);
  total += exported_stride(other);
  return total;
}

// A caller's own tensor, laid out by its own hand before the call: a
// producer that shows what it exports (a debug print of the tensor it
// built). Strides written on every path before the call, and only ever with
// a fresh array, are not NULL there; written in one branch, or with NULL,
// they may be.
namespace {
void show(DLManagedTensor a) {
  for (int i = 0; i < a.dl_tensor.ndim; ++i)
    (void)a.dl_tensor.strides[i];
}
void show_maybe(const DLManagedTensor &a) {
  (void)a.dl_tensor.strides[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'strides' dereferenced without a NULL check on this path [interop-dlpack-strides]
  // CHECK-MESSAGES: :[[@LINE-2]]:9: note: a NULL 'strides' means a compact row-major tensor; producers before DLPack 1.2 may send it
}
void show_null(const DLManagedTensor &a) {
  (void)a.dl_tensor.strides[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'strides' dereferenced without a NULL check on this path [interop-dlpack-strides]
  // CHECK-MESSAGES: :[[@LINE-2]]:9: note: a NULL 'strides' means a compact row-major tensor; producers before DLPack 1.2 may send it
}
} // namespace
DLManagedTensor *export_shown(int ndim, void *data) {
  int64_t *strides = new int64_t[ndim];
  DLManagedTensor *mt = new DLManagedTensor;
  mt->dl_tensor.data = data;
  mt->dl_tensor.ndim = ndim;
  mt->dl_tensor.strides = strides;
  show(*mt);
  return mt;
}
DLManagedTensor *export_shown_if(int ndim, void *data, bool strided) {
  DLManagedTensor *mt = new DLManagedTensor;
  mt->dl_tensor.data = data;
  if (strided)
    mt->dl_tensor.strides = new int64_t[ndim];
  show_maybe(*mt);
  return mt;
}
DLManagedTensor *export_compact(void *data) {
  DLManagedTensor *mt = new DLManagedTensor;
  mt->dl_tensor.data = data;
  mt->dl_tensor.strides = nullptr;
  show_null(*mt);
  return mt;
}

// A caller that calls a validator of the strides first (a void function of
// the file that throws on NULL strides, or a local lambda called by name)
// guards the helpers it calls after it; one that merely looks at them does
// not.
struct BadLayout {
  const char *what;
};
namespace {
void require_strided(const DLTensor &t) {
  if (t.strides == nullptr)
    throw BadLayout{"compact tensors are not supported"};
}
void log_layout(const DLTensor &t) {
  if (t.strides == nullptr)
    return;
}
int64_t row_pitch(const DLTensor &t) { return t.strides[0]; }
int64_t col_pitch(const DLTensor &t) { return t.strides[1]; }
int64_t logged_pitch(const DLTensor &t) {
  return t.strides[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'strides' dereferenced without a NULL check on this path [interop-dlpack-strides]
  // CHECK-MESSAGES: :[[@LINE-2]]:10: note: a NULL 'strides' means a compact row-major tensor; producers before DLPack 1.2 may send it
}
} // namespace
int64_t pitch(const DLTensor &t) {
  require_strided(t);
  return row_pitch(t);
}
int64_t pitch_lambda(const DLTensor &t) {
  auto check = [](const DLTensor &x) {
    if (!x.strides)
      throw BadLayout{"compact"};
  };
  check(t);
  return col_pitch(t);
}
int64_t pitch_logged(const DLTensor &t) {
  log_layout(t);
  return logged_pitch(t);
}
