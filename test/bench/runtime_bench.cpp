// Runtime benchmarks: DLPack export+release and import per call, heap
// allocations per export and per import, the copy of a strided import, and
// gather bandwidth against memcpy of the same bytes. Results and the command
// line: docs/performance.md.
#include <interop/interop.h>

#include <atomic>
#include <benchmark/benchmark.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>
#include <vector>

#if defined(INTEROP_HAVE_CUDA)
#include <cuda_runtime_api.h>
#endif

// Heap allocation counter: every malloc-family call in the process (operator
// new included, which calls malloc) while armed. glibc's __libc_* entry
// points do the real work.
extern "C" void *__libc_malloc(size_t);
extern "C" void *__libc_calloc(size_t, size_t);
extern "C" void *__libc_memalign(size_t, size_t);

namespace {
std::atomic<bool> g_armed{false};
std::atomic<long> g_allocs{0};
inline void count() {
  if (g_armed.load(std::memory_order_relaxed))
    g_allocs.fetch_add(1, std::memory_order_relaxed);
}
} // namespace

extern "C" void *malloc(size_t n) {
  count();
  return __libc_malloc(n);
}
extern "C" void *calloc(size_t n, size_t m) {
  count();
  return __libc_calloc(n, m);
}
extern "C" void *aligned_alloc(size_t a, size_t n) {
  count();
  return __libc_memalign(a, n);
}
extern "C" int posix_memalign(void **p, size_t a, size_t n) {
  count();
  *p = __libc_memalign(a, n);
  return *p ? 0 : 12; // ENOMEM
}

namespace {

using namespace interop;

struct Armed {
  Armed() {
    g_allocs = 0;
    g_armed = true;
  }
  ~Armed() { g_armed = false; }
};

Array MakeArray(std::vector<int64_t> shape, const Sharding &sharding) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  std::vector<float> v(static_cast<size_t>(n), 1.5f);
  return Array::from_host(v.data(), v.size() * 4, std::move(shape), kFloat32,
                          sharding)
      .value();
}

void Setup4Cpu() {
  static bool done = [] {
    TopologyConfig c;
    c.cpu_devices_per_process = 4;
    c.tpu_devices_per_process = 1;
    if (!configure(c).ok())
      std::abort();
    return true;
  }();
  (void)done;
}

void BM_ExportRelease(benchmark::State &state) {
  Setup4Cpu();
  Array a = MakeArray({64, 64}, Sharding::single_device(local_devices()[0]));
  ExportOptions o;
  o.max_version = {static_cast<uint32_t>(state.range(0)), 0};
  long allocs = 0;
  for (auto _ : state) {
    Armed armed;
    Result<ManagedTensor> m = to_dlpack(a, o);
    benchmark::DoNotOptimize(m.value().tensor().data);
    allocs += g_allocs.load();
  }
  state.counters["allocs_per_export"] =
      static_cast<double>(allocs) / static_cast<double>(state.iterations());
  state.SetLabel(state.range(0) ? "versioned" : "legacy");
}
BENCHMARK(BM_ExportRelease)->Arg(1)->Arg(0);

void BM_ExportReleaseTpuPinnedHost(benchmark::State &state) {
  Setup4Cpu();
  Device tpu = local_devices(Platform::kTpu)[0];
  Array a = MakeArray({64, 64},
                      Sharding::single_device(tpu, MemoryKind::kPinnedHost));
  for (auto _ : state) {
    Result<ManagedTensor> m = to_dlpack(a);
    benchmark::DoNotOptimize(m.value().tensor().data);
  }
}
BENCHMARK(BM_ExportReleaseTpuPinnedHost);

struct NoopProducer {
  DLManagedTensorVersioned managed{};
  int64_t shape[2] = {64, 64};
  std::vector<float> data = std::vector<float>(64 * 64, 2.5f);
  long deletes = 0;
  static void Deleter(DLManagedTensorVersioned *self) {
    ++static_cast<NoopProducer *>(self->manager_ctx)->deletes;
  }
  NoopProducer() {
    managed.version = kDLPackVersion;
    managed.manager_ctx = this;
    managed.deleter = &Deleter;
    DLTensor &t = managed.dl_tensor;
    t.data = data.data();
    dl::set_device_type(t.device, dl::kCPU);
    t.ndim = 2;
    t.dtype = kFloat32;
    t.shape = shape;
    t.strides = nullptr;
  }
};

void BM_ImportZeroCopy(benchmark::State &state) {
  Setup4Cpu();
  Device cpu = local_devices()[0];
  NoopProducer p;
  long allocs = 0;
  for (auto _ : state) {
    Armed armed;
    Result<Array> r = from_dlpack(&p.managed, cpu);
    benchmark::DoNotOptimize(r.ok());
    allocs += g_allocs.load();
  }
  if (p.deletes != static_cast<long>(state.iterations()))
    state.SkipWithError("deleter count mismatch");
  state.counters["allocs_per_import"] =
      static_cast<double>(allocs) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_ImportZeroCopy);

