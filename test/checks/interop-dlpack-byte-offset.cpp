// RUN: %check_interop %s interop-dlpack-byte-offset %t -- -- -std=c++17 -I%S/Inputs/dlpack/v06

// Each bug below shipped in a real bridge, written here in the style of the
// project it came from, next to its fixed form (which must stay silent).

#include <dlpack/dlpack.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// PyTorch (aten/src/ATen/DLConvertor.cpp): at::fromDLPack wrapped `data`
// directly.
namespace c10 {
template <class T> struct ArrayRef {
  ArrayRef(const T *data, size_t size);
};
using IntArrayRef = ArrayRef<int64_t>;
} // namespace c10
namespace at {
using c10::IntArrayRef;
struct TensorOptions {};
struct Tensor {};
struct Deleter {
  template <class F> Deleter(F f) {}
};
Tensor from_blob(void *data, IntArrayRef sizes, IntArrayRef strides,
                 const Deleter &deleter, const TensorOptions &options);

Tensor fromDLPack(DLManagedTensor *src) {
  auto deleter = [src](void *) { src->deleter(src); };
  return at::from_blob(src->dl_tensor.data,
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: 'data' used as the address of the first element without adding 'byte_offset' [interop-dlpack-byte-offset]
  // CHECK-MESSAGES: :[[@LINE-2]]:24: note: add 'byte_offset' (in bytes) to 'data', or reject tensors whose 'byte_offset' is not zero
                       IntArrayRef(src->dl_tensor.shape, src->dl_tensor.ndim),
                       IntArrayRef(src->dl_tensor.strides, src->dl_tensor.ndim),
                       deleter, TensorOptions());
}

Tensor fromDLPackFixed(DLManagedTensor *src) {
  auto deleter = [src](void *) { src->deleter(src); };
  return at::from_blob(static_cast<char *>(src->dl_tensor.data) +
                           src->dl_tensor.byte_offset,
                       IntArrayRef(src->dl_tensor.shape, src->dl_tensor.ndim),
                       IntArrayRef(src->dl_tensor.strides, src->dl_tensor.ndim),
                       deleter, TensorOptions());
}

// Two reads of the same `data` (one per branch) are two findings: the value
// was first read for the device lookup, which is no use of it.
const void *device_of(const void *p);
Tensor fromDLPackTwoBranches(DLManagedTensor *src) {
  auto deleter = [src](void *) { src->deleter(src); };
  DLTensor &t = src->dl_tensor;
  device_of(t.data);
  if (!t.strides)
    return at::from_blob(t.data, IntArrayRef(t.shape, t.ndim),
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: 'data' used as the address of the first element without adding 'byte_offset' [interop-dlpack-byte-offset]
    // CHECK-MESSAGES: :[[@LINE-2]]:26: note: add 'byte_offset' (in bytes) to 'data', or reject tensors whose 'byte_offset' is not zero
                         IntArrayRef(t.shape, t.ndim), deleter,
                         TensorOptions());
  return at::from_blob(t.data, IntArrayRef(t.shape, t.ndim),
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: 'data' used as the address of the first element without adding 'byte_offset' [interop-dlpack-byte-offset]
  // CHECK-MESSAGES: :[[@LINE-2]]:24: note: add 'byte_offset' (in bytes) to 'data', or reject tensors whose 'byte_offset' is not zero
                       IntArrayRef(t.strides, t.ndim), deleter,
                       TensorOptions());
}
} // namespace at

// TensorFlow (tensorflow/c/eager/dlpack.cc): TFE_HandleFromDLPack handed
// `data` to the tensor-handle factory.
struct TF_Status;
struct TFE_Context;
struct TFE_TensorHandle;
typedef int TF_DataType;
extern "C" TFE_TensorHandle *TFE_NewTensorHandleFromDeviceMemory(
    TFE_Context *ctx, const char *device_name, TF_DataType dtype,
    const int64_t *dims, int num_dims, void *data, size_t len,
    void (*deallocator)(void *data, size_t len, void *arg),
    void *deallocator_arg, TF_Status *status);
