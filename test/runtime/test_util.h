// Shared helpers for the runtime unit tests: topology fixture, host arrays,
// and a counting DLPack producer whose deleter frees the data, so a deleter
// that runs twice shows as a count of 2 and a use after the deleter shows
// as a heap-use-after-free under ASan.
#ifndef INTEROP_TEST_RUNTIME_TEST_UTIL_H
#define INTEROP_TEST_RUNTIME_TEST_UTIL_H

#include <interop/interop.h>

#include <cstdlib>
#include <cstring>
#include <gtest/gtest.h>
#include <numeric>
#include <string>
#include <vector>

namespace itest {

using namespace interop;

#define EXPECT_STATUS(expr, expected_code, expected_message)                   \
  do {                                                                         \
    const ::interop::Status status_ = (expr);                                  \
    EXPECT_EQ(::interop::status_code_name(status_.code()),                     \
              std::string(::interop::status_code_name(expected_code)))         \
        << status_.message();                                                  \
    EXPECT_EQ(status_.message(), std::string(expected_message));               \
  } while (0)

#define ASSERT_OK(expr)                                                        \
  do {                                                                         \
    const ::interop::Status status_ = (expr);                                  \
    ASSERT_TRUE(status_.ok()) << status_.to_string();                          \
  } while (0)

// Every test starts from the default topology and leaves it reset.
class RuntimeTest : public ::testing::Test {
protected:
  void SetUp() override { reset_for_testing(); }
  void TearDown() override { reset_for_testing(); }
  // CUDA devices default to none so that local_devices() lists only the
  // host platforms the test asks for, with or without a GPU.
  void Configure(int cpu, int tpu = 0, int processes = 1, int index = 0,
                 int cuda = 0) {
    TopologyConfig c;
    c.cuda_devices_per_process = cuda;
    c.cpu_devices_per_process = cpu;
    c.tpu_devices_per_process = tpu;
    c.process_count = processes;
    c.process_index = index;
    Status s = configure(c);
    ASSERT_TRUE(s.ok()) << s.to_string();
  }
};

inline std::vector<float> Iota(size_t n, float start = 0) {
  std::vector<float> v(n);
  std::iota(v.begin(), v.end(), start);
  return v;
}

inline Array HostArray(const std::vector<float> &values,
                       std::vector<int64_t> shape, const Sharding &sharding) {
  Result<Array> r = Array::from_host(values.data(), values.size() * 4,
                                     std::move(shape), kFloat32, sharding);
  EXPECT_TRUE(r.ok()) << r.status().to_string();
  return std::move(r).value();
}

inline std::vector<float> ToHost(const Array &a) {
  std::vector<float> out(static_cast<size_t>(a.size()));
  Status s = a.copy_to_host(out.data(), out.size() * 4);
  EXPECT_TRUE(s.ok()) << s.to_string();
  return out;
}

inline DLDevice MakeDLDevice(int32_t type, int32_t id) {
  DLDevice d{};
  dl::set_device_type(d, type);
  d.device_id = id;
  return d;
}

// A DLPack producer that owns nothing the deleter frees except the data
// block; the struct itself outlives the deleter so the test can read the
// count.
template <typename MT> struct Producer {
  MT managed{};
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;
  void *block = nullptr;
  size_t block_bytes = 0;
  int deletes = 0;

  Producer() = default;
  Producer(const Producer &) = delete; // manager_ctx points at this object
  // Frees what a NULL deleter left behind.
  ~Producer() { std::free(block); }

  static void Deleter(MT *self) {
    auto *p = static_cast<Producer *>(self->manager_ctx);
    ++p->deletes;
    std::free(p->block);
    p->block = nullptr;
  }
  DLTensor &tensor() { return managed.dl_tensor; }
  MT *get() { return &managed; }
};

using VProducer = Producer<DLManagedTensorVersioned>;
using LProducer = Producer<DLManagedTensor>;

// Fills `p` as a float32 CPU tensor with `block_elems` floats 0, 1, 2, ...
// and the given shape/strides (strides empty = NULL); data points at element
// `first` of the block.
template <typename MT>
void FillProducer(Producer<MT> &p, std::vector<int64_t> shape,
                  std::vector<int64_t> strides, size_t block_elems,
                  size_t first = 0, DLDataType dtype = kFloat32) {
  p.shape = std::move(shape);
  p.strides = std::move(strides);
  p.block_bytes = block_elems * 4;
  p.block = std::malloc(p.block_bytes ? p.block_bytes : 1);
  for (size_t i = 0; i < block_elems; ++i) {
    float f = static_cast<float>(i);
    std::memcpy(static_cast<char *>(p.block) + 4 * i, &f, 4);
  }
  p.managed.manager_ctx = &p;
  p.managed.deleter = &Producer<MT>::Deleter;
  DLTensor &t = p.managed.dl_tensor;
  t.data = static_cast<char *>(p.block) + 4 * first;
  t.device = MakeDLDevice(dl::kCPU, 0);
  t.ndim = static_cast<int32_t>(p.shape.size());
  t.dtype = dtype;
  t.shape = p.shape.empty() ? nullptr : p.shape.data();
  t.strides = p.strides.empty() ? nullptr : p.strides.data();
  t.byte_offset = 0;
  if constexpr (std::is_same<MT, DLManagedTensorVersioned>::value) {
    p.managed.version = kDLPackVersion;
    p.managed.flags = 0;
  }
}

} // namespace itest

#endif // INTEROP_TEST_RUNTIME_TEST_UTIL_H
