//===--- DLPackCapsuleProtocolCheck.h - the capsule protocol ----*- C++ -*-===//
//
// Flags DLPack capsules created with the wrong name or the wrong struct for
// their name; consumers that take the pointer without checking the name, never
// rename the capsule to its used_ name, or rename it before the import has
// succeeded; and capsule destructors that call the deleter without checking
// that the capsule is unconsumed, read the pointer under "dltensor" without
// checking the name first, or clear an exception in flight.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_CHECKS_DLPACKCAPSULEPROTOCOLCHECK_H
#define INTEROP_CHECKS_DLPACKCAPSULEPROTOCOLCHECK_H

#include "DLPackOwnershipCheckBase.h"

namespace clang::tidy::interop {

class DLPackCapsuleProtocolCheck : public DLPackOwnershipCheckBase {
public:
  DLPackCapsuleProtocolCheck(StringRef Name, ClangTidyContext *Context)
      : DLPackOwnershipCheckBase(Name, Context) {}

private:
  void checkCapsuleCall(const CallExpr &Call, clang::interop::CapsuleCall Kind,
                        ASTContext &Ctx) override;
  void checkCapsuleConstruct(const CXXConstructExpr &E,
                             ASTContext &Ctx) override;
  /// A capsule made (PyCapsule_New, pybind11's py::capsule(ptr, name,
  /// dtor)) of Payload under NameArg with destructor Dtor (null when none
  /// is seen): its name against the struct it holds and the name its
  /// destructor reads it under.
  void checkCapsuleNew(const Expr *Payload, const Expr *NameArg,
                       const FunctionDecl *Dtor, ASTContext &Ctx);
  void checkObjectCast(const ExplicitCastExpr &Cast, ASTContext &Ctx) override;
  void checkPointerCast(const ExplicitCastExpr &Cast,
                        const CallExpr &GetPointer, ASTContext &Ctx) override;
  void checkFunction(const FunctionDecl &FD, bool IsCapsuleDestructor,
                     ASTContext &Ctx) override;
  void checkFacts(const FunctionDecl &FD,
                  const clang::interop::OwnershipFacts &Facts,
                  ASTContext &Ctx) override;
  /// The note of an import whose capsule is never renamed: the rename as a
  /// fix-it after the statement that imports, where that is mechanical.
  void noteClaimAfterImport(const clang::interop::CapsuleConsumption &C,
                            const llvm::SmallPtrSetImpl<const Stmt *> &Blocks,
                            ASTContext &Ctx);
  /// A capsule destructor's PyErr_Clear or raise with nothing saved.
  void reportErrorEvent(const clang::interop::OwnershipEvent &E);
};

} // namespace clang::tidy::interop

#endif // INTEROP_CHECKS_DLPACKCAPSULEPROTOCOLCHECK_H
