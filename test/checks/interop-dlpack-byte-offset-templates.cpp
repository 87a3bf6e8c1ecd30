// RUN: %check_interop %s interop-dlpack-byte-offset %t -- -- -std=c++17 -I%S/Inputs/dlpack/v1

// A function template is judged in each instantiation the translation unit
// holds; its pattern is not (the dataflow framework needs concrete types), so
// a header-only library's template that nothing instantiates is not judged
// (and not listed by ReportSkippedFunctions either). An explicit
// instantiation in a lint translation unit makes it judged.

#include <dlpack/dlpack.h>

template <typename T> struct View {
  T *p;
  const int64_t *shape;
};
template <typename T> View<T> make_view(T *first, const int64_t *shape);

template <typename T> View<T> borrow(const DLManagedTensor &mt) {
  const DLTensor &dt = mt.dl_tensor;
  if (dt.device.device_type != kDLCPU)
    return {};
  return make_view<T>(reinterpret_cast<T *>(dt.data), dt.shape);
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: 'data' used as the address of the first element without adding 'byte_offset' [interop-dlpack-byte-offset]
  // CHECK-MESSAGES: :[[@LINE-2]]:23: note: add 'byte_offset' (in bytes) to 'data', or reject tensors whose 'byte_offset' is not zero
}
template View<float> borrow<float>(const DLManagedTensor &);

template <typename T> View<T> never_instantiated(const DLManagedTensor &mt) {
  // The same bug, never instantiated: not judged.
  return make_view<T>(reinterpret_cast<T *>(mt.dl_tensor.data), nullptr);
}
