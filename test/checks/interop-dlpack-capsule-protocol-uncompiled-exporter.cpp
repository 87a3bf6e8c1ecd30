// RUN: %check_interop --allow-compile-errors %s interop-dlpack-capsule-protocol,interop-dlpack-deleter-ownership %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1
// RUN: %check_interop --allow-compile-errors -check-suffix=SKIPPED %s interop-dlpack-capsule-protocol %t -- \
// RUN:   -config="{CheckOptions: {interop-dlpack-capsule-protocol.ReportSkippedFunctions: true}}" -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// An exporter that does not compile because its return type comes from a
// header missing from the checkout (XLA 2020's BufferToDLPackManagedTensor
// returns a StatusOr) is not judged, but the statement that makes its
// capsule compiles: the lambda it installs there is the capsule's
// destructor, and is judged as one. A lambda of that exporter that no
// capsule statement installs is still not judged when it has a destructor's
// shape; any other lambda is judged on its own.

#include <dlpack/dlpack.h>
#include <pybind11/pybind11.h>

namespace py = pybind11;
const char *const kName = "dltensor";

struct Pack {
  DLManagedTensor tensor;
};

// The producer's deleter: a release function (it deletes manager_ctx).
void pack_deleter(DLManagedTensor *t) {
  if (t)
    delete static_cast<Pack *>(t->manager_ctx);
}

// As XLA before 984e293f: the destructor releases whatever
// PyCapsule_GetPointer returns, also once a consumer renamed the capsule
// (NULL, with an exception set).
acme::StatusOr<py::capsule> export_unchecked(Pack *pack) {
  // CHECK-MESSAGES: :[[@LINE-1]]:1: error: use of undeclared identifier 'acme' [clang-diagnostic-error]
  // CHECK-MESSAGES-SKIPPED: :[[@LINE-2]]:1: error: use of undeclared identifier 'acme' [clang-diagnostic-error]
  pack->tensor.manager_ctx = pack;
  pack->tensor.deleter = pack_deleter;
  py::capsule capsule(&pack->tensor, kName, [](PyObject *obj) {
    pack_deleter(
        static_cast<DLManagedTensor *>(PyCapsule_GetPointer(obj, kName)));
    // CHECK-MESSAGES: :[[@LINE-2]]:5: warning: capsule destructor calls the deleter without checking that the capsule is unconsumed; a consumer that renamed it owns the tensor [interop-dlpack-capsule-protocol]
    // CHECK-MESSAGES: :[[@LINE-3]]:5: note: check PyCapsule_IsValid(capsule, "dltensor") first
    // CHECK-MESSAGES-SKIPPED: :[[@LINE-4]]:5: warning: capsule destructor calls the deleter without checking that the capsule is unconsumed; a consumer that renamed it owns the tensor [interop-dlpack-capsule-protocol]
    // CHECK-MESSAGES-SKIPPED: :[[@LINE-5]]:5: note: check PyCapsule_IsValid(capsule, "dltensor") first
  });
  block_until_ready(pack);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'block_until_ready' [clang-diagnostic-error]
  // CHECK-MESSAGES-SKIPPED: :[[@LINE-2]]:3: error: use of undeclared identifier 'block_until_ready' [clang-diagnostic-error]
  return capsule;
  // CHECK-MESSAGES: :[[@LINE-1]]:10: error: no viable conversion from returned value of type 'py::capsule' to function return type 'int' [clang-diagnostic-error]
  // CHECK-MESSAGES-SKIPPED: :[[@LINE-2]]:10: error: no viable conversion from returned value of type 'py::capsule' to function return type 'int' [clang-diagnostic-error]
}

// As XLA's fix: the NULL pointer is tested, and the error it set cleared
// with the exception that was in flight (fixed in jaxlib in 2025).
acme::StatusOr<py::capsule> export_clears(Pack *pack) {
  // CHECK-MESSAGES: :[[@LINE-1]]:1: error: use of undeclared identifier 'acme' [clang-diagnostic-error]
  // CHECK-MESSAGES-SKIPPED: :[[@LINE-2]]:1: error: use of undeclared identifier 'acme' [clang-diagnostic-error]
  py::capsule capsule(&pack->tensor, kName, [](PyObject *obj) {
    auto *t = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(obj, kName));
    if (t) {
      pack_deleter(t);
    } else {
      PyErr_Clear();
      // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: capsule destructor clears the error indicator, discarding an exception that may be in flight [interop-dlpack-capsule-protocol]
      // CHECK-MESSAGES: :[[@LINE-2]]:7: note: save it with PyErr_Fetch (or PyErr_GetRaisedException) first and restore it before returning
      // CHECK-MESSAGES-SKIPPED: :[[@LINE-3]]:7: warning: capsule destructor clears the error indicator, discarding an exception that may be in flight [interop-dlpack-capsule-protocol]
      // CHECK-MESSAGES-SKIPPED: :[[@LINE-4]]:7: note: save it with PyErr_Fetch (or PyErr_GetRaisedException) first and restore it before returning
    }
  });
  return capsule;
  // CHECK-MESSAGES: :[[@LINE-1]]:10: error: no viable conversion from returned value of type 'py::capsule' to function return type 'int' [clang-diagnostic-error]
  // CHECK-MESSAGES-SKIPPED: :[[@LINE-2]]:10: error: no viable conversion from returned value of type 'py::capsule' to function return type 'int' [clang-diagnostic-error]
}