// An import that must copy: a transposed (column-major) float32 square,
// `n` x `n`, repacked into row-major order. Bytes per second of the array.
void BM_ImportTransposedCopy(benchmark::State &state) {
  Setup4Cpu();
  Device cpu = local_devices()[0];
  int64_t n = state.range(0);
  std::vector<float> data(static_cast<size_t>(n * n), 0.5f);
  int64_t shape[2] = {n, n}, strides[2] = {1, n};
  long deletes = 0;
  for (auto _ : state) {
    DLManagedTensorVersioned m{};
    m.version = kDLPackVersion;
    m.manager_ctx = &deletes;
    m.deleter = [](DLManagedTensorVersioned *self) {
      ++*static_cast<long *>(self->manager_ctx);
    };
    m.dl_tensor.data = data.data();
    dl::set_device_type(m.dl_tensor.device, dl::kCPU);
    m.dl_tensor.ndim = 2;
    m.dl_tensor.dtype = kFloat32;
    m.dl_tensor.shape = shape;
    m.dl_tensor.strides = strides;
    Result<Array> r = from_dlpack(&m, cpu);
    benchmark::DoNotOptimize(r.value().unsafe_buffer_pointer().value());
  }
  if (deletes != static_cast<long>(state.iterations()))
    state.SkipWithError("deleter count mismatch");
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * n * n * 4);
}
BENCHMARK(BM_ImportTransposedCopy)
    ->Arg(256)
    ->Arg(1024)
    ->Arg(4096)
    ->UseRealTime();

void BM_RoundTrip(benchmark::State &state) {
  Setup4Cpu();
  Device cpu = local_devices()[0];
  Array a = MakeArray({64, 64}, Sharding::single_device(cpu));
  for (auto _ : state) {
    ManagedTensor m = to_dlpack(a).value();
    Result<Array> r = from_dlpack(m.release_versioned(), cpu);
    benchmark::DoNotOptimize(r.ok());
  }
}
BENCHMARK(BM_RoundTrip);

// Gather of an array split over 4 CPU devices into one fresh array.
void BM_Gather(benchmark::State &state) {
  Setup4Cpu();
  int64_t rows = state.range(0) / (4 * 1024); // 1024 floats per row
  int axis = static_cast<int>(state.range(1));
  std::vector<Device> cpus = local_devices(Platform::kCpu);
  Array a = MakeArray({rows, 1024}, *Sharding::split(cpus, axis));
  for (auto _ : state) {
    Result<Array> g = gather(a, cpus[0]);
    benchmark::DoNotOptimize(g.value().unsafe_buffer_pointer().value());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          state.range(0));
  state.SetLabel(axis == 0 ? "split axis 0" : "split axis 1");
}

// The baselines: memcpy of the same bytes, into a fresh malloc block (what
// gather does) and into a reused one.
void BM_Memcpy(benchmark::State &state) {
  size_t n = static_cast<size_t>(state.range(0));
  bool fresh = state.range(1) != 0;
  std::vector<char> src(n, 1), reused(n);
  for (auto _ : state) {
    char *dst = fresh ? static_cast<char *>(std::malloc(n)) : reused.data();
    std::memcpy(dst, src.data(), n);
    benchmark::DoNotOptimize(dst);
    benchmark::ClobberMemory();
    if (fresh)
      std::free(dst);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(n));
  state.SetLabel(fresh ? "fresh destination" : "reused destination");
}

void SizesGather(benchmark::internal::Benchmark *b) {
  for (int64_t mib : {1, 16, 64})
    for (int64_t axis : {0, 1})
      b->Args({mib << 20, axis});
}
void SizesMemcpy(benchmark::internal::Benchmark *b) {
  for (int64_t mib : {1, 16, 64})
    for (int64_t fresh : {1, 0})
      b->Args({mib << 20, fresh});
}
BENCHMARK(BM_Gather)->Apply(SizesGather)->UseRealTime();
BENCHMARK(BM_Memcpy)->Apply(SizesMemcpy)->UseRealTime();

// ---- scale: memory after 10^6 exchanges and 10^5 gathers ------------------

// The resident set size in KiB, from /proc/self/statm.
double ResidentKiB() {
  FILE *f = std::fopen("/proc/self/statm", "r");
  long size = 0;
  long resident = 0;
  if (!f || std::fscanf(f, "%ld %ld", &size, &resident) != 2)
    resident = 0;
  if (f)
    std::fclose(f);
  return static_cast<double>(resident) *
         static_cast<double>(sysconf(_SC_PAGESIZE)) / 1024.0;
}

