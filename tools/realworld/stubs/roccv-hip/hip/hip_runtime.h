/* Self-written minimal stand-in for HIP's runtime header (first-contact-19,
   ROCm/rocCV python bindings): only the names those files use. */
#pragma once
#include <cstddef>
typedef enum hipError_t { hipSuccess = 0, hipErrorUnknown = 999 } hipError_t;
typedef enum hipMemcpyKind {
  hipMemcpyHostToHost = 0, hipMemcpyHostToDevice = 1,
  hipMemcpyDeviceToHost = 2, hipMemcpyDeviceToDevice = 3, hipMemcpyDefault = 4
} hipMemcpyKind;
typedef struct ihipStream_t *hipStream_t;
hipError_t hipMemcpy(void *dst, const void *src, size_t bytes, hipMemcpyKind kind);
const char *hipGetErrorString(hipError_t err);
const char *hipGetErrorName(hipError_t err);
struct float4 { float x, y, z, w; };
struct double2 { double x, y; };
struct int2 { int x, y; };
inline float4 make_float4(float x, float y, float z, float w) { return {x, y, z, w}; }
inline double2 make_double2(double x, double y) { return {x, y}; }
inline int2 make_int2(int x, int y) { return {x, y}; }
