//===--- UnsupportedDLPackDeviceCheck.h - unknown devices -------*- C++ -*-===//
//
// Flags host access to an imported DLTensor's data with no device-type check
// on that path, a switch or table over DLDeviceType that silently maps unknown
// types to a supported platform, and an import of a tensor whose device type
// is provably unsupported.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_CHECKS_UNSUPPORTEDDLPACKDEVICECHECK_H
#define INTEROP_CHECKS_UNSUPPORTEDDLPACKDEVICECHECK_H

#include "DLPackFieldCheckBase.h"

#include "lib/dlpackfields/DLPackFieldFacts.h"
#include "lib/support/NameLists.h"

#include <cstdint>
#include <vector>

namespace clang::tidy::interop {

class UnsupportedDLPackDeviceCheck : public DLPackFieldCheckBase {
public:
  UnsupportedDLPackDeviceCheck(StringRef Name, ClangTidyContext *Context);
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

private:
  void checkUse(const FunctionDecl &FD, const clang::interop::DLPackUse &Use,
                ASTContext &Ctx) override;
  void checkFacts(const FunctionDecl &FD,
                  const clang::interop::DLPackFieldFacts &Facts,
                  ASTContext &Ctx) override;
  const std::string HostMemoryFunctions;
  const std::string DeviceMemoryFunctions;
  const std::string HostDeviceGuards;
  const std::string ImportFunctions;
  const std::string SupportedDeviceTypes;
  const std::string PlatformEnums;
  clang::interop::NameList HostFunctions;
  clang::interop::NameList DeviceFunctions;
  clang::interop::NameList PlatformEnumList;
  std::vector<std::int64_t> Supported;
};

} // namespace clang::tidy::interop

#endif // INTEROP_CHECKS_UNSUPPORTEDDLPACKDEVICECHECK_H
