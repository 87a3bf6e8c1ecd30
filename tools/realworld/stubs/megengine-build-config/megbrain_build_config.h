// Self-written stand-in for MegEngine's generated megbrain_build_config.h
// (made by CMake, not in the snapshot): a CPU-only configuration.
#pragma once
#define MGE_WIN_DECLSPEC_FUC
#define MGE_WIN_DECLSPEC_DATA
#define MGB_CUDA 0
#define MGB_ROCM 0
#define MGB_CAMBRICON 0
#define MGB_ATLAS 0
#define MGB_JIT 0
#define MGB_JIT_MLIR 0
#define MGB_JIT_HALIDE 0
#define MGB_ENABLE_TENSOR_RT 0
#define MGB_ENABLE_OPR_MM 0
#define MGB_CUSTOM_OP 0
#define MGB_CUPTI 0
#define MGB_IS_DEV 0
#define MGB_ASSERT_LOC 1
#define MGB_ENABLE_DEBUG_UTIL 0
#define MGB_ENABLE_LOGGING 1
#define MGB_ENABLE_GRAD 1
#define MGB_ENABLE_CPUINFO 0
#define MGB_ENABLE_DOT 0
#define MGB_VERBOSE_TYPEINFO_NAME 1
#define MGB_BUILD_SLIM_SERVING 0
#define MGB_ENABLE_EXCEPTION 1
#define MGB_ENABLE_JSON 0
#define MGB_HAVE_THREAD 1
#define MGB_THREAD_SAFE 1
#define MGB_ENABLE_GETENV 1
#define MGB_ENABLE_FASTRUN 1
#define MGB_ENABLE_FBS_SERIALIZATION 0
#define MEGDNN_WITH_CUDA 0
#define MEGDNN_WITH_CAMBRICON 0
#define MEGDNN_WITH_ROCM 0
#define MEGDNN_X86 1
#define MEGDNN_X86_64 1
#define MEGDNN_64_BIT 1
#define MEGDNN_ENABLE_RTTI 1
#define MEGDNN_ENABLE_LOGGING 1
#define MEGDNN_ENABLE_MANGLING 0
#define MEGDNN_ENABLE_EXCEPTIONS 1
#define MEGDNN_NAIVE 0
#define MEGDNN_THREADS_512 0
#define MEGDNN_ENABLE_MULTI_THREADS 1
