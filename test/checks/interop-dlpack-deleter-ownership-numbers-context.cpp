// RUN: %check_interop %s interop-dlpack-deleter-ownership %t -- -- -std=c++20 -I%S/Inputs -I%S/Inputs/dlpack/v1

// A manager_ctx that holds only numbers (the shape and strides, in arrays
// of its own) keeps the shape and strides alive but nothing else: the data
// of an object the producer could have kept is as unkept as with
// manager_ctx NULL. A local that only ever holds such a pointer is the same
// value.

#include <dlpack/dlpack.h>

#include <cstdint>
#include <memory>
#include <vector>

struct Images {
  void *data() const;
};
struct Observation {
  const Images &images() const;
};

struct ShapeContext {
  std::int64_t shape[4];
  std::int64_t strides[4];
};

void delete_observation(DLManagedTensor *managed) {
  delete static_cast<ShapeContext *>(managed->manager_ctx);
  delete managed;
}

DLManagedTensor *export_observation(const Observation &observation, int h,
                                    int w) {
  const Images &images = observation.images();
  void *const data = images.data();
  auto *context = new ShapeContext{{1, 3, h, w}, {3 * h * w, h * w, w, 1}};
  auto *managed = new DLManagedTensor{
      .dl_tensor =
          {
              .data = data,
              // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: nothing the managed tensor owns keeps its data alive: manager_ctx holds only numbers ('ShapeContext') and the deleter does not touch data; a consumer that outlives the data's owner reads freed memory [interop-dlpack-deleter-ownership]
              .device = {kDLCUDA, 0},
              .ndim = 4,
              .dtype = {kDLFloat, 32, 1},
              .shape = context->shape,
              .strides = context->strides,
              .byte_offset = 0,
          },
      .manager_ctx = context,
      .deleter = delete_observation,
      // CHECK-MESSAGES: :[[@LINE-1]]:18: note: the deleter; point manager_ctx at an owner of the data (a reference, a shared_ptr) that the deleter releases
  };
  return managed;
}

// Through stores, with a malloc'd context and the data's address kept in a
// local first.
struct Frame {
  std::vector<float> pixels;
};
struct Dims {
  std::int64_t n;
  int kind;
};
static void free_dims(DLManagedTensor *self) {
  delete static_cast<Dims *>(self->manager_ctx);
  delete self;
}
DLManagedTensor *export_frame(Frame &frame) {
  float *pixels = frame.pixels.data();
  Dims *dims = new Dims{static_cast<std::int64_t>(frame.pixels.size()), 0};
  auto *mt = new DLManagedTensor{};
  mt->dl_tensor.data = pixels;
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: nothing the managed tensor owns keeps its data alive: manager_ctx holds only numbers ('Dims') {{.*}}
  mt->dl_tensor.shape = &dims->n;
  mt->manager_ctx = dims;
  mt->deleter = free_dims;
  // CHECK-MESSAGES: :[[@LINE-1]]:17: note: the deleter; {{.*}}
  return mt;
}

// Correct: the context owns the frame too.
struct FrameContext {
  std::shared_ptr<Frame> frame;
  std::int64_t shape[1];
};
static void free_frame_context(DLManagedTensor *self) {
  delete static_cast<FrameContext *>(self->manager_ctx);
  delete self;
}
DLManagedTensor *export_owned(std::shared_ptr<Frame> frame) {
  float *pixels = frame->pixels.data();
  auto *ctx = new FrameContext{frame, {0}};
  ctx->shape[0] = static_cast<std::int64_t>(frame->pixels.size());
  auto *mt = new DLManagedTensor{};
  mt->dl_tensor.data = pixels;
  mt->dl_tensor.shape = ctx->shape;
  mt->manager_ctx = ctx;
  mt->deleter = free_frame_context;
  return mt;
}

// Correct: a raw address handed in is its caller's to keep, a local or not.
DLManagedTensor *export_raw(float *values, std::int64_t n) {
  float *start = values;
  auto *dims = new Dims{n, 0};
  auto *mt = new DLManagedTensor{};
  mt->dl_tensor.data = start;
  mt->dl_tensor.shape = &dims->n;
  mt->manager_ctx = dims;
  mt->deleter = free_dims;
  return mt;
}

// Correct: the deleter releases the data itself.
static void free_all(DLManagedTensor *self) {
  delete[] static_cast<float *>(self->dl_tensor.data);
  delete static_cast<Dims *>(self->manager_ctx);
  delete self;
}
DLManagedTensor *export_copy(const Frame &frame) {
  auto *copy = new float[frame.pixels.size()];
  auto *dims = new Dims{static_cast<std::int64_t>(frame.pixels.size()), 0};
  auto *mt = new DLManagedTensor{};
  mt->dl_tensor.data = copy;
  mt->dl_tensor.shape = &dims->n;
  mt->manager_ctx = dims;
  mt->deleter = free_all;
  return mt;
}
