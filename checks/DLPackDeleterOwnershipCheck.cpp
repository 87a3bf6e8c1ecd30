//===--- DLPackDeleterOwnershipCheck.cpp - who deletes a tensor -----------===//

#include "DLPackDeleterOwnershipCheck.h"

#include "lib/abi/CapsuleAPI.h"
#include "lib/abi/CapsuleNames.h"
#include "lib/abi/DLPackFields.h"
#include "lib/engine/JudgedFunctions.h"
#include "lib/ownership/OwnershipSites.h"
#include "lib/ownership/Releases.h"
#include "lib/support/AstHelpers.h"
#include "lib/support/NameLists.h"

#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang::ast_matchers;
using namespace clang::interop;

namespace clang::tidy::interop {

DLPackDeleterOwnershipCheck::DLPackDeleterOwnershipCheck(
    StringRef Name, ClangTidyContext *Context)
    : DLPackOwnershipCheckBase(Name, Context) {}

void DLPackDeleterOwnershipCheck::checkDeleterCall(const CallExpr &Call,
                                                   const FunctionDecl &FD,
                                                   ASTContext &Ctx) {
  if (!isDeleterCall(&Call) || Call.getNumArgs() < 1)
    return;
  const NamedDecl *Copy = byValueManagedTensor(Call.getArg(0));
  // A field reached through a pointer (`&rec->tensor`): a copy when the
  // translation unit fills that field with one.
  if (!Copy)
    if (const FieldDecl *F =
            ownership::byValueFieldThroughPointer(Call.getArg(0));
        F && CopiedFields.holdsCopies(F, Ctx))
      Copy = F;
  // A global pointer whose pointee the translation unit fills with a copy
  // (`*given = t;` in one function, `given->deleter(given)` in another).
  bool Pointee = false;
  if (!Copy)
    if (const VarDecl *V = ownership::storedTensorPointer(Call.getArg(0));
        V && CopiedFields.holdsCopies(V, Ctx)) {
      Copy = V;
      Pointee = true;
    }
  // A deleter this function installed itself and that frees only fields.
  if (Copy && !ownership::callsOwnDeleterThatKeepsRecord(Call, FD)) {
    diag(Call.getBeginLoc(),
         "deleter called on %select{|what }1%0%select{| points to}1, a "
         "by-value copy of the managed tensor; it frees the copy's address, "
         "not the tensor the producer allocated")
        << Copy << Pointee << Call.getSourceRange();
    diag(Copy->getLocation(), "%0 declared here", DiagnosticIDs::Note) << Copy;
  }
}

void DLPackDeleterOwnershipCheck::onStartOfTranslationUnit() {
  DLPackOwnershipCheckBase::onStartOfTranslationUnit();
  CopiedFields.reset();
}

void DLPackDeleterOwnershipCheck::checkFunction(const FunctionDecl &FD,
                                                bool IsCapsuleDestructor,
                                                ASTContext &Ctx) {
  if (whyNotAnalysable(FD) != SkipReason::None)
    return;
  for (const CallExpr *Call : borrowedTensorDeletions(FD)) {
    const Expr *Base = nullptr;
    isDeleterCall(Call, &Base);
    const NamedDecl *P = dyn_cast<NamedDecl>(referencedDecl(Base));
    diag(Call->getBeginLoc(),
         "deleter called on %0, a tensor this function only borrowed (a "
         "pointer to const it never hands on); its owner will delete it "
         "again")
        << P << Call->getSourceRange();
    diag(P->getLocation(), "%0 declared here", DiagnosticIDs::Note) << P;
  }
}

void DLPackDeleterOwnershipCheck::checkCapsuleCall(const CallExpr &Call,
                                                   CapsuleCall K,
                                                   ASTContext &Ctx) {
  if (K != CapsuleCall::New || Call.getNumArgs() != 3)
    return;
  checkCapsuleCreation(Call, Call.getArg(0), Call.getArg(1), Call.getArg(2),
                       Ctx);
}

void DLPackDeleterOwnershipCheck::checkCapsuleConstruct(
    const CXXConstructExpr &E, ASTContext &Ctx) {
  if (isPybindCapsuleNew(E))
    checkCapsuleCreation(E, E.getArg(0), E.getArg(1), E.getArg(2), Ctx);
}

void DLPackDeleterOwnershipCheck::checkCapsuleCreation(const Expr &At,
                                                       const Expr *Value,
                                                       const Expr *NameArg,
                                                       const Expr *DtorArg,
                                                       ASTContext &Ctx) {
  // A producer's capsule whose destructor never deletes the tensor.
  CapsuleName Name = classifyCapsuleName(NameArg, Ctx);
  DLPackRecord Held =
      classifyDLPackPointee(Value->IgnoreParenImpCasts()->getType());
  // A bare DLTensor has no deleter to call (capsule-protocol reports the
  // name that promises one).
  bool HoldsTensor = isManagedTensor(Held) ||
                     (isUnconsumedName(Name) && Held != DLPackRecord::Tensor);
  if (!HoldsTensor)
    return;
  if (classifyCapsuleName(DtorArg, Ctx) == CapsuleName::Null) {
    // Given one right after (`PyCapsule_SetDestructor(cap.ptr(), dtor)`).
    if (siteFunction() &&
        destructorSetLater(siteFunction()->getBody(), At, Ctx))
      return;
    diag(At.getBeginLoc(),
         "capsule holding a managed tensor created without a destructor; if "
         "no consumer takes it, the tensor is never deleted");
    return;
  }
  const FunctionDecl *Dtor = destructorFunction(DtorArg);
  if (!Dtor)
    return;
  const auto *MD = dyn_cast<CXXMethodDecl>(Dtor);
  bool Lambda = MD && MD->getParent()->isLambda();
  if (ownership::callsDeleter(Dtor)) {
    // It does, but only on a pointer it can take from a consumed capsule.
    std::string Created = constantString(NameArg, Ctx).value_or("");
    if (const CallExpr *Read = readOnlyUnderUsedName(*Dtor, Created, Ctx)) {
      std::string Used = constantString(Read->getArg(1), Ctx).value_or("");
      diag(At.getBeginLoc(),
           "capsule destructor %select{%1|lambda}0 reads the tensor only "
           "under the consumed name '%2'; an unconsumed capsule, still named "
           "'%3', is never released and leaks the tensor")
          << Lambda << Dtor << Used << Created;
      diag(Read->getBeginLoc(),
           "read here; take the pointer under '%0', the name of a capsule "
           "nobody consumed",
           DiagnosticIDs::Note)
          << Created;
    }
    return;
  }
  if (Lambda)
    diag(At.getBeginLoc(),
         "capsule destructor lambda never calls the tensor's deleter; an "
         "unconsumed capsule leaks the tensor");
  else
    diag(At.getBeginLoc(),
         "capsule destructor %0 never calls the tensor's deleter; an "
         "unconsumed capsule leaks the tensor")
        << Dtor;
  diag(Dtor->getLocation(), "destructor defined here", DiagnosticIDs::Note);
}

static const char *exitNote(OwnershipEvent::ExitKind K) {
  switch (K) {
  case OwnershipEvent::Throw:
    return "still owned when the exception is thrown here";
  case OwnershipEvent::Return:
    return "still owned when the function returns here";
  case OwnershipEvent::FallOff:
    return "still owned when the function ends here";
  case OwnershipEvent::CallThrows:
    return "still owned if this call throws, and nothing frees it then";
  }
  llvm_unreachable("exit kind");
}

void DLPackDeleterOwnershipCheck::reportLeak(
    const FunctionDecl &FD, llvm::ArrayRef<const OwnershipEvent *> Exits,
    ASTContext &Ctx) {
  const OwnershipEvent &First = *Exits.front();
  // The release before each exit, when every exit is a return or throw the
  // tensor is owned at on every path, and the one variable holding it is
  // used only to reach its fields: a fix for all exits or none.
  llvm::SmallVector<FixItHint, 4> Fixes;
  const ValueDecl *Holder = nullptr;
  if (llvm::all_of(Exits, [](const OwnershipEvent *E) {
        return E->Certain && E->ExitAt;
      }))
    Holder = ownership::releasableHolder(First.At, First.Param, FD);
  if (Holder) {
    llvm::SmallPtrSet<const Stmt *, 32> Blocks = blockStatements(FD.getBody());
    llvm::SmallPtrSet<const Stmt *, 8> Unbraced = unbracedBodies(FD.getBody());
    std::string Release = ownership::releaseStatement(*Holder);
    for (const OwnershipEvent *E : Exits) {
      llvm::SmallVector<FixItHint, 2> Edit =
          mentionsVariable(E->ExitAt, Holder)
              ? llvm::SmallVector<FixItHint, 2>()
              : insertBefore(*E->ExitAt, Release, Blocks, Unbraced, Ctx);
      if (Edit.empty()) {
        Fixes.clear();
        break;
      }
      Fixes.append(Edit.begin(), Edit.end());
    }
  }
  {
    DiagnosticBuilder D =
        First.Param
            ? diag(First.Param->getLocation(),
                   "%0 is owned by this function (it calls the deleter) but "
                   "is neither deleted nor handed on on some path")
            : diag(First.At->getBeginLoc(),
                   "managed tensor obtained here is neither deleted nor "
                   "handed on on some path");
    if (First.Param)
      D << First.Param;
    for (const FixItHint &F : Fixes)
      D << F;
  }
  for (const OwnershipEvent *E : Exits)
    diag(E->ExitLoc, exitNote(E->Exit), DiagnosticIDs::Note);
}

void DLPackDeleterOwnershipCheck::checkFacts(const FunctionDecl &FD,
                                             const OwnershipFacts &Facts,
                                             ASTContext &Ctx) {
  // Each leaked site once, with every exit it leaks at.
  llvm::DenseSet<const void *> LeakReported;
  llvm::DenseSet<const Stmt *> DeletedUnclaimed;
  for (const OwnershipEvent &E : Facts.Events) {
    switch (E.K) {
    case OwnershipEvent::Leak: {
      if (!LeakReported.insert(E.subject()).second)
        break;
      llvm::SmallVector<const OwnershipEvent *, 4> Exits;
      for (const OwnershipEvent &Other : Facts.Events)
        if (Other.K == OwnershipEvent::Leak && Other.subject() == E.subject())
          Exits.push_back(&Other);
      reportLeak(FD, Exits, Ctx);
      break;
    }
    case OwnershipEvent::DoubleDelete:
      diag(E.At->getBeginLoc(),
           "deleter may be called twice: the tensor may already be deleted "
           "on this path");
      if (E.Related)
        diag(E.Related->getBeginLoc(), "deleted here first",
             DiagnosticIDs::Note);
      break;
    case OwnershipEvent::DeletedWhileCapsuleOwns:
      // Once per deleter call, at the first exit it is unclaimed at.
      if (!DeletedUnclaimed.insert(E.At).second)
        break;
      diag(E.At->getBeginLoc(),
           "deleter called on a tensor its capsule still owns: the capsule "
           "is not renamed to its used_ name, so its destructor deletes the "
           "tensor again");
      diag(E.ExitLoc,
           "the function leaves here with the capsule unrenamed; rename it "
           "before calling the deleter, or leave the tensor to the capsule",
           DiagnosticIDs::Note);
      break;
    case OwnershipEvent::DeleteAfterHandOff:
      diag(E.At->getBeginLoc(),
           "deleter called after ownership of the tensor was handed on");
      if (E.Related)
        diag(E.Related->getBeginLoc(), "ownership handed on here",
             DiagnosticIDs::Note);
      break;
    case OwnershipEvent::DeleterKeepsTensor:
      diag(E.At->getBeginLoc(),
           "managed tensor allocated here is given a deleter that never "
           "frees it; the consumer's call of the deleter leaks the struct")
          << E.At->getSourceRange();
      diag(E.Related->getBeginLoc(),
           "this deleter uses its argument only to reach its fields; delete "
           "(or free) the struct in it",
           DiagnosticIDs::Note);
      break;
    case OwnershipEvent::NullDeleterExported:
      diag(E.At->getBeginLoc(),
           "managed tensor allocated here is exported with a NULL deleter; "
           "a consumer calls the deleter only when it is set, so nothing "
           "frees the struct")
          << E.At->getSourceRange();
      if (E.Related)
        diag(E.Related->getBeginLoc(),
             "deleter set to NULL here; install one that deletes the struct",
             DiagnosticIDs::Note);
      break;
    case OwnershipEvent::DataNotKeptAlive:
      if (E.Context)
        diag(E.At->getBeginLoc(),
             "nothing the managed tensor owns keeps its %0 alive: "
             "manager_ctx holds only numbers%select{| and pointers nothing "
             "reads}2 ('%1') and the deleter does not touch %0; a consumer "
             "that outlives the %0's owner reads freed memory")
            << E.How
            << E.Context->getType()
                   ->getPointeeType()
                   .getUnqualifiedType()
                   .getAsString(Ctx.getPrintingPolicy())
            << E.ContextPointers << E.At->getSourceRange();
      else
        diag(E.At->getBeginLoc(),
             "nothing the managed tensor owns keeps its %0 alive: "
             "manager_ctx is NULL and the deleter touches neither "
             "manager_ctx nor %0; a consumer that outlives the %0's owner "
             "reads freed memory")
            << E.How << E.At->getSourceRange();
      diag(E.Related->getBeginLoc(),
           "the deleter; point manager_ctx at an owner of the data (a "
           "reference, a shared_ptr) that the deleter releases",
           DiagnosticIDs::Note);
      break;
    case OwnershipEvent::ReturnStillOwned:
      diag(E.At->getBeginLoc(),
           "%0 returns a managed tensor that %1 still owns: callers own what "
           "%0 returns (TensorSources) and delete it, and %1 deletes it "
           "too; hand it on with release()")
          << &FD << E.Owner << E.At->getSourceRange();
      diag(E.Owner->getLocation(), "%0 declared here", DiagnosticIDs::Note)
          << E.Owner;
      break;
    case OwnershipEvent::FreedWithoutDeleter:
      diag(E.At->getBeginLoc(),
           "managed tensor freed by %0 without calling its deleter; the "
           "producer's deleter never runs, so what it keeps for the tensor "
           "leaks, and the struct may not come from that allocator")
          << E.How << E.At->getSourceRange();
      if (E.Related)
        diag(E.Related->getBeginLoc(),
             "obtained here; release it with t->deleter(t)",
             DiagnosticIDs::Note);
      break;
    default:
      break;
    }
  }
}

} // namespace clang::tidy::interop