void DeallocatorWrapperFunc(void *data, size_t len, void *dlmt_vptr);

TFE_TensorHandle *TFE_HandleFromDLPack(void *dlm, TF_Status *status,
                                       TFE_Context *ctx) {
  DLManagedTensor *dlmt = static_cast<DLManagedTensor *>(dlm);
  DLTensor *dl_tensor = &dlmt->dl_tensor;
  void *data = dl_tensor->data;
  size_t total_bytes = dl_tensor->dtype.bits / 8;
  for (int i = 0; i < dl_tensor->ndim; ++i)
    total_bytes *= dl_tensor->shape[i];
  return TFE_NewTensorHandleFromDeviceMemory(
      ctx, "/device:CPU:0", 1, dl_tensor->shape, dl_tensor->ndim, data,
      // CHECK-MESSAGES: :[[@LINE-1]]:67: warning: 'data' used as the address of the first element without adding 'byte_offset' [interop-dlpack-byte-offset]
      // CHECK-MESSAGES: :[[@LINE-7]]:16: note: 'data' read here
      total_bytes, &DeallocatorWrapperFunc, dlmt, status);
}

TFE_TensorHandle *TFE_HandleFromDLPackFixed(void *dlm, TF_Status *status,
                                            TFE_Context *ctx) {
  DLManagedTensor *dlmt = static_cast<DLManagedTensor *>(dlm);
  DLTensor *dl_tensor = &dlmt->dl_tensor;
  // TensorFlow's fix refuses offsets it cannot represent.
  if (dl_tensor->byte_offset != 0)
    return nullptr;
  void *data = dl_tensor->data;
  return TFE_NewTensorHandleFromDeviceMemory(
      ctx, "/device:CPU:0", 1, dl_tensor->shape, dl_tensor->ndim, data, 0,
      &DeallocatorWrapperFunc, dlmt, status);
}

// TVM (src/runtime/ndarray.cc): the CPU fast path of ArrayCopyToBytes.
namespace tvm {
namespace runtime {
struct DeviceAPI {
  static DeviceAPI *Get(DLDevice dev);
  void CopyDataFromTo(const void *from, size_t from_offset, void *to,
                      size_t to_offset, size_t size, DLDevice dev_from,
                      DLDevice dev_to);
};

void ArrayCopyToBytes(const DLTensor *handle, void *data, size_t nbytes) {
  if (handle->device.device_type == kDLCPU) {
    memcpy(data, handle->data, nbytes);
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'data' used as the address of the first element without adding 'byte_offset' [interop-dlpack-byte-offset]
    return;
  }
  // Handing byte_offset to the copy routine beside `data` is correct.
  DLDevice cpu = {kDLCPU, 0};
  DeviceAPI::Get(handle->device)
      ->CopyDataFromTo(handle->data, static_cast<size_t>(handle->byte_offset),
                       data, 0, nbytes, handle->device, cpu);
}

void ArrayCopyToBytesFixed(const DLTensor *handle, void *data, size_t nbytes) {
  if (handle->device.device_type == kDLCPU) {
    memcpy(data, static_cast<const char *>(handle->data) + handle->byte_offset,
           nbytes);
    return;
  }
}
} // namespace runtime
} // namespace tvm

// MXNet (include/mxnet/tensor_blob.h): TBlob's DLTensor constructor.
namespace mxnet {
struct TShape {
  TShape(const int64_t *begin, const int64_t *end);
};
struct TBlob {
  TBlob(void *dptr, const TShape &shape, int dev_mask, int type_flag,
        int dev_id);
};
int DTypeTransform(DLDataType dtype);

TBlob FromDLPack(const DLManagedTensor *tensor) {
  const DLTensor &dltensor = tensor->dl_tensor;
  return TBlob(dltensor.data,
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'data' used as the address of the first element without adding 'byte_offset' [interop-dlpack-byte-offset]
               TShape(dltensor.shape, dltensor.shape + dltensor.ndim),
               dltensor.device.device_type, DTypeTransform(dltensor.dtype),
               dltensor.device.device_id);
}

TBlob FromDLPackFixed(const DLManagedTensor *tensor) {
  const DLTensor &dltensor = tensor->dl_tensor;
  return TBlob(static_cast<char *>(dltensor.data) + dltensor.byte_offset,
               TShape(dltensor.shape, dltensor.shape + dltensor.ndim),
               dltensor.device.device_type, DTypeTransform(dltensor.dtype),
               dltensor.device.device_id);
}
} // namespace mxnet

