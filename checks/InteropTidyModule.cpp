//===--- InteropTidyModule.cpp - the interop clang-tidy module -----------===//
//
// Registers the interop-* checks, alphabetically. Nothing else lives here.
//
//===----------------------------------------------------------------------===//

#include "ClangTidyModule.h"

namespace clang::tidy {
namespace interop {

class InteropModule : public ClangTidyModule {
public:
  void addCheckFactories(ClangTidyCheckFactories &CheckFactories) override {}
};

} // namespace interop

// Registers the module with clang-tidy when the plugin is loaded.
static ClangTidyModuleRegistry::Add<interop::InteropModule>
    X("interop-module", "Adds checks for array-interop (DLPack) misuse.");

} // namespace clang::tidy
