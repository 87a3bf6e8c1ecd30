// jax_bridge.cpp - the __dlpack__ / __dlpack_device__ protocol of a jax-like
// array type, in C++: the Python layer calls these with the consumer's
// stream and max_version and wraps the result in a capsule.
//
// Realistic corpus: see test/realistic/README.md.

#include <interop/interop.h>

#include "realistic/status_macros.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <iterator>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace jaxlike {

using interop::Array;
using interop::ManagedTensor;
using interop::Result;
using interop::Status;
using interop::StatusCode;

// What a consumer passed to __dlpack__.
struct DLPackRequest {
  std::optional<intptr_t> stream;
  DLPackVersion max_version = {0, 0};
  std::optional<DLDevice> dl_device;
  interop::CopyMode copy = interop::CopyMode::kIfNeeded;
};

namespace {

interop::ExportOptions to_options(const DLPackRequest &request) {
  interop::ExportOptions options;
  options.stream = request.stream;
  options.max_version = request.max_version;
  options.dl_device = request.dl_device;
  options.copy = request.copy;
  return options;
}

// Retries once when the CUDA backend reports a transient failure (a stream
// that is being torn down while the consumer asks for the export).
template <typename Fn>
auto with_cuda_retry(Fn &&fn) -> decltype(fn()) {
  auto result = fn();
  if (!result.ok() && result.status().code() == StatusCode::kRuntimeError &&
      result.status().message().find("CUDA") != std::string::npos)
    return fn();
  return result;
}

Status unsharded_only(const char *protocol, const Array &array) {
  return Status(StatusCode::kBufferError,
                std::string(protocol) +
                    " only supported for unsharded arrays, got " +
                    array.to_string());
}

} // namespace

// __dlpack_device__.
Result<DLDevice> dlpack_device_of(const Array &array) {
  switch (array.num_devices()) {
  case 1:
    return interop::dlpack_device(array); // ok: switch
  default:
    return unsharded_only("__dlpack_device__", array);
  }
}

// __dlpack__.
Result<ManagedTensor> dlpack(const Array &array, const DLPackRequest &request) {
  if (!array.is_single_device())
    return unsharded_only("__dlpack__", array);
  const interop::ExportOptions options = to_options(request);
  return with_cuda_retry([&] { return interop::to_dlpack(array, options); }); // ok: lambda-capture
}

// Exports once per consumer of a broadcast (each may ask for another device
// or ABI); all exports share the array's memory.
Result<std::vector<ManagedTensor>>
dlpack_for_each(const Array &array,
                const std::vector<DLPackRequest> &requests) {
  if (!array.is_single_device())
    return unsharded_only("__dlpack__", array);
  std::vector<Result<ManagedTensor>> exports;
  exports.reserve(requests.size());
  std::transform(requests.begin(), requests.end(), std::back_inserter(exports),
                 [&array](const DLPackRequest &request) {
                   return interop::to_dlpack(array, to_options(request)); // ok: lambda-capture
                 });
  std::vector<ManagedTensor> out;
  for (Result<ManagedTensor> &r : exports) {
    if (!r.ok())
      return r.status();
    out.push_back(std::move(*r));
  }
  return out;
}

// A deferred export: the Python layer calls the thunk when the consumer
// actually reads the capsule.
std::function<Result<ManagedTensor>()> deferred_dlpack(Array array,
                                                       DLPackRequest request) {
  if (!array.is_single_device()) {
    Status error = unsharded_only("__dlpack__", array);
    return [error] { return Result<ManagedTensor>(error); };
  }
  return [array, request] { return interop::to_dlpack(array, to_options(request)); }; // ok: lambda-capture
}

// Consumers that cannot take a sharded array get a copy on `host`.
Result<ManagedTensor> export_for_consumer(const Array &array,
                                          const interop::Device &host,
                                          const DLPackRequest &request) {
  const interop::ExportOptions options = to_options(request);
  switch (array.sharding().kind()) {
  case interop::Sharding::Kind::kSingleDevice:
    return interop::to_dlpack(array, options); // ok: switch
  case interop::Sharding::Kind::kReplicated: {
    // Every device holds the whole array: this process's first copy will do.
    ASSIGN_OR_RETURN(Array copy, array.addressable_data(0));
    return interop::to_dlpack(copy, options); // ok: plain
  }
  case interop::Sharding::Kind::kSplit: {
    ASSIGN_OR_RETURN(Array whole, interop::gather(array, host));
    return interop::to_dlpack(whole, options); // ok: plain
  }
  }
  return Status(StatusCode::kInternal, "unknown sharding kind");
}

// The same for consumers that only look at where the data is.
Result<DLDevice> device_for_consumer(const Array &array) {
  switch (array.sharding().kind()) {
  case interop::Sharding::Kind::kSingleDevice:
  case interop::Sharding::Kind::kReplicated:
    // Replicated arrays hold everything on each device, like one device.
    return interop::dlpack_device(array); // expect: interop-sharded-dlpack-export [switch]
  case interop::Sharding::Kind::kSplit:
    return unsharded_only("__dlpack_device__", array);
  }
  return Status(StatusCode::kInternal, "unknown sharding kind");
}

// Exports step outputs as they are produced. Warns about sharded ones, which
// the consumer will have to deal with.
Result<ManagedTensor> export_step_output(const Array &output) {
  switch (output.num_devices()) {
  case 1:
    break;
  default:
    std::fprintf(stderr, "warning: exporting a %zu-device step output\n",
                 output.num_devices());
    break;
  }
  return interop::to_dlpack(output); // expect: interop-sharded-dlpack-export [switch]
}

// A producer of step outputs (the compiled program; defined elsewhere).
class StepRunner {
public:
  Array first_output();
  bool has_more() const;
  Array next_output();
};

// A consumer of exported tensors (the framework side; defined elsewhere).
class Consumer {
public:
  Status accept(ManagedTensor tensor);
};

// Streams a sequence of step outputs to the consumer. The check covers the
// first output; later steps may come back sharded (the lambda reads
// `current` when it runs, not when it was made).
Status stream_outputs(StepRunner &runner, Consumer &consumer) {
  Array current = runner.first_output();
  if (!current.is_single_device())
    return unsharded_only("stream_outputs", current);
  auto send = [&]() -> Status {
    ASSIGN_OR_RETURN(ManagedTensor t, interop::to_dlpack(current)); // expect: interop-sharded-dlpack-export [lambda-capture]
    return consumer.accept(std::move(t));
  };
  while (runner.has_more()) {
    RETURN_IF_ERROR(send());
    current = runner.next_output();
  }
  return send();
}

// Gathers a sharded output for a host consumer, then exports the wrong
// variable from the callback.
Status publish_gathered(const Array &output, const interop::Device &host,
                        Consumer &consumer) {
  ASSIGN_OR_RETURN(Array gathered, interop::gather(output, host));
  auto publish = [&]() -> Status {
    ASSIGN_OR_RETURN(ManagedTensor t, interop::to_dlpack(output)); // expect: interop-sharded-dlpack-export [lambda-capture]
    return consumer.accept(std::move(t));
  };
  std::fprintf(stderr, "publishing %s\n", gathered.to_string().c_str());
  return publish();
}

// The plain spelling, for comparison.
Status publish_checked(const Array &output, Consumer &consumer) {
  if (!output.is_single_device())
    return unsharded_only("publish_checked", output);
  ASSIGN_OR_RETURN(ManagedTensor t, interop::to_dlpack(output)); // ok: plain
  return consumer.accept(std::move(t));
}

} // namespace jaxlike
