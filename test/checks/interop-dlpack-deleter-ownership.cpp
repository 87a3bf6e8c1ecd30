// RUN: %check_interop %s interop-dlpack-deleter-ownership %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v06

// Every DLPack deleter must run exactly once, by whoever owns the managed
// tensor at that moment.

#include <Python.h>
#include <dlpack/dlpack.h>
#include <stdlib.h>

struct runtime_error {
  explicit runtime_error(const char *what);
};

// MXNet (src/ndarray/ndarray.cc): the deleter kept for later was called on a
// by-value copy of the managed tensor, so it freed the copy's address.
namespace mxnet {
struct Engine {
  template <class F> static void PushSync(F f) { f(); }
};
void FromDLPack(const DLManagedTensor *tensor) {
  DLManagedTensor tensor_copy = *tensor;
  Engine::PushSync([tensor_copy]() mutable {
    if (tensor_copy.deleter != nullptr)
      tensor_copy.deleter(const_cast<DLManagedTensor *>(&tensor_copy));
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: deleter called on 'tensor_copy', a by-value copy of the managed tensor; it frees the copy's address, not the tensor the producer allocated [interop-dlpack-deleter-ownership]
    // CHECK-MESSAGES: :[[@LINE-5]]:19: note: 'tensor_copy' declared here
  });
}

void FromDLPackFixed(DLManagedTensor *tensor) {
  Engine::PushSync([tensor]() {
    if (tensor->deleter != nullptr)
      tensor->deleter(tensor);
  });
}
} // namespace mxnet

// CV-CUDA (python/mod_nvcv/Tensor.cpp): a wrapper kept the managed tensor
// by value and deleted through it.
namespace nvcvpy {
class ExternalBuffer {
public:
  explicit ExternalBuffer(DLManagedTensor *dl) : m_dlTensor(*dl) {}
  ~ExternalBuffer() {
    if (m_dlTensor.deleter)
      m_dlTensor.deleter(&m_dlTensor);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: deleter called on 'm_dlTensor', a by-value copy of the managed tensor; it frees the copy's address, not the tensor the producer allocated [interop-dlpack-deleter-ownership]
  }

private:
  DLManagedTensor m_dlTensor;
  // CHECK-MESSAGES: :[[@LINE-1]]:19: note: 'm_dlTensor' declared here
};

class ExternalBufferFixed {
public:
  explicit ExternalBufferFixed(DLManagedTensor *dl) : m_dlTensor(dl) {}
  ~ExternalBufferFixed() {
    if (m_dlTensor->deleter)
      m_dlTensor->deleter(m_dlTensor);
  }

private:
  DLManagedTensor *m_dlTensor;
};
} // namespace nvcvpy

// PyTorch (aten/src/ATen/DLConvertor.cpp): fromDLPack owns `src` (the
// deleter lambda proves it) but an early error leaves it undeleted.
namespace at {
struct Tensor {};
struct Deleter {
  template <class F> Deleter(F f) {}
};
Tensor from_blob(void *data, const Deleter &deleter);

Tensor fromDLPack(DLManagedTensor *src) {
  // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: 'src' is owned by this function (it calls the deleter) but is neither deleted nor handed on on some path [interop-dlpack-deleter-ownership]
  if (src->dl_tensor.device.device_type == kDLOpenCL)
    throw runtime_error("unsupported device");
  // CHECK-MESSAGES: :[[@LINE-1]]:5: note: still owned when the exception is thrown here
  auto deleter = [src](void *) { src->deleter(src); };
  return from_blob(src->dl_tensor.data, deleter);
}

Tensor fromDLPackFixed(DLManagedTensor *src) {
  auto deleter = [src](void *) { src->deleter(src); };
  if (src->dl_tensor.device.device_type == kDLOpenCL) {
    deleter(nullptr);
    throw runtime_error("unsupported device");
  }
  return from_blob(src->dl_tensor.data, deleter);
}

DLManagedTensor *toDLPack(const Tensor &t);
} // namespace at

// A consumer that owns an imported tensor and skips empty ones: the early
// return for NULL data leaks it.
struct Buffer {
  static Buffer Empty();
  static Buffer Wrap(DLManagedTensor *owner);
};
Buffer import_tensor(const at::Tensor &source) {
  DLManagedTensor *mt = at::toDLPack(source);
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: managed tensor obtained here is neither deleted nor handed on on some path [interop-dlpack-deleter-ownership]
  if (mt->dl_tensor.data == nullptr)
    return Buffer::Empty();
  // CHECK-MESSAGES: :[[@LINE-1]]:5: note: still owned when the function returns here
  return Buffer::Wrap(mt);
}

Buffer import_tensor_fixed(const at::Tensor &source) {
  DLManagedTensor *mt = at::toDLPack(source);
  if (mt->dl_tensor.data == nullptr) {
    mt->deleter(mt);
    return Buffer::Empty();
  }
  return Buffer::Wrap(mt);
}

