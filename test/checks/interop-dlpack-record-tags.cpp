// RUN: %check_interop %s interop-unsupported-dlpack-device,interop-dlpack-strides,interop-dlpack-null-deleter,interop-dlpack-byte-offset,interop-dlpack-version %t -- -- -std=c++17

// A project's copy of dlpack.h whose structs carry tags of their own
// (`typedef struct DLDevice_ { ... } DLDevice;`, edited so that DLDevice can
// be declared ahead): the records are DLPack's through their typedefs, and
// every check judges them as it judges the originals. Before, a device
// record under its own tag inside a recognised DLTensor was not recognised:
// its type checks went unseen (a false alarm on a checked copy) and the
// analysis aborted on the first function below. (A tagged DLTensor and
// DLDataType: test/lib/abi/dlpack_types_test.cpp.)

#include <stdint.h>
#include <string.h>

extern "C" {
typedef enum { kDLCPU = 1, kDLCUDA = 2, kDLCUDAHost = 3 } DLDeviceType;
typedef struct DLDevice_ {
  DLDeviceType device_type;
  int32_t device_id;
} DLDevice;
typedef struct DLDataType_ {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
} DLDataType;
typedef struct {
  void *data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t *shape;
  int64_t *strides;
  uint64_t byte_offset;
} DLTensor;
typedef struct DLManagedTensor {
  DLTensor dl_tensor;
  void *manager_ctx;
  void (*deleter)(struct DLManagedTensor *self);
} DLManagedTensor;
}

void take(void *p, int n);

// The function that aborted the analysis: a field of the tagged device is
// read, then the data handed on.
void consume(DLManagedTensor *m, int n) {
  int dev = m->dl_tensor.device.device_id;
  take(static_cast<char *>(m->dl_tensor.data), dev + n);
  m->deleter(m);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: deleter of a tensor this function did not make called without testing it for NULL; a DLPack producer may leave the deleter NULL [interop-dlpack-null-deleter]
}

void copy_checked(const DLTensor &t, void *dst, size_t n) {
  if (t.device.device_type != kDLCPU || t.strides)
    return;
  memcpy(dst, static_cast<const char *>(t.data) + t.byte_offset, n);
}

void copy_unchecked(const DLTensor &t, void *dst, size_t n) {
  if (t.strides)
    return;
  memcpy(dst, static_cast<const char *>(t.data) + t.byte_offset, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: data of an imported DLTensor accessed from the host without checking its device type [interop-unsupported-dlpack-device]
}

void copy_without_offset(const DLTensor &t, void *dst, size_t n) {
  if (t.device.device_type != kDLCPU || t.strides)
    return;
  memcpy(dst, t.data, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'data' used as the address of the first element without adding 'byte_offset' [interop-dlpack-byte-offset]
  // CHECK-MESSAGES: :[[@LINE-2]]:15: note: add 'byte_offset' (in bytes) to 'data', or reject tensors whose 'byte_offset' is not zero
}
