// torch_bridge.cpp - hands interop arrays to a torch-like framework through
// DLPack, the way a framework's C++ extension does (fromDLPack on the other
// side).
//
// Realistic corpus: every judged call carries an `// ok:` or `// expect:`
// annotation; see test/realistic/README.md.

#include <interop/interop.h>

#include "realistic/status_macros.h"

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

// The framework's side (libfw, defined elsewhere): adopts a DLPack struct and
// calls its deleter when the tensor is freed.
namespace fw {
class Tensor {
public:
  static Tensor adopt_dlpack(DLManagedTensorVersioned *managed);
  static Tensor adopt_legacy_dlpack(DLManagedTensor *managed);
  int64_t numel() const;
};
} // namespace fw

namespace torchlike {

using interop::Array;
using interop::ManagedTensor;
using interop::Status;
using interop::StatusCode;

namespace {

// A zero-copy export needs the whole array in one buffer of this process.
bool is_zero_copy_exportable(const Array &array) {
  return array.is_single_device() && array.is_fully_addressable();
}

// Every device holds all elements. Not enough for DLPack: a replicated
// array over several devices is refused like a split one (JAX's error).
bool every_device_holds_everything(const Array &array) {
  return array.is_fully_replicated();
}

Status check_exportable(const Array &array, std::string_view what) {
  if (array.num_devices() != 1)
    return Status(StatusCode::kBufferError,
                  std::string(what) + ": the array spans " +
                      std::to_string(array.num_devices()) +
                      " devices; gather it onto one device first");
  return interop::ok_status();
}

// Parameters must live on this process; remote shards cannot be read here.
Status check_local(const Array &array) {
  if (!array.is_fully_addressable())
    return Status(StatusCode::kRuntimeError,
                  "parameter " + array.to_string() +
                      " has shards on other processes");
  return interop::ok_status();
}

[[noreturn]] void throw_status(const Status &status) {
  throw std::runtime_error("torchlike: " + status.to_string());
}

const Array &require_unsharded(const Array &array) {
  if (!array.is_single_device())
    throw std::invalid_argument("torchlike: expected an unsharded array, got " +
                                array.to_string());
  return array;
}

fw::Tensor adopt(ManagedTensor tensor) {
  if (tensor.is_versioned())
    return fw::Tensor::adopt_dlpack(tensor.release_versioned());
  return fw::Tensor::adopt_legacy_dlpack(tensor.release_legacy());
}

} // namespace

// Defined in bridge_policy.cpp (another translation unit).
bool fits_export_policy(const Array &array);

class TensorBridge {
public:
  struct Options {
    // Where sharded arrays are gathered before an export (addressable).
    interop::Device staging_device;
    // Frameworks that predate DLPack 1.0 ask for {0, 0}.
    DLPackVersion max_version = interop::kDLPackVersion;
    bool allow_gather = true;
  };

  explicit TensorBridge(Options options) : options_(std::move(options)) {}

  interop::Result<fw::Tensor> to_tensor(const Array &array) const;
  interop::Result<fw::Tensor> to_tensor_checked(const Array &array) const;
  interop::Result<fw::Tensor> to_tensor_zero_copy(const Array &array) const;
  interop::Result<DLDevice> device_of(const Array &array) const;
  fw::Tensor to_tensor_or_throw(const Array &array) const;
  interop::Result<fw::Tensor> share_replicated(const Array &array) const;
  std::vector<fw::Tensor> to_tensors(const std::vector<Array> &arrays) const;
  size_t gathers() const { return gathers_; }

private:
  bool can_export_in_place(const Array &array) const;
  interop::Result<Array> single_device_view(const Array &array) const;
  interop::ExportOptions export_options() const;

