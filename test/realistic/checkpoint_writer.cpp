// checkpoint_writer.cpp - writes named arrays to a checkpoint: GPU-resident
// arrays go straight from device memory to storage (GPUDirect-style, by
// device pointer), everything else through a host copy. The manifest
// records each array's DLPack device and typestr.
//
// Realistic corpus: see test/realistic/README.md.

#include <interop/interop.h>

#include "realistic/status_macros.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace ckpt {

using interop::Array;
using interop::Platform;
using interop::Result;
using interop::Status;
using interop::StatusCode;

struct Entry {
  std::string name;
  Array array;
};

// Storage (defined elsewhere). Offsets and sizes are bytes.
class DirectFile {
public:
  Status write_device(uintptr_t device_ptr, size_t bytes, int64_t offset);
  Status write_host(const void *data, size_t bytes, int64_t offset);
};

struct ManifestRow {
  std::string name;
  DLDevice device;
  std::string typestr;
  int64_t offset;
};

namespace {

Status require_one_device(const Array &array, const std::string &name) {
  switch (array.num_devices()) {
  case 1:
    return interop::ok_status();
  default:
    return Status(StatusCode::kValueError,
                  "checkpoint entry '" + name + "' spans " +
                      std::to_string(array.num_devices()) +
                      " devices; gather it first");
  }
}

// Entries written by device pointer: one CUDA device, device memory.
Status validate_direct(const Entry &entry) {
  if (!entry.array.is_single_device())
    return Status(StatusCode::kValueError,
                  "'" + entry.name + "' is sharded; write it through the host");
  if (entry.array.platform() != Platform::kCuda ||
      entry.array.memory_kind() != interop::MemoryKind::kDevice)
    return Status(StatusCode::kValueError,
                  "'" + entry.name + "' is not in CUDA device memory");
  return interop::ok_status();
}

bool is_direct_writable(const Entry &entry) {
  return entry.array.is_single_device() &&
         entry.array.platform() == Platform::kCuda &&
         entry.array.memory_kind() == interop::MemoryKind::kDevice;
}

} // namespace

class CheckpointWriter {
public:
  CheckpointWriter(DirectFile &file, interop::Device host)
      : file_(file), host_(host) {}

  Status write(const Entry &entry);
  Status write_direct(const Entry &entry);
  Status write_all_direct(const std::vector<Entry> &entries);
  Status write_all(const std::vector<Entry> &entries);
  Status write_small_direct(const Entry &entry);
  Result<ManifestRow> manifest_row(const Entry &entry) const;
  const std::vector<ManifestRow> &manifest() const { return manifest_; }

private:
  Status write_through_host(const Entry &entry);

  DirectFile &file_;
  interop::Device host_;
  int64_t offset_ = 0;
  std::vector<ManifestRow> manifest_;
};

Result<ManifestRow> CheckpointWriter::manifest_row(const Entry &entry) const {
  RETURN_IF_ERROR(require_one_device(entry.array, entry.name));
  ManifestRow row;
  row.name = entry.name;
  ASSIGN_OR_RETURN(row.device, interop::dlpack_device(entry.array)); // ok: same-tu-helper switch
  row.typestr = interop::dtype_name(entry.array.dtype());
  row.offset = offset_;
  return row;
}

Status CheckpointWriter::write_direct(const Entry &entry) {
  RETURN_IF_ERROR(validate_direct(entry));
  ASSIGN_OR_RETURN(uintptr_t ptr, entry.array.unsafe_buffer_pointer()); // ok: same-tu-helper
  RETURN_IF_ERROR(file_.write_device(ptr, entry.array.nbytes(), offset_));
  offset_ += static_cast<int64_t>(entry.array.nbytes());
  return interop::ok_status();
}

Status CheckpointWriter::write_through_host(const Entry &entry) {
  std::vector<std::byte> host(entry.array.nbytes());
  RETURN_IF_ERROR(entry.array.copy_to_host(host.data(), host.size()));
  RETURN_IF_ERROR(file_.write_host(host.data(), host.size(), offset_));
  offset_ += static_cast<int64_t>(host.size());
  return interop::ok_status();
}

