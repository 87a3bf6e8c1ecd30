//===--- NameLists.h - configurable lists of function names -----*- C++ -*-===//
//
// Options of the DLPack checks name functions ("::at::from_blob$",
// "Map"): unanchored regular expressions over the fully qualified name with a
// leading "::", the convention of clang-tidy's matchesAnyListedRegexName.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_SUPPORT_NAMELISTS_H
#define INTEROP_LIB_SUPPORT_NAMELISTS_H

#include "clang/AST/Decl.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Regex.h"

#include <string>
#include <vector>

namespace clang::interop {

class QualifiedNameList {
public:
  QualifiedNameList() = default;
  /// Patterns as written in a `;`-separated option; empty entries are ignored
  /// and invalid expressions are reported through Errors.
  explicit QualifiedNameList(llvm::ArrayRef<llvm::StringRef> Patterns,
                             std::vector<std::string> *Errors = nullptr);

  /// True when "::" + D's qualified name (for a constructor: its class)
  /// matches one of the patterns.
  bool matches(const NamedDecl *D) const;
  bool empty() const { return Regexes.empty(); }

private:
  std::vector<llvm::Regex> Regexes;
};

/// Splits a `;`-separated option value into trimmed, non-empty entries.
std::vector<llvm::StringRef> splitOptionList(llvm::StringRef Value);
/// The same entries as strings, for a model configuration that outlives the
/// option's value.
std::vector<std::string> optionStrings(llvm::StringRef Value);

} // namespace clang::interop

#endif // INTEROP_LIB_SUPPORT_NAMELISTS_H
