// The API model is data: the same checks on an XLA IFRT-style API described
// only through options (set once, globally, for every check).
// RUN: %check_interop %s interop-sharded-dlpack-export,interop-nonaddressable-dlpack-import %t -- \
// RUN:   -config="{CheckOptions: { \
// RUN:     ArrayTypes: '::xla::ifrt::Array', \
// RUN:     ShardingTypes: '::xla::ifrt::Sharding', \
// RUN:     DeviceTypes: '::xla::ifrt::Device', \
// RUN:     DeviceListTypes: '::xla::ifrt::DeviceList', \
// RUN:     ResultTypes: '::absl::StatusOr', \
// RUN:     ExportFunctions: '::bridge::ToDlpack', \
// RUN:     ImportFunctions: '::bridge::FromDlpack', \
// RUN:     CudaArrayInterfaceFunctions: '', \
// RUN:     SingleDevicePredicates: '', \
// RUN:     DeviceCountFunctions: '', \
// RUN:     ShardingFunctions: '::xla::ifrt::Array::sharding', \
// RUN:     DeviceListFunctions: '::xla::ifrt::Sharding::devices;::xla::ifrt::DeviceList::devices', \
// RUN:     AddressablePredicates: '::xla::ifrt::Device::IsAddressable', \
// RUN:     GlobalDeviceSources: '::xla::ifrt::Client::devices;::xla::ifrt::Client::LookupDevice', \
// RUN:     AddressableDeviceSources: '::xla::ifrt::Client::addressable_devices', \
// RUN:     SingleDeviceProducers: '::bridge::CopyToDevice;::bridge::FromDlpack', \
// RUN:     ShardFunctions: '', PlatformFunctions: '', TpuPlatforms: '', \
// RUN:     MemoryKindFunctions: '', PinnedHostMemoryKinds: ''}}" \
// RUN:   -- -std=c++17 -I%S/Inputs

#include "ifrt/ifrt.h"

using namespace xla::ifrt;

// --- Export of a possibly sharded array ----------------------------------

void unchecked(const Array &array) {
  auto t = bridge::ToDlpack(array);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'ToDlpack' needs an array on a single device, but 'array' is not proven to be single-device on every path to this call [interop-sharded-dlpack-export]
  // CHECK-MESSAGES: :[[@LINE-3]]:29: note: 'array' is a parameter: nothing in this function proves it is on a single device
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: check that the array is on one device first, or copy it onto one device with 'CopyToDevice'
}

void guarded_by_device_list_size(const Array &array) {
  if (array.sharding().devices().size() != 1)
    return;
  auto t = bridge::ToDlpack(array);
}

void through_rc_reference(const tsl::RCReference<Array> &array) {
  if (array->sharding().devices().size() == 1)
    auto t = bridge::ToDlpack(*array);
  auto u = bridge::ToDlpack(*array);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'ToDlpack' needs an array on a single device, but '*array' is not proven
  // CHECK-MESSAGES: :[[@LINE-5]]:58: note: 'array' is a parameter
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: check that the array is on one device first
}

void proven_sharded(const Array &array) {
  if (array.sharding().devices().size() > 1)
    auto t = bridge::ToDlpack(array);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'ToDlpack' needs an array on a single device, but 'array' is sharded over more than one device on this path; the call will always fail
  // CHECK-MESSAGES: :[[@LINE-2]]:14: note: copy the array onto one device with 'CopyToDevice' before exporting it
}

void copied_to_one_device(const Array &array, const Client &client) {
  auto copy = bridge::CopyToDevice(array, client.addressable_devices()[0]);
  if (!copy.ok())
    return;
  auto t = bridge::ToDlpack(**copy);
}

// --- Import onto a device of another process -----------------------------

void import_global_device(DLManagedTensor *t, const Client &client) {
  Device *device = client.devices()[3];
  auto r = bridge::FromDlpack(t, device);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'FromDlpack' imports onto device 'device', taken from a list of every process's devices, with no addressability check on this path [interop-nonaddressable-dlpack-import]
  // CHECK-MESSAGES: :[[@LINE-3]]:20: note: the device comes from 'devices', which can return devices of other processes
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: check 'IsAddressable()' first, or take the device from 'addressable_devices()'
}

void import_looked_up_device(DLManagedTensor *t, const Client &client) {
  auto device = client.LookupDevice(DeviceId{7});
  if (!device.ok())
    return;
  auto r = bridge::FromDlpack(t, *device);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'FromDlpack' imports onto device '*device', taken from a list
  // CHECK-MESSAGES: :[[@LINE-5]]:17: note: the device comes from 'LookupDevice'
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: check 'IsAddressable()' first
}

void import_sharding_device(DLManagedTensor *t, const Array &array) {
  for (Device *d : array.sharding().devices().devices())
    auto r = bridge::FromDlpack(t, d);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'FromDlpack' imports onto device 'd', taken from a list
  // CHECK-MESSAGES: :[[@LINE-3]]:20: note: the device comes from 'devices'
  // CHECK-MESSAGES: :[[@LINE-3]]:14: note: check 'IsAddressable()' first
}

void import_checked(DLManagedTensor *t, const Client &client) {
  for (Device *d : client.devices()) {
    if (!d->IsAddressable())
      continue;
    auto r = bridge::FromDlpack(t, d);
  }
}

void import_addressable(DLManagedTensor *t, const Client &client) {
  absl::Span<Device *const> mine = client.addressable_devices();
  auto r = bridge::FromDlpack(t, mine[0]);
}
