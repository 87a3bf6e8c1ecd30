// RUN: %check_interop %s interop-dlpack-deleter-ownership %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// A producer's managed tensor promises that the consumer's one call of the
// deleter frees the struct, and that until then the struct keeps its data
// alive (through manager_ctx, or a deleter that releases the data itself).

#include <dlpack/dlpack.h>
#include <stdlib.h>

#include <memory>
#include <vector>

struct Buffer {
  void *data;
  std::vector<int64_t> shape;
};
struct Owner {
  std::shared_ptr<Buffer> buf;
};

static float kTable[16];

// The deleter never frees the struct: every export leaks it; and nothing
// keeps the buffer alive for the consumer.
DLManagedTensor *export_no_op(Buffer &b) {
  DLTensor dl{b.data, {kDLCPU, 0}, 1, {kDLFloat, 32, 1}, b.shape.data(),
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: nothing the managed tensor owns keeps its data alive: manager_ctx is NULL and the deleter touches neither manager_ctx nor data; a consumer that outlives the data's owner reads freed memory [interop-dlpack-deleter-ownership]
  // CHECK-MESSAGES: :[[@LINE+2]]:43: note: the deleter; point manager_ctx at an owner of the data (a reference, a shared_ptr) that the deleter releases
              nullptr, 0};
  return new DLManagedTensor{dl, nullptr, [](DLManagedTensor *) {}};
  // CHECK-MESSAGES: :[[@LINE-1]]:10: warning: managed tensor allocated here is given a deleter that never frees it; the consumer's call of the deleter leaks the struct [interop-dlpack-deleter-ownership]
  // CHECK-MESSAGES: :[[@LINE-2]]:43: note: this deleter uses its argument only to reach its fields; delete (or free) the struct in it
}

// Freeing only the shape leaves the struct, through stores this time.
static void free_shape(DLManagedTensor *self) { free(self->dl_tensor.shape); }
DLManagedTensor *export_shape_only(Owner &o) {
  auto *mt = (DLManagedTensor *)malloc(sizeof(DLManagedTensor));
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: managed tensor allocated here is given a deleter that never frees it; {{.*}}
  mt->manager_ctx = new Owner(o);
  mt->dl_tensor.data = o.buf->data;
  mt->deleter = free_shape;
  // CHECK-MESSAGES: :[[@LINE-1]]:17: note: this deleter uses its argument only to reach its fields; {{.*}}
  return mt;
}

// The struct freed, but the data belongs to the caller's buffer.
DLManagedTensor *export_borrowed(Buffer &b) {
  auto *mt = new DLManagedTensor{};
  mt->dl_tensor.data = b.data;
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: nothing the managed tensor owns keeps its data alive: {{.*}}
  mt->manager_ctx = nullptr;
  mt->deleter = [](DLManagedTensor *self) { delete self; };
  // CHECK-MESSAGES: :[[@LINE-1]]:17: note: the deleter; point manager_ctx {{.*}}
  return mt;
}

// The data is the exporting object's own array, and nothing the tensor owns
// keeps that object alive.
struct Samples {
  double values[8];
  int64_t shape[1] = {8};
  DLManagedTensor *export_member() {
    auto *mt = new DLManagedTensor{};
    mt->dl_tensor.data = static_cast<void *>(&values);
    // CHECK-MESSAGES: :[[@LINE-1]]:26: warning: nothing the managed tensor owns keeps its data alive: {{.*}}
    mt->dl_tensor.shape = shape;
    mt->manager_ctx = nullptr;
    mt->deleter = [](DLManagedTensor *self) { delete self; };
    // CHECK-MESSAGES: :[[@LINE-1]]:19: note: the deleter; point manager_ctx {{.*}}
    return mt;
  }
};

