// data_loader.cpp - a multi-process input pipeline: a host-side decoder
// produces DLPack tensors, and each process imports the samples of its own
// devices into the global batch (like jax.make_array_from_process_local_data).
//
// Every process runs this code; the device list is the global one, so the
// loader must only import onto devices this process owns.
//
// Realistic corpus: see test/realistic/README.md.

#include <interop/interop.h>

#include "realistic/status_macros.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

namespace loader {

using interop::Array;
using interop::Device;
using interop::Result;
using interop::Status;
using interop::StatusCode;

// The decoder (libdecode; defined elsewhere). Each call hands over one
// sample as a host tensor the caller owns.
class Decoder {
public:
  DLManagedTensorVersioned *next_sample();
  DLManagedTensorVersioned *next_label();
  bool exhausted() const;
};

namespace {

Status no_device(const std::string &what) {
  return Status(StatusCode::kRuntimeError, "loader: " + what);
}

} // namespace

class ShardedLoader {
public:
  struct Config {
    int samples_per_device = 1;
    interop::Platform platform = interop::Platform::kCpu;
    // The GPU ordinal this process feeds first (the launcher's LOCAL_RANK).
    int local_rank = 0;
  };

  ShardedLoader(Config config, Decoder &decoder);

  Result<Array> import_for_slot(size_t slot);
  Result<Array> import_first_owned();
  Result<Array> import_on_first_gpu();
  Result<Array> import_on_local_rank();
  Result<Array> import_on_local_rank_wrong();
  Result<Array> import_label();
  Result<std::vector<Array>> import_round();
  Result<Array> import_staged_for(const Device &cpu_device);

private:
  Config config_;
  Decoder &decoder_;
  const int process_index_;
  // Every process's devices of the platform, in global id order.
  const std::vector<Device> all_devices_;
  // This process's, filtered from all_devices_ once.
  std::vector<Device> my_devices_;
};

ShardedLoader::ShardedLoader(Config config, Decoder &decoder)
    : config_(config), decoder_(decoder),
      process_index_(interop::current_topology().process_index),
      all_devices_(interop::devices(config.platform)) {
  std::copy_if(all_devices_.begin(), all_devices_.end(),
               std::back_inserter(my_devices_), [this](const Device &d) {
                 return d.process_index() == process_index_;
               });
}

// Slots are numbered over the global device list; a process serves the
// slots of its own devices and refuses the rest.
Result<Array> ShardedLoader::import_for_slot(size_t slot) {
  const std::vector<Device> all = interop::devices(config_.platform);
  const Device &target = all[slot % all.size()];
  if (target.process_index() != interop::current_topology().process_index)
    return no_device("slot " + std::to_string(slot) + " belongs to " +
                     target.to_string());
  return interop::from_dlpack(decoder_.next_sample(), target); // ok: equivalent-form
}

Result<Array> ShardedLoader::import_first_owned() {
  const int me = interop::current_topology().process_index;
  const std::vector<Device> all = interop::devices(config_.platform);
  auto it = std::find_if(all.begin(), all.end(), [me](const Device &d) {
    return d.process_index() == me;
  });
  if (it == all.end())
    return no_device("this process has no device");
  return interop::from_dlpack(decoder_.next_sample(), *it); // ok: container-element equivalent-form
}

Result<Array> ShardedLoader::import_on_first_gpu() {
  const std::vector<Device> all = interop::devices(interop::Platform::kCuda);
  auto it = std::find_if(all.begin(), all.end(),
                         [](const Device &d) { return d.is_addressable(); });
  if (it == all.end())
    return no_device("this process has no GPU");
  return interop::from_dlpack(decoder_.next_sample(), *it); // ok: container-element
}

Result<Array> ShardedLoader::import_on_local_rank() {
  const std::vector<Device> mine =
      interop::local_devices(interop::Platform::kCuda);
  if (config_.local_rank < 0 ||
      static_cast<size_t>(config_.local_rank) >= mine.size())
    return no_device("local rank out of range");
  return interop::from_dlpack(decoder_.next_sample(), mine[config_.local_rank]); // ok: plain
}

// LOCAL_RANK is this process's GPU ordinal, but the list is global: on every
// process but the first this picks another host's GPU.
Result<Array> ShardedLoader::import_on_local_rank_wrong() {
  const std::vector<Device> gpus = interop::devices(interop::Platform::kCuda);
  auto it = std::find_if(gpus.begin(), gpus.end(), [this](const Device &d) {
    return d.local_hardware_id() == config_.local_rank;
  });
  if (it == gpus.end())
    return no_device("no GPU with ordinal " +
                     std::to_string(config_.local_rank));
  return interop::from_dlpack(decoder_.next_sample(), *it); // expect: interop-nonaddressable-dlpack-import [container-element]
}

// Labels are decoded once per step, by the process that owns the first
// device; the others receive them through the batch's sharding.
Result<Array> ShardedLoader::import_label() {
  const std::vector<Device> all = interop::devices(config_.platform);
  const Device &first = all.front();
  if (first.process_index() == 0)
    return interop::from_dlpack(decoder_.next_label(), first); // expect: interop-nonaddressable-dlpack-import [equivalent-form]
  return no_device("labels are loaded by process 0");
}

// One sample per owned device.
Result<std::vector<Array>> ShardedLoader::import_round() {
  std::vector<Array> out;
  out.reserve(my_devices_.size());
  for (size_t i = 0; i < my_devices_.size(); ++i) {
    ASSIGN_OR_RETURN(Array sample, interop::from_dlpack(decoder_.next_sample(), my_devices_[i])); // ok: container-element
    out.push_back(std::move(sample));
  }
  return out;
}

// Samples bound for a CPU device are staged on the GPU with the same local
// ordinal (NUMA affinity). device_by_id takes a global id, so on every
// process but the first this is another host's GPU.
Result<Array> ShardedLoader::import_staged_for(const Device &cpu_device) {
  ASSIGN_OR_RETURN(Device staging,
                   interop::device_by_id(interop::Platform::kCuda,
                                         cpu_device.local_hardware_id()));
  return interop::from_dlpack(decoder_.next_sample(), staging); // expect: interop-nonaddressable-dlpack-import [plain]
}

// Imports a per-device sample straight onto the device a global batch
// sharding assigns to it, skipping the other processes' devices.
Result<std::vector<Array>> import_for_sharding(Decoder &decoder,
                                               const interop::Sharding &batch) {
  const int me = interop::current_topology().process_index;
  std::vector<Array> local;
  for (const Device &d : batch.devices()) {
    if (d.process_index() != me)
      continue;
    ASSIGN_OR_RETURN(Array sample, interop::from_dlpack(decoder.next_sample(), d)); // ok: equivalent-form
    local.push_back(std::move(sample));
  }
  return local;
}

// The same with the runtime's own predicate.
Result<std::vector<Array>>
import_for_sharding_checked(Decoder &decoder, const interop::Sharding &batch) {
  std::vector<Array> local;
  for (const Device &d : batch.devices()) {
    if (!d.is_addressable())
      continue;
    ASSIGN_OR_RETURN(Array sample, interop::from_dlpack(decoder.next_sample(), d)); // ok: plain
    local.push_back(std::move(sample));
  }
  return local;
}

// Builds the global batch from host data and hands this process's part to
// the host-side augmentation stage (one export per local shard).
Result<std::vector<interop::ManagedTensor>>
export_local_part(const std::vector<float> &host, int64_t rows, int64_t cols,
                  const interop::Sharding &batch_sharding) {
  ASSIGN_OR_RETURN(Array batch,
                   Array::from_host(host.data(), host.size() * sizeof(float),
                                    {rows, cols}, interop::kFloat32,
                                    batch_sharding));
  std::vector<interop::ManagedTensor> out;
  for (const Array &shard : batch.addressable_shards()) {
    ASSIGN_OR_RETURN(interop::ManagedTensor t, interop::to_dlpack(shard)); // ok: plain
    out.push_back(std::move(t));
  }
  return out;
}

// A process that feeds one device gets one shard of the batch and exports
// "its" batch whole. With more than one process the batch spans every
// process's devices, so the export is refused even though this process holds
// a single shard.
Result<interop::ManagedTensor> export_if_one_local_shard(const Array &batch) {
  if (batch.addressable_shards().size() == 1)
    return interop::to_dlpack(batch); // expect: interop-sharded-dlpack-export [plain]
  return Status(StatusCode::kValueError,
                "export_if_one_local_shard: " + batch.to_string() +
                    " has several local shards");
}

// The per-process sample a single-process debugging run exports directly.
Result<interop::ManagedTensor>
export_debug_sample(const std::vector<float> &host) {
  const interop::Sharding one =
      interop::Sharding::single_device(interop::local_devices().front());
  ASSIGN_OR_RETURN(Array sample,
                   Array::from_host(host.data(), host.size() * sizeof(float),
                                    {static_cast<int64_t>(host.size())},
                                    interop::kFloat32, one));
  return interop::to_dlpack(sample); // ok: plain
}

} // namespace loader
