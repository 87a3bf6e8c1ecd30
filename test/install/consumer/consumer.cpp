// A program that uses the interop_shim runtime the way a C++ user does,
// built against an installed prefix (find_package or pkg-config) or against
// the source tree (add_subdirectory): it makes an array, exports it with
// to_dlpack, imports it back with from_dlpack and checks the data; and it
// checks that a sharded export fails with JAX's sharded-export error, so a
// Status crosses the library boundary too. Prints one "round trip ok" line.
#include <interop/interop.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

int fail(const char *what, const interop::Status &status) {
  std::fprintf(stderr, "consumer: %s: %s\n", what, status.to_string().c_str());
  return 1;
}

} // namespace

int main() {
  using namespace interop;
  TopologyConfig topology;
  topology.cpu_devices_per_process = 2;
  topology.cuda_devices_per_process = 0;
  if (Status status = configure(topology); !status.ok())
    return fail("configure", status);
  std::vector<Device> cpus = local_devices(Platform::kCpu);

  const std::vector<float> data = {0.5f, 1.5f, 2.5f, 3.5f, 4.5f, 5.5f};
  Result<Array> array =
      Array::from_host(data.data(), data.size() * sizeof(float), {2, 3},
                       kFloat32, Sharding::single_device(cpus[0]));
  if (!array.ok())
    return fail("from_host", array.status());

  Result<ManagedTensor> exported = to_dlpack(*array);
  if (!exported.ok())
    return fail("to_dlpack", exported.status());
  const DLTensor &tensor = exported->tensor();
  if (!exported->is_versioned() || tensor.ndim != 2 || tensor.shape[0] != 2 ||
      tensor.shape[1] != 3 || !same_dtype(tensor.dtype, kFloat32) ||
      dl::device_type_of(tensor.device) != dl::kCPU) {
    std::fprintf(stderr, "consumer: unexpected export %s\n",
                 describe_dltensor(tensor).c_str());
    return 1;
  }

  // from_dlpack owns the tensor from here on, on every path.
  Result<Array> imported = from_dlpack(exported->release_versioned(), cpus[1]);
  if (!imported.ok())
    return fail("from_dlpack", imported.status());
  std::vector<float> back(data.size());
  if (Status status =
          imported->copy_to_host(back.data(), back.size() * sizeof(float));
      !status.ok())
    return fail("copy_to_host", status);
  if (std::memcmp(back.data(), data.data(), data.size() * sizeof(float)) != 0) {
    std::fprintf(stderr, "consumer: the data changed in the round trip\n");
    return 1;
  }

  // Seed 000: a sharded array has no single buffer to export.
  Result<Sharding> split = Sharding::split(cpus, 0);
  if (!split.ok())
    return fail("Sharding::split", split.status());
  Result<Array> sharded = Array::from_host(
      data.data(), data.size() * sizeof(float), {2, 3}, kFloat32, *split);
  if (!sharded.ok())
    return fail("from_host (sharded)", sharded.status());
  Result<ManagedTensor> refused = to_dlpack(*sharded);
  if (refused.ok() || refused.status().code() != StatusCode::kBufferError) {
    std::fprintf(stderr, "consumer: a sharded to_dlpack did not fail with "
                         "BufferError\n");
    return 1;
  }

  std::printf("consumer: round trip ok: %s (refused as expected: %s)\n",
              imported->to_string().c_str(),
              refused.status().to_string().c_str());
  return 0;
}
