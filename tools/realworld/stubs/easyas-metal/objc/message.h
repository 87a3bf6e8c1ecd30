/* self-written stand-in (run.py stub) */
#pragma once
#ifdef __cplusplus
extern "C" {
#endif
SEL sel_registerName(const char *name);
void objc_msgSend(void);
#ifdef __cplusplus
}
#endif