// Deleted on the error path, then again by the common cleanup.
int validate(const DLTensor &t);
void double_delete(const at::Tensor &source) {
  DLManagedTensor *mt = at::toDLPack(source);
  if (validate(mt->dl_tensor) != 0)
    mt->deleter(mt);
  mt->deleter(mt);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: deleter may be called twice: the tensor may already be deleted on this path [interop-dlpack-deleter-ownership]
  // CHECK-MESSAGES: :[[@LINE-3]]:5: note: deleted here first
}

// Handed to a capsule, then deleted when the capsule could not be made.
void capsule_destructor(PyObject *capsule);
PyObject *export_capsule(const at::Tensor &source) {
  DLManagedTensor *mt = at::toDLPack(source);
  PyObject *capsule = PyCapsule_New(mt, "dltensor", capsule_destructor);
  if (capsule != nullptr)
    return capsule;
  mt->deleter(mt);
  return nullptr;
}
PyObject *export_capsule_wrong(const at::Tensor &source, bool log) {
  DLManagedTensor *mt = at::toDLPack(source);
  PyObject *capsule = PyCapsule_New(mt, "dltensor", capsule_destructor);
  if (log)
    mt->deleter(mt);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: deleter called after ownership of the tensor was handed on [interop-dlpack-deleter-ownership]
  // CHECK-MESSAGES: :[[@LINE-4]]:23: note: ownership handed on here
  return capsule;
}

// Taichi (python/taichi/_lib/...): the capsules' destructors never called
// the deleter, so every unconsumed capsule leaked its tensor.
void taichi_capsule_destructor(PyObject *capsule) {}
PyObject *taichi_to_dlpack(const at::Tensor &source) {
  return PyCapsule_New(at::toDLPack(source), "dltensor",
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: capsule destructor 'taichi_capsule_destructor' never calls the tensor's deleter; an unconsumed capsule leaks the tensor [interop-dlpack-deleter-ownership]
                       taichi_capsule_destructor);
}
PyObject *no_destructor(const at::Tensor &source) {
  return PyCapsule_New(at::toDLPack(source), "dltensor", nullptr);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: capsule holding a managed tensor created without a destructor; if no consumer takes it, the tensor is never deleted [interop-dlpack-deleter-ownership]
}
// Made without one and given one at once (SetDestructor on the same
// capsule) is a capsule with a destructor; set on another object, not.
PyObject *destructor_set_after(const at::Tensor &source, bool owned) {
  PyObject *capsule = PyCapsule_New(at::toDLPack(source), "dltensor", NULL);
  if (capsule && owned)
    PyCapsule_SetDestructor(capsule, capsule_destructor);
  return capsule;
}
PyObject *destructor_set_elsewhere(const at::Tensor &source, PyObject *other) {
  PyObject *capsule = PyCapsule_New(at::toDLPack(source), "dltensor", NULL);
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: capsule holding a managed tensor created without a destructor; if no consumer takes it, the tensor is never deleted [interop-dlpack-deleter-ownership]
  PyCapsule_SetDestructor(other, capsule_destructor);
  return capsule;
}
// A managed tensor returned by value: the copy carries the deleter and
// manager_ctx, so the caller owns the tensor (a C ABI passing it by value).
DLManagedTensor export_by_value(const at::Tensor &source) {
  return *at::toDLPack(source);
}
PyObject *lambda_destructor(const at::Tensor &source) {
  return PyCapsule_New(at::toDLPack(source), "dltensor", [](PyObject *) {});
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: capsule destructor lambda never calls the tensor's deleter; an unconsumed capsule leaks the tensor [interop-dlpack-deleter-ownership]
}

// The capsule's own destructor owns the tensor of an unconsumed capsule.
void destructor_forgets(PyObject *capsule) {
  if (!PyCapsule_IsValid(capsule, "dltensor"))
    return;
  DLManagedTensor *mt =
      static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule, "dltensor"));
  // CHECK-MESSAGES: :[[@LINE-1]]:38: warning: managed tensor obtained here is neither deleted nor handed on on some path [interop-dlpack-deleter-ownership]
  // CHECK-MESSAGES: :[[@LINE+2]]:1: note: still owned when the function ends here
  (void)mt;
}
PyObject *uses_forgetful(const at::Tensor &source) {
  return PyCapsule_New(at::toDLPack(source), "dltensor", destructor_forgets);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: capsule destructor 'destructor_forgets' never calls the tensor's deleter; an unconsumed capsule leaks the tensor [interop-dlpack-deleter-ownership]
}

