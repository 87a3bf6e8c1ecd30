// RUN: %check_interop %s interop-dlpack-strides,interop-dlpack-byte-offset %t -- -- -std=c++17 -I%S/Inputs/dlpack/v1

// The address of the data computed as an integer (uintptr_t) and turned back
// into a pointer is still the tensor's data: a compact copy from it needs
// the strides checked, and byte_offset added to the integer counts.
// (cudf's from_dlpack computed each column's address
// through uintptr_t.)

#include <dlpack/dlpack.h>
#include <stdint.h>
#include <string.h>

void to_columns(const DLTensor &t, char **cols) {
  if (t.device.device_type != kDLCPU || t.ndim != 2)
    return;
  size_t rows = t.shape[0], ncols = t.shape[1], width = t.dtype.bits / 8;
  uintptr_t addr = reinterpret_cast<uintptr_t>(t.data) + t.byte_offset;
  for (size_t c = 0; c < ncols; ++c, addr += rows * width)
    memcpy(cols[c], reinterpret_cast<const void *>(addr), rows * width);
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: tensor data copied as one compact block, but its 'strides' are never checked [interop-dlpack-strides]
  // CHECK-MESSAGES: :[[@LINE-4]]:48: note: 'data' read here
  // CHECK-MESSAGES: :[[@LINE-3]]:21: note: non-NULL 'strides' may be non-compact (transposed, broadcast, sliced); compare them with the compact strides or reject them
}

// Without byte_offset, the integer is the base of the allocation.
void first_row(const DLTensor *t, char *out, size_t n) {
  if (t->device.device_type != kDLCPU || t->strides != nullptr)
    return;
  uintptr_t base = (uintptr_t)t->data;
  memcpy(out, (const char *)(base + 0), n);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'data' used as the address of the first element without adding 'byte_offset' [interop-dlpack-byte-offset]
  // CHECK-MESSAGES: :[[@LINE-3]]:31: note: 'data' read here
  // CHECK-MESSAGES: :[[@LINE-3]]:15: note: add 'byte_offset' (in bytes) to 'data', or reject tensors whose 'byte_offset' is not zero
}

// The fix: every stride compared with the compact layout first.
void to_columns_checked(const DLTensor &t, char **cols) {
  if (t.device.device_type != kDLCPU || t.ndim != 2)
    return;
  size_t rows = t.shape[0], ncols = t.shape[1], width = t.dtype.bits / 8;
  if (t.strides && (t.strides[0] != 1 || t.strides[1] != t.shape[0]))
    return;
  uintptr_t addr = reinterpret_cast<uintptr_t>(t.data) + t.byte_offset;
  for (size_t c = 0; c < ncols; ++c, addr += rows * width)
    memcpy(cols[c], reinterpret_cast<const void *>(addr), rows * width);
}

// Handing the tensor back to its deleter does not look at its strides
// (cudf's gdf_from_dlpack, 2019).
void columns_then_release(DLManagedTensor *mt, char **cols, size_t bytes) {
  for (int64_t c = 0; c < mt->dl_tensor.shape[1]; ++c) {
    void *col = reinterpret_cast<void *>(
        reinterpret_cast<uintptr_t>(mt->dl_tensor.data) +
        mt->dl_tensor.byte_offset + c * bytes);
    memcpy(cols[c], col, bytes);
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: tensor data copied as one compact block, but its 'strides' are never checked [interop-dlpack-strides]
    // CHECK-MESSAGES: :[[@LINE-4]]:37: note: 'data' read here
    // CHECK-MESSAGES: :[[@LINE-3]]:21: note: non-NULL 'strides' may be non-compact (transposed, broadcast, sliced); compare them with the compact strides or reject them
  }
  mt->deleter(mt);
}
