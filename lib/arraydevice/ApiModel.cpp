//===--- ApiModel.cpp - the array/device API the checks know, as data -----===//

#include "lib/arraydevice/ApiModel.h"

#include "lib/support/AstHelpers.h" // declsNamed

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"

namespace clang::interop {

std::string ApiModelOptions::key() const {
  std::string K;
  forEach([&](llvm::StringRef Name, const std::string &V) {
    K += Name;
    K += '=';
    K += V;
    K += '\n';
  });
  K += Exits.key();
  return K;
}

ApiModel::ApiModel(const ApiModelOptions &Opts)
    : Options(Opts), Exits(Opts.Exits),
      FnLists(static_cast<unsigned>(FnRole::NumRoles)),
      TpuPlatforms(NameList::fromOption(Opts.TpuPlatforms)),
      PinnedKinds(NameList::fromOption(Opts.PinnedHostMemoryKinds)),
      SingleKinds(NameList::fromOption(Opts.SingleDeviceShardingKinds)),
      DeviceMemoryKinds(NameList::fromOption(Opts.DeviceMemoryKinds)),
      OkCodes(NameList::fromOption(Opts.OkStatusCodes)),
      StatusTypes(NameList::fromOption(Opts.StatusTypes)) {
  auto AddFns = [&](const std::string &List, FnRole R) {
    FnLists[static_cast<unsigned>(R)] = NameList::fromOption(List);
  };
  AddFns(Options.ExportFunctions, FnRole::Export);
  AddFns(Options.ImportFunctions, FnRole::Import);
  AddFns(Options.CudaArrayInterfaceFunctions, FnRole::CudaArrayInterface);
  AddFns(Options.SingleDevicePredicates, FnRole::SingleDevicePredicate);
  AddFns(Options.ShardedPredicates, FnRole::ShardedPredicate);
  AddFns(Options.DeviceCountFunctions, FnRole::DeviceCount);
  AddFns(Options.ShardingFunctions, FnRole::ShardingOf);
  AddFns(Options.DeviceListFunctions, FnRole::DeviceListOf);
  AddFns(Options.AddressablePredicates, FnRole::AddressablePredicate);
  AddFns(Options.GlobalDeviceSources, FnRole::GlobalDeviceSource);
  AddFns(Options.AddressableDeviceSources, FnRole::AddressableDeviceSource);
  AddFns(Options.SingleDeviceProducers, FnRole::SingleDeviceProducer);
  AddFns(Options.ShardFunctions, FnRole::ShardsOf);
  AddFns(Options.PlatformFunctions, FnRole::PlatformOf);
  AddFns(Options.MemoryKindFunctions, FnRole::MemoryKindOf);
  AddFns(Options.ShardingKindFunctions, FnRole::ShardingKindOf);
  AddFns(Options.StatusOkFunctions, FnRole::StatusOk);
  AddFns(Options.ProcessIndexFunctions, FnRole::ProcessIndexOf);
  // The same list names functions and fields (isCurrentProcessIndexField).
  AddFns(Options.CurrentProcessIndexSources, FnRole::CurrentProcessIndex);

  // In the order the roles are tried.
  TypeLists.emplace_back(TypeRole::Array,
                         NameList::fromOption(Options.ArrayTypes));
  TypeLists.emplace_back(TypeRole::Sharding,
                         NameList::fromOption(Options.ShardingTypes));
  TypeLists.emplace_back(TypeRole::Device,
                         NameList::fromOption(Options.DeviceTypes));
  TypeLists.emplace_back(TypeRole::Result,
                         NameList::fromOption(Options.ResultTypes));
  TypeLists.emplace_back(TypeRole::DeviceRange,
                         NameList::fromOption(Options.DeviceListTypes));
}

FnRoles ApiModel::classify(const FunctionDecl *FD) const {
  if (!FD)
    return {};
  FD = FD->getCanonicalDecl();
  auto It = FnCache.find(FD);
  if (It != FnCache.end())
    return It->second;
  FnRoles Roles;
  if (FD->getDeclName().isIdentifier() || isa<CXXMethodDecl>(FD)) {
    // A member inherited from a modelled base is named through the class
    // that declares it, which is what listedName() spells.
    std::string Name = listedName(*FD);
    for (unsigned R = 0; R < FnLists.size(); ++R)
      if (FnLists[R].matchesName(Name))
        Roles.add(static_cast<FnRole>(R));
  }
  FnCache[FD] = Roles;
  return Roles;
}

TypeRole ApiModel::classifyRecord(const CXXRecordDecl *RD) const {
  if (!RD)
    return TypeRole::None;
  std::string Name = listedName(*RD);
  for (const auto &[Role, List] : TypeLists)
    if (List.matchesName(Name))
      return Role;
  // A class derived from a modelled array, sharding or device is one.
  if (RD->hasDefinition()) {
    for (const CXXBaseSpecifier &B : RD->bases()) {
      TypeRole R = classify(B.getType());
      if (R == TypeRole::Array || R == TypeRole::Sharding ||
          R == TypeRole::Device)
        return R;
    }
  }
  // Containers, views, iterators and smart pointers over devices or arrays
  // are recognised by their template arguments, so std::vector, std::span,
  // absl::Span and their iterators need no configuration.
  if (const auto *CTSD = dyn_cast<ClassTemplateSpecializationDecl>(RD)) {
    TypeRole Elem = TypeRole::None;
    auto Visit = [&](const TemplateArgument &A) {
      if (A.getKind() != TemplateArgument::Type || Elem != TypeRole::None)
        return;
      TypeRole R = classifyPointee(A.getAsType());
      if (R == TypeRole::Device || R == TypeRole::DeviceRange)
        Elem = TypeRole::DeviceRange;
      else if (R == TypeRole::Array || R == TypeRole::ArrayRange)
        Elem = TypeRole::ArrayRange;
    };
    for (const TemplateArgument &A : CTSD->getTemplateArgs().asArray()) {
      if (A.getKind() == TemplateArgument::Pack) {
        for (const TemplateArgument &P : A.pack_elements())
          Visit(P);
      } else {
        Visit(A);
      }
    }
    if (Elem == TypeRole::None && heldRecordOf(CTSD))
      Elem = TypeRole::HolderRange;
    return Elem;
  }
  return TypeRole::None;
}

llvm::ArrayRef<const FieldDecl *>
ApiModel::heldFields(const CXXRecordDecl *RD) const {
  if (!RD)
    return {};
  RD = RD->getDefinition();
  if (!RD)
    return {};
  auto [It, Inserted] = HeldFieldCache.try_emplace(RD);
  if (!Inserted)
    return It->second;
  // A specialisation is a range of its own, not a holder; a class of the
  // model is an element.
  llvm::SmallVector<const FieldDecl *, 2> Held;
  if (!isa<ClassTemplateSpecializationDecl>(RD) && !RD->isLambda())
    for (const FieldDecl *F : RD->fields()) {
      QualType T = F->getType();
      if (T->isPointerType() || T->isReferenceType())
        continue;
      TypeRole R = classify(T);
      if (R == TypeRole::Array || R == TypeRole::Device)
        Held.push_back(F);
      if (Held.size() == 4)
        break;
    }
  // The map may have grown while the fields were classified.
  return HeldFieldCache[RD] = std::move(Held);
}

const CXXRecordDecl *ApiModel::heldRecordOf(QualType T) const {
  return T.isNull()
             ? nullptr
             : heldRecordOf(T.getNonReferenceType()->getAsCXXRecordDecl());
}

const CXXRecordDecl *ApiModel::heldRecordOf(const CXXRecordDecl *RD) const {
  const auto *CTSD = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD);
  if (!CTSD)
    return nullptr;
  for (const TemplateArgument &A : CTSD->getTemplateArgs().asArray()) {
    if (A.getKind() != TemplateArgument::Type)
      continue;
    QualType E = A.getAsType();
    if (const auto *PT = E->getAs<PointerType>())
      E = PT->getPointeeType();
    const CXXRecordDecl *RD = E->getAsCXXRecordDecl();
    if (RD && classify(E) == TypeRole::None && !heldFields(RD).empty())
      return RD->getDefinition();
  }
  return nullptr;
}

