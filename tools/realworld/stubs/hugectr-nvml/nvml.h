/* Self-written stand-in for the NVML header (not shipped with the CUDA
   toolkit on this machine): only what HugeCTR's core23/error.hpp names. */
#pragma once
typedef enum nvmlReturn_enum { NVML_SUCCESS = 0 } nvmlReturn_t;
const char *nvmlErrorString(nvmlReturn_t result);
