// collectives.cpp - thin wrappers that run NCCL-style collectives on the
// device buffers of interop arrays: all-reduce of gradient buckets,
// all-gather into a preallocated output, broadcast of parameters.
//
// The communicator takes raw device pointers, so every wrapper needs the
// single buffer of an unsharded array (unsafe_buffer_pointer() or the CUDA
// array interface).
//
// Realistic corpus: see test/realistic/README.md.

#include <interop/interop.h>

#include "realistic/status_macros.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace coll {

using interop::Array;
using interop::Result;
using interop::Status;
using interop::StatusCode;

// The communicator (libcomm; defined elsewhere). Pointers are device
// pointers on the communicator's GPU; counts are elements.
class Communicator {
public:
  int rank() const;
  int size() const;
  const interop::Device &device() const;
  Status all_reduce_sum(uintptr_t buffer, size_t count, DLDataType dtype,
                        intptr_t stream);
  Status all_gather(uintptr_t send, uintptr_t recv, size_t send_count,
                    DLDataType dtype, intptr_t stream);
  Status broadcast(uintptr_t buffer, size_t count, DLDataType dtype, int root,
                   intptr_t stream);
  Status send(uintptr_t buffer, size_t count, DLDataType dtype, int peer);
  Status recv(uintptr_t buffer, size_t count, DLDataType dtype, int peer);
};

namespace {

size_t element_count(const Array &array) {
  return static_cast<size_t>(array.size());
}

Status sharded_input(const char *op, const Array &array) {
  return Status(StatusCode::kValueError,
                std::string(op) + ": expected an unsharded array, got " +
                    array.to_string());
}

// The runtime's stream for a CUDA array interface (0 is never reported).
intptr_t stream_of(const interop::CudaArrayInterface &cai) {
  return cai.stream.value_or(1);
}

} // namespace

// All-reduces every bucket in place. Buckets are usually unsharded; a
// sharded one is reduced shard by shard.
Status all_reduce_buckets(Communicator &comm,
                          const std::vector<Array> &buckets) {
  for (size_t i = 0; i < buckets.size(); ++i) {
    if (!buckets[i].is_single_device()) {
      for (const Array &shard : buckets[i].addressable_shards()) {
        ASSIGN_OR_RETURN(uintptr_t ptr, shard.unsafe_buffer_pointer()); // ok: plain
        RETURN_IF_ERROR(
            comm.all_reduce_sum(ptr, element_count(shard), shard.dtype(), 1));
      }
      continue;
    }
    ASSIGN_OR_RETURN(interop::CudaArrayInterface cai, interop::cuda_array_interface(buckets[i])); // ok: container-element
    RETURN_IF_ERROR(comm.all_reduce_sum(cai.data, element_count(buckets[i]),
                                        buckets[i].dtype(), stream_of(cai)));
  }
  return interop::ok_status();
}

// All-gathers equally sized inputs into `outputs` (one per input, each
// comm.size() times larger). Every array must be unsharded.
Status all_gather_into(Communicator &comm, const std::vector<Array> &inputs,
                       const std::vector<Array> &outputs) {
  const auto unsharded = [](const Array &a) { return a.is_single_device(); };
  if (inputs.size() != outputs.size() ||
      !std::all_of(inputs.begin(), inputs.end(), unsharded) ||
      !std::all_of(outputs.begin(), outputs.end(), unsharded))
    return Status(StatusCode::kValueError,
                  "all_gather_into: expected as many unsharded outputs as "
                  "unsharded inputs");
  for (size_t i = 0; i < inputs.size(); ++i) {
    ASSIGN_OR_RETURN(uintptr_t send, inputs[i].unsafe_buffer_pointer()); // ok: container-element
    ASSIGN_OR_RETURN(uintptr_t recv, outputs[i].unsafe_buffer_pointer()); // ok: container-element
    RETURN_IF_ERROR(comm.all_gather(send, recv, element_count(inputs[i]),
                                    inputs[i].dtype(), 1));
  }
  return interop::ok_status();
}

// Broadcasts parameters from rank 0.
Status broadcast_parameters(Communicator &comm,
                            const std::vector<Array> &params) {
  const auto sharded = [](const Array &a) { return a.num_devices() > 1; };
  if (!std::none_of(params.begin(), params.end(), sharded))
    return Status(StatusCode::kValueError,
                  "broadcast_parameters: sharded parameters are broadcast by "
                  "their owners, not from rank 0");
  for (const Array &param : params) {
    ASSIGN_OR_RETURN(interop::CudaArrayInterface cai, interop::cuda_array_interface(param)); // ok: container-element
    RETURN_IF_ERROR(comm.broadcast(cai.data, element_count(param),
                                   param.dtype(), /*root=*/0, stream_of(cai)));
  }
  return interop::ok_status();
}