TypeRole ApiModel::classify(QualType T) const {
  if (T.isNull())
    return TypeRole::None;
  T = T.getNonReferenceType().getCanonicalType().getUnqualifiedType();
  const Type *Key = T.getTypePtr();
  auto It = TypeCache.find(Key);
  if (It != TypeCache.end())
    return It->second;
  // Guard against recursion through base classes and template arguments.
  TypeCache[Key] = TypeRole::None;
  TypeRole R = classifyRecord(T->getAsCXXRecordDecl());
  TypeCache[Key] = R;
  return R;
}

TypeRole ApiModel::classifyPointee(QualType T) const {
  if (T.isNull())
    return TypeRole::None;
  T = T.getNonReferenceType();
  if (const auto *PT = T->getAs<PointerType>())
    T = PT->getPointeeType();
  return classify(T);
}

bool ApiModel::isTpuPlatform(const EnumConstantDecl *E) const {
  return TpuPlatforms.matches(E);
}

bool ApiModel::isPinnedHostMemoryKind(const EnumConstantDecl *E) const {
  return PinnedKinds.matches(E);
}

bool ApiModel::isDeviceMemoryKind(const EnumConstantDecl *E) const {
  return DeviceMemoryKinds.matches(E);
}

bool ApiModel::isSingleDeviceShardingKind(const EnumConstantDecl *E) const {
  return SingleKinds.matches(E);
}

