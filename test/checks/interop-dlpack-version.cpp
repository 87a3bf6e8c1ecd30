// RUN: %check_interop %s interop-dlpack-version %t -- -- -std=c++17 -I%S/Inputs/dlpack/v1

#include <assert.h>
#include <dlpack/dlpack.h>
#include <string.h>

struct runtime_error {
  explicit runtime_error(const char *what);
};

// MatX (include/matx/core/make_tensor.h): the version check was an
// assertion, so release builds (NDEBUG) read tensors of any major version.
#define MATX_ASSERT_STR(a, error, str) assert(a)
namespace matx {
enum matxError_t { matxInvalidParameter };
struct tensor_desc {
  void *data;
  int rank;
  DLManagedTensorVersioned *owner; // deleted when the tensor is destroyed
};

tensor_desc make_tensor(DLManagedTensorVersioned *dlp) {
  MATX_ASSERT_STR(dlp->version.major == DLPACK_MAJOR_VERSION,
                  matxInvalidParameter, "unsupported DLPack major version");
  const DLTensor &dt = dlp->dl_tensor;
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: 'dl_tensor' of a versioned tensor used with 'version.major' checked only by an assertion that is compiled out under NDEBUG [interop-dlpack-version]
  // CHECK-MESSAGES: :[[@LINE-4]]:19: note: the only check is here
  // CHECK-MESSAGES: :[[@LINE-3]]:29: note: a consumer that does not support the major version must call the deleter and touch no other field
  return {static_cast<char *>(dt.data) + dt.byte_offset, dt.ndim, dlp};
}

tensor_desc make_tensor_fixed(DLManagedTensorVersioned *dlp) {
  if (dlp->version.major != DLPACK_MAJOR_VERSION) {
    if (dlp->deleter)
      dlp->deleter(dlp);
    throw runtime_error("unsupported DLPack major version");
  }
  const DLTensor &dt = dlp->dl_tensor;
  return {static_cast<char *>(dt.data) + dt.byte_offset, dt.ndim, dlp};
}
} // namespace matx

// An importer keeps the managed tensor (and with it the duty to delete it).
struct Imported {
  Imported(DLManagedTensorVersioned *owner, int64_t value);
};

// No check at all.
Imported import_ndim(DLManagedTensorVersioned *t) {
  return Imported(t, t->dl_tensor.ndim);
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: 'dl_tensor' of a versioned tensor used without checking 'version.major' on this path [interop-dlpack-version]
}

// flags are past the frozen prefix too.
Imported import_copied(DLManagedTensorVersioned *t) {
  return Imported(t, t->flags & DLPACK_FLAG_BITMASK_IS_COPIED);
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: 'flags' of a versioned tensor used without checking 'version.major' on this path [interop-dlpack-version]
}

// A check on one branch only proves nothing on the other.
Imported one_branch(DLManagedTensorVersioned *t, bool trusted) {
  if (!trusted && t->version.major != 1)
    return Imported(t, -1);
  return Imported(t, t->dl_tensor.shape[0]);
  // CHECK-MESSAGES: :[[@LINE-1]]:25: warning: 'dl_tensor' of a versioned tensor used without checking 'version.major' on this path [interop-dlpack-version]
}

// The wrong branch: fields read exactly when the version is unsupported.
Imported wrong_branch(DLManagedTensorVersioned *t) {
  if (t->version.major > DLPACK_MAJOR_VERSION)
    return Imported(t, t->dl_tensor.ndim);
  // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: 'dl_tensor' of a versioned tensor used without checking 'version.major' on this path [interop-dlpack-version]
  return Imported(t, 0);
}

// Writing into a read-only tensor: an in-place consumer that never looks at
// READ_ONLY.
void scale_in_place(DLManagedTensorVersioned *t, float factor, int64_t n) {
  if (t->version.major != DLPACK_MAJOR_VERSION)
    return;
  float *p = reinterpret_cast<float *>(static_cast<char *>(t->dl_tensor.data) +
                                       t->dl_tensor.byte_offset);
  for (int64_t i = 0; i < n; ++i)
    p[i] *= factor;
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: write through 'data' of a versioned tensor without checking its READ_ONLY flag [interop-dlpack-version]
  // CHECK-MESSAGES: :[[@LINE-5]]:60: note: 'data' read here
  // CHECK-MESSAGES: :[[@LINE-3]]:5: note: test 'flags & DLPACK_FLAG_BITMASK_READ_ONLY' and copy instead of writing when it is set
}

void zero_fill(DLManagedTensorVersioned *t, size_t bytes) {
  if (t->version.major != DLPACK_MAJOR_VERSION)
    return;
  memset(static_cast<char *>(t->dl_tensor.data) + t->dl_tensor.byte_offset, 0,
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: write through 'data' of a versioned tensor without checking its READ_ONLY flag [interop-dlpack-version]
         bytes);
}

// --- Correct code that must stay silent ---

// The version checked once, kept in a local, relied on later.
Imported *checked_once(DLManagedTensorVersioned *t) {
  const bool supported = t->version.major == DLPACK_MAJOR_VERSION;
  if (!supported) {
    t->deleter(t);
    return nullptr;
  }
  return new Imported(t, t->dl_tensor.ndim + static_cast<int>(t->flags & 1));
}

