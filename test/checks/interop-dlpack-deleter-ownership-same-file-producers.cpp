// RUN: %check_interop %s interop-dlpack-deleter-ownership %t -- -- -std=c++17 -I%S/Inputs/dlpack/v1

// A function of the same file that hands over a fresh managed tensor (it
// allocates it, fills its fields and keeps nothing of it) is a producer, as
// a TensorSources call is: its caller owns what it gets, and must delete it
// or hand it on.

#include <dlpack/dlpack.h>
#include <stdlib.h>
#include <string.h>

static void release(DLManagedTensor *self) {
  free(self->dl_tensor.data);
  delete self;
}

DLManagedTensor *make_tensor(int64_t *shape) {
  auto *m = new DLManagedTensor();
  m->deleter = release;
  m->dl_tensor.shape = shape;
  m->dl_tensor.data = calloc(shape[0], 4);
  return m;
}

DLManagedTensor *make_or_null(int64_t *shape) {
  auto *m = static_cast<DLManagedTensor *>(malloc(sizeof(DLManagedTensor)));
  if (!m)
    return nullptr;
  memset(m, 0, sizeof(*m));
  m->dl_tensor.shape = shape;
  m->dl_tensor.data = calloc(shape[0], 4);
  if (!m->dl_tensor.data) {
    free(m);
    return nullptr;
  }
  m->deleter = release;
  return m;
}

float sum(const DLTensor &t);
void hand_on(DLManagedTensor *t);

// --- The caller owns it ----------------------------------------------------

float leaked(int64_t *shape) {
  DLManagedTensor *t = make_tensor(shape);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: managed tensor obtained here is neither deleted nor handed on on some path [interop-dlpack-deleter-ownership]
  return sum(t->dl_tensor);
}

float leaked_on_error(int64_t *shape, bool fail) {
  DLManagedTensor *t = make_or_null(shape);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: managed tensor obtained here is neither deleted nor handed on on some path [interop-dlpack-deleter-ownership]
  if (!t)
    return 0;
  if (fail)
    return -1;
  float s = sum(t->dl_tensor);
  t->deleter(t);
  return s;
}

float deleted(int64_t *shape) {
  DLManagedTensor *t = make_or_null(shape);
  if (!t)
    return 0;
  float s = sum(t->dl_tensor);
  t->deleter(t);
  return s;
}

void handed_on(int64_t *shape) { hand_on(make_tensor(shape)); }

// --- Not handed over -------------------------------------------------------

// Kept in a registry as well: the caller does not own it alone.
DLManagedTensor *registry[8];
DLManagedTensor *make_registered(int64_t *shape) {
  auto *m = new DLManagedTensor();
  m->dl_tensor.shape = shape;
  registry[0] = m;
  return m;
}
float registered(int64_t *shape) {
  DLManagedTensor *t = make_registered(shape);
  return sum(t->dl_tensor);
}

// Returns the tensor it was given.
DLManagedTensor *pass(DLManagedTensor *in) { return in; }
float passed(DLManagedTensor *in) { return sum(pass(in)->dl_tensor); }
