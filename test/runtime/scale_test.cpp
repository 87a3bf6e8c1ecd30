// Scale: 10^6 DLPack export/import cycles and 10^5 gathers at constant
// memory. The resident set size is read at the start and at the end; the
// bound is generous (a few MiB), far below what one leaked export block,
// shape vector or gather buffer per call would add (100 MiB to 6 GiB). The
// exact figures are the benchmark's (runtime_bench's BM_Scale*, see
// docs/performance.md).
#include "test_util.h"

#include <cstdio>
#include <unistd.h>

namespace itest {
namespace {

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define INTEROP_TEST_SANITIZED 1
#endif
#endif
#if defined(INTEROP_TEST_SANITIZED)
// Sanitizer allocators keep freed memory (ASan's quarantine, TSan's shadow),
// so the resident size says nothing about leaks there; LeakSanitizer and the
// deleter counts do. A tenth of the work keeps the suites quick.
constexpr bool kMeasureResidentSize = false;
constexpr long kScaleDivisor = 10;
#else
constexpr bool kMeasureResidentSize = true;
constexpr long kScaleDivisor = 1;
#endif
constexpr long kCycles = 1000000 / kScaleDivisor;
constexpr long kGathers = 100000 / kScaleDivisor;
constexpr long kMaxGrowthBytes = 8L << 20;

// The resident set size, from /proc/self/statm.
long ResidentBytes() {
  FILE *f = std::fopen("/proc/self/statm", "r");
  if (!f)
    return -1;
  long size = 0;
  long resident = -1;
  if (std::fscanf(f, "%ld %ld", &size, &resident) != 2)
    resident = -1;
  std::fclose(f);
  return resident < 0 ? -1 : resident * sysconf(_SC_PAGESIZE);
}

using ScaleTest = RuntimeTest;

// One export of `a` and its zero-copy import onto `device`, released.
bool Cycle(const Array &a, const Device &device, bool legacy) {
  ExportOptions options;
  if (legacy)
    options.max_version = DLPackVersion{0, 0};
  Result<ManagedTensor> tensor = to_dlpack(a, options);
  if (!tensor.ok())
    return false;
  Result<Array> view = legacy
                           ? from_dlpack(tensor->release_legacy(), device)
                           : from_dlpack(tensor->release_versioned(), device);
  return view.ok() && view->shape() == a.shape();
}

TEST_F(ScaleTest, AMillionExportImportCyclesAtConstantMemory) {
  Configure(2);
  std::vector<Device> cpus = local_devices();
  // The exported array is itself a zero-copy view of a counting producer:
  // a million exports and imports later its deleter has run exactly once.
  VProducer producer;
  FillProducer(producer, {64, 64}, {}, 4096);
  {
    Result<Array> a = from_dlpack(producer.get(), cpus[0]);
    ASSERT_TRUE(a.ok()) << a.status().to_string();
    for (long i = 0; i < 10000; ++i) // the allocator's pools settle
      ASSERT_TRUE(Cycle(*a, cpus[i % 2], i % 2 == 1));
    long before = ResidentBytes();
    long failed = 0;
    for (long i = 0; i < kCycles; ++i)
      failed += Cycle(*a, cpus[i % 2], i % 2 == 1) ? 0 : 1;
    long after = ResidentBytes();
    EXPECT_EQ(failed, 0);
    EXPECT_EQ(ToHost(*a), Iota(4096));
    std::printf("%ld export/import cycles: resident %ld -> %ld bytes\n",
                kCycles, before, after);
    if (kMeasureResidentSize) {
      ASSERT_GT(before, 0);
      EXPECT_LT(after - before, kMaxGrowthBytes);
    }
    EXPECT_EQ(producer.deletes, 0);
  }
  EXPECT_EQ(producer.deletes, 1);
}

TEST_F(ScaleTest, AHundredThousandGathersAtConstantMemory) {
  Configure(4);
  std::vector<Device> cpus = local_devices();
  // 64 KiB split along axis 1: each gathered row comes from four pieces.
  std::vector<float> values = Iota(64 * 256);
  Array split = HostArray(values, {64, 256}, *Sharding::split(cpus, 1));
  for (long i = 0; i < 1000; ++i)
    ASSERT_TRUE(gather(split, cpus[i % 4]).ok());
  long before = ResidentBytes();
  long failed = 0;
  for (long i = 0; i < kGathers; ++i) {
    Result<Array> g = gather(split, cpus[i % 4]);
    if (!g.ok() || (i % 10000 == 0 && ToHost(*g) != values))
      ++failed;
  }
  long after = ResidentBytes();
  EXPECT_EQ(failed, 0);
  std::printf("%ld gathers: resident %ld -> %ld bytes\n", kGathers, before,
              after);
  if (kMeasureResidentSize) {
    ASSERT_GT(before, 0);
    EXPECT_LT(after - before, kMaxGrowthBytes);
  }
}

} // namespace
} // namespace itest
