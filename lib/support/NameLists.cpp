//===--- NameLists.cpp - options that name declarations -------------------===//

#include "lib/support/NameLists.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"

namespace clang::interop {

std::vector<llvm::StringRef> splitOptionList(llvm::StringRef Value) {
  llvm::SmallVector<llvm::StringRef> Parts;
  Value.split(Parts, ';', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  std::vector<llvm::StringRef> Out;
  for (llvm::StringRef P : Parts)
    if (!P.trim().empty())
      Out.push_back(P.trim());
  return Out;
}

std::vector<std::string> optionStrings(llvm::StringRef Value) {
  std::vector<llvm::StringRef> Parts = splitOptionList(Value);
  return std::vector<std::string>(Parts.begin(), Parts.end());
}

std::string listedName(const NamedDecl &D) {
  // A constructor is named by its class: "::Eigen::Map", not
  // "::Eigen::Map::Map".
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(&D))
    return listedName(*Ctor->getParent());
  // Members are spelled through their class, and members of a class template
  // specialisation through the template, so that one entry names every
  // instantiation.
  const DeclContext *DC = D.getDeclContext();
  if (const auto *RD = dyn_cast<CXXRecordDecl>(DC))
    return listedName(*RD) + "::" + D.getNameAsString();
  if (const auto *ED = dyn_cast<EnumDecl>(DC))
    return listedName(*ED) + "::" + D.getNameAsString();
  if (const auto *CTSD = dyn_cast<ClassTemplateSpecializationDecl>(&D))
    return CTSD->getSpecializedTemplate()->getQualifiedNameAsString();
  return D.getQualifiedNameAsString();
}

/// The other spelling of an unscoped enumerator: without its enum's name, as
/// code writes it ("ns::kTpu" beside "ns::Platform::kTpu").
static std::string shortEnumeratorName(const EnumConstantDecl &E) {
  const auto *ED = dyn_cast<EnumDecl>(E.getDeclContext());
  if (!ED || ED->isScoped())
    return std::string();
  std::string Outer = listedName(*ED);
  size_t Cut = Outer.rfind("::");
  return (Cut == std::string::npos ? std::string() : Outer.substr(0, Cut + 2)) +
         E.getNameAsString();
}

bool isNamePattern(llvm::StringRef Entry) {
  return Entry.find_first_of("^$.*+?()[]{}|\\") != llvm::StringRef::npos;
}

void NameList::add(llvm::StringRef Entry, std::vector<std::string> *Errors) {
  Entry = Entry.trim();
  if (Entry.empty())
    return;
  if (isNamePattern(Entry)) {
    auto Re = std::make_shared<llvm::Regex>(Entry);
    std::string Why;
    if (Re->isValid(Why))
      Patterns.push_back(std::move(Re));
    else if (Errors)
      Errors->push_back((Entry + ": " + Why).str());
    return;
  }
  Entry.consume_front("::");
  if (!Entry.empty() && Exact.insert(Entry).second)
    Ordered.push_back(Entry.str());
}

NameList::NameList(llvm::ArrayRef<llvm::StringRef> Entries,
                   std::vector<std::string> *Errors) {
  for (llvm::StringRef E : Entries)
    add(E, Errors);
}

NameList::NameList(llvm::ArrayRef<std::string> Entries,
                   std::vector<std::string> *Errors) {
  for (const std::string &E : Entries)
    add(E, Errors);
}

NameList NameList::fromOption(llvm::StringRef Value,
                              std::vector<std::string> *Errors) {
  return NameList(splitOptionList(Value), Errors);
}

bool NameList::matchesName(llvm::StringRef Name) const {
  Name.consume_front("::");
  if (Exact.contains(Name))
    return true;
  if (Patterns.empty())
    return false;
  std::string Qualified = ("::" + Name).str();
  for (const auto &Re : Patterns)
    if (Re->match(Qualified))
      return true;
  return false;
}

bool NameList::matches(const NamedDecl *D) const {
  if (!D || empty())
    return false;
  if (matchesName(listedName(*D)))
    return true;
  if (const auto *E = dyn_cast<EnumConstantDecl>(D)) {
    std::string Short = shortEnumeratorName(*E);
    return !Short.empty() && matchesName(Short);
  }
  return false;
}

} // namespace clang::interop
