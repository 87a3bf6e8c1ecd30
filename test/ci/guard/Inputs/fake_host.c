/* A host with no LLVM in it, like a clang-tidy linked statically: the
 * version guard can learn its version only from `/proc/self/exe --version`.
 *   fake_host --version    prints "LLVM version $FAKE_LLVM_VERSION" (nothing
 *                          when the variable is unset)
 *   fake_host PLUGIN       dlopens PLUGIN as clang-tidy does; prints "loaded"
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  const char *version = getenv("FAKE_LLVM_VERSION");
  void *handle;
  if (argc == 2 && strcmp(argv[1], "--version") == 0) {
    if (version)
      printf("Fake LLVM version %s\n  Optimized build.\n", version);
    return 0;
  }
  if (argc != 2) {
    fprintf(stderr, "usage: fake_host --version | fake_host PLUGIN\n");
    return 2;
  }
  handle = dlopen(argv[1], RTLD_LAZY | RTLD_GLOBAL);
  if (!handle) {
    fprintf(stderr, "fake_host: %s\n", dlerror());
    return 1;
  }
  printf("loaded\n");
  return 0;
}
