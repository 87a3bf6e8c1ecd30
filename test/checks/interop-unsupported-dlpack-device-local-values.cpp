// RUN: %check_interop %s interop-unsupported-dlpack-device %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// The device type a guard compares with, named through a variable: a
// constant, a choice between constants, or a local assigned constants. The
// guard holds when every value the variable can hold is host-accessible.

#include <dlpack/dlpack.h>
#include <string.h>

void read_type(int &out);

// --- Safe ------------------------------------------------------------------

void chosen_host_types(const DLTensor *t, void *dst, size_t n, bool pinned) {
  const int want = pinned ? kDLCUDAHost : kDLCPU;
  if (t->device.device_type != want)
    return;
  memcpy(dst, t->data, n);
}

void assigned_once(const DLTensor *t, void *dst, size_t n) {
  int want = kDLCPU;
  if (t->device.device_type != want)
    return;
  memcpy(dst, t->data, n);
}

void assigned_in_branches(const DLTensor *t, void *dst, size_t n, bool pinned) {
  DLDeviceType want;
  if (pinned)
    want = kDLCUDAHost;
  else
    want = kDLCPU;
  if (want == t->device.device_type)
    memcpy(dst, t->data, n);
}

// Two links: a local assigned another local.
void through_two_locals(const DLTensor *t, void *dst, size_t n, bool managed) {
  const DLDeviceType base = kDLCPU;
  DLDeviceType want = managed ? kDLCUDAManaged : base;
  if (t->device.device_type == static_cast<DLDeviceType>(want))
    memcpy(dst, t->data, n);
}

constexpr DLDeviceType kHostType = kDLCPU;
void namespace_constant(const DLTensor *t, void *dst, size_t n) {
  if (t->device.device_type != kHostType)
    return;
  memcpy(dst, t->data, n);
}

// --- Unsafe ----------------------------------------------------------------

// One of the choices is device memory.
void chosen_device_type(const DLTensor *t, void *dst, size_t n, bool rocm) {
  const int want = rocm ? kDLCPU : kDLCUDA;
  if (t->device.device_type != want)
    return;
  memcpy(dst, t->data, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: data of an imported DLTensor accessed from the host on a path where its device type may not be host memory [interop-unsupported-dlpack-device]
  // CHECK-MESSAGES: :[[@LINE-2]]:15: note: check that device_type is host-accessible
}

// Not equal to a choice says nothing about which type it is.
void not_equal_to_choice(const DLTensor *t, void *dst, size_t n, bool pinned) {
  const int want = pinned ? kDLCUDAHost : kDLCPU;
  if (t->device.device_type == want)
    return;
  memcpy(dst, t->data, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: data of an imported DLTensor accessed from the host on a path where its device type may not be host memory [interop-unsupported-dlpack-device]
  // CHECK-MESSAGES: :[[@LINE-2]]:15: note: check that device_type is host-accessible
}

// A later store to the local counts wherever it is.
void reassigned(const DLTensor *t, void *dst, size_t n, bool gpu) {
  int want = kDLCPU;
  if (gpu)
    want = kDLCUDA;
  if (t->device.device_type != want)
    return;
  memcpy(dst, t->data, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: data of an imported DLTensor accessed from the host on a path where its device type may not be host memory [interop-unsupported-dlpack-device]
  // CHECK-MESSAGES: :[[@LINE-2]]:15: note: check that device_type is host-accessible
}

// A callee may store anything through the reference.
void changed_by_reference(const DLTensor *t, void *dst, size_t n) {
  int want = kDLCPU;
  read_type(want);
  if (t->device.device_type != want)
    return;
  memcpy(dst, t->data, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: data of an imported DLTensor accessed from the host on a path where its device type may not be host memory [interop-unsupported-dlpack-device]
  // CHECK-MESSAGES: :[[@LINE-2]]:15: note: check that device_type is host-accessible
}

void incremented(const DLTensor *t, void *dst, size_t n) {
  int want = kDLCPU;
  ++want;
  if (t->device.device_type != want)
    return;
  memcpy(dst, t->data, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: data of an imported DLTensor accessed from the host on a path where its device type may not be host memory [interop-unsupported-dlpack-device]
  // CHECK-MESSAGES: :[[@LINE-2]]:15: note: check that device_type is host-accessible
}

// A parameter may hold anything.
void parameter(const DLTensor *t, void *dst, size_t n, int want = kDLCPU) {
  if (t->device.device_type != want)
    return;
  memcpy(dst, t->data, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: data of an imported DLTensor accessed from the host on a path where its device type may not be host memory [interop-unsupported-dlpack-device]
  // CHECK-MESSAGES: :[[@LINE-2]]:15: note: check that device_type is host-accessible
}
