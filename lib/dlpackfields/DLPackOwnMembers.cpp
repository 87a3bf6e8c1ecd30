//===--- DLPackOwnMembers.cpp - tensors a class builds itself -------------===//

#include "lib/dlpackfields/DLPackOwnMembers.h"

#include "lib/abi/DLPackFields.h"
#include "lib/abi/MemoryCalls.h"
#include "lib/engine/FactCache.h"
#include "lib/support/AstHelpers.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace clang::interop {
namespace {

/// The shape or strides member E writes (`dl.strides`, or an element of
/// it: `dl.strides[i]`), or null when E writes neither.
const Expr *layoutFieldWritten(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  while (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    E = AS->getBase()->IgnoreParenImpCasts();
  DLPackField F = dlpackFieldOfMember(E);
  return F == DLPackField::Shape || F == DLPackField::Strides ? E : nullptr;
}

/// E is a value handed in: a parameter, or reached from one
/// (`handle`, `std::move(t)`, `other.member`, `*p`).
bool handedIn(const Expr *E) {
  for (int Step = 0; E && Step < 12; ++Step) {
    E = E->IgnoreParenImpCasts();
    if (const auto *C = dyn_cast<CXXConstructExpr>(E)) {
      E = C->getNumArgs() == 1 ? C->getArg(0) : nullptr;
      continue;
    }
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      // std::move(x), std::forward<T>(x)
      E = Call->getNumArgs() == 1 && Call->isCallToStdMove() ? Call->getArg(0)
                                                             : nullptr;
      continue;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      E = ME->getBase();
      continue;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E);
        UO && UO->getOpcode() == UO_Deref) {
      E = UO->getSubExpr();
      continue;
    }
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    return DRE && isa<ParmVarDecl>(DRE->getDecl());
  }
  return false;
}

/// E is a tensor handle allocated here (`Tensor::Empty(shape, dtype,
/// dev)`), or a local initialised with one.
bool allocatedHandle(const Expr *E) {
  E = underCopies(E);
  if (const VarDecl *VD = namedVar(E);
      VD && VD->isLocalVarDecl() && VD->getInit())
    E = underCopies(VD->getInit());
  const auto *Call = dyn_cast_or_null<CallExpr>(E);
  return Call && tensorHandleAllocation(*Call);
}

/// E makes an empty handle: a default construction, or one from NULL.
bool emptyHandle(const Expr *E) {
  E = ignoreTemporaries(E)->IgnoreParenCasts();
  if (const auto *C = dyn_cast<CXXConstructExpr>(E))
    return C->getNumArgs() == 0 ||
           (C->getNumArgs() == 1 &&
            C->getArg(0)->IgnoreParenImpCasts()->getType()->isNullPtrType());
  return isa<CXXNullPtrLiteralExpr>(E);
}

/// E is the member M of some object (another instance's, in a copy or a
/// move of the class).
bool sameMember(const Expr *E, const FieldDecl &M) {
  const auto *ME = dyn_cast_or_null<MemberExpr>(underCopies(E));
  return ME && ME->getMemberDecl() == &M;
}

/// The member of `this` E is itself (`m`, `this->m`, `*m`), or null.
const FieldDecl *wholeMember(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_Deref)
    E = UO->getSubExpr()->IgnoreParenImpCasts();
  const auto *ME = dyn_cast<MemberExpr>(E);
  if (!ME || !isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
    return nullptr;
  return dyn_cast<FieldDecl>(ME->getMemberDecl());
}

class LayoutWrites : public RecursiveASTVisitor<LayoutWrites> {
public:
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp()) {
      wrote(BO->getLHS());
      stored(BO->getLHS(), BO->getRHS());
    }
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *E) {
    if (E->isAssignmentOp() && E->getNumArgs() == 2) {
      wrote(E->getArg(0));
      stored(E->getArg(0), E->getArg(1));
    }
    return true;
  }
  /// The destination of a copy or fill (`std::copy(s, s + n, dl.strides)`);
  /// the data freed (`cudaFree(m->t.data)`).
  bool VisitCallExpr(CallExpr *Call) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    bool Frees = classifyMemoryCall(Callee) == MemoryCallKind::Dealloc;
    for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
      if (isCopyDestination(Callee, I))
        wrote(Call->getArg(I));
      if (Frees)
        freed(Call->getArg(I));
    }
    return true;
  }
  bool VisitCXXDeleteExpr(CXXDeleteExpr *D) {
    freed(D->getArgument());
    return true;
  }
  /// A constructor's `member(handle)`.
  void initialisers(const CXXConstructorDecl &Ctor) {
    // Only the initialisers written in the constructor: an implicit one
    // default-constructs the member (an empty handle, no tensor yet).
    for (const CXXCtorInitializer *Init : Ctor.inits())
      if (const FieldDecl *M = Init->getMember();
          M && Init->getInit() && Init->isWritten())
        storedWhole(*M, Init->getInit());
  }
  llvm::SmallPtrSet<const FieldDecl *, 2> Members;
  /// Members a whole tensor handed in is stored into.
  llvm::SmallPtrSet<const FieldDecl *, 2> HandedIn;
  /// Members whose tensor's data the class frees itself.
  llvm::SmallPtrSet<const FieldDecl *, 2> Freed;
  /// Members given a tensor handle allocated here, and members given
  /// anything else (but the same member of another instance).
  llvm::SmallPtrSet<const FieldDecl *, 2> Allocated, OtherStores;

