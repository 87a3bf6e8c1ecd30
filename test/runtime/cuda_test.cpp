// The CUDA backend against real device memory, streams and events. Every
// test skips cleanly when cudaGetDeviceCount finds no usable GPU.
#include "test_util.h"

#if defined(INTEROP_HAVE_CUDA)
#include <cuda_runtime_api.h>

#include <chrono>
#include <memory>
#include <thread>

namespace itest {
namespace {

bool GpuPresent() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return n > 0;
}

class CudaTest : public RuntimeTest {
protected:
  void SetUp() override {
    RuntimeTest::SetUp();
    if (!GpuPresent())
      GTEST_SKIP() << "no usable GPU (cudaGetDeviceCount failed or found 0)";
    gpu_ = local_devices(Platform::kCuda).at(0);
  }
  Array GpuArray(const std::vector<float> &v, std::vector<int64_t> shape,
                 MemoryKind kind = MemoryKind::kDevice) {
    return HostArray(v, std::move(shape), Sharding::single_device(gpu_, kind));
  }
  static cudaMemoryType TypeOf(const void *p) {
    cudaPointerAttributes attr{};
    EXPECT_EQ(cudaPointerGetAttributes(&attr, p), cudaSuccess);
    return attr.type;
  }
  static std::vector<float> ReadDevice(const void *p, size_t n) {
    std::vector<float> out(n);
    EXPECT_EQ(cudaMemcpy(out.data(), p, n * 4, cudaMemcpyDefault), cudaSuccess);
    return out;
  }
  Device gpu_ = local_devices()[0];
};

// A producer whose data lives in cudaMalloc memory; the deleter cudaFrees it.
struct CudaProducer {
  DLManagedTensorVersioned managed{};
  std::vector<int64_t> shape, strides;
  void *dev = nullptr;
  int deletes = 0;
  static void Deleter(DLManagedTensorVersioned *self) {
    auto *p = static_cast<CudaProducer *>(self->manager_ctx);
    ++p->deletes;
    cudaFree(p->dev);
    p->dev = nullptr;
  }
  CudaProducer(std::vector<int64_t> s, std::vector<int64_t> st,
               const std::vector<float> &block, size_t first = 0,
               cudaStream_t stream = nullptr)
      : shape(std::move(s)), strides(std::move(st)) {
    EXPECT_EQ(cudaMalloc(&dev, block.size() * 4), cudaSuccess);
    if (stream) {
      EXPECT_EQ(cudaMemcpyAsync(dev, block.data(), block.size() * 4,
                                cudaMemcpyHostToDevice, stream),
                cudaSuccess);
    } else {
      EXPECT_EQ(cudaMemcpy(dev, block.data(), block.size() * 4,
                           cudaMemcpyHostToDevice),
                cudaSuccess);
    }
    managed.version = kDLPackVersion;
    managed.manager_ctx = this;
    managed.deleter = &Deleter;
    DLTensor &t = managed.dl_tensor;
    t.data = static_cast<char *>(dev) + 4 * first;
    t.device = MakeDLDevice(dl::kCUDA, 0);
    t.ndim = static_cast<int32_t>(shape.size());
    t.dtype = kFloat32;
    t.shape = shape.data();
    t.strides = strides.empty() ? nullptr : strides.data();
  }
};

TEST_F(CudaTest, DeviceArraysLiveInDeviceMemory) {
  Array a = GpuArray(Iota(1024), {32, 32});
  EXPECT_EQ(a.platform(), Platform::kCuda);
  uintptr_t p = *a.unsafe_buffer_pointer();
  EXPECT_EQ(TypeOf(reinterpret_cast<void *>(p)), cudaMemoryTypeDevice);
  EXPECT_EQ(ReadDevice(reinterpret_cast<void *>(p), 1024), Iota(1024));
  EXPECT_EQ(ToHost(a), Iota(1024));
  Array pinned = GpuArray(Iota(8), {8}, MemoryKind::kPinnedHost);
  EXPECT_EQ(TypeOf(reinterpret_cast<void *>(*pinned.unsafe_buffer_pointer())),
            cudaMemoryTypeHost);
}

TEST_F(CudaTest, ExportDeviceMemoryWithConsumerStream) {
  Array a = GpuArray(Iota(1 << 20), {1 << 20});
  Result<DLDevice> dev = dlpack_device(a);
  ASSERT_TRUE(dev.ok());
  EXPECT_EQ(dl::device_type_of(*dev), dl::kCUDA);
  EXPECT_EQ(dev->device_id, gpu_.local_hardware_id());
  cudaStream_t consumer;
  ASSERT_EQ(cudaStreamCreateWithFlags(&consumer, cudaStreamNonBlocking),
            cudaSuccess);
  ExportOptions o;
  o.stream = reinterpret_cast<intptr_t>(consumer);
  Result<ManagedTensor> m = to_dlpack(a, o);
  ASSERT_TRUE(m.ok()) << m.status().to_string();
  EXPECT_EQ(m->tensor().data,
            reinterpret_cast<void *>(*a.unsafe_buffer_pointer()));
  // The consumer reads on its own stream, ordered by the event wait.
  std::vector<float> out(1 << 20);
  ASSERT_EQ(cudaMemcpyAsync(out.data(), m->tensor().data, out.size() * 4,
                            cudaMemcpyDeviceToHost, consumer),
            cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(consumer), cudaSuccess);
  EXPECT_EQ(out, Iota(1 << 20));
  for (intptr_t s : {intptr_t{1}, intptr_t{2}, intptr_t{-1}}) {
    o.stream = s;
    EXPECT_TRUE(to_dlpack(a, o).ok()) << s;
  }
  o.stream.reset(); // None: the legacy default stream
  EXPECT_TRUE(to_dlpack(a, o).ok());
  o.stream = 0;
  EXPECT_STATUS(to_dlpack(a, o).status(), StatusCode::kValueError,
                "stream=0 is ambiguous and not allowed by the DLPack "
                "protocol; use 1 for the legacy default stream, 2 for the "
                "per-thread default stream, or -1 for no synchronisation");
  o.stream = -7;
  EXPECT_STATUS(to_dlpack(a, o).status(), StatusCode::kValueError,
                "stream must be -1, 1, 2 or a CUDA stream handle, got -7");
  cudaStreamDestroy(consumer);
}

TEST_F(CudaTest, ExportToCpuCopies) {
  Array a = GpuArray(Iota(64), {8, 8});
  ExportOptions o;
  o.dl_device = MakeDLDevice(dl::kCPU, 0);
  o.copy = CopyMode::kNever;
  EXPECT_STATUS(to_dlpack(a, o).status(), StatusCode::kValueError,
                "Specified device=CpuDevice(id=0) which requires a copy since "
                "the source device is " +
                    gpu_.to_string() +
                    ", however copy=False. Set copy=True or copy=None to "
                    "perform the requested operation.");
  o.copy = CopyMode::kIfNeeded;
  o.stream = 5;
  EXPECT_EQ(to_dlpack(a, o).status().code(), StatusCode::kBufferError)
      << "a host-memory export takes no stream";
  o.stream.reset();
  Result<ManagedTensor> m = to_dlpack(a, o);
  ASSERT_TRUE(m.ok()) << m.status().to_string();
  EXPECT_EQ(dl::device_type_of(m->tensor().device), dl::kCPU);
  EXPECT_EQ(m->flags(), dl::kFlagIsCopied);
  const float *host = static_cast<const float *>(m->tensor().data);
  EXPECT_EQ(std::vector<float>(host, host + 64), Iota(64));
}

TEST_F(CudaTest, CopyAlwaysOnDevice) {
  Array a = GpuArray(Iota(16), {16});
  ExportOptions o;
  o.copy = CopyMode::kAlways;
  Result<ManagedTensor> m = to_dlpack(a, o);
  ASSERT_TRUE(m.ok());
  EXPECT_NE(m->tensor().data,
            reinterpret_cast<void *>(*a.unsafe_buffer_pointer()));
  EXPECT_EQ(TypeOf(m->tensor().data), cudaMemoryTypeDevice);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(ReadDevice(m->tensor().data, 16), Iota(16));
}

TEST_F(CudaTest, PinnedHostExportsAsCUDAHost) {
  Array a = GpuArray(Iota(4), {4}, MemoryKind::kPinnedHost);
  Result<ManagedTensor> m = to_dlpack(a);
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(dl::device_type_of(m->tensor().device), dl::kCUDAHost);
  ExportOptions o;
  o.dl_device = MakeDLDevice(dl::kCPU, 0);
  o.copy = CopyMode::kNever;
  Result<ManagedTensor> cpu = to_dlpack(a, o);
  ASSERT_TRUE(cpu.ok()) << cpu.status().to_string();
  EXPECT_EQ(cpu->tensor().data,
            reinterpret_cast<void *>(*a.unsafe_buffer_pointer()));
  // A CPU array asked for on the GPU is copied there.
  Array host = HostArray(
      Iota(4), {4}, Sharding::single_device(local_devices(Platform::kCpu)[0]));
  ExportOptions to_gpu;
  to_gpu.dl_device = MakeDLDevice(dl::kCUDA, gpu_.local_hardware_id());
  Result<ManagedTensor> g = to_dlpack(host, to_gpu);
  ASSERT_TRUE(g.ok()) << g.status().to_string();
  EXPECT_EQ(TypeOf(g->tensor().data), cudaMemoryTypeDevice);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(ReadDevice(g->tensor().data, 4), Iota(4));
}

TEST_F(CudaTest, ImportDeviceMemoryZeroCopy) {
  CudaProducer p({4, 4}, {}, Iota(16));
  {
    Result<Array> r = from_dlpack(&p.managed, gpu_);
    ASSERT_TRUE(r.ok()) << r.status().to_string();
    EXPECT_EQ(*r->unsafe_buffer_pointer(), reinterpret_cast<uintptr_t>(p.dev));
    EXPECT_EQ(ToHost(*r), Iota(16));
    EXPECT_EQ(p.deletes, 0);
  }
  EXPECT_EQ(p.deletes, 1);
}

TEST_F(CudaTest, ImportWithProducerStream) {
  cudaStream_t producer;
  ASSERT_EQ(cudaStreamCreateWithFlags(&producer, cudaStreamNonBlocking),
            cudaSuccess);
  std::vector<float> big = Iota(1 << 22);
  CudaProducer p({1 << 22}, {}, big, 0, producer);
  ImportOptions o;
  o.stream = reinterpret_cast<intptr_t>(producer);
  o.copy = CopyMode::kAlways; // the copy must follow the producer's work
  Result<Array> r = from_dlpack(&p.managed, gpu_, o);
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  EXPECT_EQ(p.deletes, 1);
  EXPECT_EQ(ToHost(*r), big);
  cudaStreamDestroy(producer);
}

// The producer's side of the handshake without kernels: a host function
// that sleeps holds `stream` back, then a memset writes `bytes` of `dev`.
// Whoever reads `dev` without following `stream` sees the old bytes.
void DelayedMemset(cudaStream_t stream, void *dev, int value, size_t bytes) {
  ASSERT_EQ(cudaLaunchHostFunc(
                stream,
                [](void *) {
                  std::this_thread::sleep_for(std::chrono::milliseconds(20));
                },
                nullptr),
            cudaSuccess);
  ASSERT_EQ(cudaMemsetAsync(dev, value, bytes, stream), cudaSuccess);
}

std::vector<uint8_t> Bytes(const Array &a) {
  std::vector<uint8_t> out(a.nbytes());
  Status s = a.copy_to_host(out.data(), out.size());
  EXPECT_TRUE(s.ok()) << s.to_string();
  return out;
}

TEST_F(CudaTest, ImportFollowsTheProducersPendingWork) {
  constexpr size_t kBytes = 1 << 20;
  cudaStream_t producer;
  ASSERT_EQ(cudaStreamCreateWithFlags(&producer, cudaStreamNonBlocking),
            cudaSuccess);
  for (int round = 0; round < 20; ++round) {
    CudaProducer p({static_cast<int64_t>(kBytes / 4)}, {},
                   std::vector<float>(kBytes / 4, 0.0f));
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    DelayedMemset(producer, p.dev, round + 1, kBytes);
    ImportOptions o;
    o.stream = reinterpret_cast<intptr_t>(producer);
    // Onto the CPU: the copy is queued on the runtime stream, which must
    // wait for the memset.
    Result<Array> r =
        from_dlpack(&p.managed, local_devices(Platform::kCpu)[0], o);
    ASSERT_TRUE(r.ok()) << r.status().to_string();
    EXPECT_EQ(Bytes(*r), std::vector<uint8_t>(kBytes, uint8_t(round + 1)))
        << "round " << round;
  }
  cudaStreamDestroy(producer);
}

TEST_F(CudaTest, ConsumerStreamIsTheRuntimesOwn) {
  Result<std::optional<intptr_t>> s =
      dlpack_consumer_stream(MakeDLDevice(dl::kCUDA, gpu_.local_hardware_id()));
  ASSERT_TRUE(s.ok()) << s.status().to_string();
  ASSERT_TRUE(s->has_value());
  for (intptr_t reserved : {-1, 0, 1, 2})
    EXPECT_NE(**s, reserved);
  Array a = GpuArray(Iota(4), {4});
  EXPECT_EQ(cuda_array_interface(a)->stream, **s);
  Result<std::optional<intptr_t>> pinned = dlpack_consumer_stream(
      MakeDLDevice(dl::kCUDAHost, gpu_.local_hardware_id()));
  ASSERT_TRUE(pinned.ok());
  EXPECT_FALSE(pinned->has_value()) << "host memory takes no stream";

  // What a producer given that stream does (torch's __dlpack__): record an
  // event after its pending work and make the consumer's stream wait on it.
  constexpr size_t kBytes = 1 << 20;
  cudaStream_t producer;
  cudaEvent_t done;
  ASSERT_EQ(cudaStreamCreateWithFlags(&producer, cudaStreamNonBlocking),
            cudaSuccess);
  ASSERT_EQ(cudaEventCreateWithFlags(&done, cudaEventDisableTiming),
            cudaSuccess);
  for (int round = 0; round < 20; ++round) {
    CudaProducer p({static_cast<int64_t>(kBytes / 4)}, {},
                   std::vector<float>(kBytes / 4, 0.0f));
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    DelayedMemset(producer, p.dev, round + 1, kBytes);
    ASSERT_EQ(cudaEventRecord(done, producer), cudaSuccess);
    ASSERT_EQ(cudaStreamWaitEvent(reinterpret_cast<cudaStream_t>(**s), done, 0),
              cudaSuccess);
    ImportOptions o;
    o.stream = **s;
    Result<Array> r = from_dlpack(&p.managed, gpu_, o); // zero-copy
    ASSERT_TRUE(r.ok()) << r.status().to_string();
    EXPECT_EQ(*r->unsafe_buffer_pointer(), reinterpret_cast<uintptr_t>(p.dev));
    EXPECT_EQ(Bytes(*r), std::vector<uint8_t>(kBytes, uint8_t(round + 1)))
        << "round " << round;
  }
  cudaEventDestroy(done);
  cudaStreamDestroy(producer);
}

TEST_F(CudaTest, CudaArrayInterfaceImportFollowsItsStream) {
  constexpr size_t kBytes = 1 << 20;
  cudaStream_t producer;
  ASSERT_EQ(cudaStreamCreateWithFlags(&producer, cudaStreamNonBlocking),
            cudaSuccess);
  void *dev = nullptr;
  ASSERT_EQ(cudaMalloc(&dev, kBytes), cudaSuccess);
  int releases = 0;
  for (int round = 0; round < 20; ++round) {
    ASSERT_EQ(cudaMemset(dev, 0, kBytes), cudaSuccess);
    DelayedMemset(producer, dev, round + 1, kBytes);
    CudaArrayInterface cai;
    cai.shape = {static_cast<int64_t>(kBytes)};
    cai.typestr = "|u1";
    cai.data = reinterpret_cast<uintptr_t>(dev);
    cai.version = 3;
    cai.stream = reinterpret_cast<intptr_t>(producer);
    std::shared_ptr<const void> owner(&releases, [](const void *p) {
      ++*static_cast<int *>(const_cast<void *>(p));
    });
    {
      Result<Array> r = from_cuda_array_interface(cai, std::move(owner));
      ASSERT_TRUE(r.ok()) << r.status().to_string();
      EXPECT_EQ(r->platform(), Platform::kCuda);
      EXPECT_EQ(*r->unsafe_buffer_pointer(), cai.data) << "zero-copy";
      EXPECT_EQ(Bytes(*r), std::vector<uint8_t>(kBytes, uint8_t(round + 1)))
          << "round " << round;
      EXPECT_EQ(releases, round) << "kept alive while viewed";
    }
    EXPECT_EQ(releases, round + 1);
  }
  // Byte strides: a column of a row-major 4 x 2 float matrix, copied.
  std::vector<float> m = {0, 1, 2, 3, 4, 5, 6, 7};
  ASSERT_EQ(cudaMemcpy(dev, m.data(), 32, cudaMemcpyHostToDevice), cudaSuccess);
  CudaArrayInterface column;
  column.shape = {4};
  column.strides = {8};
  column.typestr = "<f4";
  column.data = reinterpret_cast<uintptr_t>(dev) + 4;
  column.version = 2;
  Result<Array> c = from_cuda_array_interface(column, nullptr);
  ASSERT_TRUE(c.ok()) << c.status().to_string();
  EXPECT_EQ(ToHost(*c), (std::vector<float>{1, 3, 5, 7}));
  // Host memory is not CUDA memory.
  std::vector<float> host(4);
  column.data = reinterpret_cast<uintptr_t>(host.data());
  EXPECT_EQ(from_cuda_array_interface(column, nullptr).status().code(),
            StatusCode::kValueError);
  cudaFree(dev);
  cudaStreamDestroy(producer);
}

TEST_F(CudaTest, ImportDeviceMemoryOntoCpuAndStrided) {
  CudaProducer p({2, 3}, {1, 2}, Iota(6)); // column-major
  Result<Array> r = from_dlpack(&p.managed, local_devices(Platform::kCpu)[0]);
  ASSERT_TRUE(r.ok()) << r.status().to_string();
  EXPECT_EQ(p.deletes, 1);
  EXPECT_EQ(ToHost(*r), (std::vector<float>{0, 2, 4, 1, 3, 5}));
  CudaProducer n({4}, {-1}, Iota(4), 3); // reversed, stays on the GPU
  Result<Array> rev = from_dlpack(&n.managed, gpu_);
  ASSERT_TRUE(rev.ok()) << rev.status().to_string();
  EXPECT_EQ(rev->platform(), Platform::kCuda);
  EXPECT_EQ(ToHost(*rev), (std::vector<float>{3, 2, 1, 0}));
  CudaProducer z({2}, {}, Iota(2));
  ImportOptions o;
  o.stream = 0;
  Result<Array> bad = from_dlpack(&z.managed, gpu_, o);
  EXPECT_EQ(bad.status().code(), StatusCode::kValueError);
  EXPECT_EQ(z.deletes, 1);
}

TEST_F(CudaTest, CudaArrayInterface) {
  Array a = GpuArray(Iota(6), {2, 3});
  Result<CudaArrayInterface> cai = cuda_array_interface(a);
  ASSERT_TRUE(cai.ok()) << cai.status().to_string();
  EXPECT_EQ(cai->shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(cai->typestr, "<f4");
  EXPECT_EQ(cai->data, *a.unsafe_buffer_pointer());
  EXPECT_FALSE(cai->read_only);
  EXPECT_EQ(cai->version, 3);
  EXPECT_TRUE(cai->strides.empty());
  ASSERT_TRUE(cai->stream.has_value());
  EXPECT_NE(*cai->stream, 0);
  std::vector<uint16_t> bf(4, 0x3f80);
  Result<Array> b = Array::from_host(bf.data(), 8, {4}, kBFloat16,
                                     Sharding::single_device(gpu_));
  ASSERT_TRUE(b.ok());
  EXPECT_STATUS(cuda_array_interface(*b).status(), StatusCode::kAttributeError,
                "__cuda_array_interface__ is not supported for BF16 buffers.");
  Array pinned = GpuArray(Iota(2), {2}, MemoryKind::kPinnedHost);
  EXPECT_STATUS(cuda_array_interface(pinned).status(),
                StatusCode::kAttributeError,
                "__cuda_array_interface__ is only defined for NVidia GPU "
                "buffers.");
}

TEST_F(CudaTest, GatherCpuShardsOntoGpu) {
  reset_for_testing();
  Configure(4, 0, 1, 0, /*cuda=*/-1);
  std::vector<Device> cpus = local_devices(Platform::kCpu);
  Device gpu = local_devices(Platform::kCuda).at(0);
  Array a = HostArray(Iota(4 * 64), {4, 64}, *Sharding::split(cpus, 1));
  Result<Array> g = gather(a, gpu);
  ASSERT_TRUE(g.ok()) << g.status().to_string();
  EXPECT_EQ(g->platform(), Platform::kCuda);
  EXPECT_EQ(ToHost(*g), Iota(4 * 64));
  // And back: GPU shards (replicated over one GPU) onto the CPU.
  Result<Array> back = gather(*g, cpus[0]);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(ToHost(*back), Iota(4 * 64));
}

TEST_F(CudaTest, TpuPinnedHostUsesCudaHostAlloc) {
  reset_for_testing();
  Configure(1, 1, 1, 0, /*cuda=*/-1);
  Device tpu = local_devices(Platform::kTpu)[0];
  Array a = HostArray(Iota(4), {4},
                      Sharding::single_device(tpu, MemoryKind::kPinnedHost));
  EXPECT_EQ(TypeOf(reinterpret_cast<void *>(*a.unsafe_buffer_pointer())),
            cudaMemoryTypeHost);
}

TEST_F(CudaTest, ConfigureMoreGpusThanPresent) {
  reset_for_testing();
  int n = 0;
  ASSERT_EQ(cudaGetDeviceCount(&n), cudaSuccess);
  TopologyConfig c;
  c.cuda_devices_per_process = n + 1;
  EXPECT_STATUS(configure(c), StatusCode::kRuntimeError,
                "cuda_devices_per_process=" + std::to_string(n + 1) +
                    " was requested but this process has " + std::to_string(n) +
                    " CUDA device(s)");
}

} // namespace
} // namespace itest

#else // !INTEROP_HAVE_CUDA

TEST(CudaTest, BuiltWithoutCuda) {
  GTEST_SKIP() << "interop_shim was built without the CUDA toolkit";
}

#endif
