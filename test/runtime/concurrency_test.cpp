// Many threads exporting, importing, gathering, placing and releasing the
// same and different arrays, and reading the topology meanwhile: the calls
// docs/runtime.md ("Threads") lists as safe. Run under ThreadSanitizer by
// the runtime-unit-tsan suite, where a data race fails the test; here they
// check values and that every producer's deleter runs exactly once.
#include "test_util.h"

#include <atomic>
#include <deque>
#include <mutex>
#include <thread>

namespace itest {
namespace {

constexpr int kThreads = 8;
#if defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
constexpr int kRounds = 300; // sanitizers are 5-20x slower
#else
constexpr int kRounds = 3000;
#endif
#else
constexpr int kRounds = 3000;
#endif

// Runs body(thread index) on kThreads threads released together.
template <typename F> void RunThreads(F body) {
  std::atomic<int> waiting{kThreads};
  std::vector<std::thread> threads;
  threads.reserve(kThreads);
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      waiting.fetch_sub(1);
      while (waiting.load() > 0)
        std::this_thread::yield();
      body(t);
    });
  for (std::thread &thread : threads)
    thread.join();
}

// Objects made on one thread and dropped on another.
template <typename T> class Handoff {
public:
  void Put(T value) {
    std::lock_guard<std::mutex> lock(mu_);
    items_.push_back(std::move(value));
  }
  // Drops the oldest item (on the calling thread), if any.
  void DropOne() {
    T victim;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (items_.empty())
        return;
      victim = std::move(items_.front());
      items_.pop_front();
    } // destroyed here, outside the lock
  }
  void Clear() {
    std::deque<T> all;
    {
      std::lock_guard<std::mutex> lock(mu_);
      all.swap(items_);
    }
  }

private:
  std::mutex mu_;
  std::deque<T> items_;
};

class ConcurrencyTest : public RuntimeTest {};

TEST_F(ConcurrencyTest, TheSameArrayExportedImportedAndReleasedEverywhere) {
  Configure(4, 1);
  std::vector<Device> cpus = local_devices(Platform::kCpu);
  // The shared array views a counting producer's memory: its deleter must
  // run exactly once, after the last view, export and shard of it is gone,
  // whichever thread drops that.
  VProducer producer;
  FillProducer(producer, {32, 32}, {}, 1024);
  std::optional<Array> shared;
  {
    Result<Array> r = from_dlpack(producer.get(), cpus[0]);
    ASSERT_TRUE(r.ok()) << r.status().to_string();
    shared = std::move(*r);
  }
  const uintptr_t data = *shared->unsafe_buffer_pointer();
  Handoff<std::optional<Array>> arrays;
  Handoff<ManagedTensor> exports;
  std::atomic<int> failures{0};
  RunThreads([&](int t) {
    for (int i = 0; i < kRounds; ++i) {
      ExportOptions options;
      if (i % 2)
        options.max_version = DLPackVersion{0, 0}; // legacy
      Result<ManagedTensor> tensor = to_dlpack(*shared, options);
      if (!tensor.ok()) {
        ++failures;
        continue;
      }
      if (i % 3 == 0) { // released later, by whichever thread
        exports.Put(std::move(*tensor));
        exports.DropOne();
        continue;
      }
      Result<Array> view =
          tensor->is_versioned()
              ? from_dlpack(tensor->release_versioned(), cpus[t % 4])
              : from_dlpack(tensor->release_legacy(), cpus[t % 4]);
      if (!view.ok() || *view->unsafe_buffer_pointer() != data) {
        ++failures;
        continue;
      }
      if (i % 50 == t && ToHost(*view) != Iota(1024))
        ++failures;
      std::vector<Array> shards = view->addressable_shards();
      arrays.Put(std::move(*view));
      arrays.DropOne();
    }
  });
  EXPECT_EQ(failures.load(), 0);
  arrays.Clear();
  exports.Clear();
  EXPECT_EQ(producer.deletes, 0) << "the shared array still uses the memory";
  shared.reset();
  EXPECT_EQ(producer.deletes, 1);
}