unsigned char ApiModel::enumKind(QualType T) const {
  if (T.isNull())
    return 0;
  const auto *ET = T.getNonReferenceType()->getAs<EnumType>();
  if (!ET)
    return 0;
  const EnumDecl *ED = ET->getDecl()->getDefinition();
  if (!ED)
    return 0;
  auto It = EnumCache.find(ED);
  if (It != EnumCache.end())
    return It->second;
  unsigned char K = 0;
  for (const EnumConstantDecl *E : ED->enumerators()) {
    if (isTpuPlatform(E))
      K |= 1;
    if (isPinnedHostMemoryKind(E))
      K |= 2;
    if (isSingleDeviceShardingKind(E))
      K |= 4;
  }
  EnumCache[ED] = K;
  return K;
}

bool ApiModel::isPlatformEnum(QualType T) const { return enumKind(T) & 1; }

bool ApiModel::isMemoryKindEnum(QualType T) const { return enumKind(T) & 2; }

bool ApiModel::isShardingKindEnum(QualType T) const { return enumKind(T) & 4; }

bool ApiModel::isStatusType(QualType T) const {
  if (T.isNull() || StatusTypes.empty())
    return false;
  T = T.getNonReferenceType().getCanonicalType().getUnqualifiedType();
  auto [It, New] = StatusCache.try_emplace(T.getTypePtr(), false);
  if (New)
    if (const CXXRecordDecl *RD = T->getAsCXXRecordDecl())
      It->second = StatusTypes.matches(RD);
  return It->second;
}

bool ApiModel::isErrorStatusCode(const EnumConstantDecl *E) const {
  if (!E || OkCodes.matches(E))
    return false;
  const auto *ED = dyn_cast<EnumDecl>(E->getDeclContext());
  return ED && llvm::any_of(ED->enumerators(), [&](const EnumConstantDecl *O) {
           return OkCodes.matches(O);
         });
}

const FunctionDecl *
ApiModel::addressableTwin(const FunctionDecl &Global) const {
  if (isa<CXXMethodDecl>(Global) || !Global.getIdentifier())
    return nullptr;
  std::string Scope = listedName(Global);
  Scope.resize(Scope.size() - Global.getName().size());
  const DeclContext *DC = Global.getDeclContext()->getRedeclContext();
  ASTContext &Ctx = Global.getASTContext();
  for (llvm::StringRef Name : names(FnRole::AddressableDeviceSource)) {
    if (!Name.starts_with(Scope) || Name.drop_front(Scope.size()).contains(':'))
      continue;
    IdentifierInfo &Id = Ctx.Idents.get(Name.drop_front(Scope.size()));
    for (const NamedDecl *D : DC->lookup(DeclarationName(&Id))) {
      const auto *F = dyn_cast<FunctionDecl>(D);
      if (!F || F->getNumParams() != Global.getNumParams() ||
          !Ctx.hasSameType(F->getReturnType(), Global.getReturnType()))
        continue;
      bool Same = true;
      for (unsigned I = 0; I < F->getNumParams(); ++I)
        Same &= Ctx.hasSameType(F->getParamDecl(I)->getType(),
                                Global.getParamDecl(I)->getType());
      if (Same)
        return F;
    }
  }
  return nullptr;
}

