// Heap allocations per zero-copy export (the goal: exactly one, struct,
// shape and strides in one block) and per zero-copy import (two). Counts
// every operator new while armed.
#include "test_util.h"

#include <atomic>
#include <cstdlib>
#include <new>

namespace {
thread_local bool g_counting = false;
thread_local long g_allocations = 0;

void *counted(std::size_t n) {
  if (g_counting)
    ++g_allocations;
  if (void *p = std::malloc(n ? n : 1))
    return p;
  throw std::bad_alloc();
}
} // namespace

void *operator new(std::size_t n) { return counted(n); }
void *operator new[](std::size_t n) { return counted(n); }
void *operator new(std::size_t n, const std::nothrow_t &) noexcept {
  try {
    return counted(n);
  } catch (...) {
    return nullptr;
  }
}
void *operator new[](std::size_t n, const std::nothrow_t &) noexcept {
  try {
    return counted(n);
  } catch (...) {
    return nullptr;
  }
}
void operator delete(void *p) noexcept { std::free(p); }
void operator delete[](void *p) noexcept { std::free(p); }
void operator delete(void *p, std::size_t) noexcept { std::free(p); }
void operator delete[](void *p, std::size_t) noexcept { std::free(p); }

namespace itest {
namespace {

using AllocCount = RuntimeTest;

TEST_F(AllocCount, ZeroCopyExportIsOneHeapAllocation) {
  for (std::vector<int64_t> shape :
       {std::vector<int64_t>{}, std::vector<int64_t>{16},
        std::vector<int64_t>{2, 3, 4, 5}}) {
    int64_t n = 1;
    for (int64_t d : shape)
      n *= d;
    Array a = HostArray(Iota(static_cast<size_t>(n)), shape,
                        Sharding::single_device(local_devices()[0]));
    for (uint32_t major : {1u, 0u}) {
      ExportOptions o;
      o.max_version = {major, 0};
      g_allocations = 0;
      g_counting = true;
      Result<ManagedTensor> m = to_dlpack(a, o);
      g_counting = false;
      ASSERT_TRUE(m.ok());
      EXPECT_EQ(g_allocations, 1)
          << "ndim " << shape.size() << " major " << major;
    }
  }
}

// A zero-copy import makes two: the array with the buffer that returns the
// producer's memory (one block), and the shape vector Array::shape()
// returns (none for a 0-d tensor). The device's shared single-device list is
// made by the first import onto it, so one import runs first.
TEST_F(AllocCount, ZeroCopyImportIsTwoHeapAllocations) {
  Device cpu = local_devices()[0];
  for (std::vector<int64_t> shape :
       {std::vector<int64_t>{}, std::vector<int64_t>{16},
        std::vector<int64_t>{2, 3, 4, 5}}) {
    int64_t n = 1;
    for (int64_t d : shape)
      n *= d;
    for (int repeat = 0; repeat < 2; ++repeat) {
      VProducer v;
      FillProducer(v, shape, {}, static_cast<size_t>(n));
      LProducer l;
      FillProducer(l, shape, {}, static_cast<size_t>(n));
      g_allocations = 0;
      g_counting = true;
      Result<Array> versioned = from_dlpack(v.get(), cpu);
      Result<Array> legacy = from_dlpack(l.get(), cpu);
      g_counting = false;
      ASSERT_TRUE(versioned.ok()) << versioned.status().to_string();
      ASSERT_TRUE(legacy.ok()) << legacy.status().to_string();
      if (repeat == 1)
        EXPECT_EQ(g_allocations, shape.empty() ? 2 : 4)
            << "two imports, ndim " << shape.size();
    }
  }
}

} // namespace
} // namespace itest
