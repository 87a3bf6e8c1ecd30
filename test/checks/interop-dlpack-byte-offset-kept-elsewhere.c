// RUN: %check_interop %s interop-dlpack-byte-offset %t -- -- -std=gnu11 -I%S/Inputs/dlpack/v1

// `data` kept in a pointer member of another object (a read cursor, a
// view handed to a callback) is read later, wherever that object goes, as
// the array's first element: kept without byte_offset, every later access
// is off by it.

#include <dlpack/dlpack.h>

#include <stddef.h>
#include <stdint.h>

struct Cursor {
  uint8_t *base, *ptr;
  size_t left;
};
struct Options {
  DLManagedTensor data;
};
void *open_reader(void *opaque, int (*read)(void *, uint8_t *, int));
int read_cursor(void *opaque, uint8_t *buf, int n);

void decode(struct Options input, size_t size) {
  struct Cursor cursor = {0};
  cursor.base = cursor.ptr = (uint8_t *)input.data.dl_tensor.data;
  // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: 'data' kept in 'ptr' as the address of the first element without adding 'byte_offset' [interop-dlpack-byte-offset]
  // CHECK-MESSAGES: :[[@LINE-2]]:30: note: add 'byte_offset' (in bytes) to 'data', or reject tensors whose 'byte_offset' is not zero
  cursor.left = size;
  open_reader(&cursor, read_cursor);
}

struct View {
  const float *values;
  int64_t count;
};
void fill_view(struct View *view, const DLTensor *t) {
  view->values = (const float *)t->data;
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'data' kept in 'values' as the address of the first element without adding 'byte_offset' [interop-dlpack-byte-offset]
  // CHECK-MESSAGES: :[[@LINE-2]]:18: note: add 'byte_offset' (in bytes) to 'data', or reject tensors whose 'byte_offset' is not zero
  view->count = t->shape[0];
}

// Correct: the first element's address.
void fill_first(struct View *view, const DLTensor *t) {
  view->values = (const float *)((const char *)t->data + t->byte_offset);
  view->count = t->shape[0];
}

// Correct: a tensor with an offset is refused first.
int fill_checked(struct View *view, const DLTensor *t) {
  if (t->byte_offset != 0)
    return -1;
  view->values = (const float *)t->data;
  return 0;
}

// Correct: a producer keeps its own buffer.
void export_view(struct View *view, float *buffer, DLTensor *out) {
  out->data = buffer;
  view->values = (const float *)out->data;
}
