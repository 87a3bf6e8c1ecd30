// RUN: %check_interop %s interop-sharded-dlpack-export,interop-sharded-cuda-array-interface,interop-nonaddressable-dlpack-import %t -- -- -std=c++17 -I%S/Inputs

// Containers. An element checked and then used
// through the same subscript (an unchanged index variable) keeps its facts;
// a standard algorithm that checks every element (all_of, none_of, any_of)
// proves what its predicate's body proves for the loop that follows; a
// standard search keeps where the element came from (a device found in an
// all-process list by anything but addressability is still a device of
// every process; one found by addressability is addressable).

#include "interop/interop.h"

using namespace interop;

bool unsharded(const Array &a) { return a.num_devices() == 1; }

void same_subscript(const std::vector<Array> &v, size_t i) {
  if (!v[i].is_single_device())
    return;
  auto t = to_dlpack(v[i]);
}

void same_subscript_in_loop(const std::vector<Array> &v) {
  for (size_t i = 0; i < v.size(); ++i) {
    if (!v[i].is_single_device())
      continue;
    auto p = v[i].unsafe_buffer_pointer();
  }
}

// A non-const operator[] does not change the element it returns.
void non_const_container(std::vector<Array> &v, size_t i) {
  if (v[i].is_single_device())
    auto t = to_dlpack(v[i]);
}

void all_of_then_loop(const std::vector<Array> &v) {
  if (!std::all_of(v.begin(), v.end(),
                   [](const Array &a) { return a.is_single_device(); }))
    return;
  for (const Array &a : v)
    auto t = to_dlpack(a);
}

void all_of_then_subscript(const std::vector<Array> &v) {
  if (!std::all_of(v.begin(), v.end(), unsharded))
    return;
  for (size_t i = 0; i < v.size(); ++i)
    auto p = v[i].unsafe_buffer_pointer();
}

void none_of_then_loop(const std::vector<Array> &v) {
  const auto sharded = [](const Array &a) { return a.num_devices() > 1; };
  if (!std::none_of(v.begin(), v.end(), sharded))
    return;
  for (const Array &a : v)
    auto t = to_dlpack(a);
}

void any_of_then_loop(const std::vector<Array> &v) {
  if (std::any_of(v.begin(), v.end(),
                  [](const Array &a) { return !a.is_single_device(); }))
    return;
  for (const Array &a : v)
    auto t = to_dlpack(a);
}

void find_if_single(const std::vector<Array> &v) {
  auto it = std::find_if(v.begin(), v.end(),
                         [](const Array &a) { return a.is_single_device(); });
  if (it != v.end())
    auto t = to_dlpack(*it);
}

void find_if_addressable(DLManagedTensorVersioned *t) {
  const std::vector<Device> all = devices(Platform::kCuda);
  auto it = std::find_if(all.begin(), all.end(),
                         [](const Device &d) { return d.is_addressable(); });
  if (it != all.end())
    auto r = from_dlpack(t, *it);
}

void at_same_index(const std::vector<Array> &v, size_t i) {
  if (v.at(i).is_single_device())
    auto t = to_dlpack(v.at(i));
}

void addressable_subscript(DLManagedTensorVersioned *t,
                           const std::vector<Device> &all) {
  for (size_t i = 0; i < all.size(); ++i) {
    if (!all[i].is_addressable())
      continue;
    auto r = from_dlpack(t, all[i]);
  }
}

void all_of_addressable(DLManagedTensorVersioned *t) {
  const std::vector<Device> all = devices(Platform::kCuda);
  if (!std::all_of(all.begin(), all.end(),
                   [](const Device &d) { return d.is_addressable(); }))
    return;
  for (const Device &d : all)
    auto r = from_dlpack(t, d);
}

// The predicate's captures do not matter to what it proves of its argument.
void all_of_capturing(const std::vector<Array> &v, int limit) {
  if (!std::all_of(v.begin(), v.end(), [limit](const Array &a) {
        return a.is_single_device() && a.num_devices() < limit;
      }))
    return;
  for (const Array &a : v)
    auto t = to_dlpack(a);
}

