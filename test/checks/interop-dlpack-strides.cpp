// RUN: %check_interop %s interop-dlpack-strides %t -- -- -std=c++17 -I%S/Inputs/dlpack/v06

#include <dlpack/dlpack.h>
#include <string.h>

struct logic_error {
  explicit logic_error(const char *what);
};

// cudf (cpp/src/interop/dlpack.cpp), before strides were validated: the
// columns were copied out as compact blocks whatever the strides said.
#define CUDF_EXPECTS(cond, reason)                                             \
  do {                                                                         \
    if (!(cond))                                                               \
      throw logic_error(reason);                                               \
  } while (0)
typedef int cudaError_t;
enum cudaMemcpyKind { cudaMemcpyDefault = 4 };
extern "C" cudaError_t cudaMemcpyAsync(void *dst, const void *src,
                                       size_t count, cudaMemcpyKind kind,
                                       void *stream);
namespace cudf {
struct column {
  void *head();
};

void from_dlpack(DLManagedTensor const *managed_tensor, column *columns,
                 void *stream) {
  auto const &tensor = managed_tensor->dl_tensor;
  CUDF_EXPECTS(tensor.device.device_type == kDLCPU ||
                   tensor.device.device_type == kDLCUDA,
               "DLTensor must be CPU or CUDA");
  CUDF_EXPECTS(tensor.ndim == 1 || tensor.ndim == 2, "1D or 2D only");
  int64_t const num_rows = tensor.shape[0];
  int64_t const num_columns = tensor.ndim == 2 ? tensor.shape[1] : 1;
  size_t const bytes = num_rows * (tensor.dtype.bits / 8);
  char const *data = static_cast<char const *>(tensor.data) + tensor.byte_offset;
  for (int64_t c = 0; c < num_columns; ++c) {
    cudaMemcpyAsync(columns[c].head(), data, bytes, cudaMemcpyDefault, stream);
    // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: tensor data copied as one compact block, but its 'strides' are never checked [interop-dlpack-strides]
    // CHECK-MESSAGES: :[[@LINE-4]]:48: note: 'data' read here
    // CHECK-MESSAGES: :[[@LINE-3]]:40: note: non-NULL 'strides' may be non-compact (transposed, broadcast, sliced); compare them with the compact strides or reject them
    data += bytes;
  }
}

// The fix: NULL strides are compact; anything else must be the compact
// column-major layout.
void from_dlpack_fixed(DLManagedTensor const *managed_tensor, column *columns,
                       void *stream) {
  auto const &tensor = managed_tensor->dl_tensor;
  CUDF_EXPECTS(tensor.ndim == 1 || tensor.ndim == 2, "1D or 2D only");
  int64_t const num_rows = tensor.shape[0];
  int64_t const num_columns = tensor.ndim == 2 ? tensor.shape[1] : 1;
  CUDF_EXPECTS(tensor.strides == nullptr ||
                   (tensor.strides[0] == 1 &&
                    (tensor.ndim == 1 || tensor.strides[1] == num_rows)),
               "non-compact strides are not supported");
  size_t const bytes = num_rows * (tensor.dtype.bits / 8);
  char const *data = static_cast<char const *>(tensor.data) + tensor.byte_offset;
  for (int64_t c = 0; c < num_columns; ++c) {
    cudaMemcpyAsync(columns[c].head(), data, bytes, cudaMemcpyDefault, stream);
    data += bytes;
  }
}

// Checking for NULL and ignoring the non-NULL case is the same bug.
void null_checked_only(DLTensor const *t, column *out, size_t bytes) {
  if (t->strides != nullptr) {
    // TODO: strided input
  }
  memcpy(out->head(), static_cast<char *>(t->data) + t->byte_offset, bytes);
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: tensor data copied as one compact block, but its 'strides' are never checked [interop-dlpack-strides]
}
} // namespace cudf

// Dereferencing strides with no NULL check (strides are optional before
// DLPack 1.2, and NULL means compact).
void copy_strides(const DLTensor &t, int64_t *out) {
  for (int i = 0; i < t.ndim; ++i)
    out[i] = t.strides[i];
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'strides' dereferenced without a NULL check on this path [interop-dlpack-strides]
  // CHECK-MESSAGES: :[[@LINE-2]]:14: note: a NULL 'strides' means a compact row-major tensor; producers before DLPack 1.2 may send it
}

int64_t innermost(const DLTensor *t) {
  const int64_t *s = t->strides;
  return s[t->ndim - 1];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'strides' dereferenced without a NULL check on this path [interop-dlpack-strides]
  // CHECK-MESSAGES: :[[@LINE-3]]:22: note: 'strides' read here
}