// Reduces optimizer state; the same layout as the first bucket is assumed
// for all of them (the optimizer creates them together).
Status all_reduce_like_first(Communicator &comm,
                             const std::vector<Array> &state) {
  if (state.empty())
    return interop::ok_status();
  if (!state.front().is_single_device())
    return sharded_input("all_reduce_like_first", state.front());
  for (const Array &s : state) {
    ASSIGN_OR_RETURN(uintptr_t ptr, s.unsafe_buffer_pointer()); // expect: interop-sharded-cuda-array-interface [container-element]
    RETURN_IF_ERROR(comm.all_reduce_sum(ptr, element_count(s), s.dtype(), 1));
  }
  return interop::ok_status();
}

// A ring exchange: each bucket is sent to the next rank while the previous
// rank's is received into the neighbouring bucket.
Status ring_exchange(Communicator &comm, const std::vector<Array> &buckets) {
  const size_t n = buckets.size();
  const int next = (comm.rank() + 1) % comm.size();
  const int prev = (comm.rank() + comm.size() - 1) % comm.size();
  for (size_t i = 0; i < n; ++i) {
    const size_t peer_slot = (i + 1) % n;
    if (!buckets[i].is_single_device())
      return sharded_input("ring_exchange", buckets[i]);
    ASSIGN_OR_RETURN(uintptr_t send, buckets[i].unsafe_buffer_pointer()); // ok: container-element
    ASSIGN_OR_RETURN(uintptr_t recv, buckets[peer_slot].unsafe_buffer_pointer()); // expect: interop-sharded-cuda-array-interface [container-element]
    RETURN_IF_ERROR(
        comm.send(send, element_count(buckets[i]), buckets[i].dtype(), next));
    RETURN_IF_ERROR(comm.recv(recv, element_count(buckets[peer_slot]),
                              buckets[peer_slot].dtype(), prev));
  }
  return interop::ok_status();
}

// Re-lays out each bucket for the communicator before reducing it.
Array relayout_for(const Communicator &comm, const Array &bucket);

Status reduce_relaid(Communicator &comm, std::vector<Array> &buckets) {
  for (size_t i = 0; i < buckets.size(); ++i) {
    if (!buckets[i].is_single_device())
      continue;
    buckets[i] = relayout_for(comm, buckets[i]);
    ASSIGN_OR_RETURN(uintptr_t ptr, buckets[i].unsafe_buffer_pointer()); // expect: interop-sharded-cuda-array-interface [container-element]
    RETURN_IF_ERROR(comm.all_reduce_sum(ptr, element_count(buckets[i]),
                                        buckets[i].dtype(), 1));
  }
  return interop::ok_status();
}

// Picks the collective by layout: one buffer, or one per local shard.
Status all_reduce_any(Communicator &comm, const Array &grads) {
  switch (grads.num_devices()) {
  case 1: {
    ASSIGN_OR_RETURN(uintptr_t ptr, grads.unsafe_buffer_pointer()); // ok: switch
    return comm.all_reduce_sum(ptr, element_count(grads), grads.dtype(), 1);
  }
  default:
    for (const Array &shard : grads.addressable_shards()) {
      ASSIGN_OR_RETURN(uintptr_t ptr, shard.unsafe_buffer_pointer()); // ok: plain
      RETURN_IF_ERROR(
          comm.all_reduce_sum(ptr, element_count(shard), shard.dtype(), 1));
    }
    return interop::ok_status();
  }
}

// Small gradients are fused into one reduction. "Small" arrays were assumed
// to be unsharded; the partitioner shards by layout, not by size.
Status all_reduce_fused(Communicator &comm, const Array &grads) {
  constexpr size_t kFuseBytes = 1 << 20;
  if (grads.nbytes() <= kFuseBytes) {
    ASSIGN_OR_RETURN(uintptr_t ptr, grads.unsafe_buffer_pointer()); // expect: interop-sharded-cuda-array-interface [plain]
    return comm.all_reduce_sum(ptr, element_count(grads), grads.dtype(), 1);
  }
  return all_reduce_any(comm, grads);
}

// All-gathers a sharded array onto the communicator's device first.
Status gather_then_broadcast(Communicator &comm, const Array &value) {
  ASSIGN_OR_RETURN(Array whole, interop::gather(value, comm.device()));
  ASSIGN_OR_RETURN(interop::CudaArrayInterface cai, interop::cuda_array_interface(whole)); // ok: plain
  return comm.broadcast(cai.data, element_count(whole), whole.dtype(), 0,
                        stream_of(cai));
}

// The per-shard pointers a fused kernel launch takes, in shard order.
Result<std::vector<uintptr_t>> shard_pointers(const Array &array) {
  const std::vector<Array> shards = array.addressable_shards();
  std::vector<uintptr_t> out(shards.size());
  for (size_t i = 0; i < shards.size(); ++i) {
    ASSIGN_OR_RETURN(out[i], shards[i].unsafe_buffer_pointer()); // ok: plain
  }
  return out;
}

} // namespace coll
