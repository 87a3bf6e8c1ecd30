// Allocation in every placement and copies between placements.
#include "internal.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace interop {
namespace detail {
namespace {

constexpr size_t kHostAlignment = 64; // a cache line; enough for any dtype

// Large host blocks are recycled: a fresh multi-megabyte block from the
// system costs a page fault per 4 KiB on first touch, which made a gather
// several times slower than the memcpy it performs. Freed blocks of at least
// kMinCached bytes wait here, up to kMaxCachedTotal bytes, for a request of
// the same rounded size. (Under ASan the cache is off so use-after-free of
// big blocks stays detectable.)
class HostBlockCache {
public:
  static constexpr size_t kMinCached = size_t(1) << 20;
  static constexpr size_t kMaxCachedTotal = size_t(512) << 20;

  // A cached block of exactly `bytes`, or nullptr.
  void *take(size_t bytes) {
    if (!enabled() || bytes < kMinCached)
      return nullptr;
    std::lock_guard<std::mutex> lock(mu_);
    auto it = free_.find(bytes);
    if (it == free_.end())
      return nullptr;
    void *p = it->second;
    free_.erase(it);
    total_ -= bytes;
    return p;
  }
  // Keeps or frees a block of `bytes`.
  void give(void *p, size_t bytes) {
    if (enabled() && bytes >= kMinCached) {
      std::lock_guard<std::mutex> lock(mu_);
      if (total_ + bytes <= kMaxCachedTotal) {
        free_.emplace(bytes, p);
        total_ += bytes;
        return;
      }
    }
    std::free(p);
  }

private:
  static constexpr bool enabled() {
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
    return false;
#endif
#endif
    return true;
  }
  std::mutex mu_;
  std::multimap<size_t, void *> free_;
  size_t total_ = 0;
};

HostBlockCache &host_cache() {
  static auto *cache = new HostBlockCache(); // outlives every Buffer
  return *cache;
}

class HostBuffer final : public Buffer {
public:
  HostBuffer(Placement p, void *data, size_t nbytes, size_t block)
      : Buffer(p, data, nbytes), block_(block) {}
  ~HostBuffer() override { host_cache().give(data(), block_); }

private:
  size_t block_; // the rounded size actually allocated
};

// Page-aligned, page-rounded and mlock()ed: munlock() works on whole pages
// and locks do not nest, so pinned blocks never share a page.
class LockedHostBuffer final : public Buffer {
public:
  LockedHostBuffer(Placement p, void *data, size_t nbytes, size_t locked)
      : Buffer(p, data, nbytes), locked_(locked) {}
  ~LockedHostBuffer() override {
    munlock(data(), locked_);
    std::free(data());
  }

private:
  size_t locked_;
};

class CudaHostBuffer final : public Buffer {
public:
  using Buffer::Buffer;
  ~CudaHostBuffer() override { cuda::free_host(data()); }
};

class CudaDeviceBuffer final : public Buffer {
public:
  using Buffer::Buffer;
  ~CudaDeviceBuffer() override {
    cuda::free_device(placement().ordinal, data());
  }
};

Status host_alloc_failure(size_t nbytes, const char *what) {
  return Status(StatusCode::kResourceExhausted, "cannot allocate " +
                                                    std::to_string(nbytes) +
                                                    " bytes of " + what);
}

Result<std::shared_ptr<Buffer>> allocate_locked(const Placement &placement,
                                                size_t nbytes) {
  long page_size = sysconf(_SC_PAGESIZE);
  size_t page = page_size > 0 ? static_cast<size_t>(page_size) : 4096;
  if (nbytes > SIZE_MAX - page)
    return host_alloc_failure(nbytes, "page-locked host memory");
  size_t rounded = (nbytes + page - 1) / page * page;
  void *p = nullptr;
  if (posix_memalign(&p, page, rounded) != 0)
    return host_alloc_failure(nbytes, "page-locked host memory");
  if (mlock(p, rounded) != 0) {
    int err = errno;
    std::free(p);
    struct rlimit limit{};
    std::string limit_text = "unknown";
    if (getrlimit(RLIMIT_MEMLOCK, &limit) == 0)
      limit_text = limit.rlim_cur == RLIM_INFINITY
                       ? std::string("unlimited")
                       : std::to_string(limit.rlim_cur) + " bytes";
    return Status(
        StatusCode::kResourceExhausted,
        "cannot page-lock " + std::to_string(rounded) +
            " bytes of pinned host memory: mlock: " + std::strerror(err) +
            " (RLIMIT_MEMLOCK is " + limit_text + ")");
  }
  return std::shared_ptr<Buffer>(
      std::make_shared<LockedHostBuffer>(placement, p, nbytes, rounded));
}

} // namespace

bool streaming_copy(size_t total_bytes) {
#if defined(__SSE2__)
  return total_bytes >= kStreamingCopyBytes;
#else
  (void)total_bytes;
  return false;
#endif
}

void copy_host(void *dst, const void *src, size_t n, bool streaming) {
#if defined(__SSE2__)
  if (streaming) {
    auto *d = static_cast<char *>(dst);
    auto *s = static_cast<const char *>(src);
    // Plain stores up to the first 16-byte boundary of the destination,
    // then aligned non-temporal 16-byte stores, then the tail. Loads may be
    // unaligned: the sources are shard rows at any byte offset.
    size_t head = (0 - reinterpret_cast<uintptr_t>(d)) & 15;
    if (head > n)
      head = n;
    std::memcpy(d, s, head);
    d += head;
    s += head;
    n -= head;
    for (; n >= 64; n -= 64, d += 64, s += 64) {
      __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s));
      __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s + 16));
      __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s + 32));
      __m128i e = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s + 48));
      _mm_stream_si128(reinterpret_cast<__m128i *>(d), a);
      _mm_stream_si128(reinterpret_cast<__m128i *>(d + 16), b);
      _mm_stream_si128(reinterpret_cast<__m128i *>(d + 32), c);
      _mm_stream_si128(reinterpret_cast<__m128i *>(d + 48), e);
    }
    for (; n >= 16; n -= 16, d += 16, s += 16)
      _mm_stream_si128(reinterpret_cast<__m128i *>(d),
                       _mm_loadu_si128(reinterpret_cast<const __m128i *>(s)));
    std::memcpy(d, s, n);
    return;
  }