namespace {
/// T without references and qualifiers, for comparing parameter types.
QualType bareType(QualType T) {
  return T.getNonReferenceType().getUnqualifiedType();
}

/// The first template argument of a class template specialisation (the
/// element type of `std::vector<Device>`), or a null type.
QualType elementType(QualType List) {
  const auto *TS = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      bareType(List)->getAsCXXRecordDecl());
  if (!TS || TS->getTemplateArgs().size() == 0 ||
      TS->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return QualType();
  return TS->getTemplateArgs()[0].getAsType();
}

/// Whether a record (or the template it specialises, which a declaration
/// alone does not instantiate) declares a member named Name.
bool declaresMember(const CXXRecordDecl *RD, llvm::StringRef Name) {
  if (const auto *TS = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD))
    RD = TS->getSpecializedTemplate()->getTemplatedDecl();
  if (!RD)
    return false;
  IdentifierInfo &Id = RD->getASTContext().Idents.get(Name);
  return !RD->lookup(DeclarationName(&Id)).empty();
}
} // namespace

std::optional<std::string> ApiModel::gatheredCopyText(llvm::StringRef Subject,
                                                      QualType ArrayType,
                                                      ASTContext &Ctx) const {
  // The device: element 0 of this process's device list.
  QualType Device;
  std::string DeviceText;
  for (llvm::StringRef N : names(FnRole::AddressableDeviceSource)) {
    for (const NamedDecl *D : declsNamed(Ctx, N))
      if (const auto *F = dyn_cast<FunctionDecl>(D);
          F && F->getNumParams() == 0 &&
          !elementType(F->getReturnType()).isNull()) {
        Device = elementType(F->getReturnType());
        DeviceText = (N + "()[0]").str();
        break;
      }
    if (!DeviceText.empty())
      break;
  }
  if (DeviceText.empty())
    return std::nullopt;
  for (llvm::StringRef N : names(FnRole::SingleDeviceProducer)) {
    for (const NamedDecl *D : declsNamed(Ctx, N)) {
      const auto *F = dyn_cast<FunctionDecl>(D);
      const unsigned Used = 2;
      if (!F || F->getNumParams() < Used ||
          !Ctx.hasSameType(bareType(F->getParamDecl(0)->getType()),
                           bareType(ArrayType)) ||
          !Ctx.hasSameType(bareType(F->getParamDecl(1)->getType()),
                           bareType(Device)))
        continue;
      bool Defaulted = true;
      for (unsigned I = Used; I < F->getNumParams(); ++I)
        Defaulted &= F->getParamDecl(I)->hasDefaultArg();
      if (!Defaulted)
        continue;
      // The array itself, or a result wrapping it, read with value() (by
      // declaration, not classify(): this model keeps no declaration of a
      // translation unit in its caches).
      QualType Ret = F->getReturnType();
      std::string Unwrap;
      QualType Wrapped = elementType(Ret);
      if (!Wrapped.isNull() &&
          Ctx.hasSameType(bareType(Wrapped), bareType(ArrayType)) &&
          declaresMember(bareType(Ret)->getAsCXXRecordDecl(), "value"))
        Unwrap = ".value()";
      else if (!Ctx.hasSameType(bareType(Ret), bareType(ArrayType)))
        continue;
      return (N + "(" + Subject + ", " + DeviceText + ")" + Unwrap).str();
    }
  }
  return std::nullopt;
}

llvm::ArrayRef<std::string> ApiModel::names(FnRole R) const {
  return FnLists[static_cast<unsigned>(R)].plainNames();
}

bool ApiModel::isCurrentProcessIndexField(const FieldDecl *F) const {
  const NameList &Sources =
      FnLists[static_cast<unsigned>(FnRole::CurrentProcessIndex)];
  if (!F || Sources.empty())
    return false;
  auto [It, New] = FieldCache.try_emplace(F, false);
  if (New)
    It->second = Sources.matches(F);
  return It->second;
}

} // namespace clang::interop
