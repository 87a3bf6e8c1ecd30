//===--- OwnershipContracts.cpp - what a function's name promises --------===//

#include "lib/ownership/OwnershipContracts.h"

#include "lib/abi/DLPackTypes.h"
#include "lib/ownership/Releases.h"
#include "lib/support/AstHelpers.h"
#include "lib/support/LocalStores.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace clang::interop::ownership {

namespace {

/// The call operator of a deleter class, when it has one.
const FunctionDecl *callOperatorOf(QualType D) {
  const auto *RD = D->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition())
    return nullptr;
  for (const CXXMethodDecl *M : RD->methods())
    if (M->getOverloadedOperator() == OO_Call)
      return M;
  return nullptr;
}

/// `owner.get()` on an owning smart pointer of a managed tensor, with the
/// owner a field of the class (`tensor_`, `this->tensor_`) or a local.
const CXXMemberCallExpr *ownerGet(const Expr *E, const ValueDecl *&Owner) {
  const auto *Get =
      dyn_cast_or_null<CXXMemberCallExpr>(E ? E->IgnoreParenImpCasts() : E);
  const CXXMethodDecl *M = Get ? Get->getMethodDecl() : nullptr;
  if (!M || !M->getIdentifier() || M->getName() != "get" ||
      !isManagedPointer(Get->getType()))
    return nullptr;
  const Expr *Obj = Get->getImplicitObjectArgument();
  if (!Obj || !isOwningTensorPointer(Obj->getType()))
    return nullptr;
  Obj = Obj->IgnoreParenImpCasts();
  if (const auto *ME = dyn_cast<MemberExpr>(Obj);
      ME && isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
    Owner = dyn_cast<FieldDecl>(ME->getMemberDecl());
  else if (const auto *DRE = dyn_cast<DeclRefExpr>(Obj))
    Owner = dyn_cast<VarDecl>(DRE->getDecl());
  return Owner ? Get : nullptr;
}

/// The owners the body may give up: a use of the owner other than reading
/// the pointer it holds (`get()`, `->`, `*`, a test of it).
class GivenUpOwners : public RecursiveASTVisitor<GivenUpOwners> {
public:
  llvm::DenseSet<const ValueDecl *> Out;
  bool shouldVisitLambdaBody() const { return true; }

  bool VisitMemberExpr(MemberExpr *ME) {
    if (const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl()))
      judge(F, ME);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
      judge(V, DRE);
    return true;
  }
  bool TraverseCXXMemberCallExpr(CXXMemberCallExpr *Call) {
    // owner.get(), owner.operator->(), owner.operator bool(): reads.
    const CXXMethodDecl *M = Call->getMethodDecl();
    if (M && isOwningTensorPointer(Call->getObjectType()) &&
        ((M->getIdentifier() && M->getName() == "get") ||
         isa<CXXConversionDecl>(M))) {
      Reads.insert(Call->getImplicitObjectArgument()->IgnoreParenImpCasts());
    }
    return RecursiveASTVisitor::TraverseCXXMemberCallExpr(Call);
  }
  bool TraverseCXXOperatorCallExpr(CXXOperatorCallExpr *Call) {
    if ((Call->getOperator() == OO_Arrow || Call->getOperator() == OO_Star) &&
        Call->getNumArgs() == 1)
      Reads.insert(Call->getArg(0)->IgnoreParenImpCasts());
    return RecursiveASTVisitor::TraverseCXXOperatorCallExpr(Call);
  }

private:
  void judge(const ValueDecl *D, const Expr *Use) {
    if (isOwningTensorPointer(D->getType()) && !Reads.contains(Use))
      Out.insert(D);
  }
  llvm::DenseSet<const Expr *> Reads;
};

/// T's std::unique_ptr or std::shared_ptr specialisation when its element
/// is a managed tensor; null otherwise.
const ClassTemplateSpecializationDecl *tensorSmartPointer(QualType T) {
  const ClassTemplateSpecializationDecl *Spec =
      stdSmartPointer(T.getNonReferenceType()->getAsCXXRecordDecl());
  if (!Spec)
    return nullptr;
  const TemplateArgumentList &Args = Spec->getTemplateArgs();
  if (Args.size() < 1 || Args[0].getKind() != TemplateArgument::Type ||
      !isManagedTensor(classifyDLPackType(Args[0].getAsType())))
    return nullptr;
  return Spec;
}

} // namespace

