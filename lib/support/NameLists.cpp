//===--- NameLists.cpp - options that name functions ----------------------===//

#include "lib/support/NameLists.h"

#include "clang/AST/DeclCXX.h"

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

FunctionNameList::FunctionNameList(llvm::ArrayRef<llvm::StringRef> Patterns,
                                   NameSpelling Spelling,
                                   std::vector<std::string> *Errors)
    : Spelling(Spelling) {
  for (llvm::StringRef P : Patterns) {
    llvm::Regex R(P);
    std::string Error;
    if (!R.isValid(Error)) {
      if (Errors)
        Errors->push_back((P + ": " + Error).str());
      continue;
    }
    Regexes.push_back(std::move(R));
  }
}

FunctionNameList::FunctionNameList(llvm::ArrayRef<std::string> Patterns,
                                   NameSpelling Spelling)
    : FunctionNameList(
          std::vector<llvm::StringRef>(Patterns.begin(), Patterns.end()),
          Spelling) {}

bool FunctionNameList::matches(const NamedDecl *D) const {
  if (!D || Regexes.empty())
    return false;
  if (Spelling == NameSpelling::Identifier)
    return D->getIdentifier() && matchesText(D->getName());
  // A constructor is named by its class: "::Eigen::Map", not
  // "::Eigen::Map::Map".
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(D))
    D = Ctor->getParent();
  return matchesText("::" + D->getQualifiedNameAsString());
}

bool FunctionNameList::matchesText(llvm::StringRef Name) const {
  for (const llvm::Regex &R : Regexes)
    if (R.match(Name))
      return true;
  return false;
}

} // namespace clang::interop
