/*
 * interop/export.h - INTEROP_API, the mark of the runtime's public API.
 *
 * The shared libinterop_shim is compiled with hidden visibility, so only
 * declarations marked INTEROP_API (classes with out-of-line members and free
 * functions of the public headers) are in its dynamic symbol table; the
 * runtime's internals stay private and cannot clash with another copy loaded
 * into the same process. The static library defines INTEROP_STATIC for itself
 * and for everything that links it (CMake: interop::shim_static; pkg-config:
 * `pkg-config --static --cflags interop`), so that a shared object linking
 * it exports nothing of the runtime.
 *
 * This header is C compatible.
 */
#ifndef INTEROP_EXPORT_H
#define INTEROP_EXPORT_H

#if defined(INTEROP_STATIC)
#define INTEROP_API
#elif defined(__cplusplus)
/* The standard attribute form: GCC rejects __attribute__ after [[nodiscard]]
 * in a class head (class [[nodiscard]] INTEROP_API Status). */
#define INTEROP_API [[gnu::visibility("default")]]
#else
#define INTEROP_API __attribute__((visibility("default")))
#endif

#endif /* INTEROP_EXPORT_H */
