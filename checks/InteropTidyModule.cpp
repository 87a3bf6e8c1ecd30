//===--- InteropTidyModule.cpp - the interop clang-tidy module ------------===//
//
// Registers the interop-* checks, alphabetically. Nothing else lives here.
//
//===----------------------------------------------------------------------===//

#include "ClangTidyModule.h"
#include "DLPackByteOffsetCheck.h"
#include "DLPackCapsuleProtocolCheck.h"
#include "DLPackDeleterOwnershipCheck.h"
#include "DLPackStridesCheck.h"
#include "DLPackVersionCheck.h"
#include "NonaddressableDLPackImportCheck.h"
#include "ShardedCudaArrayInterfaceCheck.h"
#include "ShardedDLPackExportCheck.h"
#include "TpuDLPackMemoryKindCheck.h"
#include "UnsupportedDLPackDeviceCheck.h"

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

// Registers the module with clang-tidy when the plugin is loaded.
static ClangTidyModuleRegistry::Add<interop::InteropModule>
    X("interop-module", "Adds checks for array-interop (DLPack) misuse.");

} // namespace clang::tidy
