// export_session.cpp - objects that own an export for as long as a consumer
// reads it: leases of parameters, host snapshots, imported batches. Most of
// the work happens in constructors.
//
// Realistic corpus: see test/realistic/README.md.

#include <interop/interop.h>

#include "realistic/status_macros.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace session {

using interop::Array;
using interop::ManagedTensor;
using interop::MemoryKind;
using interop::Result;
using interop::Status;
using interop::StatusCode;

// Pins a parameter for the lifetime of the lease so the framework can read
// it zero-copy. The optimizer hands out every parameter this way, including
// the ones it shards over the data-parallel devices.
class ParameterLease {
public:
  explicit ParameterLease(const Array &param)
      : param_(param),
        tensor_(interop::to_dlpack(param_)) {} // expect: interop-sharded-dlpack-export [constructor]

  // Aborts when the export failed (Result::value on an error).
  const DLTensor &tensor() const { return tensor_->tensor(); }

private:
  Array param_;
  Result<ManagedTensor> tensor_;
};

// A host copy of any array, exported for a host reader.
class HostSnapshot {
public:
  HostSnapshot(const Array &source, const interop::Device &host)
      : copy_(interop::gather(source, host, MemoryKind::kDevice)),
        tensor_(copy_.ok() ? interop::to_dlpack(*copy_) // ok: constructor
                           : Result<ManagedTensor>(copy_.status())) {}

  const Status &status() const { return tensor_.status(); }
  const ManagedTensor *tensor() const {
    return tensor_.ok() ? &*tensor_ : nullptr;
  }

private:
  Result<Array> copy_;
  Result<ManagedTensor> tensor_;
};

// A scalar the host loop reports through DLPack (the learning rate, the
// step counter). Members are initialised in declaration order.
class ReportedScalar {
public:
  explicit ReportedScalar(float value) : value_(value) {}

  const Result<DLDevice> &device() const { return device_; }

private:
  float value_;
  Result<Array> array_ = Array::from_host(
      &value_, sizeof value_, {}, interop::kFloat32,
      interop::Sharding::single_device(interop::local_devices().front()));
  Result<DLDevice> device_ = array_.ok() ? interop::dlpack_device(*array_) // ok: constructor
                                         : Result<DLDevice>(array_.status());
};

// The outputs of one training step, with where the logits' export lives
// (the framework maps its device from it).
class StepOutputs {
public:
  explicit StepOutputs(Array logits, Array loss)
      : logits_(std::move(logits)), loss_(std::move(loss)) {}

  const DLDevice &logits_device() const { return *logits_device_; }
  Result<ManagedTensor> export_loss() const {
    if (!loss_.is_single_device())
      return Status(StatusCode::kBufferError, "the loss is sharded");
    return interop::to_dlpack(loss_); // ok: plain
  }

private:
  Array logits_;
  Array loss_;
  // The logits come out sharded over the model-parallel devices.
  Result<DLDevice> logits_device_ = interop::dlpack_device(logits_); // expect: interop-sharded-dlpack-export [constructor]
};

// An array the constructor checked to be on one device, so that its exports
// never fail for sharding. The member is const: nothing changes it after
// the check.
class SingleDeviceArray {
public:
  explicit SingleDeviceArray(Array array) : array_(std::move(array)) {
    if (!array_.is_single_device())
      throw std::invalid_argument("SingleDeviceArray: " + array_.to_string() +
                                  " spans several devices");
  }

  Result<ManagedTensor>
  export_dlpack(const interop::ExportOptions &options = {}) const {
    return interop::to_dlpack(array_, options); // ok-hard: constructor
  }
  Result<DLDevice> device() const {
    return interop::dlpack_device(array_); // ok-hard: constructor
  }
  Result<uintptr_t> address() const {
    return array_.unsafe_buffer_pointer(); // ok-hard: constructor
  }

private:
  const Array array_;
};

// A batch imported onto this process's GPU for the local rank.
class ImportedBatch {
public:
  ImportedBatch(DLManagedTensorVersioned *tensor, int local_rank)
      : array_(interop::from_dlpack(tensor, interop::local_devices(interop::Platform::kCuda).at(local_rank))) {} // ok: constructor

  const Result<Array> &array() const { return array_; }

private:
  Result<Array> array_;
};

// The same written against the global device list: on every process but
// the first, local rank k names another host's GPU.
class ImportedBatchGlobal {
public:
  ImportedBatchGlobal(DLManagedTensorVersioned *tensor, int local_rank)
      : array_(interop::from_dlpack(tensor, interop::devices(interop::Platform::kCuda).at(local_rank))) {} // expect: interop-nonaddressable-dlpack-import [constructor]

  const Result<Array> &array() const { return array_; }

private:
  Result<Array> array_;
};

// A gathered view whose member is initialised on one device by the
// constructor; the export in the body relies on the member initialiser.
class GatheredView {
public:
  GatheredView(const Array &source, const interop::Device &target)
      : view_(source.is_single_device() ? source
                                        : *interop::gather(source, target)) {
    tensor_ = interop::to_dlpack(view_); // ok: constructor
  }

  const Result<ManagedTensor> &tensor() const { return tensor_; }

private:
  Array view_;
  Result<ManagedTensor> tensor_ = Status(StatusCode::kInternal, "not exported");
};

} // namespace session
