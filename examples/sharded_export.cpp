// Hands the output of a data-parallel step to a DLPack consumer (a PyTorch
// or CuPy bridge, an inference server). The step shards its output over
// every local device, which JAX refuses to export (a sharded array to DLPack);
// on TPU hosts the output also sits in TPU device memory, which it refuses too.
//
// `cmake --build build --target lint-example` flags the *_unchecked
// functions; the *_fixed ones show the remedies the notes suggest.

#include <interop/interop.h>

#include <cstdint>
#include <vector>

namespace example {

using interop::Array;
using interop::Device;
using interop::ManagedTensor;
using interop::MemoryKind;
using interop::Platform;
using interop::Result;

// The consumer takes ownership of the exported tensor.
void consume(DLManagedTensorVersioned *tensor);

// A data-parallel step: its output is split along axis 0 over every local
// device of `platform`.
Result<Array> run_step(const std::vector<float> &batch, Platform platform) {
  std::vector<Device> devices = interop::local_devices(platform);
  auto sharding = interop::Sharding::split(devices, /*axis=*/0);
  if (!sharding.ok())
    return sharding.status();
  return Array::from_host(batch.data(), batch.size() * sizeof(float),
                          {static_cast<int64_t>(batch.size())},
                          interop::kFloat32, *sharding);
}

// BUG: the step's output is sharded whenever there is more than one device,
// and to_dlpack then fails with JAX's sharded-export BufferError.
interop::Status export_step_unchecked(const std::vector<float> &batch) {
  auto out = run_step(batch, Platform::kCpu);
  if (!out.ok())
    return out.status();
  auto tensor = interop::to_dlpack(*out);
  if (!tensor.ok())
    return tensor.status();
  consume(tensor->release_versioned());
  return interop::Status();
}

// FIXED: gather the shards onto one device first.
interop::Status export_step_fixed(const std::vector<float> &batch) {
  auto out = run_step(batch, Platform::kCpu);
  if (!out.ok())
    return out.status();
  auto whole = interop::gather(*out, interop::local_devices()[0]);
  if (!whole.ok())
    return whole.status();
  auto tensor = interop::to_dlpack(*whole);
  if (!tensor.ok())
    return tensor.status();
  consume(tensor->release_versioned());
  return interop::Status();
}

// FIXED differently: export directly only when the array is on one device.
interop::Status export_if_unsharded(const Array &array) {
  if (array.num_devices() != 1)
    return interop::Status(interop::StatusCode::kValueError,
                           "gather the array before exporting it");
  auto tensor = interop::to_dlpack(array);
  if (!tensor.ok())
    return tensor.status();
  consume(tensor->release_versioned());
  return interop::Status();
}

// BUG: on a TPU host, gathering onto a TPU device keeps the data in TPU
// device memory (MemoryKind::kDevice is the default), which DLPack cannot
// describe: this export always fails with JAX's TPU-memory BufferError.
interop::Status export_tpu_unchecked(const Array &array) {
  Device tpu = interop::local_devices(Platform::kTpu)[0];
  auto whole = interop::gather(array, tpu);
  if (!whole.ok())
    return whole.status();
  auto tensor = interop::to_dlpack(*whole);
  if (!tensor.ok())
    return tensor.status();
  consume(tensor->release_versioned());
  return interop::Status();
}

// FIXED: gather into TPU pinned host memory, which exports as kDLTPUHost.
interop::Status export_tpu_fixed(const Array &array) {
  Device tpu = interop::local_devices(Platform::kTpu)[0];
  auto whole = interop::gather(array, tpu, MemoryKind::kPinnedHost);
  if (!whole.ok())
    return whole.status();
  auto tensor = interop::to_dlpack(*whole);
  if (!tensor.ok())
    return tensor.status();
  consume(tensor->release_versioned());
  return interop::Status();
}

} // namespace example
