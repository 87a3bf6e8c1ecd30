/* self-written stand-in (run.py stub): the Metal names easy_as's bridge uses */
#pragma once
#import <Foundation/Foundation.h>
typedef NSUInteger MTLResourceOptions;
enum { MTLResourceStorageModeShared = 0, MTLResourceStorageModePrivate = 1 };
typedef NSUInteger MTLStorageMode;
enum { MTLStorageModeShared = 0, MTLStorageModePrivate = 1 };
typedef NSUInteger MTLCommandBufferStatus;
enum { MTLCommandBufferStatusCompleted = 4, MTLCommandBufferStatusError = 5 };
typedef NSInteger MTLMathMode;
enum { MTLMathModeSafe = 0, MTLMathModeFast = 2 };
typedef struct { NSUInteger width, height, depth; } MTLSize;
static inline MTLSize MTLSizeMake(NSUInteger w, NSUInteger h, NSUInteger d) {
  MTLSize s = {w, h, d};
  return s;
}
@protocol MTLFunction
@end
@protocol MTLLibrary
- (id<MTLFunction>)newFunctionWithName:(NSString *)name;
@end
@protocol MTLComputePipelineState
@property(readonly) NSUInteger threadExecutionWidth;
@property(readonly) NSUInteger maxTotalThreadsPerThreadgroup;
@end
@protocol MTLBuffer
@property(readonly) NSUInteger length;
@property(readonly) MTLStorageMode storageMode;
- (void *)contents;
@end
@protocol MTLComputeCommandEncoder
- (void)setComputePipelineState:(id<MTLComputePipelineState>)state;
- (void)setBuffer:(id<MTLBuffer>)buffer offset:(NSUInteger)offset atIndex:(NSUInteger)index;
- (void)setBytes:(const void *)bytes length:(NSUInteger)length atIndex:(NSUInteger)index;
- (void)dispatchThreads:(MTLSize)threads threadsPerThreadgroup:(MTLSize)tg;
- (void)dispatchThreadgroups:(MTLSize)groups threadsPerThreadgroup:(MTLSize)tg;
- (void)endEncoding;
@end
@protocol MTLBlitCommandEncoder
- (void)copyFromBuffer:(id<MTLBuffer>)src sourceOffset:(NSUInteger)so toBuffer:(id<MTLBuffer>)dst destinationOffset:(NSUInteger)doff size:(NSUInteger)size;
- (void)endEncoding;
@end
@protocol MTLCommandBuffer
@property(readonly) MTLCommandBufferStatus status;
@property(readonly) NSError *error;
- (id<MTLComputeCommandEncoder>)computeCommandEncoder;
- (id<MTLBlitCommandEncoder>)blitCommandEncoder;
- (void)commit;
- (void)waitUntilCompleted;
@end
@protocol MTLCommandQueue
- (id<MTLCommandBuffer>)commandBuffer;
@end
@interface MTLCompileOptions : NSObject
@property BOOL fastMathEnabled;
@end
@protocol MTLDevice
- (id<MTLCommandQueue>)newCommandQueue;
- (id<MTLLibrary>)newLibraryWithSource:(NSString *)src options:(MTLCompileOptions *)opts error:(NSError **)err;
- (id<MTLComputePipelineState>)newComputePipelineStateWithFunction:(id<MTLFunction>)fn error:(NSError **)err;
- (id<MTLBuffer>)newBufferWithLength:(NSUInteger)length options:(MTLResourceOptions)opts;
- (id<MTLBuffer>)newBufferWithBytesNoCopy:(void *)p length:(NSUInteger)length options:(MTLResourceOptions)opts deallocator:(id)d;
@end
#ifdef __cplusplus
extern "C" {
#endif
id<MTLDevice> MTLCreateSystemDefaultDevice(void);
NSArray<id<MTLDevice>> *MTLCopyAllDevices(void);
#ifdef __cplusplus
}
#endif