// The saved and restored form of the same destructor: nothing to report
// (the error of the return is the conversion to the missing type, not the
// capsule's).
acme::StatusOr<py::capsule> export_saves(Pack *pack) {
  // CHECK-MESSAGES: :[[@LINE-1]]:1: error: use of undeclared identifier 'acme' [clang-diagnostic-error]
  // CHECK-MESSAGES-SKIPPED: :[[@LINE-2]]:1: error: use of undeclared identifier 'acme' [clang-diagnostic-error]
  return py::capsule(&pack->tensor, kName, [](PyObject *obj) {
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    if (PyCapsule_IsValid(obj, kName))
      pack_deleter(
          static_cast<DLManagedTensor *>(PyCapsule_GetPointer(obj, kName)));
    else
      PyErr_Clear();
    PyErr_Restore(type, value, tb);
  });
  // CHECK-MESSAGES: :[[@LINE-10]]:10: error: no viable conversion from returned value of type 'py::capsule' to function return type 'int' [clang-diagnostic-error]
  // CHECK-MESSAGES-SKIPPED: :[[@LINE-11]]:10: error: no viable conversion from returned value of type 'py::capsule' to function return type 'int' [clang-diagnostic-error]
}

// A lambda of the same kind of exporter that no capsule statement installs
// (it goes to a function of the missing header) may be a destructor or not:
// still not judged.
acme::StatusOr<py::capsule> export_elsewhere(Pack *pack) {
  // CHECK-MESSAGES: :[[@LINE-1]]:1: error: use of undeclared identifier 'acme' [clang-diagnostic-error]
  // CHECK-MESSAGES-SKIPPED: :[[@LINE-2]]:1: error: use of undeclared identifier 'acme' [clang-diagnostic-error]
  auto on_delete = [](PyObject *obj) {
    // CHECK-MESSAGES-SKIPPED: :[[@LINE-1]]:20: warning: function 'operator()' was not analysed: it does not compile (the function it is defined in does not compile) [interop-dlpack-capsule-protocol]
    pack_deleter(
        static_cast<DLManagedTensor *>(PyCapsule_GetPointer(obj, kName)));
  };
  return wrap_later(&pack->tensor, kName, on_delete);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: error: use of undeclared identifier 'wrap_later' [clang-diagnostic-error]
  // CHECK-MESSAGES-SKIPPED: :[[@LINE-2]]:10: error: use of undeclared identifier 'wrap_later' [clang-diagnostic-error]
}

// A lambda that cannot be a capsule destructor (it does not take one
// PyObject pointer) is judged on its own, whatever the function around it.
acme::Status import_elsewhere(PyObject *capsule) {
  // CHECK-MESSAGES: :[[@LINE-1]]:1: error: use of undeclared identifier 'acme' [clang-diagnostic-error]
  // CHECK-MESSAGES-SKIPPED: :[[@LINE-2]]:1: error: use of undeclared identifier 'acme' [clang-diagnostic-error]
  auto rank = [](PyObject *obj, int extra) {
    auto *t = static_cast<DLManagedTensor *>(
        PyCapsule_GetPointer(obj, "dltensor"));
    return t->dl_tensor.ndim + extra;
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: pointer from PyCapsule_GetPointer used without checking for NULL; a consumed or misnamed capsule returns NULL [interop-dlpack-capsule-protocol]
    // CHECK-MESSAGES: :[[@LINE-3]]:9: note: pointer taken here
    // CHECK-MESSAGES-SKIPPED: :[[@LINE-3]]:12: warning: pointer from PyCapsule_GetPointer used without checking for NULL; a consumed or misnamed capsule returns NULL [interop-dlpack-capsule-protocol]
    // CHECK-MESSAGES-SKIPPED: :[[@LINE-5]]:9: note: pointer taken here
  };
  return acme::from_rank(rank(capsule, 0));
  // CHECK-MESSAGES: :[[@LINE-1]]:10: error: use of undeclared identifier 'acme' [clang-diagnostic-error]
  // CHECK-MESSAGES-SKIPPED: :[[@LINE-2]]:10: error: use of undeclared identifier 'acme' [clang-diagnostic-error]
}
