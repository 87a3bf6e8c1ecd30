// RUN: %check_interop %s interop-dlpack-byte-offset %t -- -- -std=c++17 -I%S/Inputs/dlpack/v1

// An input's `data` stored into another tensor's `data` (zero-copy
// rebinding) drops its byte_offset: the target keeps its own. Storing the
// first element's address, or copying byte_offset along, is the fix.

#include <dlpack/dlpack.h>

struct Runner {
  DLTensor *bound[4];
  int n = 0;
  void rebind_input(const DLTensor *ext) {
    for (int i = 0; i < n; ++i)
      bound[i]->data = ext->data;
    // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: 'data' used as the address of the first element without adding 'byte_offset' [interop-dlpack-byte-offset]
    // CHECK-MESSAGES: :[[@LINE-2]]:24: note: add 'byte_offset' (in bytes) to 'data', or reject tensors whose 'byte_offset' is not zero
  }
  void rebind_first_element(const DLTensor *ext) {
    for (int i = 0; i < n; ++i)
      bound[i]->data = static_cast<char *>(ext->data) + ext->byte_offset;
  }
  void rebind_with_offset(const DLTensor *ext) {
    for (int i = 0; i < n; ++i) {
      bound[i]->data = ext->data;
      bound[i]->byte_offset = ext->byte_offset;
    }
  }
};

// A producer filling in its own tensor from its own buffer is no store of
// a foreign tensor's data.
void fill(DLTensor *out, void *buffer) { out->data = buffer; }