// A created tensor freed with the wrong path: leaked when the shape
// allocation fails.
DLManagedTensor *make_tensor(int64_t n) {
  DLManagedTensor *mt =
      static_cast<DLManagedTensor *>(malloc(sizeof(DLManagedTensor)));
  // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: managed tensor obtained here is neither deleted nor handed on on some path [interop-dlpack-deleter-ownership]
  if (mt == nullptr)
    return nullptr;
  int64_t *shape = static_cast<int64_t *>(malloc(sizeof(int64_t)));
  if (shape == nullptr)
    return nullptr;
  // CHECK-MESSAGES: :[[@LINE-1]]:5: note: still owned when the function returns here
  shape[0] = n;
  mt->dl_tensor.shape = shape;
  return mt;
}

// Twice through a pointer the function did not obtain (a C callback's
// void *): tracked for double deletion, never for leaks.
void on_release(void *opaque) {
  DLManagedTensor *mt = static_cast<DLManagedTensor *>(opaque);
  mt->deleter(mt);
  mt->deleter(mt);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: deleter may be called twice: the tensor may already be deleted on this path [interop-dlpack-deleter-ownership]
  // CHECK-MESSAGES: :[[@LINE-3]]:3: note: deleted here first
}

// --- Correct code that must stay silent ---

// A variable reused for the next tensor holds a new tensor.
void release_all(DLManagedTensor **tensors, int n) {
  for (int i = 0; i < n; ++i) {
    DLManagedTensor *t = tensors[i];
    if (t && t->deleter)
      t->deleter(t);
  }
}

// Each structured binding of a range-for names the next element, here
// freed by a release function of this file.
struct PoolEntry {
  size_t bytes;
  DLManagedTensor *tensor;
};
void free_pooled(DLManagedTensor *t) {
  delete[] t->dl_tensor.shape;
  delete t;
}
void release_pool(PoolEntry (&pool)[8]) {
  for (auto &[bytes, tensor] : pool)
    free_pooled(tensor);
}

// A bare DLTensor has no deleter for the capsule's destructor to call
// (interop-dlpack-capsule-protocol reports the name).
DLTensor *make_frames(int n);
PyObject *export_frames(int n) {
  return PyCapsule_New(make_frames(n), "dltensor", [](PyObject *cap) {
    free(PyCapsule_GetPointer(cap, "dltensor"));
  });
}

// A tensor made and handed to a capsule in every iteration: live after
// the hand-off only where the capsule failed, on every back edge, so
// nothing is owed after the loop.
PyObject *keep(PyObject *capsule);
void export_each(int n, int64_t *shape) {
  for (int i = 0; i < n; ++i) {
    DLManagedTensor *mt = new DLManagedTensor;
    mt->dl_tensor.shape = shape;
    mt->deleter = [](DLManagedTensor *self) { delete self; };
    keep(PyCapsule_New(mt, "dltensor", capsule_destructor));
  }
}

// The same loop with an iteration that skips the hand-off leaks.
void export_some(int n, bool skip) {
  for (int i = 0; i < n; ++i) {
    DLManagedTensor *mt = new DLManagedTensor;
    // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: managed tensor obtained here is neither deleted nor handed on on some path [interop-dlpack-deleter-ownership]
    mt->deleter = [](DLManagedTensor *self) { delete self; };
    if (skip)
      continue;
    keep(PyCapsule_New(mt, "dltensor", capsule_destructor));
  }
  // CHECK-MESSAGES: :[[@LINE+1]]:1: note: still owned when the function ends here
}

DLManagedTensor *make_tensor_fixed(int64_t n) {
  DLManagedTensor *mt =
      static_cast<DLManagedTensor *>(malloc(sizeof(DLManagedTensor)));
  if (mt == nullptr)
    return nullptr;
  int64_t *shape = static_cast<int64_t *>(malloc(sizeof(int64_t)));
  if (shape == nullptr) {
    free(mt);
    return nullptr;
  }
  shape[0] = n;
  mt->dl_tensor.shape = shape;
  return mt;
}

// A NULL tensor or a NULL deleter means there is nothing to free.
void release(DLManagedTensor *t) {
  if (t && t->deleter)
    t->deleter(t);
}

// Ownership decided once and relied on later.
bool try_import(DLManagedTensor *t);
void import_or_release(const at::Tensor &source) {
  DLManagedTensor *mt = at::toDLPack(source);
  bool handed = false;
  if (mt->dl_tensor.ndim > 0)
    handed = try_import(mt);
  if (!handed && mt->deleter)
    mt->deleter(mt);
}

// Stored into an owner, or captured by the callback that deletes it.
struct Holder {
  DLManagedTensor *tensor;
};
void keep(Holder *holder, const at::Tensor &source) {
  holder->tensor = at::toDLPack(source);
}

// A producer's destructor, checking the name and keeping the exception.
void good_destructor(PyObject *capsule) {
  if (!PyCapsule_IsValid(capsule, "dltensor"))
    return;
  DLManagedTensor *mt =
      static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule, "dltensor"));
  if (mt->deleter)
    mt->deleter(mt);
}
PyObject *export_good(const at::Tensor &source) {
  return PyCapsule_New(at::toDLPack(source), "dltensor", good_destructor);
}