#else
  (void)streaming;
#endif
  std::memcpy(dst, src, n);
}

void end_streaming_copy() {
#if defined(__SSE2__)
  _mm_sfence();
#endif
}

std::string placement_string(const Placement &p) {
  return std::string(platform_name(p.platform)) + ":" +
         std::to_string(p.ordinal) + " " + memory_kind_name(p.kind);
}

Result<std::shared_ptr<Buffer>> allocate(const Placement &placement,
                                         size_t nbytes) {
  size_t n = nbytes == 0 ? 1 : nbytes;
  if (placement.platform == Platform::kCuda &&
      placement.kind == MemoryKind::kDevice) {
    Result<void *> p = cuda::malloc_device(placement.ordinal, n);
    if (!p.ok())
      return p.status();
    return std::shared_ptr<Buffer>(
        std::make_shared<CudaDeviceBuffer>(placement, *p, nbytes));
  }
  if (placement.kind == MemoryKind::kPinnedHost) {
    // With a GPU, cudaHostAlloc both page-locks and registers the memory for
    // DMA; without one, mlock gives the same residency guarantee.
    if (cuda::available().ok()) {
      Result<void *> p = cuda::malloc_host(n);
      if (!p.ok())
        return p.status();
      return std::shared_ptr<Buffer>(
          std::make_shared<CudaHostBuffer>(placement, *p, nbytes));
    }
    if (placement.platform == Platform::kCuda)
      return cuda::available();
    return allocate_locked(placement, n);
  }
  if (n > SIZE_MAX - kHostAlignment)
    return host_alloc_failure(nbytes, "host memory");
  size_t rounded = (n + kHostAlignment - 1) / kHostAlignment * kHostAlignment;
  void *p = host_cache().take(rounded);
  if (!p)
    p = std::aligned_alloc(kHostAlignment, rounded);
  if (!p)
    return host_alloc_failure(nbytes, "host memory");
  return std::shared_ptr<Buffer>(
      std::make_shared<HostBuffer>(placement, p, nbytes, rounded));
}

Status copy_2d(const Placement &dst_place, void *dst, size_t dst_pitch,
               const Placement &src_place, const void *src, size_t src_pitch,
               size_t width, size_t height, bool wait) {
  if (width == 0 || height == 0)
    return Status();
  if (dst_place.host_accessible() && src_place.host_accessible()) {
    auto *d = static_cast<char *>(dst);
    auto *s = static_cast<const char *>(src);
    bool streaming = streaming_copy(width * height);
    if (dst_pitch == width && src_pitch == width) {
      copy_host(d, s, width * height, streaming);
    } else {
      for (size_t row = 0; row < height; ++row)
        copy_host(d + row * dst_pitch, s + row * src_pitch, width, streaming);
    }
    if (streaming)
      end_streaming_copy();
    return Status();
  }
  bool dst_dev = !dst_place.host_accessible();
  bool src_dev = !src_place.host_accessible();
  // The copy runs on the stream of the device that holds the source, so it
  // is ordered after the work that produced the source (for a copy between
  // two GPUs too).
  int ordinal = src_dev ? src_place.ordinal : dst_place.ordinal;
  // Only a copy that stays on one device's memory is left in flight: later
  // work on that device's runtime stream is ordered after it. Anything
  // touching host memory or two devices is waited for, so the caller may
  // free or read the other side right away.
  bool same_device =
      dst_dev && src_dev && dst_place.ordinal == src_place.ordinal;
  return cuda::copy_2d(ordinal, dst, dst_pitch, src, src_pitch, width, height,
                       wait || !same_device);
}

} // namespace detail
} // namespace interop
