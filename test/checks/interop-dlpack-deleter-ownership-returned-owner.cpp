// RUN: %check_interop %s interop-dlpack-deleter-ownership %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// A function named by TensorSources (toDLPack, to_dlpack) promises its
// callers the managed tensor it returns: they delete it. Returning a tensor
// that an owning smart pointer still holds breaks that promise: the smart
// pointer deletes it too (a member, when the object dies; a local, at the
// return itself). release() hands it on; an accessor under another name
// only lends it.

#include <dlpack/dlpack.h>

namespace std {
template <class T> struct default_delete {
  void operator()(T *p) const { delete p; }
};
template <class T, class D = default_delete<T>> class unique_ptr {
public:
  explicit unique_ptr(T *p);
  unique_ptr(unique_ptr &&);
  ~unique_ptr();
  T *operator->() const;
  T *get() const;
  T *release();
  void reset(T *p = nullptr);
  explicit operator bool() const;
};
template <class T> class shared_ptr {
public:
  template <class Y, class D> shared_ptr(Y *p, D);
  T *get() const;
};
} // namespace std

struct DeleterCalling {
  void operator()(DLManagedTensor *t) const {
    if (t && t->deleter)
      t->deleter(t);
  }
};

// Does not own: the tensor belongs to someone else.
struct KeepAlive {
  void operator()(DLManagedTensor *) const {}
};

class Tensor {
public:
  explicit Tensor(DLManagedTensor *t) : tensor_(t) {}

  DLManagedTensor *ToDLPack() { return tensor_.get(); }
  // CHECK-MESSAGES: :[[@LINE-1]]:33: warning: 'ToDLPack' returns a managed tensor that 'tensor_' still owns: callers own what 'ToDLPack' returns (TensorSources) and delete it, and 'tensor_' deletes it too; hand it on with release() [interop-dlpack-deleter-ownership]
  // CHECK-MESSAGES: :69:52: note: 'tensor_' declared here

  // Handed on: the caller owns it alone.
  DLManagedTensor *toDLPackReleased() { return tensor_.release(); }

  // Lent: the name promises nothing.
  DLManagedTensor *tensor() const { return tensor_.get(); }

  // The pointer kept in a local first is the same tensor.
  DLManagedTensor *to_dlpack() {
    DLManagedTensor *out = tensor_.get();
    return out;
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'to_dlpack' returns a managed tensor that 'tensor_' still owns
    // CHECK-MESSAGES: :69:52: note: 'tensor_' declared here
  }

private:
  std::unique_ptr<DLManagedTensor, DeleterCalling> tensor_;
};

// A local smart pointer deletes the tensor as the function returns.
DLManagedTensor *makeToDLPack() {
  std::unique_ptr<DLManagedTensor> p(new DLManagedTensor());
  return p.get();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'makeToDLPack' returns a managed tensor that 'p' still owns
  // CHECK-MESSAGES: :[[@LINE-3]]:36: note: 'p' declared here
}

// Released before the return: handed on.
DLManagedTensor *buildToDLPack() {
  std::unique_ptr<DLManagedTensor> p(new DLManagedTensor());
  DLManagedTensor *out = p.get();
  p.release();
  return out;
}

// A smart pointer whose deleter keeps the tensor does not own it.
class View {
public:
  DLManagedTensor *ToDLPack() { return view_.get(); }

private:
  std::unique_ptr<DLManagedTensor, KeepAlive> view_;
};

// Shared ownership is still ownership.
class Shared {
public:
  DLManagedTensor *to_dlpack() { return keep_.get(); }
  // CHECK-MESSAGES: :[[@LINE-1]]:34: warning: 'to_dlpack' returns a managed tensor that 'keep_' still owns
  // CHECK-MESSAGES: :[[@LINE+3]]:36: note: 'keep_' declared here

private:
  std::shared_ptr<DLManagedTensor> keep_;
};
