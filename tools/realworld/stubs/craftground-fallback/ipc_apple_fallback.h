// Self-written: compiles CraftGround's ipc_apple.mm in its raw-capsule
// fallback (USE_CUSTOM_DL_PACK_TENSOR=0), the configuration its fix commit
// 15c158e tested. ipc_apple.h hard-codes 1; taking its include guard first
// keeps it out (its one declaration is defined in the .mm itself).
#define __IPC_APPLE_H__
#define USE_CUSTOM_DL_PACK_TENSOR 0
