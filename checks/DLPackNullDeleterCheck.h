//===--- DLPackNullDeleterCheck.h - a deleter that may be NULL --*- C++ -*-===//
//
// Flags a call of the deleter of a managed tensor some other code made (one
// taken from a capsule, or an owned parameter) with no test on that path
// that the deleter is not NULL: DLPack lets a producer leave it NULL.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_CHECKS_DLPACKNULLDELETERCHECK_H
#define INTEROP_CHECKS_DLPACKNULLDELETERCHECK_H

#include "DLPackOwnershipCheckBase.h"

namespace clang::tidy::interop {

class DLPackNullDeleterCheck : public DLPackOwnershipCheckBase {
public:
  DLPackNullDeleterCheck(StringRef Name, ClangTidyContext *Context)
      : DLPackOwnershipCheckBase(Name, Context) {}

private:
  void checkFacts(const FunctionDecl &FD,
                  const clang::interop::OwnershipFacts &Facts,
                  ASTContext &Ctx) override;
};

} // namespace clang::tidy::interop

#endif // INTEROP_CHECKS_DLPACKNULLDELETERCHECK_H
