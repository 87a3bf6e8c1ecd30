// A minimal clang-tidy plugin, compiled at configure time like InteropTidy.so
// (cmake/InteropPluginProbe.cmake) and loaded with every symbol bound, to
// find out whether this C++ compiler's ABI is the one of the clang-tidy the
// plugin will load into. It uses what the real checks use from clang-tidy's
// headers: a check class with options of several types, a module and its
// registry entry.
#include "ClangTidyCheck.h"
#include "ClangTidyModule.h"
#include "ClangTidyModuleRegistry.h"

#include <string>

namespace {

class ProbeCheck : public clang::tidy::ClangTidyCheck {
public:
  ProbeCheck(llvm::StringRef Name, clang::tidy::ClangTidyContext *Context)
      : ClangTidyCheck(Name, Context), Flag(Options.get("Flag", false)),
        Count(Options.get("Count", 1U)), Names(Options.get("Names", "").str()) {
  }
  void storeOptions(clang::tidy::ClangTidyOptions::OptionMap &Opts) override {
    Options.store(Opts, "Flag", Flag);
    Options.store(Opts, "Count", Count);
    Options.store(Opts, "Names", Names);
  }
  void registerMatchers(clang::ast_matchers::MatchFinder *) override {}

private:
  bool Flag;
  unsigned Count;
  std::string Names;
};

class ProbeModule : public clang::tidy::ClangTidyModule {
public:
  void
  addCheckFactories(clang::tidy::ClangTidyCheckFactories &Factories) override {
    Factories.registerCheck<ProbeCheck>("interopprobe-abi");
  }
};

} // namespace

static clang::tidy::ClangTidyModuleRegistry::Add<ProbeModule>
    Probe("interopprobe-module", "configure-time ABI probe");