// A switch over the major version.
Imported *by_switch(DLManagedTensorVersioned *t) {
  switch (t->version.major) {
  case 1:
    return new Imported(t, t->dl_tensor.ndim);
  default:
    t->deleter(t);
    return nullptr;
  }
}

// Labels that share a body: major 2 reaches the use as well.
Imported *by_shared_label(DLManagedTensorVersioned *t) {
  switch (t->version.major) {
  case 1:
  case 2:
    return new Imported(t, t->dl_tensor.ndim);
    // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: 'dl_tensor' of a versioned tensor used without checking 'version.major' on this path [interop-dlpack-version]
    // CHECK-MESSAGES: :[[@LINE-2]]:31: note: a consumer that does not support the major version must call the deleter and touch no other field
  default:
    t->deleter(t);
    return nullptr;
  }
}

// Several statements under an unbraced `case 1:` are all proven.
Imported *unbraced_case(DLManagedTensorVersioned *t) {
  switch (t->version.major) {
  case 0:
    t->deleter(t);
    return nullptr;
  case 1:
    if (!t->dl_tensor.data)
      return nullptr;
    return new Imported(t, t->dl_tensor.ndim);
  default:
    t->deleter(t);
    return nullptr;
  }
}

// Case 0 falls through into case 1: major 0 reaches the use too.
Imported *falls_into_case(DLManagedTensorVersioned *t, int verbose) {
  switch (t->version.major) {
  case 0:
    verbose = 1;
  case 1:
    return new Imported(t, t->dl_tensor.ndim + verbose);
    // CHECK-MESSAGES: :[[@LINE-1]]:31: warning: 'dl_tensor' of a versioned tensor used without checking 'version.major' on this path [interop-dlpack-version]
    // CHECK-MESSAGES: :[[@LINE-2]]:31: note: a consumer that does not support the major version must call the deleter and touch no other field
  default:
    t->deleter(t);
    return nullptr;
  }
}

// A switch on something else inside the supported case: still proven.
Imported *nested_switch(DLManagedTensorVersioned *t, int mode) {
  switch (t->version.major) {
  case 1: {
    switch (mode) {
    case 0:
      return new Imported(t, t->dl_tensor.ndim);
    default:
      return new Imported(t, 0);
    }
  }
  default:
    t->deleter(t);
    return nullptr;
  }
}

// An accessor of a parameter leaves the check to whoever handed the tensor
// in (the runtime's read_only_flag helper, say).
bool read_only_flag(const DLManagedTensorVersioned &m) {
  return (m.flags & DLPACK_FLAG_BITMASK_READ_ONLY) != 0;
}

// Compiler-generated members (here the copy constructor and assignment of a
// block that holds a versioned tensor) are not user code.
struct Owner {
  virtual ~Owner();
};
struct ExportBlock {
  DLManagedTensorVersioned managed;
  Owner *owner;
  ExportBlock(const ExportBlock &) = default;
  ExportBlock &operator=(const ExportBlock &) = default;
  virtual ~ExportBlock();
};
ExportBlock copy_block(const ExportBlock &b) {
  ExportBlock c = b;
  c = b;
  return c;
}

// Tensors held in members were checked where they were stored.
class Holder {
public:
  int64_t ndim() const { return tensor_->dl_tensor.ndim; }

private:
  DLManagedTensorVersioned *tensor_;
};

// The deleter and the version itself may always be touched.
void reject(DLManagedTensorVersioned *t) {
  if (t->version.major != 1 && t->deleter)
    t->deleter(t);
}

// READ_ONLY checked before writing, in its several spellings.
void scale_checked(DLManagedTensorVersioned *t, float factor, int64_t n) {
  if (t->version.major != DLPACK_MAJOR_VERSION)
    return;
  if (t->flags & DLPACK_FLAG_BITMASK_READ_ONLY)
    return;
  float *p = reinterpret_cast<float *>(static_cast<char *>(t->dl_tensor.data) +
                                       t->dl_tensor.byte_offset);
  for (int64_t i = 0; i < n; ++i)
    p[i] *= factor;
}

void fill_checked(DLManagedTensorVersioned *t, size_t bytes) {
  if (t->version.major != DLPACK_MAJOR_VERSION)
    return;
  const bool writable = (t->flags & DLPACK_FLAG_BITMASK_READ_ONLY) == 0;
  if (writable)
    memset(static_cast<char *>(t->dl_tensor.data) + t->dl_tensor.byte_offset,
           0, bytes);
}

// Reading from a read-only tensor is fine.
float read_only_read(DLManagedTensorVersioned *t) {
  if (t->version.major != DLPACK_MAJOR_VERSION)
    return 0;
  return *reinterpret_cast<const float *>(
      static_cast<const char *>(t->dl_tensor.data) + t->dl_tensor.byte_offset);
}

// A producer filling in its own versioned tensor.
DLManagedTensorVersioned *make_versioned(void *data, int64_t *shape) {
  DLManagedTensorVersioned *t = new DLManagedTensorVersioned{};
  t->version.major = DLPACK_MAJOR_VERSION;
  t->version.minor = DLPACK_MINOR_VERSION;
  t->dl_tensor.data = data;
  t->dl_tensor.ndim = 1;
  t->dl_tensor.shape = shape;
  t->flags = 0;
  memset(t->dl_tensor.data, 0, 16);
  return t;
}
