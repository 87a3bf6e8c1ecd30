// RUN: %check_interop %s interop-unsupported-dlpack-device %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// A helper that reads a tensor parameter's data from the host is right when
// every call of it in the translation unit comes after a host device-type
// test of the tensor it is given: a static function, a C++ function no
// header declares and nothing exports, an inline function or a template's
// instantiation (judged in each unit with that unit's calls).

#include <dlpack/dlpack.h>

struct Error {
  const char *what;
};

namespace details {
// A header's converter: its only caller throws on any other device first.
template <typename T> T first_value(const DLTensor &t) {
  return *static_cast<const T *>(t.data);
}
inline float first_float(const DLTensor &t) {
  return *static_cast<const float *>(t.data);
}
} // namespace details

double from_dlpack(DLManagedTensor *mt) {
  const DLTensor &t = mt->dl_tensor;
  if (t.device.device_type != kDLCPU)
    throw Error{"only CPU tensors are supported"};
  if (t.dtype.bits == 32)
    return details::first_float(t);
  return details::first_value<double>(t);
}

// One call without the test is enough for a finding in the helper.
static long read_long(const DLTensor *t) {
  return *static_cast<const long *>(t->data);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: data of an imported DLTensor accessed from the host without checking its device type [interop-unsupported-dlpack-device]
}
long guarded(const DLTensor *t) {
  return t->device.device_type == kDLCUDAHost ? read_long(t) : 0;
}
long unguarded(const DLTensor *t) { return read_long(t); }

// A test of the wrong device does not vouch for anything.
static int read_int(const DLTensor *t) {
  return *static_cast<const int *>(t->data);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: data of an imported DLTensor accessed from the host without checking its device type [interop-unsupported-dlpack-device]
}
int on_cuda(const DLTensor *t) {
  if (t->device.device_type == kDLCUDA)
    return read_int(t);
  return 0;
}

// A helper that only lacks `static`: no header declares it and nothing
// exports it, so another unit could call it only by declaring it again
// itself. Its only caller tests a host device type first.
void scale_rows(DLTensor *t, float by) {
  static_cast<float *>(t->data)[0] *= by;
}
void scale(DLTensor *t, float by) {
  if (t->device.device_type != kDLCPU && t->device.device_type != kDLCUDAHost)
    throw Error{"only host tensors are supported"};
  scale_rows(t, by);
}

// Exported for other languages (C linkage): callers elsewhere are unseen.
extern "C" void scale_rows_c(DLTensor *t, float by) {
  static_cast<float *>(t->data)[0] *= by;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: data of an imported DLTensor accessed from the host without checking its device type [interop-unsupported-dlpack-device]
}
extern "C" void scale_c(DLTensor *t, float by) {
  if (t->device.device_type != kDLCPU)
    return;
  scale_rows_c(t, by);
}

// A caller's own tensor, placed on the host by its own hand before the
// call, is host memory in the helper; one placed wherever a parameter says
// is not.
namespace {
float first_of_own(const DLTensor &t) {
  return *static_cast<const float *>(t.data);
}
float first_of_placed(const DLTensor &t) {
  return *static_cast<const float *>(t.data);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: data of an imported DLTensor accessed from the host without checking its device type [interop-unsupported-dlpack-device]
}
} // namespace
float describe_host_buffer(float *buffer) {
  DLTensor t{};
  t.data = buffer;
  t.device.device_type = kDLCPU;
  return first_of_own(t);
}
float describe_placed(float *buffer, DLDeviceType where) {
  DLTensor t{};
  t.data = buffer;
  t.device.device_type = where;
  return first_of_placed(t);
}

// A caller that calls a validator first: a void function of the file, or a
// local lambda called by name, that returns only for host memory (it
// throws otherwise). Past its call the tensor is the host's, in the caller
// and in the helpers it calls. A validator called after the helper, or one
// that lets other devices through, vouches for nothing.
namespace {
void require_host(const DLTensor *t, const char *name) {
  if (t->device.device_type != kDLCPU && t->device.device_type != kDLCUDAHost)
    throw Error{name};
}
void require_not_cuda(const DLTensor *t) {
  if (t->device.device_type == kDLCUDA)
    throw Error{"cuda"};
}
int first_row(const DLTensor *t) { return *static_cast<const int *>(t->data); }
int first_col(const DLTensor *t) { return *static_cast<const int *>(t->data); }
int last_row(const DLTensor *t) {
  return *static_cast<const int *>(t->data);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: data of an imported DLTensor accessed from the host without checking its device type [interop-unsupported-dlpack-device]
}
int last_col(const DLTensor *t) {
  return *static_cast<const int *>(t->data);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: data of an imported DLTensor accessed from the host without checking its device type [interop-unsupported-dlpack-device]
}
} // namespace
int traverse(const DLTensor *mask, int depth) {
  require_host(mask, "mask");
  return depth > 0 ? first_row(mask) : 0;
}
int traverse_lambda(const DLTensor *mask, const DLTensor *order) {
  auto check_cpu = [&](const DLTensor *t, const char *name) {
    if (!(t->device.device_type == kDLCPU ||
          t->device.device_type == kDLCUDAHost))
      throw Error{name};
  };
  check_cpu(mask, "mask");
  check_cpu(order, "order");
  return first_col(mask) + first_col(order);
}
int traverse_late(const DLTensor *mask) {
  int r = last_row(mask);
  require_host(mask, "mask");
  return r;
}
int traverse_weak(const DLTensor *mask) {
  require_not_cuda(mask);
  return last_col(mask);
}

// A recursive helper's own calls pass the tensor it was given on: its
// outside calls vouch for them (xgrammar's draft-tree traversal). Not when
// it passes another tensor, nor when nothing outside calls it.
static long sum_tree(const DLTensor *t, long node, long depth) {
  long v = static_cast<const long *>(t->data)[node];
  if (depth > 0)
    v += sum_tree(t, 2 * node + 1, depth - 1) + sum_tree(t, 2 * node + 2, depth - 1);
  return v;
}
long tree_total(const DLTensor *t, long depth) {
  if (t->device.device_type != kDLCPU)
    return 0;
  return sum_tree(t, 0, depth);
}
static long sum_other(const DLTensor *t, const DLTensor *other, long depth) {
  long v = *static_cast<const long *>(t->data);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: data of an imported DLTensor accessed from the host without checking its device type [interop-unsupported-dlpack-device]
  return depth > 0 ? v + sum_other(other, t, depth - 1) : v;
}
long other_total(const DLTensor *t, const DLTensor *other) {
  if (t->device.device_type != kDLCPU)
    return 0;
  return sum_other(t, other, 2);
}
