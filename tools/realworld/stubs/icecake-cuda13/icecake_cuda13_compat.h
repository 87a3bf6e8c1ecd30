// Self-written stand-in (not project code): FastGC-icecake was written for CUDA 10,
// whose cudaMemPrefetchAsync took (ptr, count, int dstDevice, stream). CUDA 13 (the
// toolkit on this machine) only declares the cudaMemLocation form, so the project's
// calls do not resolve. This declares the old overload so the file parses.
#pragma once
#include <cuda_runtime_api.h>
cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, int dstDevice, cudaStream_t stream = 0);
