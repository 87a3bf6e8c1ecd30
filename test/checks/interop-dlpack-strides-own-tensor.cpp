// RUN: %check_interop %s interop-dlpack-strides %t -- -- -std=c++17 -I%S/Inputs/dlpack/v1

// A class that derives from DLTensor is a library's own tensor object: its
// constructors fill in its strides (from the shape when a producer sent
// NULL), so reading them through the object, `this`, or a local reference
// or pointer bound to one is no unchecked read of a producer's strides. A
// DLTensor held as a member or passed in stays a producer's. (tvm-ffi's
// TensorObj and Tensor::stride, TVM's NDArray::CreateView.)

#include <dlpack/dlpack.h>

#include <algorithm>
#include <memory>

struct Object {
  int refs = 0;
};

struct TensorObj : Object, DLTensor {
  int64_t stride_of(int i) const { return strides[i]; }
  int64_t last_stride() const { return this->strides[ndim - 1]; }
};

struct Tensor {
  const TensorObj *get() const;
  TensorObj *get_mutable() const;
  int64_t stride(int i) const {
    const TensorObj *ptr = get();
    return ptr->strides[i];
  }
  int64_t first_stride() const {
    const DLTensor &orig = *get_mutable();
    return orig.strides[0];
  }
  int64_t via_base_pointer() const {
    const DLTensor *base = get();
    return base->strides[0];
  }
};

// A wrapper around any DLTensor: the producer's strides, which may be NULL.
struct TensorView {
  DLTensor tensor_;
  int64_t stride(int i) const { return tensor_.strides[i]; }
  // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: 'strides' dereferenced without a NULL check on this path [interop-dlpack-strides]
  // CHECK-MESSAGES: :[[@LINE-2]]:40: note: a NULL 'strides' means a compact row-major tensor; producers before DLPack 1.2 may send it
};

int64_t plain(const DLTensor &t, const TensorObj &own) {
  int64_t s = own.strides[0];
  return s + t.strides[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: 'strides' dereferenced without a NULL check on this path [interop-dlpack-strides]
  // CHECK-MESSAGES: :[[@LINE-2]]:14: note: a NULL 'strides' means a compact row-major tensor; producers before DLPack 1.2 may send it
}

// A class that fills in the layout of the tensor in its member (its first
// frame allocates and describes it) builds that tensor: reading the
// strides back is reading what it wrote. Every method of the class counts;
// a member only read stays a producer's.
struct TensorDeleter {
  void operator()(DLManagedTensor *t) const;
};
using TensorPtr = std::unique_ptr<DLManagedTensor, TensorDeleter>;
TensorPtr allocate(int64_t bytes);

class BatchBuilder {
  TensorPtr batch;
  DLManagedTensor *given = nullptr;

public:
  void describe(int64_t frames, int64_t height, int64_t width) {
    batch = allocate(frames * height * width);
    auto &dl = batch->dl_tensor;
    dl.shape[0] = frames;
    std::copy_n(&width, 1, dl.strides + 1);
  }
  bool fits(int64_t width) const {
    const auto &dl = batch->dl_tensor;
    return dl.strides[1] == width;
  }
  int64_t given_stride() const {
    return given->dl_tensor.strides[0];
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'strides' dereferenced without a NULL check on this path [interop-dlpack-strides]
    // CHECK-MESSAGES: :[[@LINE-2]]:12: note: a NULL 'strides' means a compact row-major tensor; producers before DLPack 1.2 may send it
  }
};

// A tensor the code's own export returned (TensorSources, default
// `ToDLPack`) is the producer's: a library's test reads back its strides.
struct Array {
  DLManagedTensor *ToDLPack() const;
};
int64_t exported_stride(const Array &a) {
  DLManagedTensor *mt = a.ToDLPack();
  int64_t s = mt->dl_tensor.strides[0];
  mt->deleter(mt);
  return s;
}

// A container of the project's own, handed in by its readers, whose tensor
// the class frees itself (data, shape): only its owner may, so it is the
// class's tensor, compact by construction, not an import.
struct ImageData {
  DLTensor container;
};
void release(void *p);
class Image {
public:
  explicit Image(ImageData *d) : image_data_(d) {}
  ~Image() {
    release(image_data_->container.shape);
    delete[] static_cast<char *>(image_data_->container.data);
  }
  int64_t row_stride() const { return image_data_->container.strides[0]; }

private:
  ImageData *image_data_;
};

// Handed in and never freed by the class: a producer's tensor.
class Borrowed {
public:
  explicit Borrowed(ImageData *d) : image_data_(d) {}
  int64_t row_stride() const { return image_data_->container.strides[0]; }
  // CHECK-MESSAGES: :[[@LINE-1]]:39: warning: 'strides' dereferenced without a NULL check on this path [interop-dlpack-strides]
  // CHECK-MESSAGES: :[[@LINE-2]]:39: note: a NULL 'strides' means a compact row-major tensor; producers before DLPack 1.2 may send it

private:
  ImageData *image_data_;
};

// A class derived from DLTensor made from another tensor in its
// constructor (the analysis initialises the DLTensor base through the
// derived object) and sliced back into a DLTensor: both are judged like any
// other function, and the other tensor's strides are an import's.
struct MadeFrom : DLTensor {
  explicit MadeFrom(const DLManagedTensor *other);
};
MadeFrom::MadeFrom(const DLManagedTensor *other) {
  ndim = other->dl_tensor.ndim;
  data = other->dl_tensor.data;
  strides = other->dl_tensor.strides;
  int64_t first = other->dl_tensor.strides[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'strides' dereferenced without a NULL check on this path [interop-dlpack-strides]
  // CHECK-MESSAGES: :[[@LINE-2]]:19: note: a NULL 'strides' means a compact row-major tensor; producers before DLPack 1.2 may send it
  (void)first;
}
int64_t sliced_stride(const MadeFrom &b) {
  DLTensor plain = b;
  return plain.strides ? plain.strides[0] : 1;
}