bool isOwningTensorPointer(QualType T) {
  const ClassTemplateSpecializationDecl *Spec = tensorSmartPointer(T);
  if (!Spec)
    return false;
  StringRef Name = Spec->getName();
  const TemplateArgumentList &Args = Spec->getTemplateArgs();
  if (Name == "shared_ptr" || Args.size() < 2 ||
      Args[1].getKind() != TemplateArgument::Type)
    return true;
  // unique_ptr<T, D>: std::default_delete frees the struct; another D owns
  // the tensor when its call operator releases it (or cannot be seen).
  QualType D = Args[1].getAsType();
  const auto *DR = D->getAsCXXRecordDecl();
  if (DR && DR->isInStdNamespace() && DR->getIdentifier() &&
      DR->getName() == "default_delete")
    return true;
  const FunctionDecl *Call = callOperatorOf(D);
  return !Call || callsDeleter(Call) || !Call->getDefinition();
}

const char *defaultFreeOf(QualType T, unsigned NumArgs) {
  const ClassTemplateSpecializationDecl *Spec = tensorSmartPointer(T);
  if (!Spec)
    return nullptr;
  StringRef Name = Spec->getName();
  const TemplateArgumentList &Args = Spec->getTemplateArgs();
  if (Name == "shared_ptr")
    return NumArgs == 1 ? "a std::shared_ptr made from the bare pointer"
                        : nullptr;
  if (Name != "unique_ptr" || Args.size() < 2 ||
      Args[1].getKind() != TemplateArgument::Type)
    return nullptr;
  const auto *D = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      Args[1].getAsType()->getAsCXXRecordDecl());
  if (!D || !D->isInStdNamespace() || !D->getIdentifier() ||
      D->getName() != "default_delete")
    return nullptr;
  // A project may specialise std::default_delete for the record so that it
  // calls the deleter.
  if (D->getSpecializationKind() == TSK_ExplicitSpecialization) {
    const FunctionDecl *Call = callOperatorOf(Args[1].getAsType());
    if (!Call || callsDeleter(Call) || !Call->getDefinition())
      return nullptr;
  }
  return "std::unique_ptr's default deleter";
}

bool isReleasedGuard(const FunctionDecl &FD, const Stmt &At) {
  const VarDecl *Guard = nullptr;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(&At))
    Guard = dyn_cast_or_null<VarDecl>(
        referencedDecl(MC->getImplicitObjectArgument()));
  class Walk : public RecursiveASTVisitor<Walk> {
  public:
    explicit Walk(const Stmt &At) : At(At) {}
    bool TraverseLambdaExpr(LambdaExpr *) { return true; }
    bool VisitVarDecl(VarDecl *V) {
      if (const Expr *Init = V->getInit())
        if (Init->IgnoreImplicit() == &At)
          Initialised = V;
      return true;
    }
    bool VisitCXXMemberCallExpr(CXXMemberCallExpr *MC) {
      const CXXMethodDecl *MD = MC->getMethodDecl();
      if (MD && MD->getIdentifier() && MD->getName() == "release")
        if (const auto *V = dyn_cast_or_null<VarDecl>(
                referencedDecl(MC->getImplicitObjectArgument())))
          Released.insert(V);
      return true;
    }
    const Stmt &At;
    const VarDecl *Initialised = nullptr;
    llvm::SmallPtrSet<const VarDecl *, 4> Released;
  } W(At);
  if (const Stmt *Body = FD.getBody())
    W.TraverseStmt(const_cast<Stmt *>(Body));
  if (!Guard)
    Guard = W.Initialised;
  return Guard && W.Released.contains(Guard);
}

std::vector<StillOwnedReturn> stillOwnedReturns(const FunctionDecl &FD,
                                                const NameList &Sources) {
  std::vector<StillOwnedReturn> Out;
  const Stmt *Body = FD.getBody();
  if (!Body || !isManagedPointer(FD.getReturnType()) || !Sources.matches(&FD))
    return Out;
  class Returns : public RecursiveASTVisitor<Returns> {
  public:
    std::vector<const ReturnStmt *> Out;
    bool TraverseLambdaExpr(LambdaExpr *) { return true; }
    bool VisitReturnStmt(ReturnStmt *R) {
      Out.push_back(R);
      return true;
    }
  } R;
  R.TraverseStmt(const_cast<Stmt *>(Body));
  if (R.Out.empty())
    return Out;
  const LocalStores &Stores = localStoresOf(FD);
  GivenUpOwners GivenUp;
  GivenUp.TraverseStmt(const_cast<Stmt *>(Body));
  for (const ReturnStmt *Ret : R.Out) {
    const ValueDecl *Owner = nullptr;
    const CXXMemberCallExpr *Get =
        ownerGet(Stores.valueOf(Ret->getRetValue()), Owner);
    if (Get && !GivenUp.Out.contains(Owner))
      Out.push_back({Ret, Get, Owner});
  }
  return Out;
}

} // namespace clang::interop::ownership
