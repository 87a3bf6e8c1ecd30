// RUN: %check_interop %s interop-dlpack-deleter-ownership %t -- -- -I%S/Inputs -I%S/Inputs/dlpack/v06

// A managed tensor copied by value into a field of a heap record
// (`s->tensor = *mt`) and later deleted through the field's address
// (`&s->tensor`) frees the copy's address, not the tensor the producer
// allocated. A record that embeds the tensor the
// producer itself allocated (nothing copies into the field) is the tensor.

#include <dlpack/dlpack.h>
#include <stdlib.h>

typedef struct Slot {
  DLManagedTensor tensor; /* by value */
  long refs;
} Slot;

Slot *slot_adopt(DLManagedTensor *mt) {
  Slot *s = (Slot *)calloc(1, sizeof(Slot));
  s->refs = 1;
  s->tensor = *mt; /* shallow copy; mt itself is dropped */
  return s;
}

void slot_release(Slot *s) {
  if (--s->refs > 0)
    return;
  if (s->tensor.deleter)
    s->tensor.deleter(&s->tensor);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: deleter called on 'tensor', a by-value copy of the managed tensor; it frees the copy's address, not the tensor the producer allocated [interop-dlpack-deleter-ownership]
  // CHECK-MESSAGES: :13:19: note: 'tensor' declared here
  free(s);
}

/* A producer's own pack: the embedded tensor is the one it hands out. */
typedef struct Pack {
  DLManagedTensor tensor;
  int64_t shape[1];
} Pack;

static void pack_deleter(DLManagedTensor *t) { free(t->manager_ctx); }

DLManagedTensor *pack_new(void *data, int64_t n, int fail) {
  Pack *p = (Pack *)calloc(1, sizeof(Pack));
  p->shape[0] = n;
  p->tensor.dl_tensor.data = data;
  p->tensor.dl_tensor.shape = p->shape;
  p->tensor.manager_ctx = p;
  p->tensor.deleter = pack_deleter;
  if (fail) {
    p->tensor.deleter(&p->tensor);
    return NULL;
  }
  return &p->tensor;
}
