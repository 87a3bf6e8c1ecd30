// RUN: %check_interop %s interop-dlpack-strides %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// Reading one stride as a number (a pitch, an offset) is not a compactness
// check: the inner stride is never compared with 1, yet each column is copied
// as one compact block. A stride compared or tested, directly or through the
// local it initialises, or the strides read in a loop over the dimensions,
// is a check. (cudf from_dlpack before 9e004c3be6f,
// rapidsai/cudf#10754.)

#include <dlpack/dlpack.h>
#include <string.h>

void columns(const DLTensor &t, char **cols, size_t rows, size_t width) {
  if (t.device.device_type != kDLCPU || t.ndim != 2)
    return;
  size_t pitch = t.strides ? t.strides[1] * width : rows * width;
  const char *first = static_cast<const char *>(t.data) + t.byte_offset;
  for (int64_t c = 0; c < t.shape[1]; ++c)
    memcpy(cols[c], first + c * pitch, rows * width);
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: tensor data copied as one compact block, but its 'strides' are never checked [interop-dlpack-strides]
  // CHECK-MESSAGES: :[[@LINE-2]]:21: note: non-NULL 'strides' may be non-compact (transposed, broadcast, sliced); compare them with the compact strides or reject them
}

// The same read through a local copy of the pointer.
void columns_alias(const DLTensor *t, char **cols, size_t rows, size_t width) {
  if (t->device.device_type != kDLCPU || t->ndim != 2)
    return;
  const int64_t *s = t->strides;
  size_t pitch = s ? s[1] * width : rows * width;
  const char *first = static_cast<const char *>(t->data) + t->byte_offset;
  for (int64_t c = 0; c < t->shape[1]; ++c)
    memcpy(cols[c], first + c * pitch, rows * width);
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: tensor data copied as one compact block, but its 'strides' are never checked [interop-dlpack-strides]
  // CHECK-MESSAGES: :[[@LINE-2]]:21: note: non-NULL 'strides' may be non-compact (transposed, broadcast, sliced); compare them with the compact strides or reject them
}

// The fix: every stride compared.
void columns_checked(const DLTensor &t, char **cols, size_t rows,
                     size_t width) {
  if (t.device.device_type != kDLCPU || t.ndim != 2)
    return;
  if (t.strides && (t.strides[0] != 1 || t.strides[1] < t.shape[0]))
    return;
  size_t pitch = t.strides ? t.strides[1] * width : rows * width;
  const char *first = static_cast<const char *>(t.data) + t.byte_offset;
  for (int64_t c = 0; c < t.shape[1]; ++c)
    memcpy(cols[c], first + c * pitch, rows * width);
}

// Compared through the local it initialises, and inside arithmetic.
void columns_local(const DLTensor &t, char **cols, size_t rows, size_t width) {
  if (t.device.device_type != kDLCPU || t.ndim != 2 || t.strides == nullptr)
    return;
  const int64_t inner = t.strides[0];
  if (inner != 1 || t.strides[1] * 1 != t.shape[0])
    return;
  size_t pitch = t.strides[1] * width;
  const char *first = static_cast<const char *>(t.data) + t.byte_offset;
  for (int64_t c = 0; c < t.shape[1]; ++c)
    memcpy(cols[c], first + c * pitch, rows * width);
}

// Strides read at every index (a loop over the dimensions) are looked at.
void copy_strided(const DLTensor &t, char *out, size_t bytes) {
  if (t.device.device_type != kDLCPU)
    return;
  if (t.strides)
    for (int d = 0; d < t.ndim; ++d)
      if (t.strides[d] <= 0)
        return;
  memcpy(out, static_cast<const char *>(t.data) + t.byte_offset, bytes);
}
