// RUN: %check_interop %s interop-dlpack-byte-offset,interop-dlpack-strides,interop-unsupported-dlpack-device %t -- -- -std=c++17 -I%S/Inputs/dlpack/v1

// A function of the same file that allocates or fills the tensor it
// returns is the code's own export, as a TensorSources call is: its callers
// read what they made, not an import. A function that returns a tensor it
// was given is not.

#include <dlpack/dlpack.h>
#include <stdio.h>
#include <stdlib.h>

static void release(DLManagedTensor *self) {
  free(self->dl_tensor.data);
  delete self;
}

DLManagedTensor *make_new(int64_t *shape) {
  DLManagedTensor *m = new DLManagedTensor();
  m->deleter = release;
  m->dl_tensor.shape = shape;
  m->dl_tensor.data = calloc(shape[0], 4);
  return m;
}

DLManagedTensor *make_malloc(int64_t *shape) {
  auto *m = static_cast<DLManagedTensor *>(malloc(sizeof(DLManagedTensor)));
  if (!m)
    return nullptr;
  m->deleter = release;
  m->dl_tensor.shape = shape;
  m->dl_tensor.data = calloc(shape[0], 4);
  return m;
}

DLManagedTensor make_by_value(int64_t *shape) {
  DLManagedTensor m{};
  m.dl_tensor.shape = shape;
  m.dl_tensor.data = calloc(shape[0], 4);
  return m;
}

// --- Own exports: silent ---------------------------------------------------

void write_new(FILE *f, int64_t *shape) {
  DLManagedTensor *t = make_new(shape);
  fwrite(t->dl_tensor.data, 4, t->dl_tensor.shape[0], f);
  t->deleter(t);
}

void write_malloc(FILE *f, int64_t *shape) {
  DLManagedTensor *t = make_malloc(shape);
  if (!t)
    return;
  fwrite(t->dl_tensor.data, 4, t->dl_tensor.shape[0], f);
  t->deleter(t);
}

void write_by_value(FILE *f, int64_t *shape) {
  DLManagedTensor t = make_by_value(shape);
  fwrite(t.dl_tensor.data, 4, t.dl_tensor.shape[0], f);
  free(t.dl_tensor.data);
}

// --- Not the code's own ----------------------------------------------------

// Hands on what it was given.
DLManagedTensor *pass(DLManagedTensor *in) { return in; }
void write_passed(FILE *f, DLManagedTensor *in) {
  DLManagedTensor *t = pass(in);
  fwrite(t->dl_tensor.data, 4, t->dl_tensor.shape[0], f);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'data' used as the address of the first element without adding 'byte_offset' [interop-dlpack-byte-offset]
  // CHECK-MESSAGES: :[[@LINE-2]]:10: warning: tensor data passed to 'fwrite' with the tensor's shape, as one compact block, but its 'strides' are never checked [interop-dlpack-strides]
}

// Fills a tensor, but returns one it was given on another path.
DLManagedTensor *fill_or_pass(DLManagedTensor *in, bool fresh) {
  if (!fresh)
    return in;
  DLManagedTensor *m = new DLManagedTensor();
  m->dl_tensor.data = calloc(4, 4);
  return m;
}
void write_fill_or_pass(FILE *f, DLManagedTensor *in) {
  DLManagedTensor *t = fill_or_pass(in, false);
  fwrite(t->dl_tensor.data, 4, t->dl_tensor.shape[0], f);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'data' used as the address of the first element without adding 'byte_offset' [interop-dlpack-byte-offset]
  // CHECK-MESSAGES: :[[@LINE-2]]:10: warning: tensor data passed to 'fwrite' with the tensor's shape, as one compact block, but its 'strides' are never checked [interop-dlpack-strides]
}

// Writes the fields of a tensor it was given, then returns it.
DLManagedTensor *relabel(DLManagedTensor *in) {
  DLManagedTensor *m = in;
  m->dl_tensor.device.device_id = 0;
  return m;
}
void write_relabelled(FILE *f, DLManagedTensor *in) {
  DLManagedTensor *t = relabel(in);
  fwrite(t->dl_tensor.data, 4, t->dl_tensor.shape[0], f);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'data' used as the address of the first element without adding 'byte_offset' [interop-dlpack-byte-offset]
  // CHECK-MESSAGES: :[[@LINE-2]]:10: warning: tensor data passed to 'fwrite' with the tensor's shape, as one compact block, but its 'strides' are never checked [interop-dlpack-strides]
}
