// Declaration-only mock of an XLA IFRT-style API (xla::ifrt) and of a team's
// DLPack bridge over it: a second API the checks learn purely from options
// (see interop-ifrt-api-model.cpp). Devices are handed out as pointers, lists
// as absl::Span or DeviceList, results as absl::StatusOr, arrays as
// tsl::RCReference — the shapes of the real IFRT.
#ifndef IFRT_MOCK_IFRT_H
#define IFRT_MOCK_IFRT_H

typedef unsigned long size_t;
struct DLManagedTensor;

namespace absl {
class Status {
public:
  bool ok() const;
};
template <typename T> class StatusOr {
public:
  StatusOr(T value);
  StatusOr(Status status);
  bool ok() const;
  const Status &status() const;
  T &value() &;
  const T &value() const &;
  T &operator*() &;
  const T &operator*() const &;
  T *operator->();
  const T *operator->() const;
};
template <typename T> class Span {
public:
  size_t size() const;
  T &operator[](size_t i) const;
  T *begin() const;
  T *end() const;
};
} // namespace absl

namespace tsl {
template <typename T> class RCReference {
public:
  RCReference();
  RCReference(const RCReference &);
  ~RCReference();
  T *get() const;
  T &operator*() const;
  T *operator->() const;
};
} // namespace tsl

namespace xla::ifrt {

struct DeviceId {
  int value;
};

class Device {
public:
  virtual ~Device();
  virtual bool IsAddressable() const = 0;
  virtual int ProcessIndex() const = 0;
  virtual DeviceId Id() const = 0;
};

class DeviceList {
public:
  absl::Span<Device *const> devices() const;
  size_t size() const;
  bool IsFullyAddressable() const;
};

class Sharding {
public:
  virtual ~Sharding();
  const DeviceList &devices() const;
  bool IsFullyReplicated() const;
};

class Array {
public:
  virtual ~Array();
  const Sharding &sharding() const;
};

class Client {
public:
  absl::Span<Device *const> devices() const;
  absl::Span<Device *const> addressable_devices() const;
  absl::StatusOr<Device *> LookupDevice(DeviceId id) const;
};

} // namespace xla::ifrt

// The team's DLPack bridge over IFRT.
namespace bridge {
absl::StatusOr<DLManagedTensor *> ToDlpack(const xla::ifrt::Array &array);
absl::StatusOr<tsl::RCReference<xla::ifrt::Array>>
FromDlpack(DLManagedTensor *tensor, xla::ifrt::Device *device);
// Copies every shard onto one device.
absl::StatusOr<tsl::RCReference<xla::ifrt::Array>>
CopyToDevice(const xla::ifrt::Array &array, xla::ifrt::Device *device);
} // namespace bridge

#endif
