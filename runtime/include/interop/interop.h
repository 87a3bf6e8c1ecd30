// interop/interop.h - the interop_shim runtime's public API.
//
// Sharding-aware arrays on CPU, CUDA and simulated TPU-host devices, and real
// DLPack / __cuda_array_interface__ exchange with JAX's validations. Also
// brings in the DLPack ABI (DLTensor, DLManagedTensor,
// DLManagedTensorVersioned) through interop/dlpack.h. See docs/runtime.md.
#ifndef INTEROP_INTEROP_H
#define INTEROP_INTEROP_H

#include "interop/array.h"
#include "interop/device.h"
#include "interop/dlpack.h"
#include "interop/dtype.h"
#include "interop/exchange.h"
#include "interop/sharding.h"
#include "interop/status.h"

#endif // INTEROP_INTEROP_H
