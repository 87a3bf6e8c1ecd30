//===--- ApiModel.h - the array/device API, as data -------------*- C++ -*-===//
//
// The array/device checks reason about "arrays", "shardings", "devices" and a
// handful of functions over them. Which C++ names play those roles is data: the
// default is the interop_shim API (<interop/interop.h>), and check options
// replace any list, so a team with its own array class (XLA IFRT, a framework
// bridge) gets the same analysis by describing its API instead of forking the
// model. Every list follows the one rule of lib/support/NameLists.h: fully
// qualified names, a member function named through its class
// ("::ns::Array::sharding") and a member of a class template through the
// template ("::ns::Result::value"), or regular expressions searched in the
// "::"-prefixed name ("::ns::f$").
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_ARRAYDEVICE_APIMODEL_H
#define INTEROP_LIB_ARRAYDEVICE_APIMODEL_H

#include "lib/engine/ExitConditions.h"
#include "lib/support/NameLists.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Type.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

#include <string>
#include <utility>
#include <vector>

namespace clang::interop {

/// The roles a record type can play in the model.
enum class TypeRole : unsigned char {
  None,
  Array,    ///< A possibly sharded array (ArrayTypes).
  Sharding, ///< The placement of an array over devices (ShardingTypes).
  Device,   ///< One device (DeviceTypes).
  Result,   ///< A status-or-value wrapper (ResultTypes).
  /// A container, view or iterator over devices: a class template
  /// specialisation with a device (or device pointer, or another device
  /// range) argument, or one of DeviceListTypes.
  DeviceRange,
  /// The same over arrays (the list of an array's shards, for instance).
  ArrayRange,
  /// A container, view or iterator over records that hold a device or an
  /// array by value in a field (`std::vector<Entry>` with `Array array;`):
  /// what is proven of that field of every element (heldFields()).
  HolderRange,
};

/// The roles a function can play in the model. One function may play
/// several (from_dlpack is an import and a single-device producer).
enum class FnRole : unsigned char {
  Export,                  ///< ExportFunctions: to_dlpack.
  Import,                  ///< ImportFunctions: from_dlpack onto a device.
  CudaArrayInterface,      ///< CudaArrayInterfaceFunctions.
  SingleDevicePredicate,   ///< SingleDevicePredicates: is_single_device.
  ShardedPredicate,        ///< ShardedPredicates: true when not on one device.
  DeviceCount,             ///< DeviceCountFunctions: num_devices.
  ShardingOf,              ///< ShardingFunctions: Array::sharding.
  DeviceListOf,            ///< DeviceListFunctions: Sharding::devices.
  AddressablePredicate,    ///< AddressablePredicates: Device::is_addressable.
  GlobalDeviceSource,      ///< GlobalDeviceSources: every process's devices.
  AddressableDeviceSource, ///< AddressableDeviceSources: local_devices.
  SingleDeviceProducer,    ///< SingleDeviceProducers: gather, from_dlpack.
  ShardsOf,                ///< ShardFunctions: an array's addressable shards.
  PlatformOf,              ///< PlatformFunctions: Array/Device::platform.
  MemoryKindOf,   ///< MemoryKindFunctions: Array/Sharding::memory_kind.
  ShardingKindOf, ///< ShardingKindFunctions: Sharding::kind.
  StatusOk,       ///< StatusOkFunctions: Status::ok.
  ProcessIndexOf, ///< ProcessIndexFunctions: Device::process_index.
  /// CurrentProcessIndexSources (functions): this process's index.
  CurrentProcessIndex,
  NumRoles
};

/// A set of FnRoles.
class FnRoles {
public:
  FnRoles() = default;
  bool has(FnRole R) const { return Bits & bit(R); }
  bool empty() const { return Bits == 0; }
  void add(FnRole R) { Bits |= bit(R); }

private:
  static unsigned bit(FnRole R) { return 1u << static_cast<unsigned>(R); }
  unsigned Bits = 0;
};

/// The user-facing description of the API: one string per option, exactly as
/// clang-tidy stores it. Defaults describe the interop_shim runtime.
struct ApiModelOptions {
  std::string ArrayTypes = "::interop::Array";
  std::string ShardingTypes = "::interop::Sharding";
  std::string DeviceTypes = "::interop::Device";
  std::string DeviceListTypes = "";
  std::string ResultTypes = "::interop::Result";
  std::string ExportFunctions = "::interop::to_dlpack;::interop::dlpack_device";
  std::string ImportFunctions = "::interop::from_dlpack";
  std::string CudaArrayInterfaceFunctions =
      "::interop::cuda_array_interface;::interop::Array::unsafe_buffer_pointer";
  std::string SingleDevicePredicates = "::interop::Array::is_single_device;::"
                                       "interop::Sharding::is_single_device";
  /// Predicates true exactly when the object is NOT on one device (a
  /// project's own `is_sharded()`): the negation of the above.
  std::string ShardedPredicates = "";
  std::string DeviceCountFunctions =
      "::interop::Array::num_devices;::interop::Sharding::num_devices";
  std::string ShardingFunctions = "::interop::Array::sharding";
  std::string DeviceListFunctions = "::interop::Sharding::devices";
  std::string AddressablePredicates = "::interop::Device::is_addressable";
  std::string GlobalDeviceSources =
      "::interop::devices;::interop::device_by_id";
  std::string AddressableDeviceSources =
      "::interop::local_devices;::interop::local_device_for";
  std::string SingleDeviceProducers =
      "::interop::gather;::interop::from_dlpack;::interop::Sharding::single_"
      "device";
  std::string ShardFunctions = "::interop::Array::addressable_shards;::interop:"
                               ":Array::addressable_data";
  std::string PlatformFunctions = "::interop::Array::platform;::interop::"
                                  "Sharding::platform;::interop::Device::"
                                  "platform";
  std::string TpuPlatforms = "::interop::Platform::kTpu";
  std::string MemoryKindFunctions =
      "::interop::Array::memory_kind;::interop::Sharding::memory_kind";
  std::string PinnedHostMemoryKinds = "::interop::MemoryKind::kPinnedHost";
  /// The enumerators meaning the device's own memory; a memory kind that is
  /// neither pinned host nor one of these is unpinned host memory (only the
  /// wording of interop-tpu-dlpack-memory-kind depends on it).
  std::string DeviceMemoryKinds = "::interop::MemoryKind::kDevice";
  std::string ShardingKindFunctions = "::interop::Sharding::kind";
  std::string SingleDeviceShardingKinds =
      "::interop::Sharding::Kind::kSingleDevice";
  /// The error type of validators (same-TU helpers returning a status are
  /// summarised by what holds on their non-error returns), its ok() test,
  /// and the code that means "no error": a status constructed from another
  /// enumerator of that code's enumeration is an error.
  std::string StatusTypes = "::interop::Status";
  std::string StatusOkFunctions = "::interop::Status::ok";
  std::string OkStatusCodes = "::interop::StatusCode::kOk";
  /// A device is addressable exactly when its process index (a member
  /// listed here) equals this process's index: a function or a field listed
  /// in CurrentProcessIndexSources (device.h says so of is_addressable()).
  std::string ProcessIndexFunctions = "::interop::Device::process_index";
  std::string CurrentProcessIndexSources =
      "::interop::TopologyConfig::process_index";
  /// Functions without a visible body that exit on a condition of their
  /// first argument (every check's ThrowIfFunctions and RequireFunctions,
  /// lib/engine/ExitConditions.h).
  ExitConditionNames Exits;

