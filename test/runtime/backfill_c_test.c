/* Compiles interop/dlpack.h as C: its static asserts are the test. */
#include "interop/dlpack.h"

size_t interop_backfill_c_size(void) {
  return sizeof(DLManagedTensorVersioned);
}
