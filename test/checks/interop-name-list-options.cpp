// Every option that lists declarations follows one rule: a plain name names
// exactly that declaration, an entry with a regular-expression character is
// searched in "::" + the qualified name. So one global setting of a shared key
// (ImportFunctions) means the same to every check that reads it, and an entry
// that is not a valid regular expression is reported, not silently dropped.
//
// A plain name is exact: 'from_tensor_v2' is not an importer.
// RUN: %check_interop %s interop-unsupported-dlpack-device %t -- \
// RUN:   -config="{CheckOptions: {ImportFunctions: '::mylib::from_tensor'}}" \
// RUN:   -- -std=c++17 -I%S/Inputs/dlpack/v1
// A pattern is searched: both are importers.
// RUN: %check_interop -check-suffix=PATTERN %s interop-unsupported-dlpack-device %t -- \
// RUN:   -config="{CheckOptions: {ImportFunctions: '^::mylib::from_tensor'}}" \
// RUN:   -- -std=c++17 -I%S/Inputs/dlpack/v1
//
// RUN: %clang_tidy --checks='-*,interop-unsupported-dlpack-device,interop-sharded-dlpack-export,interop-dlpack-strides' --config="{CheckOptions: {ImportFunctions: '::mylib::from_tensor;bad(', interop-dlpack-strides.CompactConsumers: '[oops', ThrowIfFunctions: '::ok$'}}" --quiet %s -- -std=c++17 -I%S/Inputs/dlpack/v1 2>&1 | FileCheck %s --check-prefix=INVALID
// INVALID-DAG: warning: invalid regular expression in option 'ImportFunctions' of check 'interop-unsupported-dlpack-device': bad(: parentheses not balanced; the entry matches nothing [clang-tidy-config]
// INVALID-DAG: warning: invalid regular expression in option 'ImportFunctions' of check 'interop-sharded-dlpack-export': bad(: parentheses not balanced; the entry matches nothing [clang-tidy-config]
// INVALID-DAG: warning: invalid regular expression in option 'CompactConsumers' of check 'interop-dlpack-strides': [oops: brackets ([ ]) not balanced; the entry matches nothing [clang-tidy-config]
// INVALID-NOT: option 'ThrowIfFunctions'

#include <dlpack/dlpack.h>

namespace mylib {
int from_tensor(DLManagedTensor *tensor);
int from_tensor_v2(DLManagedTensor *tensor);
} // namespace mylib

int listed(DLManagedTensor *mt) {
  if (mt->dl_tensor.device.device_type != kDLMetal)
    return -1;
  return mylib::from_tensor(mt);
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: import of a tensor whose device type is kDLMetal, which 'from_tensor' does not support; this call always fails [interop-unsupported-dlpack-device]
  // CHECK-MESSAGES-PATTERN: :[[@LINE-2]]:29: warning: import of a tensor whose device type is kDLMetal, which 'from_tensor' does not support; this call always fails [interop-unsupported-dlpack-device]
}

int unlisted(DLManagedTensor *mt) {
  if (mt->dl_tensor.device.device_type != kDLMetal)
    return -1;
  return mylib::from_tensor_v2(mt);
  // CHECK-MESSAGES-PATTERN: :[[@LINE-1]]:32: warning: import of a tensor whose device type is kDLMetal, which 'from_tensor_v2' does not support; this call always fails [interop-unsupported-dlpack-device]
}
