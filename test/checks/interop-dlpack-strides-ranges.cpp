// RUN: %check_interop %s interop-dlpack-strides %t -- -- -std=c++17 -I%S/Inputs/dlpack/v1

// The strides pointer handed to a constructor (a view, a container) as an
// array it reads, with ndim as its length or as a [begin, end) range, is read
// there: NULL strides crash in the view or the copy. Behind a NULL check it
// is fine; any other argument pairing, and any plain function (which may be a
// compactness test handling NULL itself), is passing the pointer on.

#include <dlpack/dlpack.h>
#include <stddef.h>

template <typename T> struct ArrayView {
  ArrayView(const T *p, size_t n) : p(p), n(n) {}
  const T *p;
  size_t n;
};
template <typename T> struct Vec {
  Vec(const T *first, const T *last);
};
void wrap_strided(void *first, ArrayView<int64_t> sizes,
                  ArrayView<int64_t> strides);
void keep_pointer(const int64_t *strides, int tag);

void import_tensor(const DLTensor *src) {
  char *first = static_cast<char *>(src->data) + src->byte_offset;
  wrap_strided(first, ArrayView<int64_t>(src->shape, src->ndim),
               ArrayView<int64_t>(src->strides, src->ndim));
  // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: 'strides' passed as an array of 'ndim' elements without a NULL check on this path [interop-dlpack-strides]
  // CHECK-MESSAGES: :[[@LINE-2]]:35: note: a NULL 'strides' means a compact row-major tensor; producers before DLPack 1.2 may send it
}

Vec<int64_t> copy_strides(const DLTensor *src) {
  return Vec<int64_t>(src->strides, src->strides + src->ndim);
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: 'strides' passed as an array of 'ndim' elements without a NULL check on this path [interop-dlpack-strides]
  // CHECK-MESSAGES: :[[@LINE-2]]:23: note: a NULL 'strides' means a compact row-major tensor; producers before DLPack 1.2 may send it
}

// The fixes: NULL strides handled first.
Vec<int64_t> copy_strides_checked(const DLTensor *src) {
  if (!src->strides)
    return Vec<int64_t>(src->shape, src->shape);
  return Vec<int64_t>(src->strides, src->strides + src->ndim);
}

void import_tensor_checked(const DLTensor &src, ArrayView<int64_t> compact) {
  char *first = static_cast<char *>(src.data) + src.byte_offset;
  wrap_strided(first, ArrayView<int64_t>(src.shape, src.ndim),
               src.strides ? ArrayView<int64_t>(src.strides, src.ndim)
                           : compact);
}

// Not an array read here: the pointer is handed on with something else.
void pass_on(const DLTensor &src) { keep_pointer(src.strides, 3); }

// A function taking (strides, ndim) may be a compactness test that handles
// NULL itself: passing the pointer to it is looking at the strides.
bool is_compact(const int64_t *shape, const int64_t *strides, int ndim);
bool compact(const DLTensor *t) {
  return is_compact(t->shape, t->strides, t->ndim);
}

// NULL tested on the way, left to an empty array: nothing is read.
struct invalid {};
Vec<int64_t> strides_or_scalar(const DLTensor &t) {
  if (t.strides == nullptr && t.ndim != 0)
    throw invalid();
  return Vec<int64_t>(t.strides, t.strides + t.ndim);
}
