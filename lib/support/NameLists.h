//===--- NameLists.h - options that name declarations -----------*- C++ -*-===//
//
// Every option that names functions, types, enumerators, fields or macros is
// a `;`-separated list, and every such list is matched by one rule,
// NameList:
//
//   - an entry written as a plain name ("::interop::from_dlpack") names
//     exactly that declaration; the leading "::" is optional;
//   - an entry holding any of ^$.*+?()[]{}|\ is a regular expression,
//     searched (unanchored, as clang-tidy's own regex options are) in "::"
//     followed by the name ("::at::from_blob$", "[Hh]ost[^:]*$").
//
// Both kinds see the same spelling of a declaration, listedName(): its fully
// qualified name, a member through its class, a member of a class template
// specialisation through the template ("::ns::Result::value" for every
// Result<T>), a constructor by its class ("::Eigen::Map"), and an unscoped
// enumerator with or without its enum's name. Plain names are looked up in a
// hash set, so the common case costs no regular-expression search; a list of
// plain names means the same whichever check reads it.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_SUPPORT_NAMELISTS_H
#define INTEROP_LIB_SUPPORT_NAMELISTS_H

#include "clang/AST/Decl.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Regex.h"

#include <memory>
#include <string>
#include <vector>

namespace clang::interop {

/// The spelling list options name D by, without the leading "::" (see the
/// file comment); also the name diagnostics use for a listed declaration.
std::string listedName(const NamedDecl &D);

/// True for a list entry that is a regular expression rather than a name.
bool isNamePattern(llvm::StringRef Entry);

class NameList {
public:
  NameList() = default;
  /// Entries as written in a `;`-separated option; empty entries are
  /// ignored. An entry that looks like a regular expression but does not
  /// compile matches nothing and is reported through Errors when it is
  /// given ("entry: why").
  explicit NameList(llvm::ArrayRef<llvm::StringRef> Entries,
                    std::vector<std::string> *Errors = nullptr);
  explicit NameList(llvm::ArrayRef<std::string> Entries,
                    std::vector<std::string> *Errors = nullptr);
  /// The entries of a `;`-separated option value.
  static NameList fromOption(llvm::StringRef Value,
                             std::vector<std::string> *Errors = nullptr);

  /// True when an entry names D by the rule of the file comment.
  bool matches(const NamedDecl *D) const;
  /// The same rule applied to a spelling already computed by listedName(),
  /// or to a name that is not a declaration's (a macro's).
  bool matchesName(llvm::StringRef Name) const;
  bool empty() const { return Exact.empty() && Patterns.empty(); }
  /// The plain names, in the order written, without the leading "::".
  llvm::ArrayRef<std::string> plainNames() const { return Ordered; }

private:
  void add(llvm::StringRef Entry, std::vector<std::string> *Errors);

  llvm::StringSet<> Exact;
  std::vector<std::string> Ordered;
  /// Shared so that a compiled list can be copied with the configuration
  /// that holds it.
  std::vector<std::shared_ptr<const llvm::Regex>> Patterns;
};

/// Splits a `;`-separated option value into trimmed, non-empty entries.
std::vector<llvm::StringRef> splitOptionList(llvm::StringRef Value);
/// The same entries as strings, for a model configuration that outlives the
/// option's value.
std::vector<std::string> optionStrings(llvm::StringRef Value);

} // namespace clang::interop

#endif // INTEROP_LIB_SUPPORT_NAMELISTS_H