TEST_F(ConcurrencyTest, DifferentArraysPerThread) {
  Configure(4, 2);
  std::vector<Device> cpus = local_devices(Platform::kCpu);
  Device tpu = local_devices(Platform::kTpu)[0];
  std::vector<int> deletes(kThreads, -1);
  std::atomic<int> failures{0};
  RunThreads([&](int t) {
    for (int i = 0; i < kRounds / 3; ++i) {
      LProducer p;
      FillProducer(p, {8, 16}, {}, 128);
      ImportOptions options;
      if (i % 2)
        options.copy = CopyMode::kAlways;
      {
        Result<Array> a = from_dlpack(p.get(), cpus[t % 4], options);
        if (!a.ok()) {
          ++failures;
          continue;
        }
        Result<Array> split = device_put(*a, cpus, MemoryKind::kDevice, 1);
        Result<Array> back =
            split.ok() ? gather(*split, cpus[(t + 1) % 4]) : split.status();
        Result<Array> pinned = back.ok()
                                   ? gather(*back, tpu, MemoryKind::kPinnedHost)
                                   : back.status();
        Result<ManagedTensor> e =
            pinned.ok() ? to_dlpack(*pinned) : pinned.status();
        Result<Array> again =
            e.ok() ? from_dlpack(e->release_versioned()) : e.status();
        if (!again.ok() || ToHost(*again) != Iota(128))
          ++failures;
      }
      if (p.deletes != 1)
        ++failures;
      deletes[static_cast<size_t>(t)] = p.deletes;
    }
  });
  EXPECT_EQ(failures.load(), 0);
  for (int d : deletes)
    EXPECT_EQ(d, 1);
}

TEST_F(ConcurrencyTest, GathersOfTheSameSplitArray) {
  Configure(4);
  std::vector<Device> cpus = local_devices();
  // 2 MiB: the destinations come from (and go back to) the shared cache of
  // large host blocks.
  std::vector<float> values = Iota(512 * 1024);
  Array split = HostArray(values, {512, 1024}, *Sharding::split(cpus, 1));
  std::atomic<int> failures{0};
  RunThreads([&](int t) {
    for (int i = 0; i < kRounds / 30 + 2; ++i) {
      Result<Array> g = gather(split, cpus[(t + i) % 4]);
      if (!g.ok() || ToHost(*g) != values)
        ++failures;
    }
  });
  EXPECT_EQ(failures.load(), 0);
}

TEST_F(ConcurrencyTest, TopologyReadsWhileOthersExchange) {
  // The first use happens on the threads, all at once.
  Configure(8, 2, 2, 1);
  std::atomic<int> failures{0};
  RunThreads([&](int t) {
    for (int i = 0; i < kRounds; ++i) {
      if (t % 2) {
        std::vector<Device> local = local_devices();
        if (local.size() != 10 || devices().size() != 20 ||
            current_topology().process_index != 1)
          ++failures;
        for (const Device &d : local)
          if (!d.is_addressable())
            ++failures;
        Result<Device> cpu = local_device_for(MakeDLDevice(dl::kCPU, i % 8));
        if (!cpu.ok() || cpu->local_hardware_id() != i % 8)
          ++failures;
        if (local_device_for(MakeDLDevice(dl::kTPUHost, 1)).status().ok() !=
            true)
          ++failures;
        if (!device_by_id(Platform::kCpu, 8 + i % 8).ok())
          ++failures;
      } else {
        // A fresh device of the eight on each round: the shared lists of
        // single-device shardings are built while others read them.
        Device cpu = local_devices(Platform::kCpu)[(t + i) % 8];
        VProducer p;
        FillProducer(p, {4}, {}, 4);
        Result<Array> a = from_dlpack(p.get(), cpu);
        if (!a.ok() || a->sharding().devices()[0] != cpu ||
            !a->is_fully_addressable())
          ++failures;
      }
    }
  });
  EXPECT_EQ(failures.load(), 0);
}

TEST_F(ConcurrencyTest, ConfigureRacingTheFirstUse) {
  // configure() must come before the first use; racing it, it either wins
  // (the topology has its devices) or fails with its RuntimeError.
  std::atomic<int> configured{0};
  std::atomic<int> refused{0};
  std::atomic<size_t> seen{0};
  RunThreads([&](int t) {
    if (t == 0) {
      TopologyConfig c;
      c.cpu_devices_per_process = 3;
      c.cuda_devices_per_process = 0;
      Status s = configure(c);
      if (s.ok())
        ++configured;
      else if (s.code() == StatusCode::kRuntimeError)
        ++refused;
      return;
    }
    seen.store(local_devices(Platform::kCpu).size());
  });
  EXPECT_EQ(configured.load() + refused.load(), 1);
  size_t cpus = local_devices(Platform::kCpu).size();
  EXPECT_EQ(cpus, configured.load() ? 3u : 1u);
  EXPECT_EQ(seen.load(), cpus);
}

} // namespace
} // namespace itest