  /// Calls F(OptionName, Member) for every option, in documentation order;
  /// lets checks read and store all of them without repeating the list.
  template <typename Fn> void forEach(Fn F) {
    F("ArrayTypes", ArrayTypes);
    F("ShardingTypes", ShardingTypes);
    F("DeviceTypes", DeviceTypes);
    F("DeviceListTypes", DeviceListTypes);
    F("ResultTypes", ResultTypes);
    F("ExportFunctions", ExportFunctions);
    F("ImportFunctions", ImportFunctions);
    F("CudaArrayInterfaceFunctions", CudaArrayInterfaceFunctions);
    F("SingleDevicePredicates", SingleDevicePredicates);
    F("ShardedPredicates", ShardedPredicates);
    F("DeviceCountFunctions", DeviceCountFunctions);
    F("ShardingFunctions", ShardingFunctions);
    F("DeviceListFunctions", DeviceListFunctions);
    F("AddressablePredicates", AddressablePredicates);
    F("GlobalDeviceSources", GlobalDeviceSources);
    F("AddressableDeviceSources", AddressableDeviceSources);
    F("SingleDeviceProducers", SingleDeviceProducers);
    F("ShardFunctions", ShardFunctions);
    F("PlatformFunctions", PlatformFunctions);
    F("TpuPlatforms", TpuPlatforms);
    F("MemoryKindFunctions", MemoryKindFunctions);
    F("PinnedHostMemoryKinds", PinnedHostMemoryKinds);
    F("DeviceMemoryKinds", DeviceMemoryKinds);
    F("ShardingKindFunctions", ShardingKindFunctions);
    F("SingleDeviceShardingKinds", SingleDeviceShardingKinds);
    F("StatusTypes", StatusTypes);
    F("StatusOkFunctions", StatusOkFunctions);
    F("OkStatusCodes", OkStatusCodes);
    F("ProcessIndexFunctions", ProcessIndexFunctions);
    F("CurrentProcessIndexSources", CurrentProcessIndexSources);
  }
  template <typename Fn> void forEach(Fn F) const {
    const_cast<ApiModelOptions *>(this)->forEach(
        [&](llvm::StringRef Name, std::string &V) { F(Name, V); });
  }

  /// One string that identifies the configuration (for caches).
  std::string key() const;
};

/// The parsed model with memoised classification of declarations and types.
/// Classification is by name only, so it works whatever headers declare the
/// API; results are cached per canonical declaration/type.
class ApiModel {
public:
  explicit ApiModel(const ApiModelOptions &Options);

