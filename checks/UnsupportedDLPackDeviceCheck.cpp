//===--- UnsupportedDLPackDeviceCheck.cpp - unsupported device types ------===//

#include "UnsupportedDLPackDeviceCheck.h"

#include "lib/abi/DLPackFields.h"
#include "lib/dlpackfields/DLPackDeviceAccess.h"
#include "lib/dlpackfields/DLPackDeviceMapping.h"
#include "lib/support/AstHelpers.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang::ast_matchers;
using namespace clang::interop;

namespace clang::tidy::interop {

// Functions that wrap a pointer as host memory (a view the host reads).
static constexpr llvm::StringLiteral DefaultHostMemoryFunctions =
    "::Eigen::Map$;^::pybind11::array;^::pybind11::memoryview;::std::span$;"
    "::absl::Span$;::std::vector$;::std::basic_string$;"
    "PyArray_SimpleNewFromData$;PyArray_New$;PyArray_NewFromDescr$;"
    "PyMemoryView_FromMemory$;PyBytes_FromStringAndSize$;"
    "PyByteArray_FromStringAndSize$";
// Functions that take a pointer as device memory.
static constexpr llvm::StringLiteral DefaultDeviceMemoryFunctions =
    "::thrust::device_pointer_cast$;::thrust::device_ptr$;"
    "::cuda::std::mdspan$";
// The device types the default importer (::interop::from_dlpack, the
// runtime's) accepts (docs/runtime.md, "What an import accepts"); an
// importer for JAX lists JAX's set instead (kDLCPU;kDLCUDA;kDLCUDAHost;
// kDLROCM;kDLROCMHost;kDLOneAPI;kDLTPUHost).
static constexpr llvm::StringLiteral DefaultSupportedDeviceTypes =
    "kDLCPU;kDLCUDA;kDLCUDAHost;kDLCUDAManaged;kDLTPUHost";

static std::string defaultHostGuards() {
  return llvm::join(DLPackFieldConfig().HostDeviceGuards, ";");
}

// The same default as the array/device checks' ImportFunctions: the key is
// read as a global option, so it means the same to every check.
static std::string defaultImporters() {
  return llvm::join(DLPackFieldConfig().ImportFunctions, ";");
}

UnsupportedDLPackDeviceCheck::UnsupportedDLPackDeviceCheck(
    StringRef Name, ClangTidyContext *Context)
    : DLPackFieldCheckBase(Name, Context),
      HostMemoryFunctions(
          nameListOption("HostMemoryFunctions", DefaultHostMemoryFunctions)),
      DeviceMemoryFunctions(nameListOption("DeviceMemoryFunctions",
                                           DefaultDeviceMemoryFunctions)),
      HostDeviceGuards(nameListOption("HostDeviceGuards", defaultHostGuards())),
      ImportFunctions(nameListOption("ImportFunctions", defaultImporters(),
                                     /*Global=*/true)),
      SupportedDeviceTypes(
          Options.get("SupportedDeviceTypes", DefaultSupportedDeviceTypes)),
      PlatformEnums(nameListOption("PlatformEnums", "::interop::Platform$")),
      HostFunctions(splitOptionList(HostMemoryFunctions)),
      DeviceFunctions(splitOptionList(DeviceMemoryFunctions)),
      PlatformEnumList(splitOptionList(PlatformEnums)) {
  for (StringRef T : splitOptionList(SupportedDeviceTypes)) {
    if (std::optional<std::int64_t> V = parseDLPackDeviceType(T))
      Supported.push_back(*V);
    else
      configurationDiag(
          "invalid device type '%0' in "
          "interop-unsupported-dlpack-device.SupportedDeviceTypes;"
          " use a DLDeviceType enumerator name or number")
          << T;
  }
  Config.HostDeviceGuards = optionStrings(HostDeviceGuards);
  // The model reports tensors passed to these calls only.
  Config.ImportFunctions = optionStrings(ImportFunctions);
}

void UnsupportedDLPackDeviceCheck::storeOptions(
    ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "HostMemoryFunctions", HostMemoryFunctions);
  Options.store(Opts, "DeviceMemoryFunctions", DeviceMemoryFunctions);
  Options.store(Opts, "HostDeviceGuards", HostDeviceGuards);
  Options.store(Opts, "ImportFunctions", ImportFunctions);
  Options.store(Opts, "SupportedDeviceTypes", SupportedDeviceTypes);
  Options.store(Opts, "PlatformEnums", PlatformEnums);
  DLPackFieldCheckBase::storeOptions(Opts);
}

static std::string deviceTypeText(std::int64_t Raw) {
  StringRef Name = dlpackDeviceTypeName(Raw);
  return Name.empty() ? std::to_string(Raw) : Name.str();
}