  Options options_;
  mutable size_t gathers_ = 0;
};

interop::ExportOptions TensorBridge::export_options() const {
  interop::ExportOptions options;
  options.max_version = options_.max_version;
  return options;
}

bool TensorBridge::can_export_in_place(const Array &array) const {
  if (!array.is_single_device())
    return false;
  // A legacy consumer cannot be told the memory is read-only: copy instead.
  return !array.read_only() || options_.max_version.major >= 1;
}

interop::Result<Array>
TensorBridge::single_device_view(const Array &array) const {
  if (array.is_single_device())
    return array;
  ++gathers_;
  return interop::gather(array, options_.staging_device);
}

interop::Result<fw::Tensor> TensorBridge::to_tensor(const Array &array) const {
  if (!is_zero_copy_exportable(array)) {
    if (!options_.allow_gather)
      return Status(StatusCode::kBufferError,
                    "to_tensor: " + array.to_string() +
                        " is sharded and gathers are disabled");
    ASSIGN_OR_RETURN(Array local,
                     interop::gather(array, options_.staging_device));
    ++gathers_;
    ASSIGN_OR_RETURN(ManagedTensor t, interop::to_dlpack(local, export_options())); // ok: plain
    return adopt(std::move(t));
  }
  ASSIGN_OR_RETURN(ManagedTensor t, interop::to_dlpack(array, export_options())); // ok: same-tu-helper
  return adopt(std::move(t));
}

interop::Result<fw::Tensor>
TensorBridge::to_tensor_checked(const Array &array) const {
  RETURN_IF_ERROR(check_exportable(array, "to_tensor_checked"));
  ASSIGN_OR_RETURN(ManagedTensor t, interop::to_dlpack(array, export_options())); // ok: same-tu-helper
  return adopt(std::move(t));
}

interop::Result<fw::Tensor>
TensorBridge::to_tensor_zero_copy(const Array &array) const {
  if (!can_export_in_place(array))
    return Status(StatusCode::kBufferError,
                  "to_tensor_zero_copy: " + array.to_string() +
                      " cannot be shared without a copy");
  interop::ExportOptions options = export_options();
  options.copy = interop::CopyMode::kNever;
  ASSIGN_OR_RETURN(ManagedTensor t, interop::to_dlpack(array, options)); // ok: same-tu-helper
  return adopt(std::move(t));
}

interop::Result<DLDevice> TensorBridge::device_of(const Array &array) const {
  if (Status s = check_exportable(array, "__dlpack_device__"); !s.ok())
    return s;
  return interop::dlpack_device(array); // ok: same-tu-helper
}

fw::Tensor TensorBridge::to_tensor_or_throw(const Array &array) const {
  interop::Result<ManagedTensor> t = interop::to_dlpack(require_unsharded(array), export_options()); // ok: same-tu-helper
  if (!t.ok())
    throw_status(t.status());
  return adopt(std::move(*t));
}

// Replicated parameters skip the gather: every device already holds all of
// them, so the bridge hands the framework "any" copy.
interop::Result<fw::Tensor>
TensorBridge::share_replicated(const Array &array) const {
  if (!every_device_holds_everything(array))
    return to_tensor(array);
  ASSIGN_OR_RETURN(ManagedTensor t, interop::to_dlpack(array, export_options())); // expect: interop-sharded-dlpack-export [same-tu-helper]
  return adopt(std::move(t));
}

std::vector<fw::Tensor>
TensorBridge::to_tensors(const std::vector<Array> &arrays) const {
  std::vector<fw::Tensor> out;
  out.reserve(arrays.size());
  for (const Array &array : arrays) {
    interop::Result<Array> view = single_device_view(array);
    if (!view.ok())
      throw_status(view.status());
    interop::Result<ManagedTensor> t = interop::to_dlpack(*view, export_options()); // ok: same-tu-helper
    if (!t.ok())
      throw_status(t.status());
    out.push_back(adopt(std::move(*t)));
  }
  return out;
}

// Where a parameter's export will live, for the framework's device map.
interop::Result<DLDevice> parameter_device(const Array &param) {
  RETURN_IF_ERROR(check_local(param));
  return interop::dlpack_device(param); // expect: interop-sharded-dlpack-export [same-tu-helper]
}

interop::Result<DLDevice> policy_device(const Array &array) {
  if (!fits_export_policy(array))
    return Status(StatusCode::kBufferError,
                  "policy_device: " + array.to_string() + " is not exportable");
  return interop::dlpack_device(array); // expect: interop-sharded-dlpack-export [diagnostics] note="SingleDevicePredicates"
}

// The legacy entry point old extensions still call: no checks at all.
fw::Tensor legacy_to_tensor(const Array &array) {
  interop::ExportOptions options;
  options.max_version = DLPackVersion{0, 0};
  interop::Result<ManagedTensor> t = interop::to_dlpack(array, options); // expect: interop-sharded-dlpack-export [plain]
  if (!t.ok())
    throw_status(t.status());
  return adopt(std::move(*t));
}

} // namespace torchlike
