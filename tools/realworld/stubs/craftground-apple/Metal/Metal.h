// Self-written stand-in (Linux compile of CraftGround's ipc_apple.mm): only
// the Foundation and Metal declarations the file uses.
#pragma once
#include <IOSurface/IOSurface.h>
typedef unsigned long NSUInteger;
@interface NSString
@end
@interface NSConstantString : NSString
@end
void NSLog(NSString *format, ...);
CFTypeRef CFBridgingRetain(id X);
typedef enum { MTLResourceStorageModeShared = 0 } MTLResourceOptions;
@protocol MTLBuffer
@end
@protocol MTLDevice
- (id<MTLBuffer>)newBufferWithBytesNoCopy:(void *)pointer
                                   length:(NSUInteger)length
                                  options:(MTLResourceOptions)options
                              deallocator:(void (^)(void *pointer, NSUInteger length))deallocator;
@end
id<MTLDevice> MTLCreateSystemDefaultDevice(void);