// The NULL check on one path proves nothing on the other.
int64_t one_path(const DLTensor *t, bool fast) {
  if (fast && t->strides == nullptr)
    return 1;
  return t->strides[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'strides' dereferenced without a NULL check on this path [interop-dlpack-strides]
}

// Indexing data with a linear index assumes compact strides.
float sum(const DLTensor *t, int64_t n) {
  const float *p = reinterpret_cast<const float *>(
      static_cast<const char *>(t->data) + t->byte_offset);
  float s = 0;
  for (int64_t i = 0; i < n; ++i)
    s += p[i];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: tensor data indexed as if compact, but its 'strides' are never checked [interop-dlpack-strides]
  return s;
}

// --- Correct code that must stay silent ---

void copy_strides_fixed(const DLTensor &t, int64_t *out) {
  if (t.strides == nullptr) {
    int64_t stride = 1;
    for (int i = t.ndim - 1; i >= 0; --i) {
      out[i] = stride;
      stride *= t.shape[i];
    }
    return;
  }
  for (int i = 0; i < t.ndim; ++i)
    out[i] = t.strides[i];
}

// Checked once in a local, relied on later.
int64_t checked_once(const DLTensor *t) {
  const bool compact = !t->strides;
  int64_t last = 1;
  if (!compact)
    last = t->strides[t->ndim - 1];
  return last;
}

// The ternary's guarded arm, and && short-circuiting.
int64_t guarded(const DLTensor *t, int i) {
  int64_t a = t->strides ? t->strides[i] : 1;
  bool unit = t->strides != nullptr && t->strides[i] == 1;
  return a + unit;
}

// Rejecting strided tensors makes a compact copy correct.
void reject_strided(const DLTensor *t, void *dst, size_t bytes) {
  if (t->strides != nullptr)
    return;
  memcpy(dst, static_cast<char *>(t->data) + t->byte_offset, bytes);
}

// A compactness check in a helper counts.
bool is_compact(const DLTensor *t) {
  if (!t->strides)
    return true;
  int64_t expected = 1;
  for (int i = t->ndim - 1; i >= 0; --i) {
    if (t->strides[i] != expected)
      return false;
    expected *= t->shape[i];
  }
  return true;
}
void helper_checked(const DLTensor *t, void *dst, size_t bytes) {
  if (!is_compact(t))
    return;
  memcpy(dst, static_cast<char *>(t->data) + t->byte_offset, bytes);
}

// Indexing with an offset computed from the strides.
float strided_at(const DLTensor *t, const int64_t *index) {
  int64_t offset = 0;
  for (int d = 0; d < t->ndim; ++d)
    offset += index[d] * (t->strides ? t->strides[d] : 1);
  const float *p = reinterpret_cast<const float *>(
      static_cast<const char *>(t->data) + t->byte_offset);
  return p[offset];
}

// The first element sits at the same address whatever the strides.
float scalar(const DLTensor *t) {
  return *reinterpret_cast<const float *>(static_cast<const char *>(t->data) +
                                          t->byte_offset);
}

// A producer describing its own compact tensor.
void export_compact(DLTensor *out, float *buffer, int64_t *shape) {
  out->data = buffer;
  out->shape = shape;
  out->strides = nullptr;
  out->byte_offset = 0;
  memcpy(out->data, buffer, 4);
}

// A tensor pointer made afresh in each iteration of an outer loop reaches
// the inner loop's head through a join of two pointers (this iteration's
// and the last one's); what was checked of its strides in this iteration
// still holds there.
struct Meta {
  DLDevice device;
  int ndim;
};
const DLTensor *tensor_at(int k);
void keep(const Meta &m, int64_t stride);
void strides_of_each(int n) {
  for (int k = 0; k < n; ++k) {
    const DLTensor *t = tensor_at(k);
    Meta meta;
    meta.device = t->device;
    meta.ndim = t->ndim;
    if (t->strides != nullptr)
      for (int i = 0; i < t->ndim; ++i)
        keep(meta, t->strides[i]);
  }
}

void strides_of_each_unchecked(int n) {
  for (int k = 0; k < n; ++k) {
    const DLTensor *t = tensor_at(k);
    Meta meta;
    meta.device = t->device;
    for (int i = 0; i < t->ndim; ++i)
      keep(meta, t->strides[i]);
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'strides' dereferenced without a NULL check on this path [interop-dlpack-strides]
  }
}
