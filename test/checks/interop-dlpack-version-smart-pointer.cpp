// RUN: %check_interop %s interop-dlpack-version,interop-dlpack-byte-offset \
// RUN:   %t -- -- -std=c++17 -I%S/Inputs/dlpack/v1

// A versioned tensor adopted by a std::shared_ptr or std::unique_ptr (with a
// deleting custom deleter) and read through it is the tensor the function
// received: owner->, *owner and owner.get() give back the raw pointer the
// smart pointer was made from, and copies of the smart pointer keep it
// (MatX's make_tensor(tensor, DLManagedTensorVersioned
// *)).

#include <dlpack/dlpack.h>

namespace std {
// As in libstdc++, operator-> and get() are members of a base class.
template <class T> struct shared_ptr_access {
  T *operator->() const;
  T *get() const;
};
template <class T> class shared_ptr : public shared_ptr_access<T> {
  T *ptr;

public:
  template <class Y, class D> shared_ptr(Y *p, D) : ptr(p) {}
  template <class Y> shared_ptr(const shared_ptr<Y> &r, T *alias);
  shared_ptr(const shared_ptr &);
  T &operator*() const;
};
template <class T> struct default_delete {
  void operator()(T *) const;
};
template <class T, class D = default_delete<T>> class unique_ptr {
public:
  explicit unique_ptr(T *p);
  unique_ptr(unique_ptr &&);
  T *operator->() const;
  T &operator*() const;
  T *get() const;
};
template <class T, class... A> unique_ptr<T> make_unique(A &&...);
template <class T, class... A> shared_ptr<T> make_shared(A &&...);
} // namespace std

struct View {
  std::shared_ptr<DLManagedTensorVersioned> keep;
  void *first;
};

View adopt(DLManagedTensorVersioned *mt) {
  auto owner = std::shared_ptr<DLManagedTensorVersioned>(
      mt, [](DLManagedTensorVersioned *m) {
        if (m && m->deleter)
          m->deleter(m);
      });
  const DLTensor &dt = owner->dl_tensor;
  // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: 'dl_tensor' of a versioned tensor
  // used without checking 'version.major' on this path [interop-dlpack-version]
  return View{owner, static_cast<char *>(dt.data) + dt.byte_offset};
}

// The check made through the smart pointer is the check of the tensor.
View adoptChecked(DLManagedTensorVersioned *mt) {
  auto owner = std::shared_ptr<DLManagedTensorVersioned>(
      mt, [](DLManagedTensorVersioned *m) { m->deleter(m); });
  if (owner->version.major != DLPACK_MAJOR_VERSION)
    return View{owner, nullptr};
  const DLTensor &dt = owner->dl_tensor;
  return View{owner, static_cast<char *>(dt.data) + dt.byte_offset};
}

// ... and the other way round: checked on the raw pointer, read through the
// smart pointer (a copy of it).
float firstChecked(DLManagedTensorVersioned *mt) {
  std::shared_ptr<DLManagedTensorVersioned> owner(
      mt, [](DLManagedTensorVersioned *m) { m->deleter(m); });
  if (mt->version.major != DLPACK_MAJOR_VERSION)
    return 0;
  std::shared_ptr<DLManagedTensorVersioned> copy = owner;
  return *static_cast<float *>(copy.get()->dl_tensor.data);
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: 'data' used as the address of the
  // first element without adding 'byte_offset' [interop-dlpack-byte-offset]
}

// std::unique_ptr, through operator*.
long ndimOf(DLManagedTensorVersioned *mt) {
  std::unique_ptr<DLManagedTensorVersioned> owner(mt);
  DLManagedTensorVersioned &m = *owner;
  return m.dl_tensor.ndim;
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'dl_tensor' of a versioned tensor
  // used without checking 'version.major' on this path [interop-dlpack-version]
}

// A smart pointer of something else holds no tensor the checks follow: the
// object it points to is one nothing is known of, and a tensor in it is read
// as `b->mt` would be.
struct Blob {
  DLManagedTensorVersioned *mt;
};
long ofBlob(Blob *b) {
  std::unique_ptr<Blob> owner(b);
  return owner->mt->dl_tensor.ndim;
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'dl_tensor' of a versioned tensor used without checking 'version.major' on this path [interop-dlpack-version]
}

// std::make_unique and std::make_shared make a new object: a versioned
// tensor in it is the producer's own, filled here, whatever it reads before
// setting its version.
struct Export {
  DLManagedTensorVersioned managed;
  long shape[4];
};
void fill(DLTensor &t, long *shape);
DLManagedTensorVersioned *exportOwn(void *data) {
  auto holder = std::make_unique<Export>();
  fill(holder->managed.dl_tensor, holder->shape);
  holder.get()->managed.dl_tensor.data = data;
  holder->managed.version = {1, 0};
  return &holder->managed;
}
long exportShared() {
  std::shared_ptr<Export> holder = std::make_shared<Export>();
  fill(holder->managed.dl_tensor, holder->shape);
  return holder->managed.dl_tensor.ndim;
}
