// RUN: %check_interop --allow-compile-errors %s interop-dlpack-byte-offset,interop-dlpack-strides,interop-dlpack-version,interop-dlpack-capsule-protocol,interop-dlpack-deleter-ownership %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1
// RUN: %check_interop --allow-compile-errors -check-suffix=SKIPPED %s interop-dlpack-strides %t -- \
// RUN:   -config="{CheckOptions: {interop-dlpack-strides.ReportSkippedFunctions: true}}" -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1
// The array/device family, over the interop runtime's API:
// RUN: %check_interop --allow-compile-errors -check-suffix=ARRAY %s interop-sharded-dlpack-export %t -- \
// RUN:   -config="{CheckOptions: {interop-sharded-dlpack-export.ReportSkippedFunctions: true}}" -- -std=c++17 -I%S/Inputs -DARRAY
// Warnings turned into errors (-Werror) do not make a function "not compile":
// RUN: %check_interop --allow-compile-errors -check-suffix=WERROR %s interop-dlpack-strides %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1 -DWERROR -Wunused-variable -Werror

// Compile errors are judged per function, for every family: a
// translation unit with an error (here an unknown namespace, as when a
// project header or a generated one is missing) still has its other
// functions analysed; a function whose own body holds an error is skipped,
// never analysed partially, and reported as such with
// ReportSkippedFunctions.

#if !defined(WERROR) && !defined(ARRAY)
#include <Python.h>
#include <dlpack/dlpack.h>
#include <string.h>

int uses_missing_header(DLTensor *t) {
  // CHECK-MESSAGES-SKIPPED: :[[@LINE-1]]:5: warning: function 'uses_missing_header' was not analysed: it does not compile [interop-dlpack-strides]
  if (acme::is_compact(t))
    return 0;
  // CHECK-MESSAGES: :[[@LINE-2]]:7: error: use of undeclared identifier 'acme' [clang-diagnostic-error]
  // CHECK-MESSAGES-SKIPPED: :[[@LINE-3]]:7: error: use of undeclared identifier 'acme' [clang-diagnostic-error]
  return static_cast<int>(t->strides[0]); // not judged: the body does not compile
}

// A variable of an unknown type: the declaration is invalid.
long unknown_type(DLTensor *t) {
  // CHECK-MESSAGES-SKIPPED: :[[@LINE-1]]:6: warning: function 'unknown_type' was not analysed: it does not compile [interop-dlpack-strides]
  acme::Layout layout;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'acme' [clang-diagnostic-error]
  // CHECK-MESSAGES-SKIPPED: :[[@LINE-2]]:3: error: use of undeclared identifier 'acme' [clang-diagnostic-error]
  return t->strides[0];
}

// A syntax error makes the parser drop the statement (here the NULL test)
// without a trace in the AST: the error's place says the function does not
// compile.
long dropped_guard(DLTensor *t) {
  // CHECK-MESSAGES-SKIPPED: :[[@LINE-1]]:6: warning: function 'dropped_guard' was not analysed: it does not compile [interop-dlpack-strides]
  if (!t->strides) ] return 0;
  // CHECK-MESSAGES: :[[@LINE-1]]:20: error: expected expression [clang-diagnostic-error]
  // CHECK-MESSAGES-SKIPPED: :[[@LINE-2]]:20: error: expected expression [clang-diagnostic-error]
  return t->strides[0];
}

