/*===--- VersionGuard.c - refuse a clang-tidy of another version ---------===*
 *
 * See VersionGuard.h. Built into both InteropTidy.so (the loader users
 * --load) and InteropTidyChecks.so (the checks it loads), with the version
 * they were built for given by CMake:
 *   INTEROP_TIDY_BUILT_MAJOR, INTEROP_TIDY_BUILT_MINOR   numbers
 *   INTEROP_TIDY_BUILT_VERSION                           "22.1.8"
 *   INTEROP_TIDY_SUPPORTED_MAJORS                        "19, 22"
 *
 *===----------------------------------------------------------------------===*/

#ifndef _GNU_SOURCE
/* dladdr, dl_iterate_phdr, pipe2. glibc's feature-test macro: a reserved
 * name that users define by design. */
#define _GNU_SOURCE /* NOLINT(bugprone-reserved-identifier) */
#endif
#include "VersionGuard.h"

#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#if !defined(INTEROP_TIDY_BUILT_MAJOR) ||                                      \
    !defined(INTEROP_TIDY_BUILT_MINOR) ||                                      \
    !defined(INTEROP_TIDY_BUILT_VERSION) ||                                    \
    !defined(INTEROP_TIDY_SUPPORTED_MAJORS)
#error "CMake passes the LLVM version the plugin is built for"
#endif

extern char **environ;

/* Reads "N", "N.M" or "N.M.P" at s into v; returns the number of components
 * read (0 when s does not start with a digit). */
static int parse_version(const char *s, struct interop_tidy_llvm_version *v) {
  int *parts[3] = {&v->major, &v->minor, &v->patch};
  int n = 0;
  v->major = v->minor = v->patch = -1;
  while (n < 3 && *s >= '0' && *s <= '9') {
    char *end;
    long x = strtol(s, &end, 10);
    if (x < 0 || x > 100000)
      break;
    *parts[n++] = (int)x;
    if (*end != '.' || end[1] < '0' || end[1] > '9')
      break;
    s = end + 1;
  }
  return n;
}

/* LLVM 16 and later export `void LLVMGetVersion(unsigned *, unsigned *,
 * unsigned *)` from libLLVM: a C function, the same in every major. */
static int version_from_c_api(struct interop_tidy_llvm_version *out) {
  typedef void (*get_version_fn)(unsigned *, unsigned *, unsigned *);
  void *sym = dlsym(RTLD_DEFAULT, "LLVMGetVersion");
  get_version_fn get;
  unsigned major = 0, minor = 0, patch = 0;
  if (!sym)
    return 0;
  /* POSIX: an object pointer to a function pointer goes through memcpy. */
  memcpy((void *)&get, (const void *)&sym, sizeof get);
  get(&major, &minor, &patch);
  if (major == 0)
    return 0;
  out->major = (int)major;
  out->minor = (int)minor;
  out->patch = (int)patch;
  out->source = "LLVMGetVersion";
  return 1;
}

/* The sonames carry the version: libclang-cpp.so.22.1, libLLVM.so.19.1,
 * libclang-cpp.so.14 and libLLVM-14.so.1 (LLVM 15 and older; parse_version
 * stops at ".so", so the 1 after it is not taken for a minor). */
static int match_library(const char *base,
                         struct interop_tidy_llvm_version *out) {
  static const char *const prefixes[] = {"libclang-cpp.so.", "libLLVM.so.",
                                         "libLLVM-"};
  size_t i;
  for (i = 0; i < sizeof prefixes / sizeof prefixes[0]; ++i) {
    size_t len = strlen(prefixes[i]);
    if (strncmp(base, prefixes[i], len) == 0 &&
        parse_version(base + len, out) > 0) {
      out->source = base;
      return 1;
    }
  }
  return 0;
}

static int library_callback(struct dl_phdr_info *info, size_t size,
                            void *data) {
  const char *name = info->dlpi_name, *slash;
  (void)size;
  if (!name || !*name)
    return 0;
  slash = strrchr(name, '/');
  return match_library(slash ? slash + 1 : name,
                       (struct interop_tidy_llvm_version *)data);
}

static int version_from_libraries(struct interop_tidy_llvm_version *out) {
  return dl_iterate_phdr(library_callback, out) != 0;
}

/* A clang-tidy with LLVM linked statically has neither: ask the executable.
 * clang-tidy prints "... LLVM version 22.1.8 ..." and loads no plugin for
 * --version, so this cannot recurse. */
static int version_from_executable(struct interop_tidy_llvm_version *out) {
  static char text[4096];
  char *const argv[] = {"clang-tidy", "--version", NULL};
  posix_spawn_file_actions_t actions;
  int fds[2], status = 0, ok = 0;
  size_t used = 0;
  ssize_t got;
  pid_t pid;
  const char *at;

  if (pipe2(fds, O_CLOEXEC) != 0)
    return 0;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null",
                                   O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null",
                                   O_RDONLY, 0);
  if (posix_spawn(&pid, "/proc/self/exe", &actions, NULL, argv, environ) != 0)
    pid = -1;
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  while (pid > 0 && used + 1 < sizeof text &&
         (got = read(fds[0], text + used, sizeof text - 1 - used)) > 0)
    used += (size_t)got;
  close(fds[0]);
  if (pid <= 0)
    return 0;
  while (waitpid(pid, &status, 0) < 0)
    ;
  text[used] = '\0';
  at = strstr(text, "LLVM version ");
  if (at && parse_version(at + strlen("LLVM version "), out) > 0) {
    out->source = "--version";
    ok = 1;
  }
  return ok;
}

