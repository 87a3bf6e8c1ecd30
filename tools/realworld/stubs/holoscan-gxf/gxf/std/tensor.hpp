// Self-written stand-in for GXF's gxf/std/tensor.hpp (not in the Holoscan
// snapshot): only the DLPack context types Holoscan's tensor code names.
#pragma once
#include <dlpack/dlpack.h>

#include <cstdint>
#include <memory>
#include <vector>

namespace nvidia {
namespace gxf {

struct DLManagedTensorContext {
  DLManagedTensor tensor;
  std::shared_ptr<void> memory_ref;
  std::vector<int64_t> dl_shape;
  std::vector<int64_t> dl_strides;
};

class DLManagedMemoryBuffer {
 public:
  explicit DLManagedMemoryBuffer(DLManagedTensor* self);
  ~DLManagedMemoryBuffer();

 private:
  DLManagedTensor* self_ = nullptr;
};

class Tensor;

}  // namespace gxf
}  // namespace nvidia
