// RUN: %check_interop %s interop-dlpack-deleter-ownership %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v06

// A deleter called on a by-value managed tensor frees the copy's address,
// unless the deleter is one this very function installed in that record and
// it never frees its argument (CV-CUDA's DLPackTensor constructors install a
// lambda that frees only the shape and strides arrays, and call it on their
// own member when they fail).

#include <dlpack/dlpack.h>
#include <stdint.h>

struct runtime_error {
  explicit runtime_error(const char *what);
};
extern bool fails;
void opaque(DLManagedTensor *t);

class Tensor {
public:
  // Installed here, frees only fields: no warning.
  explicit Tensor(int ndim) : m_tensor{} {
    m_tensor.deleter = [](DLManagedTensor *self) {
      delete[] self->dl_tensor.shape;
      self->dl_tensor.shape = nullptr;
    };
    try {
      m_tensor.dl_tensor.shape = new int64_t[ndim];
      if (fails)
        throw runtime_error("bad shape");
    } catch (...) {
      m_tensor.deleter(&m_tensor);
      throw;
    }
  }
  // Reset, then installed, in the body: no warning.
  Tensor(int ndim, int) {
    m_tensor = {};
    m_tensor.deleter = [](DLManagedTensor *self) {
      delete[] self->dl_tensor.shape;
    };
    if (fails)
      m_tensor.deleter(&m_tensor);
  }
  // The installed deleter frees its argument: the copy's address.
  Tensor(int ndim, long) : m_tensor{} {
    m_tensor.deleter = [](DLManagedTensor *self) { delete self; };
    if (fails)
      m_tensor.deleter(&m_tensor);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: deleter called on 'm_tensor', a by-value copy of the managed tensor; it frees the copy's address, not the tensor the producer allocated [interop-dlpack-deleter-ownership]
    // CHECK-MESSAGES: :[[@LINE+43]]:19: note: 'm_tensor' declared here
  }
  // ... or hands it on, which may free it.
  Tensor(int ndim, char) : m_tensor{} {
    m_tensor.deleter = [](DLManagedTensor *self) { opaque(self); };
    if (fails)
      m_tensor.deleter(&m_tensor);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: deleter called on 'm_tensor', a by-value copy of the managed tensor; it frees the copy's address, not the tensor the producer allocated [interop-dlpack-deleter-ownership]
    // CHECK-MESSAGES: :[[@LINE+35]]:19: note: 'm_tensor' declared here
  }
  // Installed on one path only: on the other the deleter is the one the
  // record came with.
  Tensor(DLManagedTensor &&from, bool own) : m_tensor(from) {
    if (own)
      m_tensor.deleter = [](DLManagedTensor *self) {
        delete[] self->dl_tensor.shape;
      };
    if (fails)
      m_tensor.deleter(&m_tensor);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: deleter called on 'm_tensor', a by-value copy of the managed tensor; it frees the copy's address, not the tensor the producer allocated [interop-dlpack-deleter-ownership]
    // CHECK-MESSAGES: :[[@LINE+23]]:19: note: 'm_tensor' declared here
  }
  // Overwritten by a foreign record after the store.
  Tensor(const DLManagedTensor &from, int) : m_tensor{} {
    m_tensor.deleter = [](DLManagedTensor *self) {
      delete[] self->dl_tensor.shape;
    };
    m_tensor = from;
    if (fails)
      m_tensor.deleter(&m_tensor);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: deleter called on 'm_tensor', a by-value copy of the managed tensor; it frees the copy's address, not the tensor the producer allocated [interop-dlpack-deleter-ownership]
    // CHECK-MESSAGES: :[[@LINE+12]]:19: note: 'm_tensor' declared here
  }
  // The destructor did not install the deleter: a foreign record's may
  // free its argument.
  ~Tensor() {
    if (m_tensor.deleter)
      m_tensor.deleter(&m_tensor);
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: deleter called on 'm_tensor', a by-value copy of the managed tensor; it frees the copy's address, not the tensor the producer allocated [interop-dlpack-deleter-ownership]
    // CHECK-MESSAGES: :[[@LINE+4]]:19: note: 'm_tensor' declared here
  }

private:
  DLManagedTensor m_tensor;
};

// A local record and a named function that frees only fields.
static void free_shape(DLManagedTensor *self) { delete[] self->dl_tensor.shape; }
void local(int ndim) {
  DLManagedTensor t{};
  t.deleter = free_shape;
  t.dl_tensor.shape = new int64_t[ndim];
  t.deleter(&t);
}
