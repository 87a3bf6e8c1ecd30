// RUN: %check_interop %s interop-dlpack-strides %t -- -- -std=c++17 -I%S/Inputs/dlpack/v1

// A class that keeps an imported tensor's data and its shape in members,
// and whose members never read the strides, can only index the data as a
// compact array: a transposed or sliced tensor is read wrongly.

#include <dlpack/dlpack.h>

#include <cstddef>
#include <cstdint>
#include <vector>

template <typename T> bool dtype_matches(DLDataType d) {
  return d.lanes == 1 && d.bits == 8 * sizeof(T);
}

// A class template is judged by its instantiation's members: the dependent
// call dtype_matches<T>(...) names a function whose body reads no strides.
template <typename T> class Array {
public:
  explicit Array(DLManagedTensor *managed) : managed_(managed) {
    DLTensor &t = managed_->dl_tensor;
    if (!dtype_matches<T>(t.dtype))
      throw 1;
    data_ = reinterpret_cast<T *>(static_cast<char *>(t.data) + t.byte_offset);
    // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: tensor data kept in 'data_' with the tensor's shape, as one compact block, but its 'strides' are never checked [interop-dlpack-strides]
    // CHECK-MESSAGES: :[[@LINE-2]]:13: note: non-NULL 'strides' may be non-compact (transposed, broadcast, sliced); compare them with the compact strides or reject them
    for (int i = 0; i < t.ndim; ++i)
      shape_.push_back(static_cast<std::size_t>(t.shape[i]));
  }
  ~Array() {
    if (managed_ && managed_->deleter)
      managed_->deleter(managed_);
  }
  DLDevice device() const { return managed_->dl_tensor.device; }
  T operator()(std::size_t i, std::size_t j) const {
    return data_[i * shape_[1] + j];
  }

private:
  DLManagedTensor *managed_;
  T *data_ = nullptr;
  std::vector<std::size_t> shape_;
};

template class Array<float>;

// The constructor rejects non-compact strides: correct.
class Checked {
public:
  explicit Checked(const DLTensor &t) {
    if (t.strides && t.ndim == 2 &&
        (t.strides[1] != 1 || t.strides[0] != t.shape[1]))
      throw 1;
    data_ = static_cast<float *>(t.data) + t.byte_offset / sizeof(float);
    rows_ = t.shape[0];
    cols_ = t.shape[1];
  }

private:
  float *data_;
  std::int64_t rows_, cols_;
};

// The strides are kept too and read by another member: not judged here.
class Strided {
public:
  explicit Strided(const DLTensor &t)
      : data_(static_cast<char *>(t.data) + t.byte_offset), ndim_(t.ndim),
        shape_(t.shape), strides_(t.strides) {}
  std::int64_t stride(int d) const { return strides_ ? strides_[d] : 1; }

private:
  char *data_;
  int ndim_;
  std::int64_t *shape_;
  std::int64_t *strides_;
};

// Only the data kept (a deleter's context), no shape: not an array view.
class Handle {
public:
  explicit Handle(const DLTensor &t)
      : ptr_(static_cast<char *>(t.data) + t.byte_offset) {}

private:
  void *ptr_;
};
