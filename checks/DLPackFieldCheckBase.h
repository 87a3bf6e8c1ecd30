//===--- DLPackFieldCheckBase.h - base of the field checks ------*- C++ -*-===//
//
// interop-dlpack-byte-offset, -strides, -version and
// interop-unsupported-dlpack-device read the same facts
// (lib/dlpackfields/DLPackFieldFacts.h) and differ only in which events they
// report and how they word them. This base hands each judged function's
// pre-filter answer and facts (computed once per function and configuration
// for all four) to the check.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_CHECKS_DLPACKFIELDCHECKBASE_H
#define INTEROP_CHECKS_DLPACKFIELDCHECKBASE_H

#include "InteropCheckBase.h"

#include "lib/dlpackfields/DLPackFieldFacts.h"

#include <optional>

namespace clang::tidy::interop {

class DLPackFieldCheckBase : public InteropCheckBase {
public:
  void check(const ast_matchers::MatchFinder::MatchResult &Result) final;

protected:
  DLPackFieldCheckBase(StringRef Name, ClangTidyContext *Context);

  /// Every judged function, before its facts: for findings that need no flow
  /// analysis (what the pre-filter saw is in `Use`).
  virtual void checkUse(const FunctionDecl &FD,
                        const clang::interop::DLPackUse &Use, ASTContext &Ctx) {
  }
  /// Reports what the facts of an analysed function show.
  virtual void checkFacts(const FunctionDecl &FD,
                          const clang::interop::DLPackFieldFacts &Facts,
                          ASTContext &Ctx) = 0;

  /// The model's configuration; a check's options adjust it in its
  /// constructor. Checks with equal configurations share one analysis.
  clang::interop::DLPackFieldConfig Config;

private:
  /// Made from Config on the first judged function (Config is final then).
  std::optional<clang::interop::DLPackFieldQuery> Query;
};

} // namespace clang::tidy::interop

#endif // INTEROP_CHECKS_DLPACKFIELDCHECKBASE_H