// Runs `work(i)` for i in [0, n) once per benchmark iteration, after a warm-up
// of n / 100, and reports the resident size before and after (KiB) and the
// growth, the figures test/runtime/scale_test.cpp bounds.
template <typename F>
void MeasureScale(benchmark::State &state, long n, F work) {
  for (long i = 0; i < n / 100; ++i)
    work(i);
  double before = ResidentKiB();
  for (auto _ : state)
    for (long i = 0; i < n; ++i)
      work(i);
  double after = ResidentKiB();
  state.counters["rss_start_kib"] = before;
  state.counters["rss_end_kib"] = after;
  state.counters["rss_growth_kib"] = after - before;
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * n);
}

// 10^6 cycles: export a (64, 64) float32 array (versioned and legacy in
// turn), import it zero-copy, release both.
void BM_ScaleExportImportCycles(benchmark::State &state) {
  Setup4Cpu();
  std::vector<Device> cpus = local_devices(Platform::kCpu);
  Array a = MakeArray({64, 64}, Sharding::single_device(cpus[0]));
  MeasureScale(state, 1000000, [&](long i) {
    ExportOptions o;
    if (i % 2)
      o.max_version = {0, 0};
    ManagedTensor m = to_dlpack(a, o).value();
    Result<Array> r = m.is_versioned()
                          ? from_dlpack(m.release_versioned(), cpus[i % 4])
                          : from_dlpack(m.release_legacy(), cpus[i % 4]);
    benchmark::DoNotOptimize(r.value().unsafe_buffer_pointer().value());
  });
}
BENCHMARK(BM_ScaleExportImportCycles)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

// 10^5 gathers of a 64 KiB array split along axis 1 over 4 devices.
void BM_ScaleGathers(benchmark::State &state) {
  Setup4Cpu();
  std::vector<Device> cpus = local_devices(Platform::kCpu);
  Array a = MakeArray({64, 256}, *Sharding::split(cpus, 1));
  MeasureScale(state, 100000, [&](long i) {
    Result<Array> g = gather(a, cpus[i % 4]);
    benchmark::DoNotOptimize(g.value().unsafe_buffer_pointer().value());
  });
}
BENCHMARK(BM_ScaleGathers)->Iterations(1)->Unit(benchmark::kMillisecond);

#if defined(INTEROP_HAVE_CUDA)
bool HaveGpu(benchmark::State &state) {
  Setup4Cpu();
  if (local_devices(Platform::kCuda).empty()) {
    state.SkipWithError("no usable GPU");
    return false;
  }
  return true;
}

// Export of CUDA device memory to a consumer stream: an event record on the
// runtime stream plus a cudaStreamWaitEvent, no host blocking.
void BM_ExportReleaseCuda(benchmark::State &state) {
  if (!HaveGpu(state))
    return;
  Device gpu = local_devices(Platform::kCuda)[0];
  Array a = MakeArray({64, 64}, Sharding::single_device(gpu));
  ExportOptions o;
  o.stream = 2; // the per-thread default stream
  for (auto _ : state) {
    Result<ManagedTensor> m = to_dlpack(a, o);
    benchmark::DoNotOptimize(m.value().tensor().data);
  }
  cudaDeviceSynchronize();
}
BENCHMARK(BM_ExportReleaseCuda);

// Gather of 4 CPU shards into GPU memory against one cudaMemcpy of the
// same bytes from pageable host memory into a reused device buffer.
void BM_GatherCpuToCuda(benchmark::State &state) {
  if (!HaveGpu(state))
    return;
  Device gpu = local_devices(Platform::kCuda)[0];
  int64_t rows = state.range(0) / (4 * 1024);
  Array a = MakeArray({rows, 1024},
                      *Sharding::split(local_devices(Platform::kCpu), 0));
  for (auto _ : state) {
    Result<Array> g = gather(a, gpu);
    benchmark::DoNotOptimize(g.value().unsafe_buffer_pointer().value());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          state.range(0));
}
void BM_CudaMemcpyH2D(benchmark::State &state) {
  if (!HaveGpu(state))
    return;
  size_t n = static_cast<size_t>(state.range(0));
  std::vector<char> src(n, 1);
  void *dst = nullptr;
  if (cudaMalloc(&dst, n) != cudaSuccess) {
    state.SkipWithError("cudaMalloc failed");
    return;
  }
  for (auto _ : state)
    cudaMemcpy(dst, src.data(), n, cudaMemcpyHostToDevice);
  cudaFree(dst);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(n));
}
BENCHMARK(BM_GatherCpuToCuda)->Arg(16 << 20)->Arg(64 << 20)->UseRealTime();
BENCHMARK(BM_CudaMemcpyH2D)->Arg(16 << 20)->Arg(64 << 20)->UseRealTime();
#endif

} // namespace

BENCHMARK_MAIN();
