/* Self-written stand-in: thrust::cuda::experimental::pinned_allocator was
   removed from the CCCL shipped with this machine's CUDA toolkit; cupoch's
   device_vector.h (2020) only names it as an allocator type. */
#pragma once
#include <memory>
namespace thrust {
namespace cuda {
namespace experimental {
template <class T>
using pinned_allocator = std::allocator<T>;
}  // namespace experimental
}  // namespace cuda
}  // namespace thrust
