// C's brace initializers of structs (`DLDataType dt = {kDLFloat, 32, 1};`,
// `(DLDevice){kDLCPU, 0}`): clang's dataflow framework initialises a record
// from a brace list through its C++ class, which a C struct has not, and
// crashed clang-tidy on such functions. A local declared with constants
// (`struct S s = {0};`) is analysed, its fields unknown at the start; a
// function with any other one is not analysed, and reported as such where
// ReportSkippedFunctions asks; the other functions of the file are analysed
// as before.
//
// RUN: %check_interop %s interop-dlpack-strides,interop-dlpack-version,interop-dlpack-byte-offset %t -- \
// RUN:   -config="{CheckOptions: {interop-dlpack-strides.ReportSkippedFunctions: true, interop-dlpack-version.ReportSkippedFunctions: true, interop-dlpack-byte-offset.ReportSkippedFunctions: true}}" -- -std=gnu11 -I%S/Inputs/dlpack/v1
// Not listed: silent, and still no crash.
// RUN: %check_interop -check-suffix=QUIET %s interop-dlpack-strides,interop-dlpack-version,interop-dlpack-byte-offset,interop-unsupported-dlpack-device,interop-dlpack-deleter-ownership,interop-dlpack-null-deleter,interop-dlpack-capsule-protocol %t -- -- -std=gnu11 -I%S/Inputs/dlpack/v1

#include <dlpack/dlpack.h>

// Constants only: analysed (a producer setting its own layout is silent).
void set_layout(DLTensor *t, int64_t *strides) {
  DLDataType dtype = {kDLFloat, 32, 1};
  t->dtype = dtype;
  t->strides = strides;
  t->strides[0] = 1;
}

void set_device(DLTensor *t) {
  // CHECK-MESSAGES: :[[@LINE-1]]:6: warning: function 'set_device' was not analysed: it uses a construct the flow analysis cannot model (a brace initializer of the C struct 'DLDevice' at line [[@LINE+1]]) [interop-dlpack-byte-offset,interop-dlpack-strides,interop-dlpack-version]
  t->device = (DLDevice){kDLCPU, 0};
  t->strides[0] = 1;
}

// A brace list of a variable is still beyond the framework.
void copy_device(DLTensor *t, const DLTensor *from) {
  // CHECK-MESSAGES: :[[@LINE-1]]:6: warning: function 'copy_device' was not analysed: it uses a construct the flow analysis cannot model (a brace initializer of the C struct 'DLDevice' at line [[@LINE+1]]) [interop-dlpack-byte-offset,interop-dlpack-strides,interop-dlpack-version]
  DLDevice device = {from->device.device_type, 0};
  t->device = device;
  t->strides[0] = 1;
}

// A consumer with zeroed locals (an options struct, designated constants):
// its reads of the tensor it is given are judged.
struct Options {
  DLTensor input;
  char error[64];
};

float first_input(struct Options options, int64_t n) {
  struct Options result = {0};
  DLDataType want = {.code = kDLFloat, .bits = 32, .lanes = 1};
  if (options.input.dtype.code != want.code || n < 1)
    return result.error[0];
  return ((const float *)options.input.data)[n - 1];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'data' used as the address of the first element without adding 'byte_offset' [interop-dlpack-byte-offset]
  // CHECK-MESSAGES: :[[@LINE-2]]:10: warning: tensor data indexed as if compact, but its 'strides' are never checked [interop-dlpack-strides]
  // CHECK-MESSAGES-QUIET: :[[@LINE-3]]:10: warning: 'data' used as the address of the first element without adding 'byte_offset' [interop-dlpack-byte-offset]
  // CHECK-MESSAGES-QUIET: :[[@LINE-4]]:10: warning: data of an imported DLTensor accessed from the host without checking its device type [interop-unsupported-dlpack-device]
  // CHECK-MESSAGES-QUIET: :[[@LINE-5]]:10: warning: tensor data indexed as if compact, but its 'strides' are never checked [interop-dlpack-strides]
}

int64_t first_stride(const DLTensor *t) {
  return t->strides[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'strides' dereferenced without a NULL check on this path [interop-dlpack-strides]
  // CHECK-MESSAGES-QUIET: :[[@LINE-2]]:10: warning: 'strides' dereferenced without a NULL check on this path [interop-dlpack-strides]
}

// A producer returning by value the tensor it builds from a zeroed brace
// initializer: its caller reads its own export, not an import, as its body
// says.
#include <stdio.h>
#include <stdlib.h>

static void free_data(struct DLManagedTensor *self) { free(self->dl_tensor.data); }

struct DLManagedTensor make_tensor(void) {
  struct DLManagedTensor m = {0};
  m.deleter = free_data;
  m.dl_tensor.device.device_type = kDLCPU;
  m.dl_tensor.ndim = 1;
  m.dl_tensor.shape = (int64_t *)malloc(sizeof(int64_t));
  m.dl_tensor.shape[0] = 4;
  m.dl_tensor.data = calloc(4, sizeof(float));
  return m;
}

void write_tensor(FILE *f) {
  struct DLManagedTensor m = make_tensor();
  fwrite(m.dl_tensor.data, sizeof(float), m.dl_tensor.shape[0], f);
}
