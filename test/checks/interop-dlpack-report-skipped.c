// ReportSkippedFunctions, for each DLPack check: a function the flow
// analysis gives up on (here a C function over MaxCFGBlocks) is reported
// instead of silently skipped; within the bounds the same C function is
// analysed like C++ (the ANALYSED run).
//
// RUN: %check_interop -check-suffix=STRIDES %s interop-dlpack-strides %t -- \
// RUN:   -config="{CheckOptions: {MaxCFGBlocks: 3, interop-dlpack-strides.ReportSkippedFunctions: true}}" -- -I%S/Inputs -I%S/Inputs/dlpack/v1
// RUN: %check_interop -check-suffix=VERSION %s interop-dlpack-version %t -- \
// RUN:   -config="{CheckOptions: {MaxCFGBlocks: 3, interop-dlpack-version.ReportSkippedFunctions: true}}" -- -I%S/Inputs -I%S/Inputs/dlpack/v1
// RUN: %check_interop -check-suffix=DEVICE %s interop-unsupported-dlpack-device %t -- \
// RUN:   -config="{CheckOptions: {MaxCFGBlocks: 3, interop-unsupported-dlpack-device.ReportSkippedFunctions: true}}" -- -I%S/Inputs -I%S/Inputs/dlpack/v1
// RUN: %check_interop -check-suffix=OWNERSHIP %s interop-dlpack-deleter-ownership %t -- \
// RUN:   -config="{CheckOptions: {MaxCFGBlocks: 3, interop-dlpack-deleter-ownership.ReportSkippedFunctions: true}}" -- -I%S/Inputs -I%S/Inputs/dlpack/v1
// RUN: %check_interop -check-suffix=CAPSULE %s interop-dlpack-capsule-protocol %t -- \
// RUN:   -config="{CheckOptions: {MaxCFGBlocks: 3, interop-dlpack-capsule-protocol.ReportSkippedFunctions: true}}" -- -I%S/Inputs -I%S/Inputs/dlpack/v1
// Within the bounds:
// RUN: %check_interop -check-suffix=ANALYSED %s interop-dlpack-strides,interop-dlpack-version,interop-unsupported-dlpack-device,interop-dlpack-deleter-ownership,interop-dlpack-capsule-protocol %t -- \
// RUN:   -config="{CheckOptions: {interop-dlpack-strides.ReportSkippedFunctions: true, interop-dlpack-version.ReportSkippedFunctions: true, interop-dlpack-deleter-ownership.ReportSkippedFunctions: true}}" -- -I%S/Inputs -I%S/Inputs/dlpack/v1

#include <Python.h>
#include <dlpack/dlpack.h>

int64_t consume(DLManagedTensorVersioned *mt, PyObject *capsule) {
  // CHECK-MESSAGES-STRIDES: :[[@LINE-1]]:9: warning: function 'consume' was not analysed: it is larger than the analysis bound ({{[0-9]+}} CFG blocks) [interop-dlpack-strides]
  // CHECK-MESSAGES-VERSION: :[[@LINE-2]]:9: warning: function 'consume' was not analysed: it is larger than the analysis bound ({{[0-9]+}} CFG blocks) [interop-dlpack-version]
  // CHECK-MESSAGES-DEVICE: :[[@LINE-3]]:9: warning: function 'consume' was not analysed: it is larger than the analysis bound ({{[0-9]+}} CFG blocks) [interop-unsupported-dlpack-device]
  // CHECK-MESSAGES-OWNERSHIP: :[[@LINE-4]]:9: warning: function 'consume' was not analysed: it is larger than the analysis bound ({{[0-9]+}} CFG blocks) [interop-dlpack-deleter-ownership]
  // CHECK-MESSAGES-CAPSULE: :[[@LINE-5]]:9: warning: function 'consume' was not analysed: it is larger than the analysis bound ({{[0-9]+}} CFG blocks) [interop-dlpack-capsule-protocol]
  if (!mt)
    return -1;
  PyCapsule_SetName(capsule, "used_dltensor_versioned");
  int64_t s = mt->dl_tensor.strides[0];
  // CHECK-MESSAGES-ANALYSED: :[[@LINE-1]]:15: warning: 'strides' dereferenced without a NULL check on this path [interop-dlpack-strides]
  // CHECK-MESSAGES-ANALYSED: :[[@LINE-2]]:19: warning: 'dl_tensor' of a versioned tensor used without checking 'version.major' on this path [interop-dlpack-version]
  mt->deleter(mt);
  return s;
}
