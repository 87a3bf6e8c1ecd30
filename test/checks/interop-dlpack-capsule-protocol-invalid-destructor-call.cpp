// RUN: %check_interop --allow-compile-errors %s interop-dlpack-capsule-protocol,interop-dlpack-deleter-ownership %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1
// RUN: %check_interop --allow-compile-errors -check-suffix=SKIPPED %s interop-dlpack-capsule-protocol %t -- \
// RUN:   -config="{CheckOptions: {interop-dlpack-capsule-protocol.ReportSkippedFunctions: true}}" -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// A lambda passed to an expression that does not compile (XLA's 2020
// py::capsule, whose first argument names a type from a header missing from
// the checkout) may be the capsule's destructor or not: it is judged as
// neither (as a plain function it would read as a consumer that never
// renames the capsule), and reported as not analysed with
// ReportSkippedFunctions.

#include <dlpack/dlpack.h>
#include <pybind11/pybind11.h>

namespace py = pybind11;
static const char kName[] = "dltensor";
void release_tensor(DLManagedTensor *t);
struct Pack; // defined in a header missing from the checkout

py::capsule export_pack(Pack *pack) {
  // CHECK-MESSAGES-SKIPPED: :[[@LINE-1]]:13: warning: function 'export_pack' was not analysed: it does not compile [interop-dlpack-capsule-protocol]
  py::capsule capsule(&pack->tensor, kName, [](PyObject *obj) {
    // CHECK-MESSAGES: :[[@LINE-1]]:28: error: member access into incomplete type 'Pack' [clang-diagnostic-error]
    // CHECK-MESSAGES-SKIPPED: :[[@LINE-2]]:28: error: member access into incomplete type 'Pack' [clang-diagnostic-error]
    // CHECK-MESSAGES-SKIPPED: :[[@LINE-3]]:45: warning: function 'operator()' was not analysed: it does not compile (it is passed to an expression that does not compile) [interop-dlpack-capsule-protocol]
    release_tensor(
        static_cast<DLManagedTensor *>(PyCapsule_GetPointer(obj, kName)));
  });
  return capsule;
}

// When the function around the lambda is an invalid declaration (its return
// type comes from the missing header) but the statement that makes the
// capsule compiles, the lambda is the capsule's destructor and is judged as
// one (interop-dlpack-capsule-protocol-uncompiled-exporter.cpp): here it
// reads the pointer without testing the name first (on a consumed capsule
// that raises, reported) and hands the tensor to a function whose body is
// not visible (nothing said of that).
acme::Status export_status(DLManagedTensor *mt, py::capsule *out) {
  // CHECK-MESSAGES: :[[@LINE-1]]:1: error: use of undeclared identifier 'acme' [clang-diagnostic-error]
  // CHECK-MESSAGES-SKIPPED: :[[@LINE-2]]:1: error: use of undeclared identifier 'acme' [clang-diagnostic-error]
  *out = py::capsule(mt, kName, [](PyObject *obj) {
    release_tensor(
        static_cast<DLManagedTensor *>(PyCapsule_GetPointer(obj, kName)));
    // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: capsule destructor reads the pointer under the unconsumed name without checking the name first; on a capsule a consumer renamed, PyCapsule_GetPointer raises an exception a destructor cannot report [interop-dlpack-capsule-protocol]
    // CHECK-MESSAGES: :[[@LINE-2]]:40: note: return first when PyCapsule_IsValid(capsule, "dltensor") is false
    // CHECK-MESSAGES-SKIPPED: :[[@LINE-3]]:40: warning: capsule destructor reads the pointer under the unconsumed name without checking the name first; on a capsule a consumer renamed, PyCapsule_GetPointer raises an exception a destructor cannot report [interop-dlpack-capsule-protocol]
    // CHECK-MESSAGES-SKIPPED: :[[@LINE-4]]:40: note: return first when PyCapsule_IsValid(capsule, "dltensor") is false
  });
  return 0;
}
