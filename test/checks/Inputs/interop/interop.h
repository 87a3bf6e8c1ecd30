// Declaration-only mock of the interop_shim API (<interop/interop.h>) for the
// check tests: the names and signatures of runtime/include/interop/ that the
// checks' default API model knows, and nothing else. Keep in step with the
// runtime's headers.
#ifndef INTEROP_MOCK_INTEROP_H
#define INTEROP_MOCK_INTEROP_H

typedef unsigned long size_t;
typedef long int64_t;
typedef unsigned long uintptr_t;
struct DLManagedTensor;
struct DLManagedTensorVersioned;
struct DLDataType {
  unsigned char code, bits;
  unsigned short lanes;
};
struct DLDevice {
  int device_type, device_id;
};

namespace std {
template <class T> class vector {
public:
  vector();
  vector(const vector &);
  vector(vector &&);
  ~vector();
  vector &operator=(const vector &);
  size_t size() const;
  bool empty() const;
  T &operator[](size_t);
  const T &operator[](size_t) const;
  T &at(size_t);
  const T &at(size_t) const;
  T &front();
  const T &front() const;
  T *begin();
  T *end();
  const T *begin() const;
  const T *end() const;
  void push_back(const T &);
};
template <class T> T &&move(T &t) noexcept;

// std::optional (declarations) and the quantifiers and
// searches of <algorithm> (minimal bodies: templates taking lambdas must be
// defined).
struct nullopt_t {
  explicit constexpr nullopt_t(int) {}
};
inline constexpr nullopt_t nullopt{0};
template <class T> class optional {
public:
  optional();
  optional(nullopt_t);
  optional(const T &);
  optional(const optional &);
  optional &operator=(const optional &);
  optional &operator=(nullopt_t);
  optional &operator=(const T &);
  optional &operator=(T &&);
  T &emplace(const T &);
  explicit operator bool() const;
  bool has_value() const;
  void reset();
  T &operator*() &;
  const T &operator*() const &;
  T *operator->();
  const T *operator->() const;
  T &value() &;
  const T &value() const &;
};
template <class It, class Pred> bool all_of(It first, It last, Pred p) {
  for (; first != last; ++first)
    if (!p(*first))
      return false;
  return true;
}
template <class It, class Pred> bool none_of(It first, It last, Pred p) {
  for (; first != last; ++first)
    if (p(*first))
      return false;
  return true;
}
template <class It, class Pred> bool any_of(It first, It last, Pred p) {
  return !none_of(first, last, p);
}
template <class It, class Pred> It find_if(It first, It last, Pred p) {
  for (; first != last; ++first)
    if (p(*first))
      return first;
  return last;
}
template <class It, class T> It find(It first, It last, const T &value) {
  for (; first != last; ++first)
    if (*first == value)
      return first;
  return last;
}
template <class It, class Fn> Fn for_each(It first, It last, Fn f) {
  for (; first != last; ++first)
    f(*first);
  return f;
}
} // namespace std

namespace interop {

enum class Platform { kCpu, kCuda, kTpu };
enum class MemoryKind { kDevice, kPinnedHost, kUnpinnedHost };

enum class StatusCode {
  kOk = 0,
  kBufferError,
  kValueError,
  kTypeError,
  kRuntimeError,
};

class [[nodiscard]] Status {
public:
  Status();
  Status(StatusCode code, const char *message);
  bool ok() const noexcept;
  StatusCode code() const noexcept;
};
// The runtime defines it inline as `return Status();`.
inline Status ok_status() { return Status(); }

template <typename T> class [[nodiscard]] Result {
public:
  Result(T value);
  Result(Status status);
  bool ok() const noexcept;
  const Status &status() const noexcept;
  T &value() &;
  const T &value() const &;
  T &&value() &&;
  T &operator*() &;
  const T &operator*() const &;
  T &&operator*() &&;
  T *operator->();
  const T *operator->() const;
};

class Device {
public:
  Platform platform() const noexcept;
  int id() const noexcept;
  int process_index() const noexcept;
  int local_hardware_id() const noexcept;
  bool is_addressable() const noexcept;
  friend bool operator==(const Device &a, const Device &b) noexcept;
};

struct TopologyConfig {
  int cpu_devices_per_process = 1;
  int tpu_devices_per_process = 0;
  int cuda_devices_per_process = -1;
  int process_count = 1;
  int process_index = 0;
};
TopologyConfig current_topology();

std::vector<Device> devices();
std::vector<Device> devices(Platform platform);
std::vector<Device> local_devices();
std::vector<Device> local_devices(Platform platform);
Result<Device> device_by_id(Platform platform, int id);

class Sharding {
public:
  enum class Kind { kSingleDevice, kReplicated, kSplit };
  Kind kind() const noexcept;
  static Sharding single_device(const Device &device,
                                MemoryKind memory_kind = MemoryKind::kDevice);
  static Result<Sharding>
  replicated(std::vector<Device> devices,
             MemoryKind memory_kind = MemoryKind::kDevice);
  static Result<Sharding> split(std::vector<Device> devices, int axis,
                                MemoryKind memory_kind = MemoryKind::kDevice);
  const std::vector<Device> &devices() const noexcept;
  size_t num_devices() const noexcept;
  bool is_single_device() const noexcept;
  bool is_fully_addressable() const noexcept;
  bool is_fully_replicated() const noexcept;
  MemoryKind memory_kind() const noexcept;
  Platform platform() const noexcept;
};

class Array {
public:
  static Result<Array> from_host(const void *data, size_t data_bytes,
                                 std::vector<int64_t> shape, DLDataType dtype,
                                 const Sharding &sharding);
  const std::vector<int64_t> &shape() const noexcept;
  DLDataType dtype() const noexcept;
  const Sharding &sharding() const noexcept;
  size_t num_devices() const noexcept;
  bool is_single_device() const noexcept;
  bool is_fully_addressable() const noexcept;
  bool is_fully_replicated() const noexcept;
  MemoryKind memory_kind() const noexcept;
  Platform platform() const noexcept;
  std::vector<Array> addressable_shards() const;
  Result<Array> addressable_data(size_t index) const;
  Result<uintptr_t> unsafe_buffer_pointer() const;
  Status copy_to_host(void *dst, size_t dst_bytes) const;
};

Result<Array> gather(const Array &array, const Device &device,
                     MemoryKind memory_kind = MemoryKind::kDevice);

struct ExportOptions {
  int copy = 0;
};
struct ImportOptions {
  int copy = 0;
};

class ManagedTensor {
public:
  ManagedTensor() noexcept;
  ManagedTensor(ManagedTensor &&other) noexcept;
  ~ManagedTensor();
  void *release() noexcept;
};

Result<DLDevice> dlpack_device(const Array &array);
Result<ManagedTensor> to_dlpack(const Array &array,
                                const ExportOptions &options = {});
Result<Array> from_dlpack(DLManagedTensorVersioned *tensor,
                          const Device &target,
                          const ImportOptions &options = {});
Result<Array> from_dlpack(DLManagedTensor *tensor, const Device &target,
                          const ImportOptions &options = {});
Result<Array> from_dlpack(DLManagedTensorVersioned *tensor,
                          const Sharding &target,
                          const ImportOptions &options = {});
Result<Array> from_dlpack(DLManagedTensorVersioned *tensor,
                          const ImportOptions &options = {});
Result<Device> local_device_for(DLDevice dl_device);

struct CudaArrayInterface {
  uintptr_t data;
  int version;
};
Result<CudaArrayInterface> cuda_array_interface(const Array &array);

} // namespace interop

#endif
