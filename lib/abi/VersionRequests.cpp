//===--- VersionRequests.cpp - a producer answering max_version -----------===//

#include "lib/abi/VersionRequests.h"

#include "lib/abi/CapsuleAPI.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

namespace clang::interop {
namespace {

/// A variable whose name says it holds the consumer's max_version
/// (`max_version`, `maxVersion`, `py_max_version`).
bool namesVersionRequest(const VarDecl &V) {
  if (!V.getIdentifier())
    return false;
  std::string Name = llvm::StringRef(V.getName()).lower();
  llvm::erase(Name, '_');
  return llvm::StringRef(Name).contains("maxversion");
}

/// The name argument of a capsule E makes: PyCapsule_New's, or that of a
/// pybind11 or nanobind capsule constructed from a pointer and a name.
const Expr *madeCapsuleName(const Expr &E) {
  if (const auto *Call = dyn_cast<CallExpr>(&E))
    return classifyCapsuleCall(Call) == CapsuleCall::New &&
                   Call->getNumArgs() == 3
               ? Call->getArg(1)
               : nullptr;
  const auto *Construct = dyn_cast<CXXConstructExpr>(&E);
  const CXXConstructorDecl *Ctor =
      Construct ? Construct->getConstructor() : nullptr;
  if (!Ctor || Construct->getNumArgs() < 2 || Ctor->getNumParams() < 2 ||
      isa<CXXDefaultArgExpr>(Construct->getArg(1)))
    return nullptr;
  if (!isBindingCapsule(Ctor->getParent()))
    return nullptr;
  const auto *Ptr = Ctor->getParamDecl(1)->getType()->getAs<PointerType>();
  return Ptr && Ptr->getPointeeType()->isCharType() ? Construct->getArg(1)
                                                    : nullptr;
}

class RequestScan : public RecursiveASTVisitor<RequestScan> {
public:
  explicit RequestScan(ASTContext &Ctx) : Ctx(Ctx) {}

  bool VisitVarDecl(VarDecl *V) {
    if (namesVersionRequest(*V))
      Requests.push_back(V);
    return true;
  }
  // A call filling the request through its address (the argument parser)
  // and a `(void)` cast are seen before the reference inside them.
  bool VisitCallExpr(CallExpr *Call) {
    for (const Expr *Arg : Call->arguments())
      if (const auto *UO = dyn_cast<UnaryOperator>(Arg->IgnoreParenImpCasts());
          UO && UO->getOpcode() == UO_AddrOf)
        excuse(UO->getSubExpr());
    return made(*Call);
  }
  bool VisitCStyleCastExpr(CStyleCastExpr *Cast) {
    if (Cast->getType()->isVoidType())
      excuse(Cast->getSubExpr());
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) { return made(*E); }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (!Excused.contains(DRE))
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
        Read.insert(V);
    return true;
  }

  ASTContext &Ctx;
  /// In declaration order: parameters, then locals.
  llvm::SmallVector<const VarDecl *, 2> Requests;
  llvm::SmallPtrSet<const VarDecl *, 16> Read;
  const Expr *FirstVersioned = nullptr;
  /// A capsule made under another name, or one chosen at run time.
  bool OtherName = false;

private:
  void excuse(const Expr *E) {
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
      Excused.insert(DRE);
  }
  bool made(const Expr &E) {
    const Expr *Name = madeCapsuleName(E);
    if (!Name)
      return true;
    if (classifyCapsuleName(Name, Ctx) != CapsuleName::Versioned) {
      OtherName = true;
      return false;
    }
    if (!FirstVersioned)
      FirstVersioned = Name;
    return true;
  }
  llvm::SmallPtrSet<const DeclRefExpr *, 4> Excused;
};

} // namespace

std::optional<IgnoredVersionRequest>
ignoredVersionRequest(const FunctionDecl &FD, ASTContext &Ctx) {
  if (!FD.getBody())
    return std::nullopt;
  RequestScan Scan(Ctx);
  for (const ParmVarDecl *P : FD.parameters())
    Scan.VisitVarDecl(const_cast<ParmVarDecl *>(P));
  Scan.TraverseStmt(FD.getBody());
  if (Scan.OtherName || !Scan.FirstVersioned)
    return std::nullopt;
  if (Scan.Requests.empty() ||
      llvm::any_of(Scan.Requests,
                   [&](const VarDecl *V) { return Scan.Read.contains(V); }))
    return std::nullopt;
  return IgnoredVersionRequest{Scan.Requests.front(), Scan.FirstVersioned};
}

} // namespace clang::interop
