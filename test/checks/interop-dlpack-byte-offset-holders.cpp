// RUN: %check_interop %s interop-dlpack-byte-offset %t -- -- -std=c++17 -I%S/Inputs/dlpack/v1

// `data` held by a local object (a smart pointer that runs the DLPack
// deleter) and the object then passed with the tensor's layout: the holder
// is the tensor's storage, read from its first element. The pointer goes
// through the variable; the byte_offset is dropped all the same.

#include <dlpack/dlpack.h>
#include <string.h>

namespace std {
template <class T> struct shared_ptr {
  template <class D> shared_ptr(T *p, D d) : p(p) { (void)d; }
  T *p;
};
template <class T> struct vector {
  vector(const long *first, const long *last);
};
} // namespace std

struct Tensor {
  Tensor(std::shared_ptr<void> storage, std::vector<long> shape, int bits);
  Tensor(std::shared_ptr<void> storage, long offset, std::vector<long> shape);
};

// lmdeploy's shape: the storage pointer is data itself.
Tensor import_tensor(DLManagedTensor *mt) {
  DLTensor &t = mt->dl_tensor;
  std::vector<long> shape(t.shape, t.shape + t.ndim);
  std::shared_ptr<void> storage{t.data, [mt](void *) { mt->deleter(mt); }};
  // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: 'data' used as the address of the first element without adding 'byte_offset' [interop-dlpack-byte-offset]
  return Tensor(storage, shape, t.dtype.bits);
}

// The offset goes along with the holder.
Tensor with_offset(DLManagedTensor *mt) {
  DLTensor &t = mt->dl_tensor;
  std::vector<long> shape(t.shape, t.shape + t.ndim);
  std::shared_ptr<void> storage{t.data, [mt](void *) { mt->deleter(mt); }};
  return Tensor(storage, static_cast<long>(t.byte_offset), shape);
}

// The offset converted to elements in a local first (torchcodec's
// fromDLPack: `offset = es > 0 ? byte_offset / es : 0`) goes along too.
Tensor with_offset_in_elements(DLManagedTensor *mt) {
  DLTensor &t = mt->dl_tensor;
  std::vector<long> shape(t.shape, t.shape + t.ndim);
  std::shared_ptr<void> storage{t.data, [mt](void *) { mt->deleter(mt); }};
  long es = t.dtype.bits / 8;
  long elems = es > 0 ? static_cast<long>(t.byte_offset) / es : 0;
  return Tensor(storage, elems, shape);
}

// A local that only looks like one is not the offset.
Tensor with_other_offset(DLManagedTensor *mt, long skip) {
  DLTensor &t = mt->dl_tensor;
  std::vector<long> shape(t.shape, t.shape + t.ndim);
  std::shared_ptr<void> storage{t.data, [mt](void *) { mt->deleter(mt); }};
  // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: 'data' used as the address of the first element without adding 'byte_offset' [interop-dlpack-byte-offset]
  long elems = skip / (t.dtype.bits / 8);
  return Tensor(storage, elems, shape);
}

// A holder made in place and handed straight to the call that takes the
// layout (OneFlow's storage: `set(unique_ptr(data, free), bytes)`).
struct Storage {
  void set(std::shared_ptr<void> block, long bytes);
};
void import_in_place(DLManagedTensor *mt, Storage &s) {
  DLTensor &t = mt->dl_tensor;
  long bytes = t.shape[0] * (t.dtype.bits / 8);
  s.set(std::shared_ptr<void>(t.data, [mt](void *) { mt->deleter(mt); }),
  // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: 'data' used as the address of the first element without adding 'byte_offset' [interop-dlpack-byte-offset]
        bytes);
}

// A holder that is only kept (a keep-alive) reads nothing.
void keep_alive(DLManagedTensor *mt, std::shared_ptr<void> *out) {
  std::shared_ptr<void> alive{mt->dl_tensor.data,
                              [mt](void *) { mt->deleter(mt); }};
  *out = alive;
}

// A tensor a class builds in its member (it writes the layout) is its own:
// the class placed the frames at `data`.
struct FrameBatch {
  DLTensor batch;
  long frame_bytes = 0;
  void describe(long frames, long bytes) {
    batch.shape[0] = frames;
    frame_bytes = bytes;
  }
  void put(const void *frame, int index) {
    char *dest = static_cast<char *>(batch.data) + frame_bytes * index;
    memcpy(dest, frame, frame_bytes);
  }
};

// The offset given to the object the data is copied into (a view whose
// storage offset it sets) says nothing of where the copy reads from.
struct Dest {
  static Dest make(long offset, long n);
  char *ptr();
};
void copy_into_offset_view(DLManagedTensor *mt) {
  DLTensor &t = mt->dl_tensor;
  long n = t.shape[0];
  Dest d = Dest::make(static_cast<long>(t.byte_offset), n);
  memcpy(d.ptr(), t.data, n);
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'data' used as the address of the first element without adding 'byte_offset' [interop-dlpack-byte-offset]
}

// A runtime's array handle held in a member that the class only ever gives
// tensors it allocates itself (a growable host vector: allocated in its
// constructor, replaced by a larger allocation as it grows) starts at its
// data. A handle member also given one from outside holds an import.
struct Array {
  Array(); // an empty handle
  DLTensor *operator->() const;
  static Array Empty(long n, DLDataType dtype, DLDevice device);
};
class GrowableVector {
public:
  GrowableVector(long n, DLDataType dtype, DLDevice device)
      : data_(Array::Empty(n, dtype, device)), reserved_(n) {}
  void push_back(int value) {
    if (size_ == reserved_) {
      reserved_ *= 2;
      Array bigger = Array::Empty(reserved_, data_->dtype, data_->device);
      memcpy(bigger->data, data_->data, size_ * sizeof(int));
      data_ = bigger;
    }
    static_cast<int *>(data_->data)[size_++] = value;
  }
  int operator[](long i) const { return static_cast<int *>(data_->data)[i]; }

private:
  Array data_;
  long reserved_ = 0, size_ = 0;
};
// Allocated in the constructor's body: the member starts as an empty
// handle, which holds no tensor.
class RingBuffer {
public:
  RingBuffer(long n, DLDataType dtype, DLDevice device) {
    data_ = Array::Empty(n, dtype, device);
  }
  int at(long i) const { return static_cast<int *>(data_->data)[i]; }

private:
  Array data_;
};
class AdoptingVector {
public:
  explicit AdoptingVector(Array given) : data_(given) {}
  int first() const { return static_cast<int *>(data_->data)[0]; }
  // CHECK-MESSAGES: :[[@LINE-1]]:30: warning: 'data' used as the address of the first element without adding 'byte_offset' [interop-dlpack-byte-offset]

private:
  Array data_;
};
