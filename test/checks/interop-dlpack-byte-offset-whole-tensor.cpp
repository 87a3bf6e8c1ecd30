// RUN: %check_interop %s interop-dlpack-byte-offset %t -- -- -std=c++17 -I%S/Inputs/dlpack/v1

// A call that receives `data` together with the whole DLTensor it came from
// (by value, reference or pointer) receives byte_offset too: the callee can
// add it, as a view that copies the prototype's header does. Only the base
// pointer passed with the layout alone, or with another tensor, is the bug.
// (tvm-ffi's TVMFFITensorCreateUnsafeView.)

#include <dlpack/dlpack.h>
#include <stddef.h>

struct View;
View *alloc_view(size_t extra, const DLTensor &proto, void *base);
View *alloc_view_ptr(size_t extra, const DLTensor *proto, void *base);
View *wrap(void *base, const int64_t *shape, int32_t ndim);
View *wrap_like(void *base, const DLTensor &like, int32_t ndim);

View *clone_header(const DLTensor *like) {
  void *base = like->data;
  size_t extra = static_cast<size_t>(like->ndim) * 2;
  return alloc_view(extra, *like, base);
}

View *clone_header_ptr(const DLManagedTensor *mt) {
  return alloc_view_ptr(mt->dl_tensor.ndim, &mt->dl_tensor, mt->dl_tensor.data);
}

// The layout without the tensor: byte_offset is lost.
View *layout_only(const DLTensor *t) {
  return wrap(t->data, t->shape, t->ndim);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'data' used as the address of the first element without adding 'byte_offset' [interop-dlpack-byte-offset]
  // CHECK-MESSAGES: :[[@LINE-2]]:15: note: add 'byte_offset' (in bytes) to 'data', or reject tensors whose 'byte_offset' is not zero
}

// Another tensor's header does not carry this tensor's byte_offset.
View *other_tensor(const DLTensor *t, const DLTensor &proto) {
  return wrap_like(t->data, proto, t->ndim);
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: 'data' used as the address of the first element without adding 'byte_offset' [interop-dlpack-byte-offset]
  // CHECK-MESSAGES: :[[@LINE-2]]:20: note: add 'byte_offset' (in bytes) to 'data', or reject tensors whose 'byte_offset' is not zero
}
