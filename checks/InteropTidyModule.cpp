//===--- InteropTidyModule.cpp - the interop clang-tidy module ------------===//
//
// Registers the interop-* checks, alphabetically, once the version guard has
// accepted the clang-tidy that loaded them. Nothing else lives here.
//
//===----------------------------------------------------------------------===//

#include "ClangTidyModule.h"
#include "DLPackByteOffsetCheck.h"
#include "DLPackCapsuleProtocolCheck.h"
#include "DLPackDeleterOwnershipCheck.h"
#include "DLPackNullDeleterCheck.h"
#include "DLPackStridesCheck.h"
#include "DLPackVersionCheck.h"
#include "NonaddressableDLPackImportCheck.h"
#include "ShardedCudaArrayInterfaceCheck.h"
#include "ShardedDLPackExportCheck.h"
#include "TpuDLPackMemoryKindCheck.h"
#include "UnsupportedDLPackDeviceCheck.h"
#include "VersionGuard.h"

// ClangTidyModuleRegistry, declared in a header that depends on the major.
#include "lib/support/LLVMCompat.h"

namespace clang::tidy {
namespace interop {

class InteropModule : public ClangTidyModule {
public:
  void addCheckFactories(ClangTidyCheckFactories &CheckFactories) override {
    CheckFactories.registerCheck<DLPackByteOffsetCheck>(
        "interop-dlpack-byte-offset");
    CheckFactories.registerCheck<DLPackCapsuleProtocolCheck>(
        "interop-dlpack-capsule-protocol");
    CheckFactories.registerCheck<DLPackDeleterOwnershipCheck>(
        "interop-dlpack-deleter-ownership");
    CheckFactories.registerCheck<DLPackNullDeleterCheck>(
        "interop-dlpack-null-deleter");
    CheckFactories.registerCheck<DLPackStridesCheck>("interop-dlpack-strides");
    CheckFactories.registerCheck<DLPackVersionCheck>("interop-dlpack-version");
    CheckFactories.registerCheck<NonaddressableDLPackImportCheck>(
        "interop-nonaddressable-dlpack-import");
    CheckFactories.registerCheck<ShardedCudaArrayInterfaceCheck>(
        "interop-sharded-cuda-array-interface");
    CheckFactories.registerCheck<ShardedDLPackExportCheck>(
        "interop-sharded-dlpack-export");
    CheckFactories.registerCheck<TpuDLPackMemoryKindCheck>(
        "interop-tpu-dlpack-memory-kind");
    CheckFactories.registerCheck<UnsupportedDLPackDeviceCheck>(
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
