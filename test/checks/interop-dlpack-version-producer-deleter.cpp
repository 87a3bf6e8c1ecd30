// RUN: %check_interop %s interop-dlpack-version %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// A producer's deleter (a function or lambda stored in `deleter`) frees a
// tensor its own library allocated and versioned: it reads dl_tensor only to
// free what the producer allocated, then deletes the tensor. Such a function
// is no consumer, so its reads need no version check. Told from its body: a
// versioned parameter used only as a member base, in a NULL test and as the
// operand of delete or free() is an accessor. (Quadrants
// dlpack_funcs.cpp.)

#include <dlpack/dlpack.h>
#include <stdlib.h>

static void free_versioned(DLManagedTensorVersioned *self) {
  delete[] self->dl_tensor.shape;
  delete self;
}

static void free_malloced(DLManagedTensorVersioned *self) {
  if (self == nullptr)
    return;
  free(self->dl_tensor.shape);
  free(self);
}

DLManagedTensorVersioned *make(const DLTensor &view) {
  auto *v = new DLManagedTensorVersioned();
  v->version = {DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION};
  v->manager_ctx = nullptr;
  v->flags = 0;
  v->dl_tensor = view;
  v->deleter = [](DLManagedTensorVersioned *self) {
    if (self->dl_tensor.shape != nullptr) {
      delete[] self->dl_tensor.shape;
      delete[] self->dl_tensor.strides;
    }
    delete self;
  };
  return v;
}

DLManagedTensorVersioned *make_named(const DLTensor &view, bool malloced) {
  auto *v = new DLManagedTensorVersioned();
  v->version = {DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION};
  v->dl_tensor = view;
  v->deleter = malloced ? free_malloced : free_versioned;
  return v;
}

// A consumer that deletes through the tensor's deleter is still a consumer:
// it passes the tensor on, which an accessor does not.
int ndim_then_release(DLManagedTensorVersioned *v) {
  int n = v->dl_tensor.ndim;
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'dl_tensor' of a versioned tensor used without checking 'version.major' on this path [interop-dlpack-version]
  // CHECK-MESSAGES: :[[@LINE-2]]:14: note: a consumer that does not support the major version must call the deleter and touch no other field
  v->deleter(v);
  return n;
}
