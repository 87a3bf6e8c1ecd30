// Heap allocations per zero-copy export: the goal is exactly one (struct,
// shape and strides in one block). Counts every operator new while armed.
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

} // namespace
} // namespace itest