void UnsupportedDLPackDeviceCheck::checkUse(const FunctionDecl &FD,
                                            const DLPackUse &Use,
                                            ASTContext &Ctx) {
  if (!Use.MapsDeviceTypes)
    return;
  // Syntactic: switches and tables that never fail on an unknown type.
  for (const SilentDeviceMapping &M :
       findSilentDeviceMappings(FD, Ctx, &PlatformEnumList)) {
    switch (M.K) {
    case SilentDeviceMapping::DefaultSharesCase:
    case SilentDeviceMapping::DefaultRepeatsCase:
    case SilentDeviceMapping::DefaultKeepsInitialValue:
    case SilentDeviceMapping::DefaultIsPlatform:
      diag(M.At->getBeginLoc(),
           "'default' maps unknown device types to a supported platform "
           "instead of failing");
      if (M.SameAs)
        diag(M.SameAs->getBeginLoc(),
             M.K == SilentDeviceMapping::DefaultKeepsInitialValue
                 ? "unknown types keep this initial value"
             : M.K == SilentDeviceMapping::DefaultIsPlatform
                 ? "unknown types become this platform (its enumeration is "
                   "listed in PlatformEnums)"
                 : "the same result as this case",
             DiagnosticIDs::Note);
      break;
    case SilentDeviceMapping::TableSubscript:
    case SilentDeviceMapping::TableLookup:
      diag(M.At->getBeginLoc(),
           "table lookup maps an unknown device type to a default value "
           "instead of failing");
      break;
    case SilentDeviceMapping::TableFallback:
      diag(M.At->getBeginLoc(),
           "device type missing from the table falls back to a platform "
           "instead of failing");
      break;
    }
    diag(M.At->getBeginLoc(),
         "report an unsupported device type as an error (JAX raises "
         "TypeError: Array passed to from_dlpack is on unsupported device "
         "type)",
         DiagnosticIDs::Note);
  }
}

void UnsupportedDLPackDeviceCheck::checkFacts(const FunctionDecl &FD,
                                              const DLPackFieldFacts &Facts,
                                              ASTContext &Ctx) {
  llvm::DenseSet<const Expr *> Reported;
  for (const DLPackEvent &E : Facts.Events) {
    if (E.K == DLPackEvent::TensorCallArg) {
      if (!E.ProvenDeviceType ||
          llvm::is_contained(Supported, *E.ProvenDeviceType))
        continue;
      diag(E.Use->getBeginLoc(),
           "import of a tensor whose device type is %0, which %1 does not "
           "support; this call always fails")
          << deviceTypeText(*E.ProvenDeviceType)
          << calleeNameForDiagnostic(E.Callee)
          << E.Use->getSourceRange();
      if (E.DeviceCheck)
        diag(E.DeviceCheck->getBeginLoc(), "device type established here",
             DiagnosticIDs::Note);
      continue;
    }
    if (E.Local)
      continue;
    DataAccessSide Side =
        classifyDataAccess(E, HostFunctions, DeviceFunctions, Ctx);
    if (Side == DataAccessSide::None ||
        (Side == DataAccessSide::Host && E.HostProven))
      continue;
    // A device copy or a view is right for the memory it assumes; it is
    // wrong where a tensor exchanged here meets it and nothing here, nor any
    // caller here, looked at the device.
    if (Side != DataAccessSide::Host &&
        (E.HostProven || E.DeviceTypeChecked || readsDescriptorParameter(E) ||
         !trustsDeviceType(FD)))
      continue;
    if (E.FieldRead && !Reported.insert(E.FieldRead).second)
      continue;
    StringRef Warning, Remedy;
    if (Side == DataAccessSide::Host) {
      Warning = E.DeviceTypeChecked
                    ? "data of an imported DLTensor accessed from the host on "
                      "a path where its device type may not be host memory"
                    : "data of an imported DLTensor accessed from the host "
                      "without checking its device type";
      Remedy = "check that device_type is host-accessible (kDLCPU, "
               "kDLCUDAHost, kDLROCMHost, kDLCUDAManaged or kDLTPUHost) "
               "before touching the data from the host";
    } else {
      Warning = Side == DataAccessSide::Device
                    ? "data of an imported DLTensor used as device memory "
                      "without checking its device type"
                    : "data of an imported DLTensor wrapped as a view without "
                      "checking its device type";
      Remedy = "nothing here or in a caller here reads the device: a NumPy "
               "array's host memory and a CUDA tensor's device memory reach "
               "this call alike; check device_type and fail on the types "
               "this code does not handle";
    }
    diag(E.Use->getBeginLoc(), Warning) << E.Use->getSourceRange();
    if (E.FieldRead && E.FieldRead->getBeginLoc() != E.Use->getBeginLoc())
      diag(E.FieldRead->getBeginLoc(), "'data' read here", DiagnosticIDs::Note);
    diag(E.Use->getBeginLoc(), Remedy, DiagnosticIDs::Note);
  }
}

} // namespace clang::tidy::interop