int interop_tidy_host_llvm_version(struct interop_tidy_llvm_version *out) {
  out->major = out->minor = out->patch = -1;
  out->source = NULL;
  return version_from_c_api(out) || version_from_libraries(out) ||
         version_from_executable(out);
}

void interop_tidy_refuse(const char *format, ...) {
  char line[1024];
  int len = snprintf(line, sizeof line, "interop-tidy: ");
  va_list args;
  va_start(args, format);
  if (len > 0 && (size_t)len < sizeof line)
    len += vsnprintf(line + len, sizeof line - (size_t)len, format, args);
  va_end(args);
  if (len < 0)
    len = 0;
  if ((size_t)len > sizeof line - 2)
    len = (int)sizeof line - 2;
  line[len++] = '\n';
  /* One write: parallel runs (run-clang-tidy -j) do not interleave it. */
  if (write(STDERR_FILENO, line, (size_t)len) < 0) {
    /* Nothing more can be said; the exit status still tells. */
  }
  _exit(INTEROP_TIDY_GUARD_EXIT);
}

/* Writes into `out` what else is installed: an installed plugin sits in
 * lib/interop-tidy/llvm-N/, beside the plugins of the other majors. Names
 * the one for `host_major` when it is there, else the installed majors and
 * the build option for the missing one. Empty in a build folder. */
static void describe_installed(int host_major, char *out, size_t size) {
  Dl_info self;
  char real[PATH_MAX], majors[128] = "", match[PATH_MAX + 32] = "";
  char *slash;
  DIR *dir;
  struct dirent *entry;
  size_t used = 0;
  int count = 0;

  out[0] = '\0';
  if (!dladdr((void *)&describe_installed, &self) || !self.dli_fname ||
      !realpath(self.dli_fname, real))
    return;
  /* real: PREFIX/lib/interop-tidy/llvm-N/InteropTidy.so */
  slash = strrchr(real, '/');
  if (!slash)
    return;
  *slash = '\0';
  slash = strrchr(real, '/');
  if (!slash || strncmp(slash + 1, "llvm-", 5) != 0)
    return;
  *slash = '\0';
  dir = opendir(real);
  if (!dir)
    return;
  while ((entry = readdir(dir)) != NULL) {
    char loader[PATH_MAX + 32];
    struct interop_tidy_llvm_version v;
    int major;
    if (strncmp(entry->d_name, "llvm-", 5) != 0 ||
        parse_version(entry->d_name + 5, &v) <= 0)
      continue;
    major = v.major;
    snprintf(loader, sizeof loader, "%s/%s/InteropTidy.so", real,
             entry->d_name);
    if (access(loader, R_OK) != 0)
      continue;
    if (major == host_major)
      snprintf(match, sizeof match, "%s", loader);
    if (used < sizeof majors)
      used += (size_t)snprintf(majors + used, sizeof majors - used, "%s%d",
                               count++ ? ", " : "", major);
  }
  closedir(dir);
  if (match[0])
    snprintf(out, size,
             "; the plugin for clang-tidy %d is installed beside it: "
             "--load=%s",
             host_major, match);
  else if (count)
    snprintf(out, size,
             "; installed here for clang-tidy %s (interop-tidy builds for "
             "clang-tidy " INTEROP_TIDY_SUPPORTED_MAJORS
             ", chosen with -DINTEROP_LLVM_MAJOR=N)",
             majors);
}

void interop_tidy_require_host_version(const char *plugin) {
  struct interop_tidy_llvm_version host;
  char shown[48], installed[PATH_MAX + 256];
  if (!interop_tidy_host_llvm_version(&host))
    interop_tidy_refuse(
        "refusing to run: %s was built for clang-tidy %d (LLVM %s) and "
        "cannot tell which clang-tidy loaded it (no libLLVM or libclang-cpp "
        "in this process, no version from /proc/self/exe --version); run it "
        "with clang-tidy-%d or the interop-tidy wrapper",
        plugin, INTEROP_TIDY_BUILT_MAJOR, INTEROP_TIDY_BUILT_VERSION,
        INTEROP_TIDY_BUILT_MAJOR);
  /* LLVM keeps its C++ ABI only within one major.minor (its sonames say
   * so); an old soname that gives the major only is judged by the major. */
  if (host.major == INTEROP_TIDY_BUILT_MAJOR &&
      (host.minor < 0 || host.minor == INTEROP_TIDY_BUILT_MINOR))
    return;
  if (host.minor < 0)
    snprintf(shown, sizeof shown, "%d", host.major);
  else if (host.patch < 0)
    snprintf(shown, sizeof shown, "%d.%d", host.major, host.minor);
  else
    snprintf(shown, sizeof shown, "%d.%d.%d", host.major, host.minor,
             host.patch);
  describe_installed(host.major, installed, sizeof installed);
  interop_tidy_refuse(
      "refusing to run: %s was built for clang-tidy %d (LLVM %s) but was "
      "loaded by clang-tidy %d (LLVM %s); run it with clang-tidy-%d or the "
      "interop-tidy wrapper, or rebuild interop-tidy against LLVM %d%s",
      plugin, INTEROP_TIDY_BUILT_MAJOR, INTEROP_TIDY_BUILT_VERSION, host.major,
      shown, INTEROP_TIDY_BUILT_MAJOR, host.major, installed);
}
