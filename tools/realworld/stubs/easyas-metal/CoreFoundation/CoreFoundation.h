/* self-written stand-in (run.py stub): the one CoreFoundation call the file makes */
#pragma once
typedef const void *CFTypeRef;
#ifdef __cplusplus
extern "C" {
#endif
void CFRelease(CFTypeRef cf);
#ifdef __cplusplus
}
#endif
