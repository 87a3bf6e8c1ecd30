//===--- InteropTidyModule.cpp - the interop clang-tidy module -----------===//
//
// Registers the interop-* checks, alphabetically, once the version guard has
// accepted the clang-tidy that loaded them. Nothing else lives here.
//
//===----------------------------------------------------------------------===//

#include "ClangTidyModule.h"
#include "DlpackByteOffsetCheck.h"
#include "DlpackCapsuleProtocolCheck.h"
#include "DlpackDeleterOwnershipCheck.h"
#include "DlpackStridesCheck.h"
#include "DlpackVersionCheck.h"
#include "NonaddressableDlpackImportCheck.h"
#include "ShardedCudaArrayInterfaceCheck.h"
#include "ShardedDlpackExportCheck.h"
#include "TpuDlpackMemoryKindCheck.h"
#include "UnsupportedDlpackDeviceCheck.h"
#include "VersionGuard.h"

namespace clang::tidy {
namespace interop {

class InteropModule : public ClangTidyModule {
public:
  void addCheckFactories(ClangTidyCheckFactories &CheckFactories) override {
    CheckFactories.registerCheck<DlpackByteOffsetCheck>(
        "interop-dlpack-byte-offset");
    CheckFactories.registerCheck<DlpackCapsuleProtocolCheck>(
        "interop-dlpack-capsule-protocol");
    CheckFactories.registerCheck<DlpackDeleterOwnershipCheck>(
        "interop-dlpack-deleter-ownership");
    CheckFactories.registerCheck<DlpackStridesCheck>("interop-dlpack-strides");
    CheckFactories.registerCheck<DlpackVersionCheck>("interop-dlpack-version");
    CheckFactories.registerCheck<NonaddressableDlpackImportCheck>(
        "interop-nonaddressable-dlpack-import");
    CheckFactories.registerCheck<ShardedCudaArrayInterfaceCheck>(
        "interop-sharded-cuda-array-interface");
    CheckFactories.registerCheck<ShardedDlpackExportCheck>(
        "interop-sharded-dlpack-export");
    CheckFactories.registerCheck<TpuDlpackMemoryKindCheck>(
        "interop-tpu-dlpack-memory-kind");
    CheckFactories.registerCheck<UnsupportedDlpackDeviceCheck>(
        "interop-unsupported-dlpack-device");
  }
};

} // namespace interop

// InteropTidy.so checks the version before it loads this file; this covers a
// --load of InteropTidyChecks.so itself. Priority 101 runs it before every
// default-priority static initializer of this file (the registration below,
// and those of lib/), so in another clang-tidy none of our LLVM code runs.
__attribute__((constructor(101))) static void refuseAnotherClangTidy() {
  interop_tidy_require_host_version(INTEROP_TIDY_CHECKS_FILE);
}

// Registers the module with clang-tidy when the plugin is loaded.
static ClangTidyModuleRegistry::Add<interop::InteropModule>
    X("interop-module", "Adds checks for array-interop (DLPack) misuse.");

} // namespace clang::tidy
