// RUN: %check_interop %s interop-dlpack-byte-offset %t -- -- -std=c++17 -I%S/Inputs/dlpack/v1

// An object that keeps an imported tensor's `data` in a pointer member
// reads it later as its first element: kept without byte_offset, every
// later access is off by it. Keeping the first element's address, or
// keeping byte_offset too, is correct.

#include <dlpack/dlpack.h>

#include <cstdint>

class Blob {
public:
  explicit Blob(const DLTensor &t) : dptr_(t.data), ndim_(t.ndim) {}
  // CHECK-MESSAGES: :[[@LINE-1]]:44: warning: 'data' kept in 'dptr_' as the address of the first element without adding 'byte_offset' [interop-dlpack-byte-offset]
  // CHECK-MESSAGES: :[[@LINE-2]]:44: note: add 'byte_offset' (in bytes) to 'data', or reject tensors whose 'byte_offset' is not zero
  float at(int i) const { return static_cast<const float *>(dptr_)[i]; }

private:
  void *dptr_;
  int ndim_;
};

class Rebound {
public:
  void bind(const DLManagedTensor *mt) {
    base_ = static_cast<std::uint8_t *>(mt->dl_tensor.data);
    // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: 'data' kept in 'base_' as the address of the first element without adding 'byte_offset' [interop-dlpack-byte-offset]
    // CHECK-MESSAGES: :[[@LINE-2]]:13: note: add 'byte_offset' (in bytes) to 'data', or reject tensors whose 'byte_offset' is not zero
  }
  std::uint8_t at(int i) const { return base_[i]; }

private:
  std::uint8_t *base_ = nullptr;
};

class ReboundFirst {
public:
  // The first element's address: correct.
  void bind_first(const DLManagedTensor *mt) {
    base_ = static_cast<std::uint8_t *>(mt->dl_tensor.data) +
            mt->dl_tensor.byte_offset;
  }
  // byte_offset kept beside the base, applied where it is read.
  void bind_with_offset(const DLTensor *t) {
    base_ = static_cast<std::uint8_t *>(t->data);
    offset_ = t->byte_offset;
  }

private:
  std::uint8_t *base_ = nullptr;
  std::uint64_t offset_ = 0;
};

// A view that keeps its prototype whole and applies its byte_offset where
// it reads the kept pointer.
class View {
public:
  explicit View(const DLTensor &t) : base_(t.data), proto_(t) {}
  const float *first() const {
    return reinterpret_cast<const float *>(static_cast<const char *>(base_) +
                                           proto_.byte_offset);
  }

private:
  const void *base_;
  DLTensor proto_;
};

// A producer's own tensor keeps its own buffer: nothing imported.
class Owner {
public:
  Owner() {
    tensor_.data = new float[4];
    kept_ = tensor_.data;
  }

private:
  DLTensor tensor_{};
  void *kept_ = nullptr;
};
