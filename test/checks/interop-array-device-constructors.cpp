// RUN: %check_interop %s interop-sharded-dlpack-export,interop-nonaddressable-dlpack-import %t -- -- -std=c++17 -I%S/Inputs

// Calls in member-initializer lists and default
// member initializers are judged like any other call, whether or not the
// constructor's body calls anything. The OK-hard case (a constructor that
// establishes a fact a const member keeps) is at the end.

#include "interop/interop.h"

using namespace interop;

[[noreturn]] void fail(const char *why);

// --- Findings --------------------------------------------------------------

struct Lease {
  explicit Lease(const Array &a) : array(a), tensor(to_dlpack(array)) {}
  // CHECK-MESSAGES: :[[@LINE-1]]:53: warning: 'to_dlpack' needs an array on a single device, but 'array' is not proven to be single-device on every path to this call [interop-sharded-dlpack-export]
  Array array;
  Result<ManagedTensor> tensor;
};

// The body's own export is proven; the initializer's is not.
struct LeaseWithCheckedBody {
  explicit LeaseWithCheckedBody(const Array &a, const Array &b)
      : tensor(to_dlpack(a)) {
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'to_dlpack' needs an array on a single device, but 'a' is not proven
    if (b.is_single_device())
      auto d = dlpack_device(b);
  }
  Result<ManagedTensor> tensor;
};

class Outputs {
public:
  explicit Outputs(Array logits) : logits_(logits) {}
  Outputs(Array logits, int step) : logits_(logits), step_(step) {}

private:
  Array logits_;
  int step_ = 0;
  // One finding for the initializer, however many constructors use it.
  Result<DLDevice> device_ = dlpack_device(logits_);
  // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: 'dlpack_device' needs an array on a single device, but 'logits_' is not proven
};

struct ImportedBatch {
  ImportedBatch(DLManagedTensorVersioned *t, size_t rank)
      : array(from_dlpack(t, devices(Platform::kCuda)[rank])) {}
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: 'from_dlpack' imports onto device 'devices(Platform::kCuda)[rank]', taken from a list of every process's devices, with no addressability check on this path [interop-nonaddressable-dlpack-import]
  Result<Array> array;
};

// --- Silent ----------------------------------------------------------------

struct Snapshot {
  Snapshot(const Array &a, const Device &host)
      : copy(gather(a, host)),
        tensor(copy.ok() ? to_dlpack(*copy)
                         : Result<ManagedTensor>(copy.status())) {}
  Result<Array> copy;
  Result<ManagedTensor> tensor;
};

class Scalar {
public:
  explicit Scalar(const float *value) : value_(value) {}

private:
  const float *value_;
  Result<Array> array_ =
      Array::from_host(value_, sizeof(float), {}, DLDataType{2, 32, 1},
                       Sharding::single_device(local_devices()[0]));
  Result<DLDevice> device_ = array_.ok() ? dlpack_device(*array_)
                                         : Result<DLDevice>(array_.status());
};

struct ImportedLocal {
  ImportedLocal(DLManagedTensorVersioned *t, size_t rank)
      : array(from_dlpack(t, local_devices(Platform::kCuda)[rank])) {}
  Result<Array> array;
};

struct GatheredView {
  GatheredView(const Array &a, const Device &d)
      : view(a.is_single_device() ? a : *gather(a, d)) {
    tensor = to_dlpack(view);
  }
  Array view;
  Result<ManagedTensor> tensor = Status();
};

// --- OK-hard: a class invariant --------------------------------------------

// Every constructor leaves `array_` on one device or does not return, and
// nothing can change a const member afterwards: members may rely on it.
// Not understood yet (see Limitations in interop-sharded-dlpack-export.md):
// facts live within one function, and a member's start from nothing.
class SingleDeviceArray {
public:
  explicit SingleDeviceArray(Array array) : array_(array) {
    if (!array_.is_single_device())
      fail("sharded");
  }
  Result<ManagedTensor> export_dlpack() const { return to_dlpack(array_); }
  // CHECK-MESSAGES: :[[@LINE-1]]:56: warning: 'to_dlpack' needs an array on a single device, but 'array_' is not proven
  Result<DLDevice> device() const { return dlpack_device(array_); }
  // CHECK-MESSAGES: :[[@LINE-1]]:44: warning: 'dlpack_device' needs an array on a single device, but 'array_' is not proven

private:
  const Array array_;
};

// Not an invariant: a member function changes the array.
class Rebindable {
public:
  explicit Rebindable(Array array) : array_(array) {
    if (!array_.is_single_device())
      fail("sharded");
  }
  void rebind(const Array &other) { array_ = other; }
  Result<ManagedTensor> export_dlpack() const { return to_dlpack(array_); }
  // CHECK-MESSAGES: :[[@LINE-1]]:56: warning: 'to_dlpack' needs an array on a single device, but 'array_' is not proven

private:
  Array array_;
};
