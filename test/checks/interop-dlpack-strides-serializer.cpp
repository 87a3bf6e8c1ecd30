// RUN: %check_interop %s interop-dlpack-strides %t -- -- -std=c++17 -I%S/Inputs/dlpack/v1

// A helper that only tests whether a tensor has strides, or copies their
// values out (a serializer writing a header), cannot tell a strided tensor
// from a compact one: handing it the tensor is not a check of the strides.
// One that compares them is.

#include <dlpack/dlpack.h>
#include <string.h>

#include <vector>

void put_u64(unsigned long long v, unsigned char *out);
void write_block(const char *header, size_t header_len, const void *data,
                 size_t bytes);

static size_t bytes_of(const DLTensor *t) {
  size_t n = (t->dtype.bits * t->dtype.lanes + 7) / 8;
  for (int i = 0; i < t->ndim; ++i)
    n *= t->shape[i];
  return n;
}

static std::vector<unsigned char> serialize(const DLTensor *t) {
  std::vector<unsigned char> out(8 * (2 * t->ndim + 1));
  unsigned char *p = out.data();
  *p++ = t->strides != nullptr;
  for (int i = 0; i < t->ndim; ++i, p += 8)
    put_u64(t->shape[i], p);
  if (t->strides)
    for (int i = 0; i < t->ndim; ++i, p += 8)
      put_u64(t->strides[i], p);
  return out;
}

void cache_tensor(DLManagedTensor *mt, char *dst) {
  std::vector<unsigned char> header = serialize(&mt->dl_tensor);
  memcpy(dst, mt->dl_tensor.data, bytes_of(&mt->dl_tensor));
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: tensor data copied as one compact block, but its 'strides' are never checked [interop-dlpack-strides]
  (void)header;
}

// Copied into another struct's array: still not compared.
struct Header {
  long long strides[8];
  int ndim;
};
static void fill_header(Header &h, const DLTensor &t) {
  h.ndim = t.ndim;
  for (int i = 0; i < t.ndim && i < 8; ++i)
    h.strides[i] = t.strides ? t.strides[i] : 0;
}
void cache_with_header(const DLTensor &t, char *dst) {
  Header h;
  fill_header(h, t);
  memcpy(dst, t.data, bytes_of(&t));
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: tensor data copied as one compact block, but its 'strides' are never checked [interop-dlpack-strides]
}

// --- Correct: the helper compares the strides ----------------------------

static bool row_major(const DLTensor *t) {
  if (!t->strides)
    return true;
  long long expect = 1;
  for (int i = t->ndim - 1; i >= 0; --i) {
    if (t->strides[i] != expect)
      return false;
    expect *= t->shape[i];
  }
  return true;
}
bool cache_checked(DLManagedTensor *mt, char *dst) {
  if (!row_major(&mt->dl_tensor))
    return false;
  memcpy(dst, mt->dl_tensor.data, bytes_of(&mt->dl_tensor));
  return true;
}
