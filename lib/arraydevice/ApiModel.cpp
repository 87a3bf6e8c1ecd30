//===--- ApiModel.cpp - the array/device API the checks know, as data -----===//

#include "lib/arraydevice/ApiModel.h"

#include "lib/support/AstHelpers.h" // declsNamed
#include "lib/support/NameLists.h" // splitOptionList

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"

namespace clang::interop {

std::vector<std::string> splitNameList(llvm::StringRef List) {
  std::vector<std::string> Names;
  for (llvm::StringRef P : splitOptionList(List)) {
    P.consume_front("::");
    if (!P.empty())
      Names.push_back(P.str());
  }
  return Names;
}

bool isNamePattern(llvm::StringRef Entry) {
  return Entry.find_first_of("^$.*+?()[]{}|\\") != llvm::StringRef::npos;
}

/// Splits a list into exact names and compiled patterns; a pattern that does
/// not compile is kept as an exact name (it then matches nothing).
static void splitEntries(const std::string &List,
                         std::vector<std::string> &Names,
                         std::vector<std::shared_ptr<llvm::Regex>> &Patterns) {
  for (llvm::StringRef P : splitOptionList(List)) {
    if (isNamePattern(P)) {
      auto Re = std::make_shared<llvm::Regex>(P);
      if (Re->isValid()) {
        Patterns.push_back(std::move(Re));
        continue;
      }
    }
    P.consume_front("::");
    Names.push_back(P.str());
  }
}

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
      NamesByRole(static_cast<unsigned>(FnRole::NumRoles)) {
  auto AddFns = [&](const std::string &List, FnRole R) {
    std::vector<std::string> Names;
    std::vector<std::shared_ptr<llvm::Regex>> Patterns;
    splitEntries(List, Names, Patterns);
    for (std::string &N : Names) {
      Functions[N].add(R);
      NamesByRole[static_cast<unsigned>(R)].push_back(std::move(N));
    }
    for (auto &Re : Patterns)
      FnPatterns.push_back({std::move(Re), R, TypeRole::None});
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
  // The same list names functions and fields: a field is looked up by name.
  AddFns(Options.CurrentProcessIndexSources, FnRole::CurrentProcessIndex);
  for (const std::string &N : splitNameList(Options.CurrentProcessIndexSources))
    CurrentProcessFields[N] = 1;

  auto AddTypes = [&](const std::string &List, TypeRole R) {
    std::vector<std::string> Names;
    std::vector<std::shared_ptr<llvm::Regex>> Patterns;
    splitEntries(List, Names, Patterns);
    for (const std::string &N : Names)
      Types[N] = R;
    for (auto &Re : Patterns)
      TypePatterns.push_back({std::move(Re), FnRole::NumRoles, R});
  };
  AddTypes(Options.ArrayTypes, TypeRole::Array);
  AddTypes(Options.ShardingTypes, TypeRole::Sharding);
  AddTypes(Options.DeviceTypes, TypeRole::Device);
  AddTypes(Options.ResultTypes, TypeRole::Result);
  AddTypes(Options.DeviceListTypes, TypeRole::DeviceRange);

  for (const std::string &N : splitNameList(Options.TpuPlatforms))
    TpuEnumerators[llvm::StringRef(N).rtrim('$')] = 1;
  for (const std::string &N : splitNameList(Options.PinnedHostMemoryKinds))
    PinnedEnumerators[llvm::StringRef(N).rtrim('$')] = 1;
  for (const std::string &N : splitNameList(Options.SingleDeviceShardingKinds))
    SingleKindEnumerators[llvm::StringRef(N).rtrim('$')] = 1;
  for (const std::string &N : splitNameList(Options.DeviceMemoryKinds))
    DeviceMemoryEnumerators[llvm::StringRef(N).rtrim('$')] = 1;
  for (const std::string &N : splitNameList(Options.OkStatusCodes))
    OkEnumerators[llvm::StringRef(N).rtrim('$')] = 1;
  for (const std::string &N : splitNameList(Options.StatusTypes))
    StatusNames[llvm::StringRef(N).rtrim('$')] = 1;
}

std::string ApiModel::modelName(const NamedDecl &D) {
  const DeclContext *DC = D.getDeclContext();
  // Members are spelled through their class, and members of a class template
  // specialisation through the template, so that one option names every
  // instantiation.
  if (const auto *RD = dyn_cast<CXXRecordDecl>(DC))
    return modelName(*RD) + "::" + D.getNameAsString();
  if (const auto *ED = dyn_cast<EnumDecl>(DC))
    return modelName(*ED) + "::" + D.getNameAsString();
  if (const auto *CTSD = dyn_cast<ClassTemplateSpecializationDecl>(&D))
    return CTSD->getSpecializedTemplate()->getQualifiedNameAsString();
  return D.getQualifiedNameAsString();
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
    // that declares it, which is what modelName() spells.
    std::string Name = modelName(*FD);
    auto Found = Functions.find(Name);
    if (Found != Functions.end())
      Roles = Found->second;
    if (!FnPatterns.empty()) {
      std::string Qualified = "::" + Name;
      for (const Pattern &P : FnPatterns)
        if (P.Re->match(Qualified))
          Roles.add(P.Fn);
    }
  }
  FnCache[FD] = Roles;
  return Roles;
}

TypeRole ApiModel::classifyRecord(const CXXRecordDecl *RD) const {
  if (!RD)
    return TypeRole::None;
  std::string Name = modelName(*RD);
  auto Found = Types.find(Name);
  if (Found != Types.end())
    return Found->second;
  if (!TypePatterns.empty()) {
    std::string Qualified = "::" + Name;
    for (const Pattern &P : TypePatterns)
      if (P.Re->match(Qualified))
        return P.Type;
  }
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

static bool enumeratorListed(const EnumConstantDecl *E,
                             const llvm::StringMap<char> &Set) {
  if (!E)
    return false;
  std::string Name = ApiModel::modelName(*E);
  if (Set.count(Name))
    return true;
  // An unscoped enumerator is also spelled without its enum's name.
  const auto *ED = dyn_cast<EnumDecl>(E->getDeclContext());
  if (ED && !ED->isScoped()) {
    std::string Outer = cast<NamedDecl>(ED)->getQualifiedNameAsString();
    size_t Cut = Outer.rfind("::");
    std::string Short =
        (Cut == std::string::npos ? std::string() : Outer.substr(0, Cut + 2)) +
        E->getNameAsString();
    return Set.count(Short);
  }
  return false;
}

bool ApiModel::isTpuPlatform(const EnumConstantDecl *E) const {
  return enumeratorListed(E, TpuEnumerators);
}

bool ApiModel::isPinnedHostMemoryKind(const EnumConstantDecl *E) const {
  return enumeratorListed(E, PinnedEnumerators);
}

bool ApiModel::isDeviceMemoryKind(const EnumConstantDecl *E) const {
  return enumeratorListed(E, DeviceMemoryEnumerators);
}

bool ApiModel::isSingleDeviceShardingKind(const EnumConstantDecl *E) const {
  return enumeratorListed(E, SingleKindEnumerators);
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
  if (T.isNull() || StatusNames.empty())
    return false;
  T = T.getNonReferenceType().getCanonicalType().getUnqualifiedType();
  auto [It, New] = StatusCache.try_emplace(T.getTypePtr(), false);
  if (New)
    if (const CXXRecordDecl *RD = T->getAsCXXRecordDecl())
      It->second = StatusNames.count(modelName(*RD)) != 0;
  return It->second;
}

bool ApiModel::isErrorStatusCode(const EnumConstantDecl *E) const {
  if (!E || enumeratorListed(E, OkEnumerators))
    return false;
  const auto *ED = dyn_cast<EnumDecl>(E->getDeclContext());
  return ED && llvm::any_of(ED->enumerators(), [&](const EnumConstantDecl *O) {
           return enumeratorListed(O, OkEnumerators);
         });
}

const FunctionDecl *
ApiModel::addressableTwin(const FunctionDecl &Global) const {
  if (isa<CXXMethodDecl>(Global) || !Global.getIdentifier())
    return nullptr;
  std::string Scope = modelName(Global);
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
    if (isNamePattern(N))
      continue;
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
    if (isNamePattern(N))
      continue;
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
  return NamesByRole[static_cast<unsigned>(R)];
}

bool ApiModel::isCurrentProcessIndexField(const FieldDecl *F) const {
  if (!F || CurrentProcessFields.empty())
    return false;
  auto [It, New] = FieldCache.try_emplace(F, false);
  if (New)
    It->second = CurrentProcessFields.count(modelName(*F)) != 0;
  return It->second;
}

} // namespace clang::interop
