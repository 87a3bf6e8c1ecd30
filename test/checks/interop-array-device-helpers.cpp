// RUN: %check_interop %s interop-sharded-dlpack-export,interop-sharded-cuda-array-interface,interop-nonaddressable-dlpack-import %t -- -- -std=c++17 -I%S/Inputs

// Helpers defined in the same translation unit.
// What a helper proves or produces is derived from its body (a summary),
// never from its name: every helper below that proves nothing has a name
// that sounds as if it did.

#include "interop/interop.h"

using namespace interop;

#define RETURN_IF_ERROR(expr)                                                  \
  do {                                                                         \
    Status status_ = (expr);                                                   \
    if (!status_.ok())                                                         \
      return status_;                                                          \
  } while (0)

[[noreturn]] void fail(const char *why);

// --- Predicates ------------------------------------------------------------

static bool exportable(const Array &a) {
  return a.is_single_device() && a.is_fully_addressable();
}
inline bool one_device(const Array &a) { return a.num_devices() == 1; }
bool many_devices(const Array &a) { return a.sharding().num_devices() > 1; }
bool replicated_everywhere(const Array &a) { return a.is_fully_replicated(); }
bool owned_here(const Device &d) { return d.is_addressable(); }

void predicate(const Array &a) {
  if (!exportable(a))
    return;
  auto t = to_dlpack(a);
}

void predicate_in_condition(const Array &a) {
  if (one_device(a))
    auto p = a.unsafe_buffer_pointer();
}

void negative_predicate(const Array &a) {
  if (many_devices(a))
    return;
  auto t = to_dlpack(a);
}

