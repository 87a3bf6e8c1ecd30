//===--- UnsupportedDlpackDeviceCheck.h - interop-unsupported-dlpack-device
//===//
//
// Flags host access to an imported DLTensor's data with no device-type check
// on that path, a switch or table over DLDeviceType that silently maps unknown
// types to a supported platform, and an import of a tensor whose device type
// is provably unsupported.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_CHECKS_UNSUPPORTEDDLPACKDEVICECHECK_H
#define INTEROP_CHECKS_UNSUPPORTEDDLPACKDEVICECHECK_H

#include "ClangTidyCheck.h"

#include "lib/DLPackFlowModel.h"
#include "lib/DLPackNames.h"
#include "llvm/ADT/DenseSet.h"

#include <cstdint>
#include <vector>

namespace clang::tidy::interop {

class UnsupportedDlpackDeviceCheck : public ClangTidyCheck {
public:
  UnsupportedDlpackDeviceCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onStartOfTranslationUnit() override;

private:
  // Matches arrive once per DLPack field read; each function is judged once.
  llvm::DenseSet<const FunctionDecl *> Done;
  const std::string HostMemoryFunctions;
  const std::string HostDeviceGuards;
  const std::string ImportFunctions;
  const std::string SupportedDeviceTypes;
  const bool ReportSkippedFunctions;
  clang::interop::QualifiedNameList HostFunctions;
  clang::interop::QualifiedNameList Importers;
  std::vector<std::int64_t> Supported;
  clang::interop::DLPackModelConfig Config;
};

} // namespace clang::tidy::interop

#endif // INTEROP_CHECKS_UNSUPPORTEDDLPACKDEVICECHECK_H
