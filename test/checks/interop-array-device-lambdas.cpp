// RUN: %check_interop %s interop-sharded-dlpack-export,interop-nonaddressable-dlpack-import %t -- -- -std=c++17 -I%S/Inputs

// A guard outside, the call inside a lambda. What is
// proven of a captured variable where the lambda is created holds inside it
// when the capture cannot have changed: a capture by copy always, a capture
// by reference when the variable is const (or a reference to const).

#include "interop/interop.h"

using namespace interop;

template <class F> auto with_retry(F &&f) -> decltype(f()) { return f(); }

// Runs a task later, on a worker thread (defined elsewhere).
void submit(void *task, void (*run)(void *task));
template <class F> void run_later(F f) {
  submit(new F(f), [](void *task) {
    F *f = static_cast<F *>(task);
    (*f)();
    delete f;
  });
}

void by_reference_called_here(const Array &a) {
  if (!a.is_single_device())
    return;
  auto f = [&a] { return to_dlpack(a); };
  auto t = f();
}

void by_copy_run_later(Array a) {
  if (!a.is_single_device())
    return;
  run_later([a] { auto t = to_dlpack(a); });
}

void handed_to_helper(const Array &a) {
  if (!a.is_single_device())
    return;
  auto t = with_retry([&] { return to_dlpack(a); });
}

void handed_to_algorithm(const Array &a, const std::vector<int> &streams) {
  if (!a.is_single_device())
    return;
  std::for_each(streams.begin(), streams.end(),
                [&a](int) { auto t = to_dlpack(a); });
}

void gathered_then_captured(const Array &a, const Device &d) {
  auto g = gather(a, d);
  if (!g.ok())
    return;
  const Array local = *g;
  auto f = [&local] { return to_dlpack(local); };
  auto t = f();
}

void device_by_copy(DLManagedTensorVersioned *t, int id) {
  auto d = device_by_id(Platform::kCpu, id);
  if (!d.ok() || !d->is_addressable())
    return;
  const Device target = *d;
  run_later([t, target] { auto r = from_dlpack(t, target); });
}

// --- What does not carry ---------------------------------------------------

// A variable that may change, captured by reference: nothing written after
// the lambda is looked for, so nothing carries (capture it by copy, or make
// it const).
void mutable_by_reference(const Array &a, const Device &d) {
  Array g = a;
  if (!g.is_single_device())
    return;
  auto f = [&g] { return to_dlpack(g); };
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: 'to_dlpack' needs an array on a single device, but 'g' is not proven to be single-device on every path to this call [interop-sharded-dlpack-export]
  auto t = f();
}

// Written after the lambda was made: the guard covered the old value.
void reassigned_after_capture(Array a, const Array &next) {
  if (!a.is_single_device())
    return;
  auto f = [&a] { auto t = to_dlpack(a); };
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: 'to_dlpack' needs an array on a single device, but 'a' is not proven to be single-device on every path to this call [interop-sharded-dlpack-export]
  a = next;
  f();
}

// The guard is on another variable.
void guard_on_other_array(const Array &a, const Array &b) {
  if (!a.is_single_device())
    return;
  auto f = [&] { auto t = to_dlpack(b); };
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: 'to_dlpack' needs an array on a single device, but 'b' is not proven
  f();
}

// The guard is on one path only.
void guard_on_one_path(const Array &a, bool strict) {
  if (strict && !a.is_single_device())
    return;
  run_later([a] { auto t = to_dlpack(a); });
  // CHECK-MESSAGES: :[[@LINE-1]]:28: warning: 'to_dlpack' needs an array on a single device, but 'a' is not proven
}

// Provenance flows into the lambda too: a device of every process, captured
// without a check, is reported where the lambda imports onto it.
void global_device_by_copy(DLManagedTensorVersioned *t) {
  const Device target = devices()[2];
  run_later([t, target] { auto r = from_dlpack(t, target); });
  // CHECK-MESSAGES: :[[@LINE-1]]:36: warning: 'from_dlpack' imports onto device 'target', taken from a list of every process's devices, with no addressability check on this path [interop-nonaddressable-dlpack-import]
}

// A lambda that checks for itself needs nothing from outside (as today).
void checks_inside(const Array &a) {
  auto f = [&a] {
    if (a.is_single_device())
      auto t = to_dlpack(a);
  };
  f();
}
