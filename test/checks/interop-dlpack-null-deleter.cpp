// RUN: %check_interop %s interop-dlpack-null-deleter %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// DLPack lets a producer leave the deleter NULL. A consumer that calls the
// deleter of a tensor it did not make (one taken from a capsule, or an owned
// parameter) must test it first on that path. The function's own tensors,
// and a capsule destructor's (the producer's own capsule), are not asked.

#include <Python.h>
#include <dlpack/dlpack.h>

bool supported(const DLTensor &t);
void consume(DLManagedTensor *t);
void throw_if(bool cond, const char *what);

#define RELEASE(t) (t)->deleter(t)

int import_reject(PyObject *capsule) {
  auto *t = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule, "dltensor"));
  if (!t)
    return -1;
  PyCapsule_SetName(capsule, "used_dltensor");
  if (!supported(t->dl_tensor)) {
    t->deleter(t);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: deleter of a tensor this function did not make called without testing it for NULL; a DLPack producer may leave the deleter NULL [interop-dlpack-null-deleter]
    // CHECK-FIXES: {{^}}    if (t->deleter) t->deleter(t);{{$}}
    return -1;
  }
  consume(t);
  return 0;
}

int import_tested(PyObject *capsule) {
  auto *t = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule, "dltensor"));
  if (!t)
    return -1;
  PyCapsule_SetName(capsule, "used_dltensor");
  if (!supported(t->dl_tensor)) {
    if (t->deleter)
      t->deleter(t);
    return -1;
  }
  consume(t);
  return 0;
}

// The test on one path only: the other reaches the call untested.
void release_owned(DLManagedTensor *t, bool checked) {
  if (checked && !t->deleter)
    return;
  t->deleter(t);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: deleter of a tensor this function did not make called without testing it for NULL; a DLPack producer may leave the deleter NULL [interop-dlpack-null-deleter]
  // CHECK-FIXES: {{^}}  if (t->deleter) t->deleter(t);{{$}}
}

// Every spelling of the test: an early return, a comparison, a conjunction,
// a function that throws when its argument is true.
void release_early(DLManagedTensor *t) {
  if (t->deleter == nullptr)
    return;
  t->deleter(t);
}

void release_both(DLManagedTensor *t) {
  if (t && t->deleter)
    t->deleter(t);
}

void release_required(DLManagedTensor *t) {
  throw_if(!t->deleter, "a tensor without a deleter");
  t->deleter(t);
}

// The body of an if without braces, and a macro: reported, no fix.
void release_unbraced(DLManagedTensor *t, bool now) {
  if (now)
    t->deleter(t);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: deleter of a tensor this function did not make called without testing it for NULL; a DLPack producer may leave the deleter NULL [interop-dlpack-null-deleter]
  // CHECK-FIXES: {{^}}    t->deleter(t);{{$}}
}

void release_macro(DLManagedTensor *t) {
  RELEASE(t);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: deleter of a tensor this function did not make called without testing it for NULL; a DLPack producer may leave the deleter NULL [interop-dlpack-null-deleter]
  // CHECK-FIXES: {{^}}  RELEASE(t);{{$}}
}

// The producer's own capsule: its destructor calls the deleter it set.
static void destroy(PyObject *capsule) {
  if (!PyCapsule_IsValid(capsule, "dltensor"))
    return;
  auto *t = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule, "dltensor"));
  t->deleter(t);
}

static void free_own(DLManagedTensor *self) { delete self; }

PyObject *export_own(bool fail) {
  auto *t = new DLManagedTensor{};
  t->deleter = free_own;
  if (fail) {
    t->deleter(t);
    return nullptr;
  }
  return PyCapsule_New(t, "dltensor", destroy);
}

// A producer's helper exports the tensor its caller made: its own library's.
PyObject *wrap(DLManagedTensor *mt) {
  PyObject *capsule = PyCapsule_New(mt, "dltensor", destroy);
  if (capsule == nullptr) {
    mt->deleter(mt);
    return nullptr;
  }
  return capsule;
}

// A destructor callback's context: the tensor the callback's owner made.
void on_release(void *ctx) {
  auto *t = static_cast<DLManagedTensor *>(ctx);
  t->deleter(t);
}

// Tested where the lambda is made: its capture is judged there, not in the
// lambda's body.
struct Callback {
  template <class F> Callback &operator=(F f) { return *this; }
};
void view(DLManagedTensor *dlmt, Callback &on_delete) {
  if (dlmt->deleter)
    on_delete = [dlmt]() { dlmt->deleter(dlmt); };
}

// A capsule destructor's shape, installed through a variable: the producer's
// own capsule.
PyObject *export_lambda_destructor(DLManagedTensor *t) {
  auto destructor = +[](PyObject *capsule) {
    void *p = PyCapsule_GetPointer(capsule, "dltensor");
    if (!p)
      return;
    auto *mt = static_cast<DLManagedTensor *>(p);
    mt->deleter(mt);
  };
  return PyCapsule_New(t, "dltensor", destructor);
}
