// tpu_offload.cpp - activation offloading for TPU training: activations
// move between TPU device memory and pinned host memory, and host-side
// consumers (a checkpointer, a metrics reader) receive pinned host copies
// through DLPack. Only pinned host memory of a TPU can be exported (as in
// JAX); device and unpinned host memory cannot.
//
// Realistic corpus: see test/realistic/README.md.

#include <interop/interop.h>

#include "realistic/status_macros.h"

#include <string>
#include <utility>
#include <vector>

namespace offload {

using interop::Array;
using interop::ManagedTensor;
using interop::MemoryKind;
using interop::Platform;
using interop::Result;
using interop::Status;
using interop::StatusCode;

// The host-side reader of offloaded activations (defined elsewhere).
class HostSink {
public:
  Status consume(ManagedTensor tensor);
};

namespace {

Status expected_tpu(const char *what, const Array &array) {
  return Status(StatusCode::kValueError,
                std::string(what) +
                    ": expected a single-device TPU array, got " +
                    array.to_string());
}

} // namespace

class HostOffloader {
public:
  // `staging` is another TPU of this process whose pinned host memory holds
  // copies that must outlive the step.
  HostOffloader(interop::Device tpu, interop::Device staging)
      : tpu_(tpu), staging_(staging) {}

  Result<ManagedTensor> export_to_host(const Array &activation) const;
  Result<ManagedTensor> export_for_reader(const Array &activation,
                                          bool keeps_past_step) const;
  Status offload_shards(const Array &activation, HostSink &sink) const;
  Status offload_pinned_shards(const Array &activation, HostSink &sink) const;

private:
  interop::Device tpu_;
  interop::Device staging_;
};

Result<ManagedTensor>
HostOffloader::export_to_host(const Array &activation) const {
  if (activation.platform() != Platform::kTpu || !activation.is_single_device())
    return expected_tpu("export_to_host", activation);
  switch (activation.memory_kind()) {
  case MemoryKind::kPinnedHost:
    return interop::to_dlpack(activation); // ok: switch
  case MemoryKind::kDevice:
  case MemoryKind::kUnpinnedHost: {
    ASSIGN_OR_RETURN(Array pinned, interop::gather(activation, tpu_,
                                                   MemoryKind::kPinnedHost));
    return interop::to_dlpack(pinned); // ok: plain
  }
  }
  return Status(StatusCode::kInternal, "unknown memory kind");
}

// Readers that keep the tensor past the step get a private pinned copy on
// the staging TPU (the activation's buffer is donated to the next step);
// the others share the activation, already in pinned host memory.
Result<ManagedTensor>
HostOffloader::export_for_reader(const Array &activation,
                                 bool keeps_past_step) const {
  if (activation.platform() != Platform::kTpu ||
      !activation.is_single_device() ||
      activation.memory_kind() != MemoryKind::kPinnedHost)
    return expected_tpu("export_for_reader", activation);
  Result<Array> copy =
      keeps_past_step
          ? interop::gather(activation, staging_, MemoryKind::kPinnedHost)
          : Result<Array>(Status(StatusCode::kInternal, "no copy needed"));
  if (keeps_past_step && !copy.ok())
    return copy.status();
  const Array &source = keeps_past_step ? *copy : activation;
  return interop::to_dlpack(source); // ok: equivalent-form
}

// Hands every local shard of a TPU activation to the sink. The activation's
// memory kind is never looked at: shards of an array in TPU device memory
// are in device memory too.
Status HostOffloader::offload_shards(const Array &activation,
                                     HostSink &sink) const {
  if (activation.platform() != Platform::kTpu)
    return expected_tpu("offload_shards", activation);
  for (const Array &shard : activation.addressable_shards()) {
    ASSIGN_OR_RETURN(ManagedTensor t, interop::to_dlpack(shard)); // expect: interop-tpu-dlpack-memory-kind [equivalent-form]
    RETURN_IF_ERROR(sink.consume(std::move(t)));
  }
  return interop::ok_status();
}

Status HostOffloader::offload_pinned_shards(const Array &activation,
                                            HostSink &sink) const {
  if (activation.platform() != Platform::kTpu ||
      activation.memory_kind() != MemoryKind::kPinnedHost)
    return expected_tpu("offload_pinned_shards", activation);
  for (const Array &shard : activation.addressable_shards()) {
    ASSIGN_OR_RETURN(ManagedTensor t, interop::to_dlpack(shard)); // ok: equivalent-form
    RETURN_IF_ERROR(sink.consume(std::move(t)));
  }
  return interop::ok_status();
}

// Exports whatever a training step returned to the host consumer.
Result<ManagedTensor> export_any(const Array &array) {
  if (!array.is_single_device())
    return Status(StatusCode::kBufferError, "export_any: sharded array");
  switch (array.platform()) {
  case Platform::kCpu:
  case Platform::kCuda:
    return interop::to_dlpack(array); // ok: switch
  case Platform::kTpu:
    return interop::to_dlpack(array); // expect: interop-tpu-dlpack-memory-kind [switch]
  }
  return Status(StatusCode::kInternal, "unknown platform");
}

// The corrected version: TPU arrays go through pinned host memory.
Result<ManagedTensor> export_any_checked(const Array &array,
                                         const interop::Device &tpu) {
  if (!array.is_single_device())
    return Status(StatusCode::kBufferError,
                  "export_any_checked: sharded array");
  switch (array.platform()) {
  case Platform::kCpu:
  case Platform::kCuda:
    return interop::to_dlpack(array); // ok: switch
  case Platform::kTpu: {
    if (array.memory_kind() == MemoryKind::kPinnedHost)
      return interop::to_dlpack(array); // ok: switch
    ASSIGN_OR_RETURN(Array pinned,
                     interop::gather(array, tpu, MemoryKind::kPinnedHost));
    return interop::to_dlpack(pinned); // ok: plain
  }
  }
  return Status(StatusCode::kInternal, "unknown platform");
}

// Host memory of any kind was taken to be exportable.
Result<ManagedTensor> export_host_resident(const Array &array) {
  if (array.platform() != Platform::kTpu || !array.is_single_device())
    return expected_tpu("export_host_resident", array);
  switch (array.memory_kind()) {
  case MemoryKind::kPinnedHost:
  case MemoryKind::kUnpinnedHost:
    return interop::to_dlpack(array); // expect: interop-tpu-dlpack-memory-kind [switch]
  case MemoryKind::kDevice:
    return Status(StatusCode::kBufferError,
                  "export_host_resident: offload the activation first");
  }
  return Status(StatusCode::kInternal, "unknown memory kind");
}

// Where an activation's export would live, judged by the first device of
// its sharding (all devices of a sharding share one platform).
Result<DLDevice> host_device_of(const Array &array) {
  if (!array.is_single_device())
    return Status(StatusCode::kBufferError, "host_device_of: sharded array");
  if (array.sharding().devices().front().platform() == Platform::kTpu)
    return interop::dlpack_device(array); // expect: interop-tpu-dlpack-memory-kind [equivalent-form]
  return interop::dlpack_device(array); // ok: plain
}

Result<DLDevice> host_device_of_checked(const Array &array) {
  if (!array.is_single_device())
    return Status(StatusCode::kBufferError, "host_device_of: sharded array");
  const interop::Device &first = array.sharding().devices().front();
  if (first.platform() == Platform::kTpu &&
      array.memory_kind() == MemoryKind::kPinnedHost)
    return interop::dlpack_device(array); // ok: equivalent-form
  if (first.platform() != Platform::kTpu)
    return interop::dlpack_device(array); // ok: plain
  return Status(StatusCode::kBufferError,
                "host_device_of: TPU array " + array.to_string() +
                    " is not in pinned host memory");
}

// The metrics reader takes host copies; "host" was read as any host memory.
Result<ManagedTensor> stage_for_metrics(const Array &activation) {
  const interop::Device tpu = interop::local_devices(Platform::kTpu).front();
  ASSIGN_OR_RETURN(Array staged,
                   interop::gather(activation, tpu, MemoryKind::kUnpinnedHost));
  return interop::to_dlpack(staged); // expect: interop-tpu-dlpack-memory-kind [diagnostics] msg="unpinned host memory"
}

// A gather onto the TPU without a memory kind lands in device memory.
Result<ManagedTensor> stage_for_checkpoint(const Array &activation) {
  const interop::Device tpu = interop::local_devices(Platform::kTpu).front();
  ASSIGN_OR_RETURN(Array staged, interop::gather(activation, tpu));
  return interop::to_dlpack(staged); // expect: interop-tpu-dlpack-memory-kind [diagnostics] msg="device memory" msg="always fail"
}

// The corrected staging.
Result<ManagedTensor> stage_pinned(const Array &activation) {
  const interop::Device tpu = interop::local_devices(Platform::kTpu).front();
  ASSIGN_OR_RETURN(Array staged,
                   interop::gather(activation, tpu, MemoryKind::kPinnedHost));
  return interop::to_dlpack(staged); // ok: plain
}

} // namespace offload
