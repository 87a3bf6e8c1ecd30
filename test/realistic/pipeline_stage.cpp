// pipeline_stage.cpp - send and receive of activations between the stages
// of a pipeline-parallel model. Stages on the same host exchange DLPack
// tensors; stages on other hosts get raw device buffers over the network.
//
// Realistic corpus: see test/realistic/README.md.

#include <interop/interop.h>

#include "realistic/status_macros.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pipeline {

using interop::Array;
using interop::Device;
using interop::ManagedTensor;
using interop::Platform;
using interop::Result;
using interop::Status;
using interop::StatusCode;

// The inter-stage transport (defined elsewhere).
class Transport {
public:
  Status send_dlpack(int stage, ManagedTensor tensor);
  Status send_buffer(int stage, uintptr_t device_ptr, size_t bytes);
};

namespace {

Status reject(DLManagedTensorVersioned *tensor, Status why) {
  if (tensor && tensor->deleter)
    tensor->deleter(tensor);
  return why;
}

} // namespace

class StageSender {
public:
  StageSender(Transport &transport, int next_stage, Device staging)
      : transport_(transport), next_stage_(next_stage), staging_(staging) {}

  Status send_activation(const Array &activation);
  Status send_activation_reusing(const Array &activation);
  Status send_microbatches(const std::vector<Array> &microbatches);
  Status send_probe(const std::vector<Array> &microbatches);
  Status send_first_cuda(const std::vector<Array> &microbatches);
  Status send_remote(const Array &activation);

private:
  Transport &transport_;
  const int next_stage_;
  Device staging_;
};

// Sharded activations are gathered onto the staging device; unsharded ones
// go as they are.
Status StageSender::send_activation(const Array &activation) {
  const bool sharded = !activation.is_single_device();
  Result<Array> copy = sharded ? interop::gather(activation, staging_)
                               : Result<Array>(Status(StatusCode::kInternal,
                                                      "no copy needed"));
  if (sharded && !copy.ok())
    return copy.status();
  const Array &payload = sharded ? *copy : activation;
  ASSIGN_OR_RETURN(ManagedTensor t, interop::to_dlpack(payload)); // ok: equivalent-form
  return transport_.send_dlpack(next_stage_, std::move(t));
}

// The same, keeping the gathered copy in an optional (the shape most code
// has: the copy exists only when it was needed).
Status StageSender::send_activation_reusing(const Array &activation) {
  std::optional<Array> copy;
  if (!activation.is_single_device()) {
    ASSIGN_OR_RETURN(copy, interop::gather(activation, staging_));
  }
  const Array &payload = copy ? *copy : activation;
  ASSIGN_OR_RETURN(ManagedTensor t, interop::to_dlpack(payload)); // ok: equivalent-form
  return transport_.send_dlpack(next_stage_, std::move(t));
}

Status StageSender::send_microbatches(const std::vector<Array> &microbatches) {
  const auto sharded = [](const Array &m) { return !m.is_single_device(); };
  if (std::any_of(microbatches.begin(), microbatches.end(), sharded))
    return Status(StatusCode::kValueError,
                  "send_microbatches: gather sharded microbatches first");
  for (const Array &m : microbatches) {
    ASSIGN_OR_RETURN(ManagedTensor t, interop::to_dlpack(m)); // ok: container-element
    RETURN_IF_ERROR(transport_.send_dlpack(next_stage_, std::move(t)));
  }
  return interop::ok_status();
}

// The receiver sizes its buffers from the first microbatch that arrives;
// any unsharded one will do.
Status StageSender::send_probe(const std::vector<Array> &microbatches) {
  auto it = std::find_if(microbatches.begin(), microbatches.end(),
                         [](const Array &m) { return m.is_single_device(); });
  if (it == microbatches.end())
    return Status(StatusCode::kValueError,
                  "send_probe: no unsharded microbatch");
  ASSIGN_OR_RETURN(ManagedTensor t, interop::to_dlpack(*it)); // ok: container-element
  return transport_.send_dlpack(next_stage_, std::move(t));
}

// The GPU-resident microbatch goes first. Being on CUDA says nothing about
// being on one GPU.
Status StageSender::send_first_cuda(const std::vector<Array> &microbatches) {
  auto it = std::find_if(
      microbatches.begin(), microbatches.end(),
      [](const Array &m) { return m.platform() == Platform::kCuda; });
  if (it == microbatches.end())
    return interop::ok_status();
  ASSIGN_OR_RETURN(ManagedTensor t, interop::to_dlpack(*it)); // expect: interop-sharded-dlpack-export [container-element]
  return transport_.send_dlpack(next_stage_, std::move(t));
}

// Remote stages receive the local shards' device buffers.
Status StageSender::send_remote(const Array &activation) {
  for (const Array &shard : activation.addressable_shards()) {
    ASSIGN_OR_RETURN(uintptr_t ptr, shard.unsafe_buffer_pointer()); // ok: plain
    RETURN_IF_ERROR(transport_.send_buffer(next_stage_, ptr, shard.nbytes()));
  }
  return interop::ok_status();
}

class StageReceiver {
public:
  explicit StageReceiver(interop::Sharding activation_sharding)
      : sharding_(std::move(activation_sharding)) {}

  Result<Array> receive_slot(DLManagedTensorVersioned *tensor,
                             size_t slot) const;
  Result<Array> receive_local_slot(DLManagedTensorVersioned *tensor,
                                   size_t slot) const;
  Result<Array> receive_on(DLManagedTensorVersioned *tensor,
                           const Device &wanted) const;

private:
  interop::Sharding sharding_;
};

// Each slot of the global activation sharding is imported onto its device.
// The sharding spans every stage's devices, most of them on other hosts.
Result<Array> StageReceiver::receive_slot(DLManagedTensorVersioned *tensor,
                                          size_t slot) const {
  if (slot >= sharding_.num_devices())
    return reject(tensor, Status(StatusCode::kValueError,
                                 "no slot " + std::to_string(slot)));
  return interop::from_dlpack(tensor, sharding_.devices()[slot]); // expect: interop-nonaddressable-dlpack-import [plain]
}

// The corrected receive: slots are numbered over this host's devices of the
// sharding only.
Result<Array>
StageReceiver::receive_local_slot(DLManagedTensorVersioned *tensor,
                                  size_t slot) const {
  std::vector<Device> mine;
  std::copy_if(sharding_.devices().begin(), sharding_.devices().end(),
               std::back_inserter(mine),
               [](const Device &d) { return d.is_addressable(); });
  if (slot >= mine.size())
    return reject(tensor, Status(StatusCode::kValueError,
                                 "no local slot " + std::to_string(slot)));
  return interop::from_dlpack(tensor, mine[slot]); // ok: container-element
}

// The sender names the device; the receiver validates that it exists.
Result<Array> StageReceiver::receive_on(DLManagedTensorVersioned *tensor,
                                        const Device &wanted) const {
  const std::vector<Device> all = interop::devices(wanted.platform());
  auto it = std::find(all.begin(), all.end(), wanted);
  if (it == all.end())
    return reject(tensor, Status(StatusCode::kValueError,
                                 "unknown device " + wanted.to_string()));
  return interop::from_dlpack(tensor, *it); // expect: interop-nonaddressable-dlpack-import [container-element]
}

} // namespace pipeline
