// RUN: %check_interop %s interop-dlpack-deleter-ownership %t -- -- -I%S/Inputs -I%S/Inputs/dlpack/v06

// A pointer of namespace or static storage whose pointee one function fills
// with a by-value copy of the producer's managed tensor (`*given = t`) and
// whose deleter another function calls (`given->deleter(given)`) frees the
// copy's address: the producer's struct is never freed, and a deleter that
// frees its argument frees the wrong block. A pointer that may also point
// at the producer's own tensor is not such a copy.

#include <dlpack/dlpack.h>
#include <stdlib.h>

DLManagedTensor *given = NULL;

void give(DLManagedTensor t) {
  given = (DLManagedTensor *)malloc(sizeof(DLManagedTensor));
  *given = t;
}

void finalize(void) {
  given->deleter(given);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: deleter called on what 'given' points to, a by-value copy of the managed tensor; it frees the copy's address, not the tensor the producer allocated [interop-dlpack-deleter-ownership]
  // CHECK-MESSAGES: :13:18: note: 'given' declared here
}

static DLManagedTensor *kept;

void keep(const DLManagedTensor *mt) {
  kept = (DLManagedTensor *)calloc(1, sizeof(DLManagedTensor));
  kept[0] = *mt;
}

void drop(void) {
  if (kept->deleter)
    kept->deleter(kept);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: deleter called on what 'kept' points to, a by-value copy of the managed tensor; it frees the copy's address, not the tensor the producer allocated [interop-dlpack-deleter-ownership]
  // CHECK-MESSAGES: :26:25: note: 'kept' declared here
}

/* Pointed at the producer's own tensor too: its deleter may be the right
   one to call. */
DLManagedTensor *current;

void adopt(DLManagedTensor *mt) { current = mt; }

void adopt_copy(DLManagedTensor t) {
  current = (DLManagedTensor *)malloc(sizeof(DLManagedTensor));
  *current = t;
}

void release_current(void) { current->deleter(current); }

/* The producer's own pointer kept: no copy at all. */
DLManagedTensor *held;

void hold(DLManagedTensor *mt) { held = mt; }

void release_held(void) { held->deleter(held); }