  const ApiModelOptions &options() const { return Options; }
  /// The callee contracts of the options' ExitConditionNames.
  const ExitConditions &exitConditions() const { return Exits; }

  /// The roles of a (possibly null) callee.
  FnRoles classify(const FunctionDecl *FD) const;
  /// The role of a type after stripping references, cv-qualifiers and sugar
  /// (not pointers).
  TypeRole classify(QualType T) const;
  /// Like classify(QualType), looking through one level of pointer.
  TypeRole classifyPointee(QualType T) const;
  /// True for an enumerator listed in TpuPlatforms / PinnedHostMemoryKinds.
  bool isTpuPlatform(const EnumConstantDecl *E) const;
  bool isPinnedHostMemoryKind(const EnumConstantDecl *E) const;
  /// True for an enumerator listed in DeviceMemoryKinds.
  bool isDeviceMemoryKind(const EnumConstantDecl *E) const;
  /// False when DeviceMemoryKinds is empty: then no memory kind is named.
  bool namesDeviceMemory() const { return !DeviceMemoryKinds.empty(); }
  /// True for an enumerator listed in SingleDeviceShardingKinds.
  bool isSingleDeviceShardingKind(const EnumConstantDecl *E) const;
  /// True for the enum of the platforms (one of its enumerators is listed in
  /// TpuPlatforms) / of the memory kinds (PinnedHostMemoryKinds), after
  /// stripping references and sugar.
  bool isPlatformEnum(QualType T) const;
  bool isMemoryKindEnum(QualType T) const;
  bool isShardingKindEnum(QualType T) const;
  /// The fields of \p RD that hold a device or an array by value (its own,
  /// not its bases'; at most four), for ranges over such records.
  llvm::ArrayRef<const FieldDecl *> heldFields(const CXXRecordDecl *RD) const;
  /// The record a HolderRange type ranges over (null for any other type).
  const CXXRecordDecl *heldRecordOf(QualType T) const;
  const CXXRecordDecl *heldRecordOf(const CXXRecordDecl *RD) const;
  /// True for one of StatusTypes (after stripping references and sugar).
  bool isStatusType(QualType T) const;
  /// Whether `E` makes a status an error: an enumerator of the enumeration
  /// of an OkStatusCodes entry, other than that entry.
  bool isErrorStatusCode(const EnumConstantDecl *E) const;

  /// True for a field listed in CurrentProcessIndexSources.
  bool isCurrentProcessIndexField(const FieldDecl *F) const;

  /// The AddressableDeviceSources function that can stand in for Global (a
  /// GlobalDeviceSources free function): declared in the same scope with
  /// the same parameter and return types (`local_devices()` for
  /// `devices()`), so replacing the name keeps the call compiling; null when
  /// there is none.
  const FunctionDecl *addressableTwin(const FunctionDecl &Global) const;

  /// The text of a copy of `Subject` (an array of type ArrayType, as
  /// written) onto one addressable device, for a note's fix-it:
  /// `interop::gather(a, interop::local_devices()[0]).value()`. Built from
  /// the first SingleDeviceProducers function declared in Ctx's translation
  /// unit that takes (the array, a device) and returns the array or a
  /// result with value() around it, and the first parameterless
  /// AddressableDeviceSources function returning a list of that device
  /// type; none when either is missing, so the text always compiles.
  std::optional<std::string> gatheredCopyText(llvm::StringRef Subject,
                                              QualType ArrayType,
                                              ASTContext &Ctx) const;

  /// The plain names listed for a role, without the leading "::", for
  /// matchers and for naming the API in diagnostics and fix-its.
  llvm::ArrayRef<std::string> names(FnRole R) const;

private:
  TypeRole classifyRecord(const CXXRecordDecl *RD) const;

  ApiModelOptions Options;
  ExitConditions Exits;
  /// Per FnRole, the list that names it; per type list, its role.
  std::vector<NameList> FnLists;
  std::vector<std::pair<TypeRole, NameList>> TypeLists;
  NameList TpuPlatforms, PinnedKinds, SingleKinds, DeviceMemoryKinds, OkCodes,
      StatusTypes;
  mutable llvm::DenseMap<const FieldDecl *, bool> FieldCache;
  mutable llvm::DenseMap<const Type *, bool> StatusCache;
  mutable llvm::DenseMap<const FunctionDecl *, FnRoles> FnCache;
  mutable llvm::DenseMap<const Type *, TypeRole> TypeCache;
  mutable llvm::DenseMap<const CXXRecordDecl *,
                         llvm::SmallVector<const FieldDecl *, 2>>
      HeldFieldCache;
  /// Per enum: bit 0 platform enum, bit 1 memory-kind enum, bit 2
  /// sharding-kind enum.
  mutable llvm::DenseMap<const EnumDecl *, unsigned char> EnumCache;
  unsigned char enumKind(QualType T) const;
};

} // namespace clang::interop

#endif // INTEROP_LIB_ARRAYDEVICE_APIMODEL_H
