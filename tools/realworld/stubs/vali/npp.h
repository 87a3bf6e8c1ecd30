/* Self-written minimal stand-in for NVIDIA NPP's npp.h (types only), for the
 * first-contact-8 VALI entries: NPP is not installed on the harness machine. */
#pragma once
typedef unsigned char Npp8u;
typedef unsigned short Npp16u;
typedef short Npp16s;
typedef int Npp32s;
typedef unsigned int Npp32u;
typedef float Npp32f;
typedef double Npp64f;
typedef enum { NPP_NO_ERROR = 0, NPP_SUCCESS = 0 } NppStatus;
typedef enum { NPPI_INTER_NN = 1, NPPI_INTER_LINEAR = 2, NPPI_INTER_CUBIC = 4,
               NPPI_INTER_SUPER = 8, NPPI_INTER_LANCZOS = 16 } NppiInterpolationMode;
typedef struct { int width; int height; } NppiSize;
typedef struct { int x; int y; int width; int height; } NppiRect;
typedef struct { int x; int y; } NppiPoint;
typedef struct { void *hStream; int nCudaDeviceId; int nMultiProcessorCount;
                 int nMaxThreadsPerMultiProcessor; int nMaxThreadsPerBlock;
                 unsigned long nSharedMemPerBlock; int nCudaDevAttrComputeCapabilityMajor;
                 int nCudaDevAttrComputeCapabilityMinor; unsigned int nStreamFlags;
                 int nReserved0; } NppStreamContext;
