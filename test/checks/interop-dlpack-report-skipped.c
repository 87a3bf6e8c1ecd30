// ReportSkippedFunctions, for each DLPack check: a function the flow
// analysis cannot handle (here: C, which clang's dataflow framework does not
// analyse) is reported instead of silently skipped.
//
// RUN: %check_interop -check-suffix=STRIDES %s interop-dlpack-strides %t -- \
// RUN:   -config="{CheckOptions: {interop-dlpack-strides.ReportSkippedFunctions: true}}" -- -I%S/Inputs -I%S/Inputs/dlpack/v1
// RUN: %check_interop -check-suffix=VERSION %s interop-dlpack-version %t -- \
// RUN:   -config="{CheckOptions: {interop-dlpack-version.ReportSkippedFunctions: true}}" -- -I%S/Inputs -I%S/Inputs/dlpack/v1
// RUN: %check_interop -check-suffix=DEVICE %s interop-unsupported-dlpack-device %t -- \
// RUN:   -config="{CheckOptions: {interop-unsupported-dlpack-device.ReportSkippedFunctions: true}}" -- -I%S/Inputs -I%S/Inputs/dlpack/v1
// RUN: %check_interop -check-suffix=OWNERSHIP %s interop-dlpack-deleter-ownership %t -- \
// RUN:   -config="{CheckOptions: {interop-dlpack-deleter-ownership.ReportSkippedFunctions: true}}" -- -I%S/Inputs -I%S/Inputs/dlpack/v1
// RUN: %check_interop -check-suffix=CAPSULE %s interop-dlpack-capsule-protocol %t -- \
// RUN:   -config="{CheckOptions: {interop-dlpack-capsule-protocol.ReportSkippedFunctions: true}}" -- -I%S/Inputs -I%S/Inputs/dlpack/v1
// Off by default:
// RUN: %check_interop -check-suffix=QUIET %s interop-dlpack-strides,interop-dlpack-version,interop-unsupported-dlpack-device,interop-dlpack-deleter-ownership,interop-dlpack-capsule-protocol %t -- -- -I%S/Inputs -I%S/Inputs/dlpack/v1

#include <Python.h>
#include <dlpack/dlpack.h>

int64_t consume(DLManagedTensorVersioned *mt, PyObject *capsule) {
  // CHECK-MESSAGES-STRIDES: :[[@LINE-1]]:9: warning: function 'consume' was not analysed: its control-flow graph could not be built (Can only analyze C++) [interop-dlpack-strides]
  // CHECK-MESSAGES-VERSION: :[[@LINE-2]]:9: warning: function 'consume' was not analysed: its control-flow graph could not be built (Can only analyze C++) [interop-dlpack-version]
  // CHECK-MESSAGES-DEVICE: :[[@LINE-3]]:9: warning: function 'consume' was not analysed: its control-flow graph could not be built (Can only analyze C++) [interop-unsupported-dlpack-device]
  // CHECK-MESSAGES-OWNERSHIP: :[[@LINE-4]]:9: warning: function 'consume' was not analysed: its control-flow graph could not be built (Can only analyze C++) [interop-dlpack-deleter-ownership]
  // CHECK-MESSAGES-CAPSULE: :[[@LINE-5]]:9: warning: function 'consume' was not analysed: its control-flow graph could not be built (Can only analyze C++) [interop-dlpack-capsule-protocol]
  PyCapsule_SetName(capsule, "used_dltensor_versioned");
  int64_t s = mt->dl_tensor.strides[0];
  mt->deleter(mt);
  return s;
}
