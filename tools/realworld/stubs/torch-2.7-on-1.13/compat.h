/* Self-written declarations that PyTorch 2.7 sources call and Debian's
   libtorch 1.13 headers lack, so that the DLPack functions of a 2.7 file
   parse against the installed 1.13 headers (run.py force-includes this).
   Declarations only: the analysis needs the signatures, not the code. */
#pragma once
#include <ATen/ATen.h>
#include <functional>

namespace at {
Tensor from_blob(void *data, IntArrayRef sizes,
                 const std::function<void(void *)> &deleter,
                 const TensorOptions &options,
                 c10::optional<Device> target_device);
} // namespace at
