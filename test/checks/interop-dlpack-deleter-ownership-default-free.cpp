// RUN: %check_interop %s interop-dlpack-deleter-ownership %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// A managed tensor a producer handed over (or a capsule held) is released by
// its deleter, never by `delete`, `free` or a smart pointer that frees it
// so: the producer's deleter would never run (what it keeps for the tensor
// leaks), and the struct may be part of a larger one or come from another
// allocator. A struct the function allocated itself may be freed so.

#include <Python.h>
#include <dlpack/dlpack.h>
#include <stdlib.h>

#include <memory>
#include <vector>

DLManagedTensor *toDLPack(int handle);
int use(const DLTensor &t);

int deleted(int h) {
  DLManagedTensor *mt = toDLPack(h);
  int n = use(mt->dl_tensor);
  delete mt;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: managed tensor freed by 'delete' without calling its deleter; the producer's deleter never runs, so what it keeps for the tensor leaks, and the struct may not come from that allocator [interop-dlpack-deleter-ownership]
  // CHECK-MESSAGES: :[[@LINE-4]]:25: note: obtained here; release it with t->deleter(t)
  return n;
}

int freed(int h) {
  DLManagedTensor *mt = toDLPack(h);
  int n = use(mt->dl_tensor);
  free(mt);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: managed tensor freed by 'free' without calling its deleter; {{.*}}
  // CHECK-MESSAGES: :[[@LINE-4]]:25: note: obtained here; {{.*}}
  return n;
}

int held(int h) {
  std::unique_ptr<DLManagedTensor> p(toDLPack(h));
  // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: managed tensor freed by std::unique_ptr's default deleter without calling its deleter; {{.*}}
  // CHECK-MESSAGES: :[[@LINE-2]]:38: note: obtained here; {{.*}}
  return use(p->dl_tensor);
}

int shared(int h) {
  std::shared_ptr<DLManagedTensor> p(toDLPack(h));
  // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: managed tensor freed by a std::shared_ptr made from the bare pointer without calling its deleter; {{.*}}
  // CHECK-MESSAGES: :[[@LINE-2]]:38: note: obtained here; {{.*}}
  return use(p->dl_tensor);
}

void reset(std::unique_ptr<DLManagedTensor> &slot, int h) {
  DLManagedTensor *mt = toDLPack(h);
  slot.reset(mt);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: managed tensor freed by std::unique_ptr's default deleter without calling its deleter; {{.*}}
  // CHECK-MESSAGES: :[[@LINE-3]]:25: note: obtained here; {{.*}}
}

// A batch of a same-file producer's tensors kept in default unique_ptrs.
static void free_struct(DLManagedTensor *self) { free(self); }
DLManagedTensor *fetch(void *data) {
  auto *mt = static_cast<DLManagedTensor *>(malloc(sizeof(DLManagedTensor)));
  mt->dl_tensor.data = data;
  mt->manager_ctx = nullptr;
  mt->deleter = free_struct;
  return mt;
}
void next_batch(std::vector<std::unique_ptr<DLManagedTensor>> &out,
                void **items, int n) {
  for (int i = 0; i < n; ++i)
    out.push_back(std::unique_ptr<DLManagedTensor>(fetch(items[i])));
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: managed tensor freed by std::unique_ptr's default deleter without calling its deleter; {{.*}}
  // CHECK-MESSAGES: :[[@LINE-2]]:52: note: obtained here; {{.*}}
}

// A capsule's tensor, freed by its consumer.
int from_capsule(PyObject *cap) {
  auto *mt = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(cap, "dltensor"));
  if (!mt)
    return -1;
  PyCapsule_SetName(cap, "used_dltensor");
  int n = use(mt->dl_tensor);
  delete mt;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: managed tensor freed by 'delete' without calling its deleter; {{.*}}
  // CHECK-MESSAGES: :[[@LINE-7]]:45: note: obtained here; {{.*}}
  return n;
}

// --- Correct ---------------------------------------------------------------

// The function's own struct.
void own_struct() {
  DLManagedTensor *mt = new DLManagedTensor{};
  use(mt->dl_tensor);
  delete mt;
}

// A holder whose deleter calls the tensor's.
struct CallDeleter {
  void operator()(DLManagedTensor *t) const {
    if (t->deleter)
      t->deleter(t);
  }
};
int custom(int h) {
  std::unique_ptr<DLManagedTensor, CallDeleter> p(toDLPack(h));
  return use(p->dl_tensor);
}
int shared_with_deleter(int h) {
  std::shared_ptr<DLManagedTensor> p(toDLPack(h), [](DLManagedTensor *t) {
    if (t->deleter)
      t->deleter(t);
  });
  return use(p->dl_tensor);
}

// A capsule whose payload is the library's own struct, not a tensor.
struct Frames {
  int n;
};
static void frames_dtor(PyObject *cap) {
  delete static_cast<Frames *>(PyCapsule_GetPointer(cap, "acme.frames"));
}
PyObject *wrap_frames(Frames *f) {
  return PyCapsule_New(f, "acme.frames", frames_dtor);
}

// A guard let go of on success: it frees the wrapper's shell only on the
// paths that fail, where the capsule still owns the tensor underneath.
static DLManagedTensor *wrap(DLManagedTensorVersioned *v) {
  auto *legacy = new DLManagedTensor{};
  legacy->dl_tensor = v->dl_tensor;
  legacy->manager_ctx = v;
  legacy->deleter = [](DLManagedTensor *self) {
    auto *ver = static_cast<DLManagedTensorVersioned *>(self->manager_ctx);
    if (ver->deleter)
      ver->deleter(ver);
    delete self;
  };
  return legacy;
}
void check_shape(const DLTensor &t);
DLManagedTensor *guarded_wrap(PyObject *cap) {
  auto *v = static_cast<DLManagedTensorVersioned *>(
      PyCapsule_GetPointer(cap, "dltensor_versioned"));
  if (!v)
    return nullptr;
  std::unique_ptr<DLManagedTensor> guard(wrap(v));
  check_shape(guard->dl_tensor);
  PyCapsule_SetName(cap, "used_dltensor_versioned");
  return guard.release();
}

// The library's own capsule, in its destructor: the producer's convention.
static void own_capsule_destructor(PyObject *cap) {
  if (!PyCapsule_IsValid(cap, "dltensor"))
    return;
  auto *mt = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(cap, "dltensor"));
  if (mt->deleter)
    mt->deleter(mt);
  delete mt;
}
