// ShardedPredicates: a project's own predicate that is true when the array
// is NOT on one device (`if (t.is_sharded()) return;` guards an export).
// A const member predicate whose inline body tests the device count is read
// from its body, without any option.
// RUN: %check_interop %s interop-sharded-dlpack-export %t -- \
// RUN:   -config="{CheckOptions: { \
// RUN:     ArrayTypes: '::mylib::Tensor', \
// RUN:     ExportFunctions: '::mylib::to_dlpack', \
// RUN:     SingleDevicePredicates: '', \
// RUN:     ShardedPredicates: '::mylib::Tensor::is_sharded', \
// RUN:     DeviceCountFunctions: '::mylib::Tensor::device_count'}}" \
// RUN:   -- -std=c++17
//
// RUN: %clang_tidy --checks='-*,interop-sharded-dlpack-export' --dump-config -- -std=c++17 | FileCheck %s --check-prefix=DEFAULT
// DEFAULT: interop-sharded-dlpack-export.ShardedPredicates: ''

namespace mylib {
struct Capsule {};
class Tensor {
public:
  bool is_sharded() const; // defined elsewhere
  int device_count() const;
  bool spans_devices() const { return device_count() > 1; }
  bool one_device() const { return device_count() == 1; }
};
Capsule to_dlpack(const Tensor &t);
} // namespace mylib

using namespace mylib;
void keep(const Capsule &);

void guarded(const Tensor &t) {
  if (t.is_sharded())
    return;
  keep(to_dlpack(t));
}

void guarded_by_inline_body(const Tensor &t) {
  if (t.spans_devices())
    return;
  keep(to_dlpack(t));
}

void guarded_by_inline_positive(const Tensor &t) {
  if (!t.one_device())
    return;
  keep(to_dlpack(t));
}

// The opposite test lets only sharded arrays through.
void inverted(const Tensor &t) {
  if (!t.is_sharded())
    return;
  keep(to_dlpack(t));
  // CHECK-MESSAGES: :[[@LINE-1]]:8: warning: 'to_dlpack' needs an array on a single device, but 't' is sharded over more than one device on this path; the call will always fail [interop-sharded-dlpack-export]
  // CHECK-MESSAGES: :[[@LINE-2]]:8: note: copy the array onto one device with 'gather' before exporting it
}

// The device count still speaks for itself.
void by_count(const Tensor &t) {
  if (t.device_count() != 1)
    return;
  keep(to_dlpack(t));
}
