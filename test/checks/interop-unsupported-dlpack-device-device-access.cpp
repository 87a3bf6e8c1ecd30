// RUN: %check_interop %s interop-unsupported-dlpack-device %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// Device-side uses and views: a CUDA copy that reads `data` as device
// memory, thrust's device pointers, and a view built from `data` and the
// shape, in a function that never looks at the device and that nothing here
// calls. A NumPy array's host pointer reaches the device copy as it is; a
// CUDA tensor's device pointer reaches a host view as it is.

#include <dlpack/dlpack.h>
#include <stddef.h>

typedef int cudaError_t;
enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
};
extern "C" cudaError_t cudaMemcpy(void *dst, const void *src, size_t count,
                                  cudaMemcpyKind kind);
extern "C" cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src,
                                    size_t spitch, size_t width, size_t height,
                                    cudaMemcpyKind kind);
extern "C" cudaError_t hipMemcpyDtoH(void *dst, void *src, size_t count);

namespace thrust {
template <class T> struct device_ptr {};
template <class T> device_ptr<T> device_pointer_cast(T *p);
} // namespace thrust

template <class T> struct SubVector {
  SubVector(T *data, long dim);
};
struct Registry {
  void def(const char *name, void (*fn)(void *, const DLManagedTensor *));
  template <class F> void def(const char *name, F fn) { (void)name, (void)fn; }
};
bool validate(const DLTensor &t);
int device_kind(DLDevice device);

// --- Reported ---

// ros2_cuda_ipc's shape: a device-to-device copy from whatever the capsule
// held, registered by address.
void copy_in(void *dst, const DLManagedTensor *mt) {
  const DLTensor &t = mt->dl_tensor;
  size_t bytes = 4 * t.shape[0];
  cudaMemcpy(dst, t.data, bytes, cudaMemcpyDeviceToDevice);
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: data of an imported DLTensor used as device memory without checking its device type [interop-unsupported-dlpack-device]
  // CHECK-MESSAGES: :[[@LINE-2]]:19: note: nothing here or in a caller here reads the device: a NumPy array's host memory and a CUDA tensor's device memory reach this call alike; check device_type and fail on the types this code does not handle
}
void bind(Registry &m) { m.def("copy_in", &copy_in); }

// The source of a 2-D copy, and HIP's copy named by its direction.
void copy_rows(void *dst, DLManagedTensor *mt) {
  DLTensor *t = &mt->dl_tensor;
  cudaMemcpy2D(dst, 64, t->data, 64, 64, 4, cudaMemcpyDeviceToHost);
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: data of an imported DLTensor used as device memory without checking its device type [interop-unsupported-dlpack-device]
  // CHECK-MESSAGES: :[[@LINE-2]]:25: note: nothing here
}
void copy_hip(void *dst, DLManagedTensor *mt) {
  hipMemcpyDtoH(dst, mt->dl_tensor.data, 64);
  // CHECK-MESSAGES: :[[@LINE-1]]:22: warning: data of an imported DLTensor used as device memory without checking its device type [interop-unsupported-dlpack-device]
  // CHECK-MESSAGES: :[[@LINE-2]]:22: note: nothing here
}

// A tensor a call returned (taken from a capsule in a helper).
DLTensor take(void *capsule);
void kernel(float *out, const float *in, long n);
void dequantize(void *src, void *dst) {
  DLTensor s = take(src), d = take(dst);
  kernel(static_cast<float *>(d.data), static_cast<const float *>(s.data),
         s.shape[0]);
  // CHECK-MESSAGES: :[[@LINE-2]]:10: warning: data of an imported DLTensor wrapped as a view without checking its device type [interop-unsupported-dlpack-device]
  // CHECK-MESSAGES: :[[@LINE-3]]:10: note: nothing here
  // CHECK-MESSAGES: :[[@LINE-4]]:40: warning: data of an imported DLTensor wrapped as a view without checking its device type [interop-unsupported-dlpack-device]
  // CHECK-MESSAGES: :[[@LINE-5]]:40: note: nothing here
}

