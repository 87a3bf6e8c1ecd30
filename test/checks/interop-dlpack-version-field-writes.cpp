// RUN: %check_interop %s interop-dlpack-version %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// A function that fills in a versioned tensor it was handed (a producer
// setting the device before an import) writes fields, it does not read them:
// writes are not uses, whether through an assignment or through a setter
// whose body only writes the field (interop::dl::set_device_type). A read
// through an accessor is a use.

#include <interop/dl.h>

DLManagedTensorVersioned *make_tensor();
void import_tensor(DLManagedTensorVersioned *mt);

void set_device_id(int ordinal) {
  DLManagedTensorVersioned *mt = make_tensor();
  mt->dl_tensor.device.device_id = ordinal;
  import_tensor(mt);
}

void set_device_through_setter(int ordinal) {
  DLManagedTensorVersioned *mt = make_tensor();
  interop::dl::set_device_type(mt->dl_tensor.device, interop::dl::kROCM);
  mt->dl_tensor.device.device_id = ordinal;
  import_tensor(mt);
}

// A setter that also reads what it is given is not only a write.
void copy_device(DLDevice &dst, const DLDevice &src) { dst = src; }

int read_through_accessor() {
  DLManagedTensorVersioned *mt = make_tensor();
  return interop::dl::device_type_of(mt->dl_tensor.device);
  // CHECK-MESSAGES: :[[@LINE-1]]:42: warning: 'dl_tensor' of a versioned tensor used without checking 'version.major' on this path [interop-dlpack-version]
  // CHECK-MESSAGES: :[[@LINE-2]]:42: note: a consumer that does not support the major version must call the deleter and touch no other field
}

void read_through_copy(DLDevice &out) {
  DLManagedTensorVersioned *mt = make_tensor();
  copy_device(out, mt->dl_tensor.device);
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: 'dl_tensor' of a versioned tensor used without checking 'version.major' on this path [interop-dlpack-version]
  // CHECK-MESSAGES: :[[@LINE-2]]:24: note: a consumer that does not support the major version must call the deleter and touch no other field
}
