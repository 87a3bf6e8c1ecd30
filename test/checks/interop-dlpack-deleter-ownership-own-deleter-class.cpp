// RUN: %check_interop %s interop-dlpack-deleter-ownership %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v06

// A class's own by-value managed tensor, whose deleter its constructor
// installs and its destructor calls: what decides is every deleter any
// member of the class ever stores in that field. When each frees only the
// record's fields (the shape and strides the class allocated), and nothing
// else writes the field, its deleter or takes its address, the destructor's
// call frees no copy's address. Anything else keeps the warning.

#include <dlpack/dlpack.h>
#include <stdint.h>

void frees_metadata(DLManagedTensor *self) {
  delete[] self->dl_tensor.shape;
  delete[] self->dl_tensor.strides;
}
void frees_itself(DLManagedTensor *self) { delete self; }
void keep(DLManagedTensor *t);

// Installed by the constructors, called by the destructor: no warning.
class Holder {
public:
  explicit Holder(const DLManagedTensor *in) {
    m_.dl_tensor = in->dl_tensor; // the description, not the record
    m_.dl_tensor.shape = new int64_t[in->dl_tensor.ndim];
    m_.dl_tensor.strides = new int64_t[in->dl_tensor.ndim];
    m_.deleter = frees_metadata;
  }
  Holder() : m_{} {
    m_.deleter = [](DLManagedTensor *self) { delete[] self->dl_tensor.shape; };
  }
  ~Holder() {
    if (m_.deleter)
      m_.deleter(&m_);
  }
  const DLTensor &tensor() const { return m_.dl_tensor; }

private:
  DLManagedTensor m_;
};

// A deleter that tests its argument for null first keeps it as well; a
// member that stores a null deleter leaves nothing to call.
void frees_metadata_if_any(DLManagedTensor *self) {
  if (!self || self == nullptr)
    return;
  delete[] self->dl_tensor.shape;
}
class Resettable {
public:
  Resettable() : m_{} { m_.deleter = frees_metadata_if_any; }
  void forget() {
    m_.manager_ctx = nullptr;
    m_.deleter = nullptr;
  }
  ~Resettable() {
    if (m_.deleter)
      m_.deleter(&m_);
  }

private:
  DLManagedTensor m_;
};

// Another member copies a foreign record in: its deleter is the producer's.
class Adopter {
public:
  Adopter() { m_.deleter = frees_metadata; }
  void adopt(const DLManagedTensor &in) { m_ = in; }
  ~Adopter() { m_.deleter(&m_); }
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: deleter called on 'm_', a by-value copy of the managed tensor; it frees the copy's address, not the tensor the producer allocated [interop-dlpack-deleter-ownership]
  // CHECK-MESSAGES: :[[@LINE+3]]:19: note: 'm_' declared here

private:
  DLManagedTensor m_;
};

// A constructor installs a deleter that frees its argument.
class FreesItself {
public:
  FreesItself() { m_.deleter = frees_metadata; }
  explicit FreesItself(int) { m_.deleter = frees_itself; }
  ~FreesItself() { m_.deleter(&m_); }
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: deleter called on 'm_', a by-value copy of the managed tensor; it frees the copy's address, not the tensor the producer allocated [interop-dlpack-deleter-ownership]
  // CHECK-MESSAGES: :[[@LINE+3]]:19: note: 'm_' declared here

private:
  DLManagedTensor m_;
};

// The record's address escapes to code that may store any deleter.
class Escapes {
public:
  Escapes() {
    m_.deleter = frees_metadata;
    keep(&m_);
  }
  ~Escapes() { m_.deleter(&m_); }
  // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: deleter called on 'm_', a by-value copy of the managed tensor; it frees the copy's address, not the tensor the producer allocated [interop-dlpack-deleter-ownership]
  // CHECK-MESSAGES: :[[@LINE+3]]:19: note: 'm_' declared here

private:
  DLManagedTensor m_;
};

// A public field: code outside the class may store any deleter in it.
struct Open {
  Open() { m.deleter = frees_metadata; }
  ~Open() { m.deleter(&m); }
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: deleter called on 'm', a by-value copy of the managed tensor; it frees the copy's address, not the tensor the producer allocated [interop-dlpack-deleter-ownership]
  // CHECK-MESSAGES: :[[@LINE+1]]:19: note: 'm' declared here
  DLManagedTensor m;
};

namespace std {
template <class T> T &&move(T &t) noexcept { return static_cast<T &&>(t); }
} // namespace std

// Moved between objects of the class: the record another object holds, or
// an empty one, carries only deleters the class installs.
class MovableTensor {
public:
  explicit MovableTensor(int ndim) {
    m_tensor.dl_tensor.shape = new int64_t[ndim];
    m_tensor.deleter = [](DLManagedTensor *self) {
      delete[] self->dl_tensor.shape;
      self->dl_tensor.shape = nullptr;
    };
  }
  MovableTensor(MovableTensor &&that) noexcept
      : m_tensor{std::move(that.m_tensor)} {
    that.m_tensor = {};
  }
  MovableTensor &operator=(MovableTensor &&that) noexcept {
    if (this != &that) {
      if (m_tensor.deleter)
        m_tensor.deleter(&m_tensor);
      m_tensor = std::move(that.m_tensor);
      that.m_tensor = {};
    }
    return *this;
  }
  ~MovableTensor() {
    if (m_tensor.deleter)
      m_tensor.deleter(&m_tensor);
  }

private:
  DLManagedTensor m_tensor{};
};