// Correct: manager_ctx owns a reference to the buffer, the deleter drops it.
DLManagedTensor *export_owned(Owner &o) {
  auto *mt = new DLManagedTensor{};
  mt->dl_tensor.data = o.buf->data;
  mt->manager_ctx = new Owner(o);
  mt->deleter = [](DLManagedTensor *self) {
    delete static_cast<Owner *>(self->manager_ctx);
    delete self;
  };
  return mt;
}

// Correct: the deleter frees the data it was given.
DLManagedTensorVersioned *export_copy(const float *src, int64_t *shape) {
  auto *copy = static_cast<float *>(malloc(64));
  auto *mt = new DLManagedTensorVersioned{};
  mt->dl_tensor.data = copy;
  mt->dl_tensor.shape = shape;
  mt->deleter = [](DLManagedTensorVersioned *self) {
    free(self->dl_tensor.data);
    delete self;
  };
  return mt;
}

// Correct: static data needs no owner; a struct that points its
// manager_ctx at itself is freed through it.
DLManagedTensor *export_table() {
  auto *mt = new DLManagedTensor{};
  mt->dl_tensor.data = kTable;
  mt->deleter = [](DLManagedTensor *self) { delete self; };
  return mt;
}
DLManagedTensor *export_self_context(Owner &o) {
  auto *mt = new DLManagedTensor{};
  mt->manager_ctx = mt;
  mt->deleter = [](DLManagedTensor *self) {
    delete static_cast<DLManagedTensor *>(self->manager_ctx);
  };
  return mt;
}

// Correct: a wrapper of a raw address (an integer from Python) has nothing
// to keep alive: the address's lifetime is its caller's business.
DLManagedTensor *wrap_address(uintptr_t address, int64_t *shape) {
  auto *mt = new DLManagedTensor{};
  mt->dl_tensor.data = reinterpret_cast<void *>(address);
  mt->dl_tensor.shape = shape;
  mt->deleter = [](DLManagedTensor *self) { delete self; };
  return mt;
}

// Correct: the function frees the struct itself after a local use, and a
// deleter without a visible body may do anything.
void deleter_elsewhere(DLManagedTensor *);
void local_use(Buffer &b) {
  auto *mt = new DLManagedTensor{};
  mt->dl_tensor.data = b.data;
  mt->deleter = [](DLManagedTensor *) {};
  delete mt;
  auto *other = new DLManagedTensor{};
  other->dl_tensor.data = b.data;
  other->deleter = deleter_elsewhere;
  delete other;
}

// The metadata too: the shape and strides of a wrapper's own vectors die
// with the wrapper, which nothing the tensor owns keeps, even though the
// deleter frees the data it hands over.
struct Wrapper {
  std::vector<int64_t> shape, strides;
  float *data;
  static void deleter(DLManagedTensor *self) {
    free(self->dl_tensor.data);
    delete self;
  }
  static void deleter_with_shape(DLManagedTensor *self) {
    free(self->dl_tensor.data);
    delete[] self->dl_tensor.shape;
    delete self;
  }
  DLManagedTensor *export_views() {
    auto *mt = new DLManagedTensor{};
    mt->dl_tensor.data = data;
    mt->dl_tensor.shape = shape.data();
    // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: nothing the managed tensor owns keeps its shape alive: manager_ctx is NULL and the deleter touches neither manager_ctx nor shape; a consumer that outlives the shape's owner reads freed memory [interop-dlpack-deleter-ownership]
    mt->dl_tensor.strides = strides.data();
    mt->manager_ctx = nullptr;
    mt->deleter = &Wrapper::deleter;
    // CHECK-MESSAGES: :[[@LINE-1]]:19: note: the deleter; point manager_ctx {{.*}}
    return mt;
  }
  // Its own copies of the metadata, freed by the deleter: kept.
  DLManagedTensor *export_copies() {
    auto *mt = new DLManagedTensor{};
    mt->dl_tensor.data = data;
    mt->dl_tensor.shape = new int64_t[1]{shape[0]};
    mt->dl_tensor.strides = nullptr;
    mt->deleter = &Wrapper::deleter_with_shape;
    return mt;
  }
};