// The functions around them compile and are judged, by every family.
void copy_first(char *dst, const DLTensor *t, size_t n) {
  if (t->device.device_type != kDLCPU || t->strides)
    return;
  memcpy(dst, t->data, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'data' used as the address of the first element without adding 'byte_offset' [interop-dlpack-byte-offset]
  // CHECK-MESSAGES: :[[@LINE-2]]:15: note: add 'byte_offset' (in bytes) to 'data', or reject tensors whose 'byte_offset' is not zero
}

long first_stride(const DLTensor &t) {
  return t.strides[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'strides' dereferenced without a NULL check on this path [interop-dlpack-strides]
  // CHECK-MESSAGES-SKIPPED: :[[@LINE-2]]:10: warning: 'strides' dereferenced without a NULL check on this path [interop-dlpack-strides]
}

void copy_and_release(DLManagedTensorVersioned *mt, char *dst, size_t n) {
  const DLTensor &t = mt->dl_tensor;
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: 'dl_tensor' of a versioned tensor used without checking 'version.major' on this path [interop-dlpack-version]
  memcpy(dst, static_cast<char *>(t.data) + t.byte_offset, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: tensor data copied as one compact block, but its 'strides' are never checked [interop-dlpack-strides]
  // CHECK-MESSAGES: :[[@LINE-2]]:15: note: non-NULL 'strides' may be non-compact (transposed, broadcast, sliced); compare them with the compact strides or reject them
  // CHECK-MESSAGES-SKIPPED: :[[@LINE-3]]:15: warning: tensor data copied as one compact block, but its 'strides' are never checked [interop-dlpack-strides]
  // CHECK-MESSAGES-SKIPPED: :[[@LINE-4]]:15: note: non-NULL 'strides' may be non-compact (transposed, broadcast, sliced); compare them with the compact strides or reject them
  mt->deleter(mt);
}

PyObject *export_clears(DLManagedTensor *mt) {
  return PyCapsule_New(mt, "dltensor", [](PyObject *cap) noexcept {
    auto *t = static_cast<DLManagedTensor *>(
        PyCapsule_GetPointer(cap, "dltensor"));
    if (t)
      t->deleter(t);
    else
      PyErr_Clear();
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: capsule destructor clears the error indicator, discarding an exception that may be in flight [interop-dlpack-capsule-protocol]
    // CHECK-MESSAGES: :[[@LINE-2]]:7: note: save it with PyErr_Fetch (or PyErr_GetRaisedException) first and restore it before returning
  });
}

// A lambda is judged on its own body: the error in the function around it
// does not hide it.
void with_error_around(DLTensor *t) {
  // CHECK-MESSAGES-SKIPPED: :[[@LINE-1]]:6: warning: function 'with_error_around' was not analysed: it does not compile [interop-dlpack-strides]
  auto read = [](const DLTensor *u) { return u->strides[0]; };
  // CHECK-MESSAGES: :[[@LINE-1]]:46: warning: 'strides' dereferenced without a NULL check on this path [interop-dlpack-strides]
  // CHECK-MESSAGES-SKIPPED: :[[@LINE-2]]:46: warning: 'strides' dereferenced without a NULL check on this path [interop-dlpack-strides]
  acme::log(read(t));
  // CHECK-MESSAGES: :[[@LINE-1]]:3: error: use of undeclared identifier 'acme' [clang-diagnostic-error]
  // CHECK-MESSAGES-SKIPPED: :[[@LINE-2]]:3: error: use of undeclared identifier 'acme' [clang-diagnostic-error]
}
#elif defined(ARRAY)
#include <interop/interop.h>

void export_unchecked(const interop::Array &a) {
  auto t = interop::to_dlpack(a);
  // CHECK-MESSAGES-ARRAY: :[[@LINE-1]]:12: warning: 'to_dlpack' needs an array on a single device, but 'a' is not proven to be single-device on every path to this call [interop-sharded-dlpack-export]
  // CHECK-MESSAGES-ARRAY: :[[@LINE-3]]:45: note: 'a' is a parameter: nothing in this function proves it is on a single device
  // CHECK-MESSAGES-ARRAY: :[[@LINE-3]]:12: note: check 'is_single_device()' first, or copy the array onto one device with 'gather'
}

void export_with_error(const interop::Array &a) {
  // CHECK-MESSAGES-ARRAY: :[[@LINE-1]]:6: warning: function 'export_with_error' was not analysed: it does not compile [interop-sharded-dlpack-export]
  if (!acme::ready(a))
    return;
  // CHECK-MESSAGES-ARRAY: :[[@LINE-2]]:8: error: use of undeclared identifier 'acme' [clang-diagnostic-error]
  auto t = interop::to_dlpack(a);
}
#else
#include <dlpack/dlpack.h>

long unused_local(const DLTensor &t) {
  int unused = 0;
  // CHECK-MESSAGES-WERROR: :[[@LINE-1]]:7: error: unused variable 'unused' [clang-diagnostic-unused-variable]
  return t.strides[0];
  // CHECK-MESSAGES-WERROR: :[[@LINE-1]]:10: warning: 'strides' dereferenced without a NULL check on this path [interop-dlpack-strides]
}
#endif
