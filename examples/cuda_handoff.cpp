// Hands device buffers to CUDA consumers (CuPy, Numba, a custom kernel)
// through __cuda_array_interface__ or a raw pointer. Both describe one
// buffer, so a sharded array has neither (JAX refuses it the same way).

#include <interop/interop.h>

#include <cstdint>

namespace example {

using interop::Array;
using interop::Result;

// A kernel launcher that reads `count` floats at `device_ptr`.
void launch_scale(std::uintptr_t device_ptr, long count);

// BUG: `activations` comes from a sharded layer; its buffer pointer does not
// exist when it spans several GPUs.
interop::Status scale_unchecked(const Array &activations) {
  auto ptr = activations.unsafe_buffer_pointer();
  if (!ptr.ok())
    return ptr.status();
  launch_scale(*ptr, activations.size());
  return interop::Status();
}

// BUG: the same through the array interface dict.
Result<interop::CudaArrayInterface> describe_unchecked(const Array &array) {
  return interop::cuda_array_interface(array);
}

// FIXED: one shard at a time; each shard is a single-device array.
interop::Status scale_per_shard(const Array &activations) {
  for (const Array &shard : activations.addressable_shards()) {
    auto ptr = shard.unsafe_buffer_pointer();
    if (!ptr.ok())
      return ptr.status();
    launch_scale(*ptr, shard.size());
  }
  return interop::Status();
}

// FIXED: gather onto one GPU first when the consumer needs the whole array.
Result<interop::CudaArrayInterface> describe_fixed(const Array &array) {
  if (array.is_single_device())
    return interop::cuda_array_interface(array);
  auto gpu = interop::local_devices(interop::Platform::kCuda);
  if (gpu.empty())
    return interop::Status(interop::StatusCode::kRuntimeError,
                           "no CUDA device in this process");
  auto whole = interop::gather(array, gpu[0]);
  if (!whole.ok())
    return whole.status();
  return interop::cuda_array_interface(*whole);
}

} // namespace example
