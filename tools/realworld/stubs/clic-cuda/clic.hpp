/* Self-written stand-in for CLIc's generated clic.hpp (configured from
 * clic/clic.hpp.in by CMake): the CUDA backend build, as pyclesperanto's
 * backends/cuda wheel configures it. */
#pragma once

#define USE_OPENCL 0
#define USE_CUDA 1
#define USE_METAL 0

#include <cstddef>
#include <cuda.h>
#include <cuda_runtime.h>
#include <cuda_runtime_api.h>
#include <nvrtc.h>

const constexpr size_t GPU_MEM_PTR_SIZE = sizeof(void *);