Status CheckpointWriter::write(const Entry &entry) {
  if (is_direct_writable(entry)) {
    ASSIGN_OR_RETURN(interop::CudaArrayInterface cai, interop::cuda_array_interface(entry.array)); // ok: same-tu-helper
    RETURN_IF_ERROR(
        file_.write_device(cai.data, entry.array.nbytes(), offset_));
    offset_ += static_cast<int64_t>(entry.array.nbytes());
    return interop::ok_status();
  }
  return write_through_host(entry);
}

// Direct writes of a whole list, validated up front so a bad entry does
// not leave half a checkpoint behind.
Status CheckpointWriter::write_all_direct(const std::vector<Entry> &entries) {
  if (!std::all_of(entries.begin(), entries.end(), is_direct_writable))
    return Status(StatusCode::kValueError,
                  "write_all_direct: every entry must be one CUDA array");
  for (const Entry &entry : entries) {
    ASSIGN_OR_RETURN(uintptr_t ptr, entry.array.unsafe_buffer_pointer()); // ok: container-element
    RETURN_IF_ERROR(file_.write_device(ptr, entry.array.nbytes(), offset_));
    offset_ += static_cast<int64_t>(entry.array.nbytes());
  }
  return interop::ok_status();
}

// Mixed lists: the manifest first (it needs every entry on one device),
// then the data.
Status CheckpointWriter::write_all(const std::vector<Entry> &entries) {
  std::vector<ManifestRow> rows;
  for (const Entry &entry : entries) {
    ASSIGN_OR_RETURN(ManifestRow row, manifest_row(entry));
    rows.push_back(std::move(row));
  }
  Status status;
  std::for_each(entries.begin(), entries.end(), [&](const Entry &entry) {
    if (status.ok())
      status = write(entry);
  });
  RETURN_IF_ERROR(status);
  manifest_.insert(manifest_.end(), rows.begin(), rows.end());
  return interop::ok_status();
}

// Small CUDA arrays are written by pointer without a host copy. "Small" was
// taken to mean "unsharded", which the partitioner does not promise.
Status CheckpointWriter::write_small_direct(const Entry &entry) {
  constexpr size_t kSmall = 64 << 10;
  if (entry.array.platform() == Platform::kCuda &&
      entry.array.nbytes() <= kSmall) {
    ASSIGN_OR_RETURN(uintptr_t ptr, entry.array.unsafe_buffer_pointer()); // expect: interop-sharded-cuda-array-interface [plain]
    RETURN_IF_ERROR(file_.write_device(ptr, entry.array.nbytes(), offset_));
    offset_ += static_cast<int64_t>(entry.array.nbytes());
    return interop::ok_status();
  }
  return write_through_host(entry);
}

// The typestr column of the manifest, for arrays written by pointer.
Result<std::string> direct_typestr(const Entry &entry) {
  RETURN_IF_ERROR(validate_direct(entry));
  ASSIGN_OR_RETURN(interop::CudaArrayInterface cai, interop::cuda_array_interface(entry.array)); // ok: same-tu-helper
  return cai.typestr;
}

// A status check that only looks at the platform: a sharded CUDA array
// passes it.
Status validate_cuda(const Entry &entry) {
  if (entry.array.platform() != Platform::kCuda)
    return Status(StatusCode::kValueError,
                  "'" + entry.name + "' is not on a GPU");
  return interop::ok_status();
}

Result<uintptr_t> direct_address(const Entry &entry) {
  RETURN_IF_ERROR(validate_cuda(entry));
  return entry.array.unsafe_buffer_pointer(); // expect: interop-sharded-cuda-array-interface [same-tu-helper]
}

// Writes every entry through a caller-supplied writer, gathering sharded
// ones first; the writer sees one-device arrays only.
Status
write_each(const std::vector<Entry> &entries, const interop::Device &host,
           const std::function<Status(const std::string &, uintptr_t, size_t)>
               &writer) {
  for (const Entry &entry : entries) {
    Result<Array> one = entry.array.is_single_device()
                            ? Result<Array>(entry.array)
                            : interop::gather(entry.array, host);
    if (!one.ok())
      return one.status();
    const Array &array = *one;
    auto write_one = [&entry, &array, &writer]() -> Status {
      ASSIGN_OR_RETURN(uintptr_t ptr, array.unsafe_buffer_pointer()); // ok: lambda-capture equivalent-form
      return writer(entry.name, ptr, array.nbytes());
    };
    RETURN_IF_ERROR(write_one());
  }
  return interop::ok_status();
}

} // namespace ckpt