private:
  void freed(const Expr *E) {
    const Expr *Field = E ? E->IgnoreParenCasts() : nullptr;
    if (Field && dlpackFieldOfMember(Field) == DLPackField::Data)
      if (const FieldDecl *M = thisMemberRootOf(Field))
        Freed.insert(M);
  }
  void stored(const Expr *LHS, const Expr *RHS) {
    if (const FieldDecl *M = wholeMember(LHS))
      storedWhole(*M, RHS);
  }
  void storedWhole(const FieldDecl &M, const Expr *RHS) {
    if (handedIn(RHS))
      HandedIn.insert(&M);
    if (allocatedHandle(RHS))
      Allocated.insert(&M);
    else if (!sameMember(RHS, M) && !emptyHandle(RHS))
      OtherStores.insert(&M);
  }
  void wrote(const Expr *E) {
    if (const Expr *Field = layoutFieldWritten(E))
      if (const FieldDecl *M = thisMemberRootOf(Field))
        Members.insert(M);
  }
};

} // namespace

const FieldDecl *thisMemberRootOf(const Expr *E) {
  constexpr int MaxSteps = 16, MaxHops = 4;
  int Hops = 0;
  for (int Step = 0; E && Step < MaxSteps; ++Step) {
    E = E->IgnoreParenImpCasts();
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      const Expr *Base = ME->getBase()->IgnoreParenImpCasts();
      if (isa<CXXThisExpr>(Base))
        return dyn_cast<FieldDecl>(ME->getMemberDecl());
      E = Base;
      continue;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E);
        UO && (UO->getOpcode() == UO_Deref || UO->getOpcode() == UO_AddrOf)) {
      E = UO->getSubExpr();
      continue;
    }
    // A smart pointer's `*` and `->`, and its get().
    if (const auto *OCE = dyn_cast<CXXOperatorCallExpr>(E);
        OCE && OCE->getNumArgs() == 1 &&
        (OCE->getOperator() == OO_Star || OCE->getOperator() == OO_Arrow)) {
      E = OCE->getArg(0);
      continue;
    }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E);
        MC && MC->getNumArgs() == 0 && MC->getMethodDecl() &&
        MC->getMethodDecl()->getIdentifier() &&
        MC->getMethodDecl()->getName() == "get") {
      E = MC->getImplicitObjectArgument();
      continue;
    }
    // A local reference bound to the member's tensor.
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (!VD || isa<ParmVarDecl>(VD) || !VD->hasLocalStorage() ||
          !VD->getType()->isReferenceType() || !VD->getInit() ||
          ++Hops > MaxHops)
        return nullptr;
      E = VD->getInit();
      continue;
    }
    return nullptr;
  }
  return nullptr;
}

bool isOwnTensorMember(const FieldDecl &M) {
  const auto *Parent = dyn_cast<CXXRecordDecl>(M.getParent());
  const CXXRecordDecl *Class = Parent ? Parent->getDefinition() : nullptr;
  if (!Class)
    return false;
  using MemberSet = llvm::SmallPtrSet<const FieldDecl *, 2>;
  static DeclMemo<MemberSet> Memo;
  const MemberSet &Own = Memo.get(Class->getCanonicalDecl(), [&] {
    LayoutWrites Walk;
    for (const CXXMethodDecl *MD : Class->methods()) {
      const FunctionDecl *Def = nullptr;
      if (!MD->hasBody(Def) || !Def)
        continue;
      Walk.TraverseStmt(Def->getBody());
      if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def))
        Walk.initialisers(*Ctor);
    }
    // A member that is also given a whole tensor from outside holds an
    // import as often as its own (a wrapper that copies the tensor it is
    // given and then replaces some of its layout); unless the class frees
    // the tensor's data itself, which no consumer of an import does (the
    // producer's deleter does): a container of the project's own that its
    // readers fill elsewhere.
    MemberSet Own;
    for (const FieldDecl *M : Walk.Members)
      if (!Walk.HandedIn.contains(M))
        Own.insert(M);
    Own.insert(Walk.Freed.begin(), Walk.Freed.end());
    // A handle member given only tensors the class allocates itself (its
    // constructor's `data_ = Tensor::Empty(...)`, a growth's new buffer):
    // byte_offset 0, compact, on the device it chose.
    for (const FieldDecl *M : Walk.Allocated)
      if (!Walk.OtherStores.contains(M))
        Own.insert(M);
    return Own;
  });
  return Own.contains(&M);
}

} // namespace clang::interop
