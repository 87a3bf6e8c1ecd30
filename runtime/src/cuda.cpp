// The CUDA backend: device memory, pinned host memory, copies, streams and
// events through the CUDA runtime API (no kernels). Every entry point checks
// availability first, so a machine without a GPU or driver gets a Status,
// never a crash.
#include "internal.h"

#include <string>

#if defined(INTEROP_HAVE_CUDA)
#include <cuda_runtime_api.h>

#include <memory>
#include <mutex>
#include <vector>
#endif

namespace interop {
namespace detail {
namespace cuda {

#if defined(INTEROP_HAVE_CUDA)
namespace {

struct Availability {
  Status status;
  int count = 0;
};

const Availability &availability() {
  static const Availability *a = [] {
    auto *r = new Availability();
    int n = 0;
    cudaError_t err = cudaGetDeviceCount(&n);
    if (err != cudaSuccess) {
      r->status = Status(StatusCode::kRuntimeError,
                         std::string("CUDA is not available: ") +
                             cudaGetErrorString(err));
      cudaGetLastError(); // clear the sticky-free error for later callers
    } else if (n == 0) {
      r->status = Status(StatusCode::kRuntimeError,
                         "CUDA is not available: no CUDA-capable device is "
                         "detected");
    } else {
      r->count = n;
    }
    return r;
  }();
  return *a;
}

Status error(const char *call, cudaError_t err, const std::string &detail) {
  cudaGetLastError();
  StatusCode code = err == cudaErrorMemoryAllocation
                        ? StatusCode::kResourceExhausted
                        : StatusCode::kRuntimeError;
  return Status(code, std::string(call) + " failed (" + detail +
                          "): " + cudaGetErrorString(err));
}

Status check_ordinal(int ordinal) {
  const Availability &a = availability();
  if (!a.status.ok())
    return a.status;
  if (ordinal < 0 || ordinal >= a.count)
    return Status(StatusCode::kRuntimeError,
                  "CUDA device ordinal " + std::to_string(ordinal) +
                      " does not exist (this process has " +
                      std::to_string(a.count) + " CUDA device(s))");
  return Status();
}

// Makes `ordinal` current for the calling thread and restores the previous
// device on scope exit.
class DeviceGuard {
public:
  explicit DeviceGuard(int ordinal) {
    if (cudaGetDevice(&previous_) != cudaSuccess)
      previous_ = -1;
    err_ = cudaSetDevice(ordinal);
  }
  ~DeviceGuard() {
    if (previous_ >= 0)
      cudaSetDevice(previous_);
  }
  cudaError_t error() const { return err_; }

private:
  int previous_ = -1;
  cudaError_t err_;
};

// Per-device runtime stream and the events used to order other streams.
struct DeviceState {
  std::mutex mu;
  bool ready = false;
  cudaStream_t stream = nullptr;
  cudaEvent_t export_event = nullptr;
  cudaEvent_t import_event = nullptr;
};

std::vector<std::unique_ptr<DeviceState>> &states() {
  static auto *v = [] {
    auto *r = new std::vector<std::unique_ptr<DeviceState>>();
    for (int i = 0; i < availability().count; ++i)
      r->push_back(std::make_unique<DeviceState>());
    return r;
  }();
  return *v;
}

// The state of a valid ordinal, created on first use. Caller holds st.mu.
Status ensure_ready(int ordinal, DeviceState &st) {
  if (st.ready)
    return Status();
  DeviceGuard guard(ordinal);
  if (guard.error() != cudaSuccess)
    return error("cudaSetDevice", guard.error(),
                 "ordinal " + std::to_string(ordinal));
  cudaError_t err =
      cudaStreamCreateWithFlags(&st.stream, cudaStreamNonBlocking);
  if (err != cudaSuccess)
    return error("cudaStreamCreateWithFlags", err,
                 "ordinal " + std::to_string(ordinal));
  err = cudaEventCreateWithFlags(&st.export_event, cudaEventDisableTiming);
  if (err == cudaSuccess)
    err = cudaEventCreateWithFlags(&st.import_event, cudaEventDisableTiming);
  if (err != cudaSuccess)
    return error("cudaEventCreateWithFlags", err,
                 "ordinal " + std::to_string(ordinal));
  st.ready = true;
  return Status();
}

// Resolves a DLPack stream value (1, 2 or a handle; validated by callers).
cudaStream_t stream_from_value(intptr_t value) {
  if (value == 1)
    return cudaStreamLegacy;
  if (value == 2)
    return cudaStreamPerThread;
  // A stream handle reaches DLPack as an integer: there is no pointer to
  // keep. NOLINTNEXTLINE(performance-no-int-to-ptr)
  return reinterpret_cast<cudaStream_t>(value);
}

} // namespace

Status available() { return availability().status; }
int device_count() { return availability().count; }

Result<void *> malloc_device(int ordinal, size_t nbytes) {
  if (Status s = check_ordinal(ordinal); !s.ok())
    return s;
  DeviceGuard guard(ordinal);
  void *p = nullptr;
  cudaError_t err = cudaMalloc(&p, nbytes);
  if (err != cudaSuccess)
    return error("cudaMalloc", err,
                 std::to_string(nbytes) + " bytes on ordinal " +
                     std::to_string(ordinal));
  return p;
}

void free_device(int ordinal, void *ptr) noexcept {
  if (!ptr)
    return;
  DeviceGuard guard(ordinal);
  cudaFree(ptr); // synchronises with pending work that may read ptr
}

Result<void *> malloc_host(size_t nbytes) {
  if (Status s = available(); !s.ok())
    return s;
  void *p = nullptr;
  cudaError_t err = cudaHostAlloc(&p, nbytes, cudaHostAllocPortable);
  if (err != cudaSuccess)
    return error("cudaHostAlloc", err, std::to_string(nbytes) + " bytes");
  return p;
}

void free_host(void *ptr) noexcept {
  if (ptr)
    cudaFreeHost(ptr);
}

Status copy_2d(int ordinal, void *dst, size_t dst_pitch, const void *src,
               size_t src_pitch, size_t width, size_t height, bool wait) {
  if (Status s = check_ordinal(ordinal); !s.ok())
    return s;
  if (width == 0 || height == 0)
    return Status();
  DeviceState &st = *states()[ordinal];
  std::lock_guard<std::mutex> lock(st.mu);
  if (Status s = ensure_ready(ordinal, st); !s.ok())
    return s;
  DeviceGuard guard(ordinal);
  cudaError_t err =
      height == 1
          ? cudaMemcpyAsync(dst, src, width, cudaMemcpyDefault, st.stream)
          : cudaMemcpy2DAsync(dst, dst_pitch, src, src_pitch, width, height,
                              cudaMemcpyDefault, st.stream);
  if (err != cudaSuccess)
    return error(height == 1 ? "cudaMemcpyAsync" : "cudaMemcpy2DAsync", err,
                 std::to_string(width) + " x " + std::to_string(height) +
                     " bytes on ordinal " + std::to_string(ordinal));
  if (wait) {
    err = cudaStreamSynchronize(st.stream);
    if (err != cudaSuccess)
      return error("cudaStreamSynchronize", err,
                   "ordinal " + std::to_string(ordinal));
  }
  return Status();
}

Status order_consumer_after_runtime(int ordinal, intptr_t consumer_stream) {
  if (Status s = check_ordinal(ordinal); !s.ok())
    return s;
  DeviceState &st = *states()[ordinal];
  std::lock_guard<std::mutex> lock(st.mu);
  if (Status s = ensure_ready(ordinal, st); !s.ok())
    return s;
  DeviceGuard guard(ordinal);
  cudaError_t err = cudaEventRecord(st.export_event, st.stream);
  if (err != cudaSuccess)
    return error("cudaEventRecord", err,
                 "runtime stream of ordinal " + std::to_string(ordinal));
  // The wait captures the event's current state, so the event can be
  // re-recorded by the next export right away.
  err = cudaStreamWaitEvent(stream_from_value(consumer_stream), st.export_event,
                            0);
  if (err != cudaSuccess)
    return error("cudaStreamWaitEvent", err,
                 "consumer stream " + std::to_string(consumer_stream));
  return Status();
}

Status order_runtime_after_producer(int ordinal, intptr_t producer_stream) {
  if (Status s = check_ordinal(ordinal); !s.ok())
    return s;
  DeviceState &st = *states()[ordinal];
  std::lock_guard<std::mutex> lock(st.mu);
  if (Status s = ensure_ready(ordinal, st); !s.ok())
    return s;
  cudaStream_t producer = stream_from_value(producer_stream);
  // A consumer that passed the runtime's own stream (dlpack_consumer_stream)
  // had the producer order it already.
  if (producer == st.stream)
    return Status();
  DeviceGuard guard(ordinal);
  cudaError_t err = cudaEventRecord(st.import_event, producer);
  if (err != cudaSuccess)
    return error("cudaEventRecord", err,
                 "producer stream " + std::to_string(producer_stream));
  err = cudaStreamWaitEvent(st.stream, st.import_event, 0);
  if (err != cudaSuccess)
    return error("cudaStreamWaitEvent", err,
                 "runtime stream of ordinal " + std::to_string(ordinal));
  return Status();
}

Result<intptr_t> runtime_stream(int ordinal) {
  if (Status s = check_ordinal(ordinal); !s.ok())
    return s;
  DeviceState &st = *states()[ordinal];
  std::lock_guard<std::mutex> lock(st.mu);
  if (Status s = ensure_ready(ordinal, st); !s.ok())
    return s;
  return reinterpret_cast<intptr_t>(st.stream);
}

Status wait_for_stream(intptr_t stream) {
  if (Status s = available(); !s.ok())
    return s;
  cudaError_t err = cudaStreamSynchronize(stream_from_value(stream));
  if (err != cudaSuccess)
    return error("cudaStreamSynchronize", err,
                 "stream " + std::to_string(stream));
  return Status();
}

Result<DLDevice> pointer_device(const void *ptr) {
  if (Status s = available(); !s.ok())
    return s;
  cudaPointerAttributes attributes{};
  cudaError_t err = cudaPointerGetAttributes(&attributes, ptr);
  if (err != cudaSuccess)
    return error("cudaPointerGetAttributes", err,
                 "pointer " + pointer_text(ptr));
  switch (attributes.type) {
  case cudaMemoryTypeDevice:
    return DLDevice{static_cast<DLDeviceType>(dl::kCUDA), attributes.device};
  case cudaMemoryTypeManaged:
    return DLDevice{static_cast<DLDeviceType>(dl::kCUDAManaged),
                    attributes.device};
  case cudaMemoryTypeHost:
    return DLDevice{static_cast<DLDeviceType>(dl::kCUDAHost),
                    attributes.device};
  default:
    return Status(StatusCode::kValueError,
                  "pointer " + pointer_text(ptr) +
                      " is not CUDA memory (neither device, managed nor "
                      "registered host memory)");
  }
}

#else // !INTEROP_HAVE_CUDA

namespace {
Status unavailable() {
  return Status(StatusCode::kRuntimeError,
                "CUDA is not available: interop_shim was built without the "
                "CUDA toolkit");
}
} // namespace

Status available() { return unavailable(); }
int device_count() { return 0; }
Result<void *> malloc_device(int, size_t) { return unavailable(); }
void free_device(int, void *) noexcept {}
Result<void *> malloc_host(size_t) { return unavailable(); }
void free_host(void *) noexcept {}
Status copy_2d(int, void *, size_t, const void *, size_t, size_t, size_t,
               bool) {
  return unavailable();
}
Status order_consumer_after_runtime(int, intptr_t) { return unavailable(); }
Status order_runtime_after_producer(int, intptr_t) { return unavailable(); }
Result<intptr_t> runtime_stream(int) { return unavailable(); }
Status wait_for_stream(intptr_t) { return unavailable(); }
Result<DLDevice> pointer_device(const void *) { return unavailable(); }

#endif // INTEROP_HAVE_CUDA

} // namespace cuda
} // namespace detail
} // namespace interop
