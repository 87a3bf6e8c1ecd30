/* Stub (self-written) for RAF value.h, which includes TVM src/relay/transforms/pattern_utils.h as
   "../3rdparty/tvm/src/...", relative to RAF include/ (the TVM submodule). The include root is
   stubs/raf/include (an empty directory), so that include/../3rdparty resolves here; this forwards
   to the TVM dependency snapshot (root src, extracted through extra_files). */
#include <relay/transforms/pattern_utils.h>