// Containers of records that hold an array or a device in a field: what the
// predicate proves of that field holds of it in every element.
struct Named {
  const char *name;
  Array array;
};
bool one_device(const Named &n) { return n.array.is_single_device(); }

void all_of_holders_then_loop(const std::vector<Named> &v) {
  if (!std::all_of(v.begin(), v.end(), one_device))
    return;
  for (const Named &n : v)
    auto t = to_dlpack(n.array);
}

void all_of_holders_then_subscript(const std::vector<Named> &v) {
  if (!std::all_of(v.begin(), v.end(), one_device))
    return;
  for (size_t i = 0; i < v.size(); ++i)
    auto p = v[i].array.unsafe_buffer_pointer();
}

struct Target {
  Device device;
  int rank;
};

void all_of_addressable_holders(DLManagedTensorVersioned *t,
                                const std::vector<Target> &targets) {
  if (!std::all_of(targets.begin(), targets.end(), [](const Target &x) {
        return x.device.is_addressable();
      }))
    return;
  for (const Target &x : targets)
    auto r = from_dlpack(t, x.device);
}

// --- What does not carry ---------------------------------------------------

struct Both {
  Array first;
  Array second;
};

void all_of_other_held_field(const std::vector<Both> &v) {
  if (!std::all_of(v.begin(), v.end(),
                   [](const Both &b) { return b.first.is_single_device(); }))
    return;
  for (const Both &b : v)
    auto t = to_dlpack(b.second);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'to_dlpack' needs an array on a single device, but 'b.second' is not proven
}

void holders_changed(std::vector<Named> &v, const Named &extra) {
  if (!std::all_of(v.begin(), v.end(), one_device))
    return;
  v.push_back(extra);
  for (const Named &n : v)
    auto t = to_dlpack(n.array);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'to_dlpack' needs an array on a single device, but 'n.array' is not proven
}

void other_index_variable(const std::vector<Array> &v) {
  for (size_t i = 0; i < v.size(); ++i) {
    const size_t next = (i + 1) % v.size();
    if (!v[i].is_single_device())
      return;
    auto t = to_dlpack(v[next]);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'to_dlpack' needs an array on a single device, but 'v[next]' is not proven
  }
}

void index_assigned(const std::vector<Array> &v, size_t i, size_t j) {
  if (!v[i].is_single_device())
    return;
  i = j;
  auto t = to_dlpack(v[i]);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to_dlpack' needs an array on a single device, but 'v[i]' is not proven
}

// A non-const access to another index may write the element checked.
void other_index_written(std::vector<Array> &v, size_t i, size_t j,
                         const Array &b) {
  if (!v[i].is_single_device())
    return;
  v[j] = b;
  auto t = to_dlpack(v[i]);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to_dlpack' needs an array on a single device, but 'v[i]' is not proven
}

