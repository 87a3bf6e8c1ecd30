//===--- DLPackDeleterOwnershipCheck.h - who deletes a tensor ---*- C++ -*-===//
//
// Flags a managed tensor obtained and then neither handed on nor deleted on
// some path (a call that throws included), a deleter called twice, through a
// by-value copy, or after ownership was handed on, and a producer's tensor
// freed without its deleter.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_CHECKS_DLPACKDELETEROWNERSHIPCHECK_H
#define INTEROP_CHECKS_DLPACKDELETEROWNERSHIPCHECK_H

#include "DLPackOwnershipCheckBase.h"

#include "lib/ownership/Releases.h"

namespace clang::tidy::interop {

class DLPackDeleterOwnershipCheck : public DLPackOwnershipCheckBase {
public:
  DLPackDeleterOwnershipCheck(StringRef Name, ClangTidyContext *Context);

  void onStartOfTranslationUnit() override;

private:
  void checkCapsuleCall(const CallExpr &Call, clang::interop::CapsuleCall Kind,
                        ASTContext &Ctx) override;
  void checkCapsuleConstruct(const CXXConstructExpr &E,
                             ASTContext &Ctx) override;
  /// A capsule made at At of Value under Name with destructor Dtor
  /// (PyCapsule_New or py::capsule).
  void checkCapsuleCreation(const Expr &At, const Expr *Value, const Expr *Name,
                            const Expr *Dtor, ASTContext &Ctx);
  void checkDeleterCall(const CallExpr &Call, const FunctionDecl &FD,
                        ASTContext &Ctx) override;
  void checkFunction(const FunctionDecl &FD, bool IsCapsuleDestructor,
                     ASTContext &Ctx) override;
  void checkFacts(const FunctionDecl &FD,
                  const clang::interop::OwnershipFacts &Facts,
                  ASTContext &Ctx) override;
  /// One leaked site: the warning, with the release before every exit it
  /// leaks at as fix-its when each is mechanical, and a note per exit.
  void reportLeak(const FunctionDecl &FD,
                  llvm::ArrayRef<const clang::interop::OwnershipEvent *> Exits,
                  ASTContext &Ctx);

  clang::interop::ownership::CopiedTensorFields CopiedFields;
};

} // namespace clang::tidy::interop

#endif // INTEROP_CHECKS_DLPACKDELETEROWNERSHIPCHECK_H
