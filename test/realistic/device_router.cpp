// device_router.cpp - the request path of a model server: clients send
// DLPack tensors, the router imports each onto a device that serves the
// requested model shard, on a worker thread.
//
// The server runs one process per host; a model shard's device may belong
// to another host, whose process serves it.
//
// Realistic corpus: see test/realistic/README.md.

#include <interop/interop.h>

#include "realistic/status_macros.h"

#include <cstddef>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace serving {

using interop::Array;
using interop::Device;
using interop::Platform;
using interop::Result;
using interop::Status;
using interop::StatusCode;

using Done = std::function<void(Result<Array>)>;

// The server's worker pool (defined elsewhere).
void run_on_worker(std::function<void()> task);

// The placement service's view (placement.cpp, another translation unit).
bool IsLocalReplica(const Device &device);

namespace {

Status not_here(const Device &device) {
  return Status(StatusCode::kRuntimeError,
                device.to_string() + " is served by process " +
                    std::to_string(device.process_index()));
}

// from_dlpack owns the tensor on every path; a request refused before the
// import must free it here.
Status reject(DLManagedTensorVersioned *tensor, Status why) {
  if (tensor && tensor->deleter)
    tensor->deleter(tensor);
  return why;
}

bool owned_here(const Device &device) { return device.is_addressable(); }

// This process's devices, round-robin.
const Device &pick_local(size_t request_id) {
  static const std::vector<Device> local = interop::local_devices();
  return local[request_id % local.size()];
}

// The device of model shard `shard` in the global placement.
Device device_for_shard(int shard) {
  const std::vector<Device> all = interop::devices(Platform::kCuda);
  return all[static_cast<size_t>(shard) % all.size()];
}

} // namespace

Result<Array> import_round_robin(DLManagedTensorVersioned *tensor,
                                 size_t request_id) {
  return interop::from_dlpack(tensor, pick_local(request_id)); // ok: same-tu-helper
}

// Imports onto the device that serves the shard. Other hosts' shards were
// meant to be forwarded first; this path forgot to.
Result<Array> import_for_shard(DLManagedTensorVersioned *tensor, int shard) {
  return interop::from_dlpack(tensor, device_for_shard(shard)); // expect: interop-nonaddressable-dlpack-import [same-tu-helper]
}

// The first device serving any replica of the model.
Result<Array> import_on_any_replica(DLManagedTensorVersioned *tensor) {
  for (const Device &d : interop::devices(Platform::kCuda)) {
    if (!owned_here(d))
      continue;
    return interop::from_dlpack(tensor, d); // ok: same-tu-helper
  }
  return reject(tensor,
                Status(StatusCode::kRuntimeError, "no GPU on this host"));
}

// The same with the placement service's predicate, which lives in another
// file: the check cannot see what it tests.
Result<Array> import_on_replica(DLManagedTensorVersioned *tensor,
                                size_t replica) {
  const std::vector<Device> all = interop::devices(Platform::kCuda);
  const Device &d = all[replica % all.size()];
  if (!IsLocalReplica(d))
    return reject(tensor, not_here(d));
  return interop::from_dlpack(tensor, d); // expect: interop-nonaddressable-dlpack-import [diagnostics] note="AddressablePredicates"
}

// Asynchronous import: the worker runs the lambda after this function
// returned, with the device it captured by value.
void import_async(DLManagedTensorVersioned *tensor, int device_id, Done done) {
  Result<Device> target = interop::device_by_id(Platform::kCuda, device_id);
  if (!target.ok()) {
    done(reject(tensor, target.status()));
    return;
  }
  const Device device = *target;
  if (!device.is_addressable()) {
    done(reject(tensor, not_here(device)));
    return;
  }
  run_on_worker([tensor, device, done] {
    done(interop::from_dlpack(tensor, device)); // ok: lambda-capture
  });
}

// The requested device if this process owns it, else a local fallback.
Result<Array> import_preferring(DLManagedTensorVersioned *tensor,
                                int device_id) {
  Result<Device> preferred = interop::device_by_id(Platform::kCuda, device_id);
  const std::vector<Device> local = interop::local_devices(Platform::kCuda);
  if (!preferred.ok() || local.empty())
    return reject(tensor,
                  Status(StatusCode::kRuntimeError,
                         "no GPU " + std::to_string(device_id) + " here"));
  const Device &target =
      preferred->is_addressable() ? *preferred : local.front();
  return interop::from_dlpack(tensor, target); // ok: equivalent-form
}

// Clients name a device by id; the router accepts the ones whose process is
// this one.
Result<Array> import_on_named(DLManagedTensorVersioned *tensor, int device_id) {
  Result<Device> named = interop::device_by_id(Platform::kCuda, device_id);
  if (!named.ok())
    return reject(tensor, named.status());
  if (named->process_index() != interop::current_topology().process_index)
    return reject(tensor, not_here(*named));
  return interop::from_dlpack(tensor, *named); // ok: equivalent-form
}

// Batched requests: every tensor onto the device its client asked for,
// each checked before use.
Result<std::vector<Array>>
import_batch(const std::vector<DLManagedTensorVersioned *> &tensors,
             const std::vector<int> &device_ids) {
  const std::vector<Device> all = interop::devices(Platform::kCuda);
  std::vector<Array> out;
  Status failed;
  for (size_t i = 0; i < tensors.size(); ++i) {
    if (!failed.ok()) {
      reject(tensors[i], failed).ignore_error();
      continue;
    }
    const Device &d = all.at(static_cast<size_t>(device_ids[i]));
    if (!d.is_addressable()) {
      failed = reject(tensors[i], not_here(d));
      continue;
    }
    Result<Array> a = interop::from_dlpack(tensors[i], d); // ok: plain
    if (a.ok())
      out.push_back(std::move(*a));
    else
      failed = a.status();
  }
  if (!failed.ok())
    return failed;
  return out;
}

// Replays requests recorded on another host: the recorded device id is
// looked up as is.
Result<Array> replay(DLManagedTensorVersioned *tensor, int recorded_device_id) {
  Result<Device> d = interop::device_by_id(Platform::kCuda, recorded_device_id);
  if (!d.ok())
    return reject(tensor, d.status());
  return interop::from_dlpack(tensor, *d); // expect: interop-nonaddressable-dlpack-import [plain]
}

// Imports onto whichever local device the client's tensor already is on.
Result<Array> import_where_it_is(DLManagedTensorVersioned *tensor) {
  return interop::from_dlpack(tensor); // ok: plain
}

} // namespace serving
