//===--- NameLists.h - options that name functions --------------*- C++ -*-===//
//
// Options name functions as `;`-separated lists of regular expressions. Every
// list is matched by one rule, FunctionNameList::matches():
//
//   an entry is an unanchored regular expression searched in "::" followed
//   by the function's fully qualified name ("::at::from_blob$" matches
//   at::from_blob); a constructor is named by its class ("::Eigen::Map"),
//   a member function through its class ("::interop::Array::sharding").
//
// That is the convention of clang-tidy's matchesAnyListedRegexName. The one
// list of bare names, HostDeviceGuards (a naming heuristic: "[Hh]ost" in
// IsHostDevice), is searched in the function's identifier alone
// (NameSpelling::Identifier). The array/device API model has its own,
// richer lists (exact names, members of class templates through the
// template): see lib/arraydevice/ApiModel.h.
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

/// What a FunctionNameList's entries are searched in.
enum class NameSpelling {
  /// "::" + the qualified name, a constructor named by its class.
  Qualified,
  /// The function's identifier alone.
  Identifier,
};

class FunctionNameList {
public:
  FunctionNameList() = default;
  /// Patterns as written in a `;`-separated option; empty entries are
  /// ignored, and so are invalid expressions, which are reported through
  /// Errors when it is given.
  explicit FunctionNameList(llvm::ArrayRef<llvm::StringRef> Patterns,
                            NameSpelling Spelling = NameSpelling::Qualified,
                            std::vector<std::string> *Errors = nullptr);
  explicit FunctionNameList(llvm::ArrayRef<std::string> Patterns,
                            NameSpelling Spelling = NameSpelling::Qualified);

  /// True when one of the patterns is found in D's name as Spelling says.
  bool matches(const NamedDecl *D) const;
  bool empty() const { return Regexes.empty(); }

private:
  bool matchesText(llvm::StringRef Name) const;

  std::vector<llvm::Regex> Regexes;
  NameSpelling Spelling = NameSpelling::Qualified;
};

/// Splits a `;`-separated option value into trimmed, non-empty entries.
std::vector<llvm::StringRef> splitOptionList(llvm::StringRef Value);
/// The same entries as strings, for a model configuration that outlives the
/// option's value.
std::vector<std::string> optionStrings(llvm::StringRef Value);

} // namespace clang::interop

#endif // INTEROP_LIB_SUPPORT_NAMELISTS_H