void negative_predicate_taken(const Array &a) {
  if (many_devices(a))
    auto t = to_dlpack(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'to_dlpack' needs an array on a single device, but 'a' is sharded over more than one device on this path; the call will always fail [interop-sharded-dlpack-export]
}

void predicate_proves_something_else(const Array &a) {
  if (!replicated_everywhere(a))
    return;
  auto t = to_dlpack(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to_dlpack' needs an array on a single device, but 'a' is not proven to be single-device on every path to this call [interop-sharded-dlpack-export]
}

void predicate_on_another_array(const Array &a, const Array &b) {
  if (!exportable(a))
    return;
  auto t = to_dlpack(b);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to_dlpack' needs an array on a single device, but 'b' is not proven
}

void addressable_predicate(DLManagedTensorVersioned *t) {
  for (const Device &d : devices()) {
    if (!owned_here(d))
      continue;
    auto r = from_dlpack(t, d);
  }
}

class Bridge {
public:
  bool can_share(const Array &a) const { return a.is_single_device(); }
  Result<ManagedTensor> share(const Array &a) const {
    if (!can_share(a))
      return Status(StatusCode::kBufferError, "sharded");
    return to_dlpack(a);
  }
};

// --- Validators returning a Status -----------------------------------------

Status check_single(const Array &a) {
  if (a.num_devices() != 1)
    return Status(StatusCode::kBufferError, "sharded");
  return ok_status();
}

Status check_local(const Array &a) {
  if (!a.is_fully_addressable())
    return Status(StatusCode::kRuntimeError, "shards on other processes");
  return Status();
}

Status validator_through_macro(const Array &a) {
  RETURN_IF_ERROR(check_single(a));
  auto t = to_dlpack(a);
  return Status();
}

Status validator_tested_directly(const Array &a) {
  Status s = check_single(a);
  if (!s.ok())
    return s;
  auto p = a.unsafe_buffer_pointer();
  return Status();
}

Status validator_proves_something_else(const Array &a) {
  RETURN_IF_ERROR(check_local(a));
  auto t = to_dlpack(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to_dlpack' needs an array on a single device, but 'a' is not proven
  return Status();
}

Status validator_result_ignored(const Array &a) {
  (void)check_single(a);
  auto t = to_dlpack(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to_dlpack' needs an array on a single device, but 'a' is not proven
  return Status();
}

// --- Helpers that throw or do not return unless the fact holds -------------

const Array &require_single(const Array &a) {
  if (!a.is_single_device())
    fail("sharded");
  return a;
}

void ensure_single(const Array &a) {
  if (a.num_devices() > 1)
    fail("sharded");
}

void logs_only(const Array &a);

void throwing_wrapper(const Array &a) { auto t = to_dlpack(require_single(a)); }

void throwing_check(const Array &a) {
  ensure_single(a);
  auto t = to_dlpack(a);
}

void check_without_body(const Array &a) {
  logs_only(a);
  auto t = to_dlpack(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to_dlpack' needs an array on a single device, but 'a' is not proven
}

// --- Helpers that produce arrays and devices -------------------------------

Result<Array> on_one_device(const Array &a, const Device &d) {
  if (a.is_single_device())
    return a;
  return gather(a, d);
}

Array passthrough(const Array &a) { return a; }

void produced_on_one_device(const Array &a, const Device &d) {
  auto v = on_one_device(a, d);
  if (v.ok())
    auto t = to_dlpack(*v);
}

void produced_unchanged(const Array &a) {
  auto t = to_dlpack(passthrough(a));
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to_dlpack' needs an array on a single device, but 'passthrough(a)' is not proven
}

Device pick_local(int i) { return local_devices()[i]; }
Device pick_global(int i) { return devices()[i]; }

void produced_devices(DLManagedTensorVersioned *t) {
  auto local = from_dlpack(t, pick_local(0));
  auto global = from_dlpack(t, pick_global(3));
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'from_dlpack' imports onto device 'pick_global(3)', taken from a list of every process's devices, with no addressability check on this path [interop-nonaddressable-dlpack-import]
}

// --- Bounds: what is not summarised stays unknown ---------------------------

// Recursion is not followed.
bool single_after(const Array &a, int n) {
  return n == 0 ? a.is_single_device() : single_after(a, n - 1);
}

void recursive_helper(const Array &a) {
  if (single_after(a, 2))
    auto t = to_dlpack(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'to_dlpack' needs an array on a single device, but 'a' is not proven
}

// Helpers of helpers are followed up to the depth bound.
static bool exportable_twice(const Array &a) { return exportable(a); }

void nested_helper(const Array &a) {
  if (exportable_twice(a))
    auto t = to_dlpack(a);
}

// --- Facts on one return only, switches, fields, statuses kept -------------

// True on a sharded array when `force`: the fact holds on one return, not
// under "true" on every return.
bool single_or_forced(const Array &a, bool force) {
  if (a.is_single_device())
    return true;
  return force;
}

void one_return_proves(const Array &a, bool force) {
  if (single_or_forced(a, force))
    auto t = to_dlpack(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'to_dlpack' needs an array on a single device, but 'a' is not proven
}

void predicate_false_branch(const Array &a) {
  if (one_device(a))
    return;
  auto t = to_dlpack(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to_dlpack' needs an array on a single device, but 'a' is sharded over more than one device on this path; the call will always fail [interop-sharded-dlpack-export]
}

Status one_device_by_switch(const Array &a) {
  switch (a.num_devices()) {
  case 1:
    return ok_status();
  default:
    return Status(StatusCode::kValueError, "spans several devices");
  }
}

Status switch_validator(const Array &a) {
  if (Status s = one_device_by_switch(a); !s.ok())
    return s;
  auto t = to_dlpack(a);
  return Status();
}

struct Entry {
  const char *name;
  Array array;
};

bool entry_exportable(const Entry &e) { return e.array.is_single_device(); }

Status check_entry(const Entry &e) {
  if (!e.array.is_single_device())
    return Status(StatusCode::kValueError, "sharded entry");
  return ok_status();
}

void field_predicate(const Entry &e) {
  if (entry_exportable(e))
    auto p = e.array.unsafe_buffer_pointer();
}

Status field_validator(const Entry &e) {
  RETURN_IF_ERROR(check_entry(e));
  auto p = e.array.unsafe_buffer_pointer();
  return Status();
}

Status field_validator_other_entry(const Entry &e, const Entry &f) {
  RETURN_IF_ERROR(check_entry(e));
  auto p = f.array.unsafe_buffer_pointer();
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'unsafe_buffer_pointer' is supported only for unsharded arrays, but 'f.array' is not proven
  return Status();
}

Status forwards(const Array &a, Status earlier) {
  if (!a.is_single_device())
    return Status(StatusCode::kBufferError, "sharded");
  return earlier;
}

// A returned status that is not made from an error code may be OK: the
// fact must hold there too. Here it does (the first return is the error).
Status forwarded_status(const Array &a, Status earlier) {
  RETURN_IF_ERROR(forwards(a, earlier));
  auto t = to_dlpack(a);
  return Status();
}

Status passes_anything(const Array &a, Status earlier) {
  if (a.is_single_device())
    return ok_status();
  return earlier;
}

Status forwarded_unchecked(const Array &a, Status earlier) {
  RETURN_IF_ERROR(passes_anything(a, earlier));
  auto t = to_dlpack(a);
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to_dlpack' needs an array on a single device, but 'a' is not proven
  return Status();
}
