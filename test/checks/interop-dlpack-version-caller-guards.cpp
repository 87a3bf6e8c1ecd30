// RUN: %check_interop %s interop-dlpack-version %t -- -- -std=c++17 \
// RUN:   -I%S/Inputs/dlpack/v1

// A helper of the file whose calls here are all there are (a template's
// instantiation, a `static` function) may leave the version test to its
// callers: when every call comes after a test that the tensor's major
// version is the supported one, the helper's use of `dl_tensor` is checked.
// One caller without the test, or with it only in a debug-only assertion,
// and the helper is judged alone. (Each helper hands the tensor on: one that
// only reads fields is an accessor, left to its caller anyway.)

#include <dlpack/dlpack.h>

#include <assert.h>

struct Storage {
  explicit Storage(DLManagedTensorVersioned *mt);
};
void keep(DLManagedTensorVersioned *mt);

// A template whose instantiation's only caller returns early on another
// major version (ASTRA's getDLTensorStorage).
template <class DLT> Storage *storage_of(DLT *mt) {
  DLTensor *t = &mt->dl_tensor;
  if (t->ndim != 2)
    return nullptr;
  return new Storage(mt);
}
Storage *link(DLManagedTensorVersioned *mt) {
  if (mt->version.major > 1)
    return nullptr;
  return storage_of(mt);
}

namespace {
void adopt(DLManagedTensorVersioned *mt) {
  if (mt->dl_tensor.ndim > 0)
    keep(mt);
}
void adopt_unchecked(DLManagedTensorVersioned *mt) {
  if (mt->dl_tensor.ndim > 0)
    // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'dl_tensor' of a versioned tensor used without checking 'version.major' on this path [interop-dlpack-version]
    keep(mt);
}
void adopt_asserted(DLManagedTensorVersioned *mt) {
  if (mt->dl_tensor.ndim > 0)
    // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: 'dl_tensor' of a versioned tensor used without checking 'version.major' on this path [interop-dlpack-version]
    keep(mt);
}
} // namespace

void take(DLManagedTensorVersioned *mt) {
  if (mt->version.major != DLPACK_MAJOR_VERSION)
    return;
  adopt(mt);
}
void take_either(DLManagedTensorVersioned *mt, bool check) {
  if (check && mt->version.major != 1)
    return;
  adopt_unchecked(mt);
}
void take_asserted(DLManagedTensorVersioned *mt) {
  assert(mt->version.major == 1);
  adopt_asserted(mt);
}

// Constructors and methods of a class only this file sees (an anonymous
// namespace's) are helpers too, and so are the constructions that
// std::make_shared and std::make_unique forward their arguments to.
namespace std {
template <class T> class shared_ptr {
public:
  T *operator->() const;
};
template <class T, class... A> shared_ptr<T> make_shared(A &&...);
} // namespace std

namespace {
class Imported {
public:
  explicit Imported(DLManagedTensorVersioned *mt) : ndim(mt->dl_tensor.ndim) {
    keep(mt);
  }
  Imported(DLManagedTensorVersioned *mt, int extra)
      : ndim(mt->dl_tensor.ndim + extra) {
    // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'dl_tensor' of a versioned tensor used without checking 'version.major' on this path [interop-dlpack-version]
    keep(mt);
  }
  void adopt(DLManagedTensorVersioned *mt) {
    if (mt->dl_tensor.ndim > 0)
      keep(mt);
  }
  long ndim;
};
} // namespace

std::shared_ptr<Imported> import_shared(DLManagedTensorVersioned *mt) {
  if (mt->version.major != DLPACK_MAJOR_VERSION)
    return {};
  return std::make_shared<Imported>(mt);
}
std::shared_ptr<Imported> import_extra(DLManagedTensorVersioned *mt) {
  return std::make_shared<Imported>(mt, 1);
}
void import_into(Imported &into, DLManagedTensorVersioned *mt) {
  if (mt->version.major > 1)
    return;
  into.adopt(mt);
}