void all_of_mixed_bounds(const std::vector<Array> &v,
                         const std::vector<Array> &w) {
  if (!std::all_of(v.begin(), w.end(), unsharded))
    return;
  for (const Array &a : v)
    auto t = to_dlpack(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'to_dlpack' needs an array on a single device, but 'a' is not proven
}

void all_of_not_taken(const std::vector<Array> &v) {
  std::all_of(v.begin(), v.end(), unsharded);
  for (const Array &a : v)
    auto t = to_dlpack(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'to_dlpack' needs an array on a single device, but 'a' is not proven
}

void any_of_single(const std::vector<Array> &v) {
  if (!std::any_of(v.begin(), v.end(), unsharded))
    return;
  for (const Array &a : v)
    auto t = to_dlpack(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'to_dlpack' needs an array on a single device, but 'a' is not proven
}

void other_subscript(const std::vector<Array> &v, size_t i, size_t j) {
  if (!v[i].is_single_device())
    return;
  auto t = to_dlpack(v[j]);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to_dlpack' needs an array on a single device, but 'v[j]' is not proven to be single-device on every path to this call [interop-sharded-dlpack-export]
}

void index_changed(const std::vector<Array> &v, size_t i) {
  if (!v[i].is_single_device())
    return;
  ++i;
  auto t = to_dlpack(v[i]);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to_dlpack' needs an array on a single device, but 'v[i]' is not proven
}

void element_written(std::vector<Array> &v, size_t i, const Array &b) {
  if (!v[i].is_single_device())
    return;
  v[i] = b;
  auto t = to_dlpack(v[i]);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to_dlpack' needs an array on a single device, but 'v[i]' is not proven
}

void container_changed(std::vector<Array> &v, const Array &b) {
  if (!std::all_of(v.begin(), v.end(), unsharded))
    return;
  v.push_back(b);
  for (const Array &a : v)
    auto t = to_dlpack(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'to_dlpack' needs an array on a single device, but 'a' is not proven
}

void all_of_another_container(const std::vector<Array> &v,
                              const std::vector<Array> &w) {
  if (!std::all_of(v.begin(), v.end(), unsharded))
    return;
  for (const Array &a : w)
    auto t = to_dlpack(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'to_dlpack' needs an array on a single device, but 'a' is not proven
}

void all_of_other_fact(const std::vector<Array> &v) {
  if (!std::all_of(v.begin(), v.end(),
                   [](const Array &a) { return a.is_fully_addressable(); }))
    return;
  for (const Array &a : v)
    auto t = to_dlpack(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'to_dlpack' needs an array on a single device, but 'a' is not proven
}

void first_element_only(const std::vector<Array> &v) {
  if (v.empty() || !v.front().is_single_device())
    return;
  for (const Array &a : v)
    auto p = a.unsafe_buffer_pointer();
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'unsafe_buffer_pointer' is supported only for unsharded arrays, but 'a' is not proven
}

void find_if_by_id(DLManagedTensorVersioned *t, int ordinal) {
  const std::vector<Device> all = devices(Platform::kCuda);
  auto it = std::find_if(all.begin(), all.end(), [ordinal](const Device &d) {
    return d.local_hardware_id() == ordinal;
  });
  if (it != all.end())
    auto r = from_dlpack(t, *it);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'from_dlpack' imports onto device '*it', taken from a list of every process's devices, with no addressability check on this path [interop-nonaddressable-dlpack-import]
}

void find_by_value(DLManagedTensorVersioned *t, const Device &wanted) {
  const std::vector<Device> all = devices();
  auto it = std::find(all.begin(), all.end(), wanted);
  if (it != all.end())
    auto r = from_dlpack(t, *it);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'from_dlpack' imports onto device '*it', taken from a list of every process's devices
}

void find_if_by_platform(const std::vector<Array> &v) {
  auto it = std::find_if(v.begin(), v.end(), [](const Array &a) {
    return a.platform() == Platform::kCuda;
  });
  if (it != v.end())
    auto t = to_dlpack(*it);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'to_dlpack' needs an array on a single device, but '*it' is not proven
}

// A write through a subscript: the element is no longer known to be like
// every other.
void all_of_then_element_written(std::vector<Array> &v, size_t i,
                                 const Array &b) {
  if (!std::all_of(v.begin(), v.end(), unsharded))
    return;
  v[i] = b;
  for (const Array &a : v)
    auto t = to_dlpack(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'to_dlpack' needs an array on a single device, but 'a' is not proven
}

// Reading through a non-const subscript writes nothing.
void all_of_then_non_const_read(std::vector<Array> &v) {
  if (!std::all_of(v.begin(), v.end(), unsharded))
    return;
  for (size_t i = 0; i < v.size(); ++i)
    auto p = v[i].unsafe_buffer_pointer();
}

// Loops over scalars and over a C array in a function the flow model runs
// on: their variables have no record location and carry no fact (once a
// crash of the whole run). An element of a C array of arrays is not proven
// by anything.
void scalar_and_c_array_loops(const Array &a, const std::vector<long> &strides,
                              const Array (&pair)[2]) {
  long total = 0;
  for (long s : strides)
    total += s;
  for (const long &s : strides)
    total += s;
  int dims[2] = {1, 2};
  for (int d : dims)
    total += d;
  for (const Array &e : pair)
    auto t = to_dlpack(e);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'to_dlpack' needs an array on a single device, but 'e' is not proven
  if (total < 0 && a.is_single_device())
    return;
  auto t = to_dlpack(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to_dlpack' needs an array on a single device, but 'a' is not proven
}
