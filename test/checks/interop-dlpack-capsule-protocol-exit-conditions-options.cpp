// RUN: %check_interop %s interop-dlpack-capsule-protocol %t -- \
// RUN:   -config="{CheckOptions: {ThrowIfFunctions: '::mylib::raise_if$', RequireFunctions: '::mylib::ensure$'}}" \
// RUN:   -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// ThrowIfFunctions and RequireFunctions (global options, read by every
// check): functions without a body here that return only when their bool
// first argument is false, or only when it is true. Setting the list
// replaces the default (`throw_if`).
//
// RUN: %clang_tidy --checks='-*,interop-dlpack-version,interop-dlpack-deleter-ownership,interop-sharded-dlpack-export' --dump-config -- -std=c++17 | FileCheck %s --check-prefix=DEFAULTS
// DEFAULTS-DAG: interop-dlpack-version.ThrowIfFunctions: '(^|::)[Tt]hrow_?[Ii]f$'
// DEFAULTS-DAG: interop-dlpack-version.RequireFunctions: ''
// DEFAULTS-DAG: interop-dlpack-deleter-ownership.ThrowIfFunctions: '(^|::)[Tt]hrow_?[Ii]f$'
// DEFAULTS-DAG: interop-sharded-dlpack-export.ThrowIfFunctions: '(^|::)[Tt]hrow_?[Ii]f$'
// DEFAULTS-DAG: interop-sharded-dlpack-export.RequireFunctions: ''

#include <Python.h>
#include <dlpack/dlpack.h>

namespace mylib {
void raise_if(bool cond, const char *msg);
void ensure(bool ok, const char *msg);
} // namespace mylib
void throw_if(bool cond, const char *msg);
void consume(const DLTensor &t);

void named_raise_if(PyObject *capsule) {
  auto *t = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule, "dltensor"));
  mylib::raise_if(t == nullptr, "not a DLPack capsule");
  consume(t->dl_tensor);
  PyCapsule_SetName(capsule, "used_dltensor");
}

void named_ensure(PyObject *capsule) {
  auto *t = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule, "dltensor"));
  mylib::ensure(t != nullptr, "not a DLPack capsule");
  consume(t->dl_tensor);
  PyCapsule_SetName(capsule, "used_dltensor");
}

// No longer named: the list replaced the default.
void default_no_longer_named(PyObject *capsule) {
  auto *t = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule, "dltensor"));
  throw_if(t == nullptr, "not a DLPack capsule");
  consume(t->dl_tensor);
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: pointer from PyCapsule_GetPointer used without checking for NULL; a consumed or misnamed capsule returns NULL [interop-dlpack-capsule-protocol]
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: pointer taken here
  PyCapsule_SetName(capsule, "used_dltensor");
}

// The opposite meaning is no check: ensure(t == nullptr) returns only when
// t is NULL.
void ensure_the_opposite(PyObject *capsule) {
  auto *t = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule, "dltensor"));
  mylib::ensure(t == nullptr, "odd");
  consume(t->dl_tensor);
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: pointer from PyCapsule_GetPointer used without checking for NULL; a consumed or misnamed capsule returns NULL [interop-dlpack-capsule-protocol]
  // CHECK-MESSAGES: :[[@LINE-4]]:7: note: pointer taken here
  PyCapsule_SetName(capsule, "used_dltensor");
}
