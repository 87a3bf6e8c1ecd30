/* Self-written stand-in: PyNvVideoCodec calls the
   pre-CUDA-13 three-argument cuCtxCreate(ctx, flags, dev); CUDA 13's cuda.h
   maps cuCtxCreate to cuCtxCreate_v4 (params struct). Re-map the name to the
   old three-argument entry point so the file compiles against CUDA 13. */
#pragma once
#include <cuda.h>
#undef cuCtxCreate
#ifdef __cplusplus
extern "C" {
#endif
CUresult CUDAAPI cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice dev);
#ifdef __cplusplus
}
#endif
#define cuCtxCreate cuCtxCreate_v2
