// RUN: %check_interop %s interop-dlpack-deleter-ownership %t -- -- -std=c++20 -I%S/Inputs -I%S/Inputs/dlpack/v1

// A manager_ctx that holds the shape and strides (in vectors of its own)
// and a plain pointer to the exported object keeps that object alive only
// if something releases it through the pointer. When nothing in the file
// ever reads the pointer (not the deleter, not a destructor), the context
// owns its numbers and nothing else: the exported object's buffer dies with
// the object. Stores through a local reference to the struct's tensor are
// stores into the struct.

#include <dlpack/dlpack.h>

#include <Python.h>

#include <cstdint>
#include <vector>

struct Grid {
  void *buffer();
  std::vector<std::int64_t> shape() const;
};

template <typename T> struct GridContext {
  T *grid;
  std::vector<std::int64_t> shape;
  std::vector<std::int64_t> strides;
  GridContext(T *g, std::vector<std::int64_t> s)
      : grid(g), shape(s), strides(s.size(), 1) {}
};

template <typename T> void grid_deleter(DLManagedTensorVersioned *self) {
  delete static_cast<GridContext<T> *>(self->manager_ctx);
  delete self;
}

template <typename T> DLManagedTensorVersioned *export_grid(T &grid) {
  auto *ctx = new GridContext<T>(&grid, grid.shape());
  auto *managed = new DLManagedTensorVersioned{};
  managed->manager_ctx = ctx;
  managed->deleter = grid_deleter<T>;
  // Stores through a local reference to the struct's tensor.
  auto &tensor = managed->dl_tensor;
  tensor.data = grid.buffer();
  // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: nothing the managed tensor owns keeps its data alive: manager_ctx holds only numbers and pointers nothing reads ('GridContext<Grid>') and the deleter does not touch data; a consumer that outlives the data's owner reads freed memory [interop-dlpack-deleter-ownership]
  // CHECK-MESSAGES: :[[@LINE-5]]:22: note: the deleter; point manager_ctx at an owner of the data (a reference, a shared_ptr) that the deleter releases
  tensor.ndim = static_cast<std::int32_t>(ctx->shape.size());
  tensor.shape = ctx->shape.data();
  tensor.strides = ctx->strides.data();
  return managed;
}

template DLManagedTensorVersioned *export_grid<Grid>(Grid &);

// Correct: the deleter releases the object through the pointer it keeps.
struct Owned {
  Grid *grid;
  std::int64_t n;
};
void owned_deleter(DLManagedTensor *self) {
  auto *ctx = static_cast<Owned *>(self->manager_ctx);
  delete ctx->grid;
  delete ctx;
  delete self;
}
DLManagedTensor *export_owned(Grid *grid) {
  auto *ctx = new Owned{grid, 0};
  auto *mt = new DLManagedTensor{};
  mt->dl_tensor.data = grid->buffer();
  mt->dl_tensor.shape = &ctx->n;
  mt->manager_ctx = ctx;
  mt->deleter = owned_deleter;
  return mt;
}

// Correct: a context whose destructor releases what it points at.
struct Releasing {
  Grid *grid;
  std::int64_t n = 0;
  ~Releasing() { delete grid; }
};
void releasing_deleter(DLManagedTensor *self) {
  delete static_cast<Releasing *>(self->manager_ctx);
  delete self;
}
DLManagedTensor *export_releasing(Grid &grid) {
  auto *ctx = new Releasing{&grid};
  auto *mt = new DLManagedTensor{};
  mt->dl_tensor.data = grid.buffer();
  mt->dl_tensor.shape = &ctx->n;
  mt->manager_ctx = ctx;
  mt->deleter = releasing_deleter;
  return mt;
}

// Correct: a Python object is a counted reference, whether or not the file
// reads it again (the release may sit in a helper of another file).
struct PyContext {
  PyObject *owner;
  std::vector<std::int64_t> shape;
};
void py_deleter(DLManagedTensor *self) {
  delete static_cast<PyContext *>(self->manager_ctx);
  delete self;
}
DLManagedTensor *export_py(Grid &grid, PyObject *owner) {
  Py_INCREF(owner);
  auto *ctx = new PyContext{owner, grid.shape()};
  auto *mt = new DLManagedTensor{};
  mt->dl_tensor.data = grid.buffer();
  mt->dl_tensor.shape = ctx->shape.data();
  mt->manager_ctx = ctx;
  mt->deleter = py_deleter;
  return mt;
}

// Correct: a pointer another function reads (to release it, or anything
// else) may be what keeps the object alive.
struct Registered {
  Grid *grid;
  std::vector<std::int64_t> shape;
};
void unregister(Registered *r);
void registered_deleter(DLManagedTensor *self) {
  unregister(static_cast<Registered *>(self->manager_ctx));
  delete self;
}
void unregister(Registered *r) {
  Grid *g = r->grid;
  delete g;
  delete r;
}
DLManagedTensor *export_registered(Grid &grid) {
  auto *ctx = new Registered{&grid, grid.shape()};
  auto *mt = new DLManagedTensor{};
  mt->dl_tensor.data = grid.buffer();
  mt->dl_tensor.shape = ctx->shape.data();
  mt->manager_ctx = ctx;
  mt->deleter = registered_deleter;
  return mt;
}

// Correct: the data points into the context's own vector.
struct Copy {
  Grid *source;
  std::vector<float> values;
  std::vector<std::int64_t> shape;
};
void copy_deleter(DLManagedTensor *self) {
  delete static_cast<Copy *>(self->manager_ctx);
  delete self;
}
DLManagedTensor *export_copy(Grid &grid) {
  auto *ctx = new Copy{&grid, std::vector<float>(4), grid.shape()};
  auto *mt = new DLManagedTensor{};
  mt->dl_tensor.data = ctx->values.data();
  mt->dl_tensor.shape = ctx->shape.data();
  mt->manager_ctx = ctx;
  mt->deleter = copy_deleter;
  return mt;
}
