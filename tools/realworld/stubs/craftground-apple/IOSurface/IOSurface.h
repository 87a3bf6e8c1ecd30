// Self-written stand-in (Linux compile of CraftGround's ipc_apple.mm): only
// the Mach, CoreFoundation and IOSurface declarations the file uses.
#pragma once
#include <stddef.h>
typedef unsigned int mach_port_t;
typedef unsigned int mach_port_type_t;
typedef int kern_return_t;
#define KERN_SUCCESS 0
#define MACH_PORT_TYPE_SEND 0x10000
mach_port_t mach_task_self(void);
kern_return_t mach_port_type(mach_port_t task, mach_port_t name, mach_port_type_t *ptype);
const char *mach_error_string(kern_return_t error_value);
typedef const void *CFTypeRef;
CFTypeRef CFRetain(CFTypeRef cf);
void CFRelease(CFTypeRef cf);
typedef struct __IOSurface *IOSurfaceRef;
IOSurfaceRef IOSurfaceLookupFromMachPort(mach_port_t port);
size_t IOSurfaceGetWidth(IOSurfaceRef buffer);
size_t IOSurfaceGetHeight(IOSurfaceRef buffer);
size_t IOSurfaceGetBytesPerRow(IOSurfaceRef buffer);
void *IOSurfaceGetBaseAddress(IOSurfaceRef buffer);