// OneFlow (oneflow/api/python/dlpack/converter.cpp): the shape was built
// first, then the blob from `data`.
namespace oneflow {
struct Shape {
  Shape(const int64_t *begin, const int64_t *end);
};
struct Tensor {};
Tensor FromBlob(void *data_ptr, const Shape &shape, int device_type);

Tensor fromDLPack(const DLManagedTensor *src) {
  const auto &dl_tensor = src->dl_tensor;
  Shape shape(dl_tensor.shape, dl_tensor.shape + dl_tensor.ndim);
  return FromBlob(dl_tensor.data, shape, dl_tensor.device.device_type);
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'data' used as the address of the first element without adding 'byte_offset' [interop-dlpack-byte-offset]
}

Tensor fromDLPackFixed(const DLManagedTensor *src) {
  const auto &dl_tensor = src->dl_tensor;
  Shape shape(dl_tensor.shape, dl_tensor.shape + dl_tensor.ndim);
  void *data = static_cast<char *>(dl_tensor.data) + dl_tensor.byte_offset;
  return FromBlob(data, shape, dl_tensor.device.device_type);
}
} // namespace oneflow

// Element access through `data` is the same bug without a call.
float first_element(const DLTensor *t) {
  return static_cast<const float *>(t->data)[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'data' used as the address of the first element without adding 'byte_offset' [interop-dlpack-byte-offset]
  // CHECK-MESSAGES: :[[@LINE-2]]:37: note: 'data' read here
}

// A pointer derived from `data` keeps the fact through copies and casts;
// one finding per read of `data`.
float sum(const DLTensor *t, int n) {
  const float *p = static_cast<const float *>(t->data);
  float s = 0;
  for (int i = 0; i < n; ++i)
    s += p[i];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'data' used as the address of the first element without adding 'byte_offset' [interop-dlpack-byte-offset]
  return s + *p;
}

// --- Correct code that must stay silent ---

// byte_offset stored aside and added later.
float stored_aside(const DLTensor *t) {
  const uint64_t offset = t->byte_offset;
  const void *base = t->data;
  const char *bytes = static_cast<const char *>(base);
  bytes += offset;
  return *reinterpret_cast<const float *>(bytes);
}

// Offset applied by indexing bytes.
float via_subscript(const DLTensor *t) {
  const char *bytes = &static_cast<const char *>(t->data)[t->byte_offset];
  return *reinterpret_cast<const float *>(bytes);
}

// Checked once, relied on later in the same function.
float checked_once(const DLTensor *t, int i) {
  bool plain = t->byte_offset == 0;
  if (!plain)
    return -1;
  const float *p = static_cast<const float *>(t->data);
  return p[i];
}

// Early return with ||.
void early_return(const DLTensor *t, void *dst, size_t n) {
  if (t->ndim < 0 || t->byte_offset)
    return;
  memcpy(dst, t->data, n);
}

// A producer filling in its own tensor.
void fill(DLTensor *out, const float *src, size_t n) {
  out->data = malloc(n);
  out->byte_offset = 0;
  memcpy(out->data, src, n);
}

// A deleter frees the base pointer, which is what it allocated.
void delete_tensor(DLManagedTensor *self) {
  free(self->dl_tensor.data);
  delete self;
}

// Printing or comparing the pointer is not an access.
void log_tensor(const DLTensor *t) {
  if (t->data != nullptr)
    printf("%p\n", t->data);
}
