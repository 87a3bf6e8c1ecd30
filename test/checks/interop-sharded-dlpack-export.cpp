// RUN: %check_interop %s interop-sharded-dlpack-export %t -- -- -std=c++17 -I%S/Inputs -UNDEBUG

#include "interop/interop.h"
#include <cassert>

using namespace interop;

Array make_sharded();
Array make_other();
bool flag();
void consume(const ManagedTensor &);

// JAX's "to_dlpack can only pack a dlpack tensor from an array on a singular
// device": exporting an array nobody checked.
void unchecked(const Array &a) {
  auto t = to_dlpack(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to_dlpack' needs an array on a single device, but 'a' is not proven to be single-device on every path to this call [interop-sharded-dlpack-export]
  // CHECK-MESSAGES: :[[@LINE-3]]:29: note: 'a' is a parameter: nothing in this function proves it is on a single device
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: check 'is_single_device()' first, or copy the array onto one device with 'gather'
}

void from_unknown_producer() {
  Array a = make_sharded();
  auto t = to_dlpack(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to_dlpack' needs an array on a single device, but 'a' is not proven
  // CHECK-MESSAGES: :[[@LINE-3]]:13: note: the value comes from 'make_sharded'; nothing proves it is on a single device
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: check 'is_single_device()' first
}

void dlpack_device_too(const Array &a) {
  auto d = dlpack_device(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'dlpack_device' needs an array on a single device, but 'a' is not proven
  // CHECK-MESSAGES: :[[@LINE-3]]:37: note: 'a' is a parameter
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: check 'is_single_device()' first
}

// --- Guards that prove the array is on one device -------------------------

void if_guard(const Array &a) {
  if (a.is_single_device())
    auto t = to_dlpack(a);
}

void negated_early_return(const Array &a) {
  if (!a.is_single_device())
    return;
  auto t = to_dlpack(a);
}

void continue_in_loop(const std::vector<Array> &arrays) {
  for (const Array &a : arrays) {
    if (!a.is_single_device())
      continue;
    auto t = to_dlpack(a);
  }
}

void break_in_loop(const Array &a) {
  while (flag()) {
    if (!a.is_single_device())
      break;
    auto t = to_dlpack(a);
  }
}

void asserted(const Array &a) {
  assert(a.is_single_device());
  auto t = to_dlpack(a);
}

void guard_in_local_bool(const Array &a) {
  bool one = a.is_single_device();
  if (!one)
    return;
  auto t = to_dlpack(a);
}

void conjunction(const Array &a, const Array &b) {
  if (a.is_single_device() && b.is_single_device()) {
    auto ta = to_dlpack(a);
    auto tb = to_dlpack(b);
  }
}

void disjunction(const Array &a, const Array &b) {
  if (!a.is_single_device() || !b.is_single_device())
    return;
  auto ta = to_dlpack(a);
  auto tb = to_dlpack(b);
}

void count_equals_one(const Array &a) {
  if (a.num_devices() == 1)
    auto t = to_dlpack(a);
}

void count_not_one(const Array &a) {
  if (a.num_devices() != 1)
    return;
  auto t = to_dlpack(a);
}

void count_greater_than_one(const Array &a) {
  if (a.num_devices() > 1)
    return;
  auto t = to_dlpack(a);
}

void count_reversed_and_stored(const Array &a) {
  size_t n = a.num_devices();
  if (1 < n)
    return;
  auto t = to_dlpack(a);
}

void sharding_count(const Array &a) {
  if (a.sharding().num_devices() == 1)
    auto t = to_dlpack(a);
}

void sharding_predicate(const Array &a) {
  const Sharding &s = a.sharding();
  if (s.is_single_device())
    auto t = to_dlpack(a);
}

void sharding_device_list_size(const Array &a) {
  if (a.sharding().devices().size() == 1)
    auto t = to_dlpack(a);
}

void ternary_guarded_arm(const Array &a) {
  auto t = a.is_single_device() ? to_dlpack(a) : to_dlpack(*gather(a, local_devices()[0]));
}

struct Holder {
  Array array;
  const Array &get() const;
};

void member(const Holder &h) {
  if (h.array.is_single_device())
    auto t = to_dlpack(h.array);
}

void member_getter(const Holder &h) {
  if (!h.get().is_single_device())
    return;
  auto t = to_dlpack(h.get());
}

void lambda(const Array &a) {
  auto f = [&a] {
    if (a.is_single_device())
      auto t = to_dlpack(a);
  };
  f();
}

// --- Single-device producers ---------------------------------------------

void gather_result(const Array &a, const Device &d) {
  auto g = gather(a, d);
  if (!g.ok())
    return;
  auto t1 = to_dlpack(*g);
  auto t2 = to_dlpack(g.value());
  auto t3 = to_dlpack(*g.operator->());
  Array copy = std::move(g).value();
  auto t4 = to_dlpack(copy);
}

void gather_inline(const Array &a) {
  auto t = to_dlpack(gather(a, local_devices()[0]).value());
}

void shards(const Array &a) {
  for (const Array &shard : a.addressable_shards())
    auto t = to_dlpack(shard);
  std::vector<Array> all = a.addressable_shards();
  auto t0 = to_dlpack(all[0]);
  auto one = a.addressable_data(1);
  auto t1 = to_dlpack(*one);
}

void imported(DLManagedTensorVersioned *tensor) {
  auto r = from_dlpack(tensor, local_devices()[0]);
  if (r.ok())
    auto t = to_dlpack(*r);
}

void made_on_single_device_sharding(const void *data) {
  Sharding s = Sharding::single_device(local_devices()[0]);
  auto r = Array::from_host(data, 16, {}, DLDataType{2, 32, 1}, s);
  auto t = to_dlpack(*r);
}

void made_on_unknown_sharding(const void *data, const Sharding &s) {
  auto r = Array::from_host(data, 16, {}, DLDataType{2, 32, 1}, s);
  auto t = to_dlpack(*r);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to_dlpack' needs an array on a single device, but '*r' is not proven
  // CHECK-MESSAGES: :[[@LINE-2]]:12: note: check 'is_single_device()' first
}

// --- What does not prove it ----------------------------------------------

void guard_on_one_path_only(const Array &a) {
  if (flag()) {
    if (!a.is_single_device())
      return;
  }
  auto t = to_dlpack(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to_dlpack' needs an array on a single device, but 'a' is not proven
  // CHECK-MESSAGES: :[[@LINE-7]]:42: note: 'a' is a parameter
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: check 'is_single_device()' first
}

void guard_on_another_array(const Array &a, const Array &b) {
  if (!a.is_single_device())
    return;
  auto t = to_dlpack(b);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to_dlpack' needs an array on a single device, but 'b' is not proven
  // CHECK-MESSAGES: :[[@LINE-5]]:58: note: 'b' is a parameter
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: check 'is_single_device()' first
}

void reassigned_after_guard(Array a) {
  if (!a.is_single_device())
    return;
  a = make_other();
  auto t = to_dlpack(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to_dlpack' needs an array on a single device, but 'a' is not proven
  // CHECK-MESSAGES: :[[@LINE-3]]:7: note: the value comes from 'make_other'; nothing proves it is on a single device
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: check 'is_single_device()' first
}

void stored_guard_is_stale(Array a, const Array &b) {
  bool one = a.is_single_device();
  a = b;
  if (one)
    auto t = to_dlpack(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'to_dlpack' needs an array on a single device, but 'a' is not proven
  // CHECK-MESSAGES: :[[@LINE-6]]:50: note: 'b' is a parameter
  // CHECK-MESSAGES: :[[@LINE-3]]:14: note: check 'is_single_device()' first
}

void ternary_unguarded_arm(const Array &a) {
  auto t = a.is_single_device() ? to_dlpack(*gather(a, local_devices()[0])) : to_dlpack(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:79: warning: 'to_dlpack' needs an array on a single device, but 'a' is sharded over more than one device on this path; the call will always fail
  // CHECK-MESSAGES: :[[@LINE-2]]:79: note: copy the array onto one device with 'gather' before exporting it
}

void count_two_or_more(const Array &a) {
  if (a.num_devices() >= 2)
    auto t = to_dlpack(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'to_dlpack' needs an array on a single device, but 'a' is sharded over more than one device on this path; the call will always fail
  // CHECK-MESSAGES: :[[@LINE-2]]:14: note: copy the array onto one device
}

void shard_guard_says_nothing_about_array(const Array &a) {
  for (const Array &shard : a.addressable_shards())
    if (shard.is_single_device())
      auto t = to_dlpack(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'to_dlpack' needs an array on a single device, but 'a' is not proven
  // CHECK-MESSAGES: :[[@LINE-5]]:56: note: 'a' is a parameter
  // CHECK-MESSAGES: :[[@LINE-3]]:16: note: check 'is_single_device()' first
}

void lambda_unguarded(const Array &a) {
  auto f = [&a] { auto t = to_dlpack(a); };
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: 'to_dlpack' needs an array on a single device, but 'a' is not proven
  // CHECK-MESSAGES: :[[@LINE-3]]:36: note: 'a' is a parameter
  // CHECK-MESSAGES: :[[@LINE-3]]:28: note: check 'is_single_device()' first
  f();
}

void loop_carried(const std::vector<Array> &arrays) {
  Array last = make_sharded();
  for (const Array &a : arrays) {
    auto t = to_dlpack(last);
    // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'to_dlpack' needs an array on a single device, but 'last' is not proven
    // CHECK-MESSAGES: :[[@LINE-4]]:16: note: the value comes from 'make_sharded'
    // CHECK-MESSAGES: :[[@LINE-3]]:14: note: check 'is_single_device()' first
    if (a.is_single_device())
      last = a;
  }
}

// Unreachable code is not judged; uninstantiated templates are judged per
// instantiation.
void unreachable(const Array &a) {
  return;
  auto t = to_dlpack(a);
}

template <typename T> void generic(const T &a) {
  if (a.is_single_device())
    auto t = to_dlpack(a);
}
template void generic<Array>(const Array &);
