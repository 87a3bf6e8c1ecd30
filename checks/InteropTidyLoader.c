/*===--- InteropTidyLoader.c - InteropTidy.so, the file users --load -----===*
 *
 * clang-tidy resolves a plugin's undefined symbols when it dlopens it, before
 * any of the plugin's code runs: a plugin built for LLVM 22 fails in
 * clang-tidy-14 with "undefined symbol: ...Registry...", and in clang-tidy-19
 * its symbols happen to resolve and it registers checks that report nothing.
 * So the file users load is this loader, which needs nothing but libc: it
 * checks the running clang-tidy's version (VersionGuard.c) and only then
 * loads the checks, INTEROP_TIDY_CHECKS_FILE, from its own directory. The
 * two files are installed together, side by side.
 *
 *===----------------------------------------------------------------------===*/

#ifndef _GNU_SOURCE
/* dladdr, dl_iterate_phdr, pipe2. glibc's feature-test macro: a reserved
 * name that users define by design. */
#define _GNU_SOURCE /* NOLINT(bugprone-reserved-identifier) */
#endif
#include "VersionGuard.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#ifndef INTEROP_TIDY_CHECKS_FILE
#error "CMake passes the file name of the checks module"
#endif

__attribute__((constructor)) static void interop_tidy_load_checks(void) {
  Dl_info self;
  char real[PATH_MAX], checks[PATH_MAX + sizeof INTEROP_TIDY_CHECKS_FILE];
  const char *loader = "InteropTidy.so";
  char *slash;

  if (dladdr((void *)&interop_tidy_load_checks, &self) && self.dli_fname &&
      *self.dli_fname)
    loader = self.dli_fname;
  {
    const char *base = strrchr(loader, '/');
    interop_tidy_require_host_version(base ? base + 1 : loader);
  }
  /* The checks sit next to the real file, not next to a symlink to it. */
  if (!realpath(loader, real))
    interop_tidy_refuse("cannot find the directory of %s, which holds %s",
                        loader, INTEROP_TIDY_CHECKS_FILE);
  slash = strrchr(real, '/');
  slash[1] = '\0';
  strcpy(checks, real);
  strcat(checks, INTEROP_TIDY_CHECKS_FILE);
  /* RTLD_NOW: a symbol this clang-tidy lacks fails here, with its name,
   * rather than as a "symbol lookup error" in the middle of a run. */
  if (!dlopen(checks, RTLD_NOW | RTLD_GLOBAL))
    interop_tidy_refuse("cannot load the checks: %s (%s must be installed in "
                        "the same directory as %s)",
                        dlerror(), INTEROP_TIDY_CHECKS_FILE, loader);
}