// cupoch's shape: a thrust device pointer over the data.
void to_device_vector(const DLManagedTensor *src) {
  auto base = thrust::device_pointer_cast(
      static_cast<float *>(src->dl_tensor.data));
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: data of an imported DLTensor used as device memory without checking its device type [interop-unsupported-dlpack-device]
  // CHECK-MESSAGES: :[[@LINE-2]]:7: note: nothing here
  (void)base;
}

// Kaldi's shape: a view of the data and its length, in a binding lambda.
void bind_views(Registry &m) {
  m.def("to_sub_vector", [](DLManagedTensor *mt) {
    DLTensor *tensor = &mt->dl_tensor;
    return SubVector<float>(static_cast<float *>(tensor->data),
                            tensor->shape[0]);
    // CHECK-MESSAGES: :[[@LINE-2]]:29: warning: data of an imported DLTensor wrapped as a view without checking its device type [interop-unsupported-dlpack-device]
    // CHECK-MESSAGES: :[[@LINE-3]]:29: note: nothing here
  });
}

// The host side of a device copy is host memory like a memcpy's.
void upload(void *dst, const DLTensor *t) {
  cudaMemcpy(dst, t->data, 64, cudaMemcpyHostToDevice);
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: data of an imported DLTensor accessed from the host without checking its device type [interop-unsupported-dlpack-device]
  // CHECK-MESSAGES: :[[@LINE-2]]:19: note: check that device_type is host-accessible
}

// --- Not reported ---

// The device is looked at: compared, passed on, or the whole tensor handed
// to a validator.
void checked_copy(void *dst, const DLTensor *t) {
  if (t->device.device_type == kDLCPU)
    cudaMemcpy(dst, t->data, 64, cudaMemcpyHostToDevice);
  else
    cudaMemcpy(dst, t->data, 64, cudaMemcpyDeviceToDevice);
}
SubVector<float> converted(const DLTensor *t) {
  int kind = device_kind(t->device);
  (void)kind;
  return SubVector<float>(static_cast<float *>(t->data), t->shape[0]);
}
void validated(void *dst, const DLTensor &t) {
  if (!validate(t))
    return;
  cudaMemcpy(dst, t.data, 64, cudaMemcpyDeviceToDevice);
}

// A DLTensor parameter: an array descriptor its caller made (TVM's packed
// functions take their arrays so), whose device the caller vouches for.
void workspace(void *handler, DLTensor *buffer) {
  kernel(static_cast<float *>(buffer->data), nullptr, buffer->shape[0]);
  cudaMemcpy(handler, buffer->data, 64, cudaMemcpyDeviceToDevice);
}

// A helper its caller here vouches for.
static void device_copy(void *dst, const DLTensor &t) {
  cudaMemcpy(dst, t.data, 64, cudaMemcpyDeviceToDevice);
}
void dispatch(void *dst, const DLTensor &t) {
  if (t.device.device_type == kDLCUDA)
    device_copy(dst, t);
}

// The runtime finds the memory out from the pointer (unified addressing).
void default_kind(void *dst, const DLTensor *t) {
  cudaMemcpy(dst, t->data, 64, cudaMemcpyDefault);
}

// A view of a tensor this function made (a producer's own).
SubVector<float> own(float *buffer, long n) {
  DLTensor t{};
  t.data = buffer;
  t.shape = &n;
  t.ndim = 1;
  return SubVector<float>(static_cast<float *>(t.data), t.shape[0]);
}

// A class whose constructor wraps the data as a device view, made only
// where its caller here chose it by the device type (a storage class per
// memory kind): a constructor is called where an object is made.
class DeviceStorage {
public:
  explicit DeviceStorage(DLManagedTensor *mt)
      : view(static_cast<float *>(mt->dl_tensor.data), mt->dl_tensor.shape[0]) {}

private:
  SubVector<float> view;
};
DeviceStorage *storage_for(DLManagedTensor *mt) {
  switch (mt->dl_tensor.device.device_type) {
  case kDLCUDA:
  case kDLCUDAManaged:
    return new DeviceStorage(mt);
  default:
    return nullptr;
  }
}
