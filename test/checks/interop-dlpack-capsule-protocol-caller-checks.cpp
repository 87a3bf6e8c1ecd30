// RUN: %check_interop %s interop-dlpack-capsule-protocol %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// A helper that reads a capsule under its current name is checked when
// every caller checked the name of the capsule it hands over before the
// call: with a comparison of its own, PyCapsule_IsValid, or a validator of
// the file (a function comparing the name of the capsule it is given). The
// helper must be one only this file calls, and never by address.

#include <dlpack/dlpack.h>
#include <pybind11/pybind11.h>

#include <cstring>
#include <stdexcept>

namespace py = pybind11;

void import_tensor(DLManagedTensor *t);

// A validator: throws unless the capsule is an unconsumed "dltensor" one.
static DLTensor checked_tensor(const py::capsule &cap) {
  if (std::strcmp(cap.name(), "dltensor") != 0)
    throw std::invalid_argument("expected a DLPack 'dltensor' capsule");
  return static_cast<DLManagedTensor *>(cap.get_pointer())->dl_tensor;
}

// Every caller ran the validator on the capsule first.
static void consume(const py::capsule &cap) {
  auto *mt = static_cast<DLManagedTensor *>(cap.get_pointer());
  import_tensor(mt);
  PyCapsule_SetName(cap.ptr(), "used_dltensor");
}

void run(const py::capsule &input) {
  DLTensor t = checked_tensor(input);
  (void)t;
  consume(input);
}

void run_twice(py::capsule input) {
  checked_tensor(input);
  consume(input);
}

// A caller checking the name itself, and a PyCapsule_IsValid through the
// capsule's PyObject pointer.
static void consume_c(PyObject *cap) {
  auto *mt = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(cap, PyCapsule_GetName(cap)));
  import_tensor(mt);
  PyCapsule_SetName(cap, "used_dltensor");
}

void run_compared(PyObject *cap) {
  const char *name = PyCapsule_GetName(cap);
  if (!name || std::strcmp(name, "dltensor") != 0)
    return;
  consume_c(cap);
}

void run_valid(PyObject *cap) {
  if (!PyCapsule_IsValid(cap, "dltensor"))
    return;
  consume_c(cap);
}

// One caller that checks nothing is enough for a warning.
static void consume_some(const py::capsule &cap) {
  auto *mt = static_cast<DLManagedTensor *>(cap.get_pointer());
  // CHECK-MESSAGES: :[[@LINE-1]]:45: warning: pointer taken from the capsule without checking its name; a consumed ('used_dltensor') or foreign capsule is read as a live tensor [interop-dlpack-capsule-protocol]
  import_tensor(mt);
  PyCapsule_SetName(cap.ptr(), "used_dltensor");
}

void some_checked(const py::capsule &input) {
  checked_tensor(input);
  consume_some(input);
}

void some_unchecked(const py::capsule &input) { consume_some(input); }

// The validator run after the read checks nothing in time.
static void consume_late(const py::capsule &cap) {
  auto *mt = static_cast<DLManagedTensor *>(cap.get_pointer());
  // CHECK-MESSAGES: :[[@LINE-1]]:45: warning: pointer taken from the capsule without checking its name; a consumed ('used_dltensor') or foreign capsule is read as a live tensor [interop-dlpack-capsule-protocol]
  import_tensor(mt);
  PyCapsule_SetName(cap.ptr(), "used_dltensor");
}

void late(const py::capsule &input) {
  consume_late(input);
  checked_tensor(input);
}

// The validator given another capsule checks nothing of this one.
static void consume_other(const py::capsule &cap) {
  auto *mt = static_cast<DLManagedTensor *>(cap.get_pointer());
  // CHECK-MESSAGES: :[[@LINE-1]]:45: warning: pointer taken from the capsule without checking its name; a consumed ('used_dltensor') or foreign capsule is read as a live tensor [interop-dlpack-capsule-protocol]
  import_tensor(mt);
  PyCapsule_SetName(cap.ptr(), "used_dltensor");
}

void other(const py::capsule &input, const py::capsule &second) {
  checked_tensor(second);
  consume_other(input);
}

// A helper given the capsule that never reads its name is no validator.
static void log_size(const py::capsule &cap) { cap.ptr(); }

static void consume_logged(const py::capsule &cap) {
  auto *mt = static_cast<DLManagedTensor *>(cap.get_pointer());
  // CHECK-MESSAGES: :[[@LINE-1]]:45: warning: pointer taken from the capsule without checking its name; a consumed ('used_dltensor') or foreign capsule is read as a live tensor [interop-dlpack-capsule-protocol]
  import_tensor(mt);
  PyCapsule_SetName(cap.ptr(), "used_dltensor");
}

void logged(const py::capsule &input) {
  log_size(input);
  consume_logged(input);
}

// Its address taken: called from places nobody here can see.
static void consume_by_address(const py::capsule &cap) {
  auto *mt = static_cast<DLManagedTensor *>(cap.get_pointer());
  // CHECK-MESSAGES: :[[@LINE-1]]:45: warning: pointer taken from the capsule without checking its name; a consumed ('used_dltensor') or foreign capsule is read as a live tensor [interop-dlpack-capsule-protocol]
  import_tensor(mt);
  PyCapsule_SetName(cap.ptr(), "used_dltensor");
}

void (*keep)(const py::capsule &) = &consume_by_address;

void by_address(const py::capsule &input) {
  checked_tensor(input);
  consume_by_address(input);
}

// Called by nobody here: an entry point whose callers are not seen.
static void consume_unused(const py::capsule &cap) {
  auto *mt = static_cast<DLManagedTensor *>(cap.get_pointer());
  // CHECK-MESSAGES: :[[@LINE-1]]:45: warning: pointer taken from the capsule without checking its name; a consumed ('used_dltensor') or foreign capsule is read as a live tensor [interop-dlpack-capsule-protocol]
  import_tensor(mt);
  PyCapsule_SetName(cap.ptr(), "used_dltensor");
}

// Declared in a header other files include: their calls are not seen.
#include "interop/caller_checks_api.h"
void consume_exported(const py::capsule &cap) {
  auto *mt = static_cast<DLManagedTensor *>(cap.get_pointer());
  // CHECK-MESSAGES: :[[@LINE-1]]:45: warning: pointer taken from the capsule without checking its name; a consumed ('used_dltensor') or foreign capsule is read as a live tensor [interop-dlpack-capsule-protocol]
  import_tensor(mt);
  PyCapsule_SetName(cap.ptr(), "used_dltensor");
}

void exported_caller(const py::capsule &input) {
  checked_tensor(input);
  consume_exported(input);
}
