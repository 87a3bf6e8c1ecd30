// RUN: %check_interop %s interop-dlpack-strides %t -- -- -std=c++17 -I%S/Inputs/dlpack/v1

// A same-TU predicate that is true on NULL strides proves them non-NULL when
// it returns false (read from its body: evaluated with NULL and non-NULL
// strides), and what the enclosing function proves of a capture that cannot
// change (a copy, or a reference to const) holds in a lambda it creates:
// strides read in an immediately invoked lambda after `if (is_compact(t))
// return` are safe.

#include <dlpack/dlpack.h>

namespace {

bool is_compact(const DLTensor &t) {
  if (t.strides == nullptr)
    return true;
  int64_t expect = 1;
  for (int i = t.ndim - 1; i >= 0; --i) {
    if (t.strides[i] != expect)
      return false;
    expect *= t.shape[i];
  }
  return true;
}

// The other polarity: false on NULL strides.
bool has_strides(const DLTensor *t) { return t->strides != nullptr; }

// Says nothing of NULL strides: true or false either way.
bool first_dim_unit(const DLTensor &t) {
  if (!t.strides)
    return t.shape[0] == 1;
  return t.strides[0] == 1;
}

} // namespace


int64_t reject_reason(const DLTensor &t) {
  if (is_compact(t))
    return 0;
  return [&t]() {
    int64_t s = 0;
    for (int i = 0; i < t.ndim; ++i)
      s += t.strides[i];
    return s;
  }();
}

int64_t by_copy(DLTensor t) {
  if (is_compact(t))
    return 0;
  return [t]() { return t.strides[0]; }();
}

int64_t direct(const DLTensor &t) {
  if (is_compact(t))
    return 0;
  return t.strides[0];
}

int64_t other_polarity(const DLTensor *t) {
  if (!has_strides(t))
    return 0;
  return t->strides[0];
}

// --- Findings --------------------------------------------------------------

int64_t wrong_polarity(const DLTensor &t) {
  if (!is_compact(t))
    return 0;
  return t.strides[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'strides' dereferenced without a NULL check on this path [interop-dlpack-strides]
  // CHECK-MESSAGES: :[[@LINE-2]]:10: note: a NULL 'strides' means a compact row-major tensor; producers before DLPack 1.2 may send it
}

int64_t says_nothing(const DLTensor &t) {
  if (first_dim_unit(t))
    return 0;
  return t.strides[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'strides' dereferenced without a NULL check on this path [interop-dlpack-strides]
  // CHECK-MESSAGES: :[[@LINE-2]]:10: note: a NULL 'strides' means a compact row-major tensor
}

// A reference to a tensor that may change: the lambda is judged alone.
int64_t mutable_capture(DLTensor &t) {
  if (is_compact(t))
    return 0;
  return [&t]() { return t.strides[0]; }();
  // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: 'strides' dereferenced without a NULL check on this path [interop-dlpack-strides]
  // CHECK-MESSAGES: :[[@LINE-2]]:26: note: a NULL 'strides' means a compact row-major tensor
}

// The guard is after the lambda is made.
int64_t guard_after_lambda(const DLTensor &t) {
  auto first = [&t]() { return t.strides[0]; };
  if (is_compact(t))
    return 0;
  return first();
  // CHECK-MESSAGES: :[[@LINE-4]]:32: warning: 'strides' dereferenced without a NULL check on this path [interop-dlpack-strides]
  // CHECK-MESSAGES: :[[@LINE-5]]:32: note: a NULL 'strides' means a compact row-major tensor
}

// A void validator that returns only for non-NULL strides (it throws or
// aborts on NULL ones) proves them past its call; one that also lets NULL
// strides through does not.
#include <stdexcept>
namespace {
void require_strides(const DLTensor &t, int ndim) {
  if (t.strides == nullptr || t.ndim != ndim)
    throw std::invalid_argument("bad tensor");
}
void require_rank(const DLTensor &t, int ndim) {
  if (t.ndim != ndim)
    throw std::invalid_argument("bad rank");
}
} // namespace
long leading_stride(const DLTensor &t) {
  require_strides(t, 2);
  return t.strides[0];
}
long leading_stride_rank_only(const DLTensor &t) {
  require_rank(t, 2);
  return t.strides[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'strides' dereferenced without a NULL check on this path [interop-dlpack-strides]
}

// A runtime's tensor handle whose method looks at the strides of the tensor
// its `operator->` gives (`h.IsContiguous()` calling a compactness check on
// `*get()`) checks them, as the same check on `*h.get()` would; a method
// that does not look at them checks nothing.
namespace rt {
class Array {
public:
  DLTensor *operator->() const;
  const DLTensor *get() const;
  bool IsContiguous() const { return is_compact(*get()); }
  long Size() const;
};
} // namespace rt
// The sum of a handle's elements when the guard G holds.
#define SUM_IF(G)                                                              \
  if (!(G))                                                                    \
    throw std::invalid_argument("rejected");                                   \
  const float *p = reinterpret_cast<const float *>(                            \
      static_cast<const char *>(a->data) + a->byte_offset);                    \
  float s = 0;                                                                 \
  for (long i = 0; i < a->shape[0]; ++i)                                       \
    s += p[i];                                                                 \
  return s
float sum_contiguous(const rt::Array &a) { SUM_IF(a.IsContiguous()); }
float sum_sized(const rt::Array &a) { SUM_IF(a.Size() != 0); }
// CHECK-MESSAGES: :[[@LINE-1]]:39: warning: tensor data indexed as if compact, but its 'strides' are never checked [interop-dlpack-strides]
