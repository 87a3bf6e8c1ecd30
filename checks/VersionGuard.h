/*===--- VersionGuard.h - refuse a clang-tidy of another version ---------===*
 *
 * A plugin built against one LLVM's headers must only run inside the
 * clang-tidy of that LLVM: in another major it either fails to load with an
 * undefined-symbol error or, worse, loads, registers its checks and reports
 * nothing (a lint gate that silently passes). The guard learns the running
 * clang-tidy's version without calling any C++ symbol of LLVM, so it works in
 * every major, and on a mismatch prints one line and ends the process.
 *
 * Plain C with libc only: InteropTidy.so (the loader) is built from this and
 * InteropTidyLoader.c alone, with no LLVM symbol dependency.
 *
 *===----------------------------------------------------------------------===*/

#ifndef INTEROP_TIDY_VERSION_GUARD_H
#define INTEROP_TIDY_VERSION_GUARD_H

#ifdef __cplusplus
extern "C" {
#endif

/* Exit status of a run the guard stops (sysexits.h EX_CONFIG: the plugin and
 * the clang-tidy it was given do not fit). Documented in docs/ci.md. */
#define INTEROP_TIDY_GUARD_EXIT 78

/* The running LLVM's version, and where it was read. A component that could
 * not be learned is -1 (old sonames carry the major only). C, so C names. */
/* NOLINTNEXTLINE(readability-identifier-naming) */
struct interop_tidy_llvm_version {
  int major, minor, patch;
  const char *source; /* "LLVMGetVersion", a library file name, "--version" */
};

/* Fills *out with the version of the LLVM this process runs, trying in turn
 * LLVM's C API (LLVMGetVersion, LLVM 16 and later), the file names of the
 * loaded libclang-cpp/libLLVM, and `/proc/self/exe --version` (a clang-tidy
 * linked statically). Returns 0 when none of them tells. */
__attribute__((visibility("hidden"))) int
interop_tidy_host_llvm_version(struct interop_tidy_llvm_version *out);

/* Returns only when the running clang-tidy is the major.minor this plugin
 * was built for. Otherwise prints one line naming both versions and what to
 * do, and ends the process with INTEROP_TIDY_GUARD_EXIT before anything is
 * registered: every mode (--list-checks, --dump-config, --verify-config, a
 * run mixing interop-* and built-in checks) fails. `plugin` names the file in
 * the message. */
__attribute__((visibility("hidden"))) void
interop_tidy_require_host_version(const char *plugin);

/* Prints "interop-tidy: <message>" as one line on stderr and ends the process
 * with INTEROP_TIDY_GUARD_EXIT (no exit handlers: clang-tidy is mid-way
 * through parsing its options when plugins load). */
__attribute__((visibility("hidden"), noreturn, format(printf, 1, 2))) void
interop_tidy_refuse(const char *format, ...);

#ifdef __cplusplus
}
#endif

#endif /* INTEROP_TIDY_VERSION_GUARD_H */
