/* self-written stand-in (run.py stub): minimal Foundation declarations */
#pragma once
#include <CoreFoundation/CoreFoundation.h>
typedef unsigned long NSUInteger;
typedef long NSInteger;
typedef signed char BOOL;
#define YES ((BOOL)1)
#define NO ((BOOL)0)
#ifndef nil
#define nil nullptr
#endif
@interface NSObject
+ (instancetype)new;
+ (instancetype)alloc;
- (instancetype)init;
- (BOOL)respondsToSelector:(SEL)aSelector;
@end
@interface NSString : NSObject
+ (NSString *)stringWithUTF8String:(const char *)s;
- (const char *)UTF8String;
- (BOOL)isEqualToString:(NSString *)other;
@end
@interface NSError : NSObject
@property(readonly) NSString *localizedDescription;
@end
@interface NSArray<ObjectType> : NSObject
@property(readonly) ObjectType firstObject;
@end
