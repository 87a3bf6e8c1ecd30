// Imports tensors a peer framework produced onto this process's devices, in
// a multi-process job where each rank owns a slice of the cluster.
// interop::devices() lists every process's devices, so picking one by rank
// or index may pick another host's device, and the import always fails.

#include <interop/interop.h>

#include <vector>

namespace example {

using interop::Array;
using interop::Device;
using interop::Result;

// BUG: devices()[rank] is a device of process `rank`'s host, not ours.
Result<Array> import_for_rank_unchecked(DLManagedTensorVersioned *tensor,
                                        int rank) {
  return interop::from_dlpack(tensor, interop::devices()[rank]);
}

// BUG: a lookup by global id can return any process's device too.
Result<Array> import_by_id_unchecked(DLManagedTensorVersioned *tensor,
                                     int device_id) {
  auto device = interop::device_by_id(interop::Platform::kCpu, device_id);
  // from_dlpack owns the tensor on every path, so it is called either way.
  return interop::from_dlpack(
      tensor, device.ok() ? *device : interop::local_devices()[0]);
}

// FIXED: only this process's devices are candidates.
Result<Array> import_for_rank_fixed(DLManagedTensorVersioned *tensor,
                                    int local_index) {
  std::vector<Device> mine = interop::local_devices();
  return interop::from_dlpack(tensor, mine.at(local_index));
}

// FIXED: check addressability when the device comes from the global list.
Result<Array> import_by_id_checked(DLManagedTensorVersioned *tensor,
                                   int device_id) {
  for (const Device &d : interop::devices()) {
    if (d.id() != device_id || !d.is_addressable())
      continue;
    return interop::from_dlpack(tensor, d);
  }
  return interop::from_dlpack(tensor, interop::local_devices()[0]);
}

// FIXED: let the tensor say where it lives (kDLCPU id 0 -> local CPU 0),
// after checking that its fields can be read at all.
Result<Array> import_where_it_is(DLManagedTensorVersioned *tensor) {
  if (tensor->version.major != DLPACK_MAJOR_VERSION)
    return interop::from_dlpack(tensor); // rejects it and runs its deleter
  auto device = interop::local_device_for(tensor->dl_tensor.device);
  if (!device.ok())
    return interop::from_dlpack(tensor);
  return interop::from_dlpack(tensor, *device);
}

} // namespace example
