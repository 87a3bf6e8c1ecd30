//===--- Releases.cpp - what releases a managed tensor --------------------===//

#include "lib/ownership/Releases.h"

#include "lib/abi/CapsuleAPI.h"
#include "lib/abi/DLPackFields.h"
#include "lib/abi/DLPackTypes.h"
#include "lib/abi/MemoryCalls.h"
#include "lib/support/AstHelpers.h"
#include "lib/support/LocalStores.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::interop::ownership {

bool isManagerCtx(const Expr *E) {
  return E &&
         dlpackFieldOfMember(E->IgnoreParenCasts()) == DLPackField::ManagerCtx;
}

/// The parameter a release function releases: its only one, a pointer to a
/// managed tensor.
static const ParmVarDecl *releasedParameter(const FunctionDecl *FD) {
  if (!FD || FD->getNumParams() != 1 ||
      !isManagedPointer(FD->getParamDecl(0)->getType()))
    return nullptr;
  return FD->getParamDecl(0);
}

bool mayBeReleaseCall(const CallExpr *Call) {
  if (!Call || Call->getNumArgs() != 1)
    return false;
  const FunctionDecl *Callee = Call->getDirectCallee();
  return releasedParameter(Callee) && Callee->hasBody();
}

namespace {

/// Whether a body releases one parameter (P) or, with P null, any managed
/// tensor (a capsule destructor's duty).
class ReleaseFinder : public RecursiveASTVisitor<ReleaseFinder> {
public:
  ReleaseFinder(const ParmVarDecl *P, int Depth, ReleaseFunctions *Known)
      : P(P), Depth(Depth), Known(Known) {}
  bool Found = false;

  bool VisitCallExpr(CallExpr *Call) {
    const Expr *Base = nullptr;
    if (isDeleterCall(Call, &Base))
      return note(names(Base) || names(Call->getArg(0)));
    for (const Expr *Arg : Call->arguments())
      // The producer's bookkeeping: free(t->manager_ctx),
      // handle_dec_ref((Handle *)t->manager_ctx).
      if (isManagerCtx(Arg) && names(managerCtxOwner(Arg)))
        return note(true);
    if (isRawDeallocation(Call) && Call->getNumArgs() == 1 &&
        freesTensor(Call->getArg(0)))
      return note(true);
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || Call->getNumArgs() != 1 || !names(Call->getArg(0)))
      return true;
    if (!P && !Callee->hasBody() &&
        (isManagedPointer(Call->getArg(0)->IgnoreParenImpCasts()->getType()) ||
         isManagedPointer(Call->getArg(0)->getType())))
      return note(true); // may release it: its body is not visible
    if (Depth > 0 && releasedParameter(Callee)) {
      bool Releases = Known ? Known->isReleaseFunction(Callee)
                            : ReleaseFinder::releases(Callee, Depth - 1);
      if (Releases)
        return note(true);
    }
    return true;
  }
  bool VisitCXXDeleteExpr(CXXDeleteExpr *E) {
    const Expr *Arg = E->getArgument();
    if (isManagerCtx(Arg) && names(managerCtxOwner(Arg)))
      return note(true);
    if (freesTensor(Arg))
      return note(true);
    return true;
  }
  static bool releases(const FunctionDecl *FD, int Depth,
                       ReleaseFunctions *Known = nullptr) {
    const ParmVarDecl *P = releasedParameter(FD);
    const FunctionDecl *Def = FD ? FD->getDefinition() : nullptr;
    if (!P || !Def || !Def->getBody())
      return false;
    ReleaseFinder F(Def->getParamDecl(0), Depth, Known);
    F.TraverseStmt(Def->getBody());
    return F.Found;
  }

private:
  static const Expr *managerCtxOwner(const Expr *ManagerCtx) {
    return cast<MemberExpr>(ManagerCtx->IgnoreParenCasts())->getBase();
  }
  /// E names the parameter judged (any expression when there is none).
  bool names(const Expr *E) const {
    if (!E)
      return false;
    if (!P)
      return true;
    return referencedDecl(E) == P;
  }
  /// `free(E)` or `delete E` frees the tensor judged: the parameter; with
  /// none, any managed tensor (a destructor that frees the struct itself
  /// instead of calling its deleter still releases it).
  bool freesTensor(const Expr *E) const {
    if (P)
      return names(E);
    return E && isManagedPointer(E->IgnoreParenImpCasts()->getType());
  }
  bool note(bool Releases) {
    if (Releases)
      Found = true;
    return !Found;
  }

  const ParmVarDecl *P;
  int Depth;
  ReleaseFunctions *Known;
};

} // namespace

bool ReleaseFunctions::isReleaseFunction(const FunctionDecl *FD) {
  if (!FD)
    return false;
  FD = FD->getCanonicalDecl();
  auto [It, New] = Known.try_emplace(FD, false);
  if (New)
    It->second = ReleaseFinder::releases(FD, /*Depth=*/1);
  return It->second;
}

bool ReleaseFunctions::isReleaseCall(const CallExpr *Call) {
  if (isDeleterCall(Call))
    return true;
  return mayBeReleaseCall(Call) && isReleaseFunction(Call->getDirectCallee());
}

bool callsDeleter(const FunctionDecl *FD) {
  if (!FD)
    return false;
  const FunctionDecl *Def = FD->getDefinition();
  if (!Def || !Def->getBody())
    return true; // unknown: assume it does
  ReleaseFinder F(/*P=*/nullptr, /*Depth=*/1, /*Known=*/nullptr);
  F.TraverseStmt(Def->getBody());
  if (F.Found)
    return true;
  // One level into direct callees: a destructor that calls a helper that
  // releases the tensor.
  class Callees : public RecursiveASTVisitor<Callees> {
  public:
    bool Found = false;
    bool VisitCallExpr(CallExpr *Call) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      const FunctionDecl *Def = Callee ? Callee->getDefinition() : nullptr;
      if (!Def || !Def->getBody())
        return true;
      ReleaseFinder Inner(/*P=*/nullptr, /*Depth=*/0, /*Known=*/nullptr);
      Inner.TraverseStmt(Def->getBody());
      Found = Inner.Found;
      return !Found;
    }
  } C;
  C.TraverseStmt(Def->getBody());
  return C.Found;
}

namespace {

/// The by-value managed tensor E names: `rec` (a variable that is no
/// reference) or `this->rec` / `rec` inside a method (a field that is no
/// reference).
const ValueDecl *byValueRecord(const Expr *E) {
  E = E ? E->IgnoreParenImpCasts() : nullptr;
  if (!E || !isManagedTensor(classifyDLPackType(E->getType())))
    return nullptr;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      return VD->getType()->isReferenceType() ? nullptr : VD;
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    if (isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
      if (const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl()))
        return F->getType()->isReferenceType() ? nullptr : F;
  return nullptr;
}

/// `rec.deleter` for the by-value record Rec.
bool isDeleterOf(const Expr *E, const ValueDecl *Rec) {
  const auto *ME = E ? dyn_cast<MemberExpr>(E->IgnoreParenImpCasts()) : nullptr;
  return ME && dlpackFieldOfMember(ME) == DLPackField::Deleter &&
         byValueRecord(ME->getBase()) == Rec;
}

/// The writes of the by-value record Rec (as a whole) or of its deleter
/// that every scan of it classifies alike: stores `rec.deleter = f` are
/// collected, any other write of either is Other. Derived scans add what
/// they allow of Rec's address.
template <typename Derived>
class RecordWriteScan : public RecursiveASTVisitor<Derived> {
  // Only a derived scan builds one (the CRTP base is not a scan alone).
  explicit RecordWriteScan(const ValueDecl *Rec) : Rec(Rec) {}
  friend Derived;

public:
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (!BO->isAssignmentOp())
      return true;
    if (isDeleterOf(BO->getLHS(), Rec) && BO->getOpcode() == BO_Assign)
      Stored.push_back(BO->getRHS());
    else if (isDeleterOf(BO->getLHS(), Rec) ||
             byValueRecord(BO->getLHS()) == Rec)
      Other = true;
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OC) {
    // `rec = {}`, `rec = std::move(that.rec)` on a C++ record.
    if (OC->isAssignmentOp() && OC->getNumArgs() > 0 &&
        byValueRecord(OC->getArg(0)) == Rec)
      Other = true;
    return true;
  }
  const ValueDecl *Rec;
  llvm::SmallVector<const Expr *, 4> Stored; // in source order
  bool Other = false;
};

/// The writes of Rec in one statement (RecordWriteScan), and its address
/// taken anywhere but as the argument of the one deleter call allowed
/// (counted as Other).
class RecordWrites : public RecordWriteScan<RecordWrites> {
public:
  RecordWrites(const ValueDecl *Rec, const CallExpr *Allowed)
      : RecordWriteScan(Rec), Allowed(Allowed) {}
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->getOpcode() == UO_AddrOf &&
        byValueRecord(UO->getSubExpr()) == Rec &&
        !(Allowed && Allowed->getArg(0)->IgnoreParenImpCasts() == UO))
      Other = true;
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *L) {
    // A call inside a lambda runs whenever the lambda does, not in order.
    if (Allowed &&
        L->getBody()->getSourceRange().fullyContains(Allowed->getSourceRange()))
      Other = true;
    return true;
  }
  /// The last `rec.deleter = f` seen, or null.
  const Expr *lastStored() const {
    return Stored.empty() ? nullptr : Stored.back();
  }
  const CallExpr *Allowed;
};


/// An initialiser that leaves a record value-initialised: `rec{}`, `rec()`.
bool valueInitialises(const Expr *Init) {
  Init = Init ? Init->IgnoreImplicit() : nullptr;
  if (!Init || isa<ImplicitValueInitExpr>(Init))
    return true;
  if (const auto *IL = dyn_cast<InitListExpr>(Init))
    return llvm::all_of(IL->inits(), valueInitialises); // nested aggregates
  if (const auto *CE = dyn_cast<CXXConstructExpr>(Init))
    return CE->getNumArgs() == 0;
  return false;
}

/// What a by-value copy of a record is made from: E through copy or move
/// construction, one-element braced lists and std::move (`{std::move(
/// that.rec)}` is `that.rec`); E itself when it is none of those, null for
/// a call of any other function.
const Expr *copiedFrom(const Expr *E) {
  for (int Depth = 0; E && Depth < 4; ++Depth) {
    E = underCopies(E);
    const auto *Init = dyn_cast<InitListExpr>(E);
    if (Init && Init->getNumInits() == 1)
      E = Init->getInit(0);
    else
      return isa<CallExpr>(E) ? nullptr : E;
  }
  return nullptr;
}

/// Value is an empty record or the same field of another object of the
/// class (`that.rec`, `std::move(that.rec)`, `{that.rec}`).
bool classRecordValue(const Expr *Value, const ValueDecl *Rec) {
  const Expr *From = copiedFrom(Value);
  const auto *ME = dyn_cast_or_null<MemberExpr>(From);
  return valueInitialises(Value) || (From && valueInitialises(From)) ||
         (ME && ME->getMemberDecl() == Rec);
}

/// Every write of the field Rec of class C, in every member function and
/// constructor initialiser of C, for callsOwnDeleterThatKeepsRecord's class
/// case: stores `rec.deleter = f` are collected; a value-initialisation
/// (`rec{}`, `rec()`) and a copy of the same field of another object of the
/// class (classRecordValue) are fine; anything else that writes Rec or its
/// deleter, or takes its address for anything but a call of its own deleter
/// on it (`rec.deleter(&rec)`), is counted as Other.
class ClassRecordWrites : public RecordWriteScan<ClassRecordWrites> {
public:
  explicit ClassRecordWrites(const ValueDecl *Rec) : RecordWriteScan(Rec) {}
  // `rec = std::move(that.rec)`, `that.rec = {}`: the record of another
  // object of the class, or an empty one, holds only what the class's
  // members install (by induction over the class's writes).
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OC) {
    if (OC->isAssignmentOp() && OC->getNumArgs() == 2 &&
        byValueRecord(OC->getArg(0)) == Rec &&
        classRecordValue(OC->getArg(1), Rec))
      return true;
    return RecordWriteScan::VisitCXXOperatorCallExpr(OC);
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->getOpcode() == BO_Assign && byValueRecord(BO->getLHS()) == Rec &&
        classRecordValue(BO->getRHS(), Rec))
      return true;
    return RecordWriteScan::VisitBinaryOperator(BO);
  }
  bool VisitCallExpr(CallExpr *CE) {
    const Expr *Base = nullptr;
    if (isDeleterCall(CE, &Base) && Base && byValueRecord(Base) == Rec &&
        CE->getNumArgs() == 1)
      OwnCalls.insert(CE->getArg(0)->IgnoreParenImpCasts());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->getOpcode() == UO_AddrOf && byValueRecord(UO->getSubExpr()) == Rec)
      Addresses.push_back(UO);
    return true;
  }
  /// The address of Rec taken for anything but its own deleter call.
  bool addressEscapes() const {
    return llvm::any_of(Addresses, [&](const UnaryOperator *UO) {
      return !OwnCalls.contains(UO);
    });
  }
  llvm::SmallVector<const UnaryOperator *, 4> Addresses;
  llvm::SmallPtrSet<const Expr *, 4> OwnCalls;
};


/// The class case of callsOwnDeleterThatKeepsRecord: Rec is a private or
/// protected field of C, and every deleter any member of C ever stores in
/// it keeps its argument, with no other write of it or of its deleter and
/// no escape of its address. Then a member's `rec.deleter(&rec)` calls one
/// of those deleters (or one a value-initialised record leaves).
bool classOnlyInstallsDeletersThatKeepRecord(const FieldDecl &Rec) {
  if (Rec.getAccess() == AS_public)
    return false; // code outside the class may store any deleter
  const auto *C = dyn_cast<CXXRecordDecl>(Rec.getParent());
  if (!C || !C->hasDefinition())
    return false;
  ClassRecordWrites W(&Rec);
  for (const Decl *D : C->decls()) {
    const auto *FD = dyn_cast<FunctionDecl>(D);
    if (const auto *FT = dyn_cast<FunctionTemplateDecl>(D))
      FD = FT->getTemplatedDecl();
    if (!FD)
      continue;
    const FunctionDecl *Def = FD->getDefinition();
    if (!Def || !Def->getBody())
      continue;
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def))
      for (const CXXCtorInitializer *I : Ctor->inits()) {
        if (I->getMember() == &Rec && I->isWritten() &&
            !classRecordValue(I->getInit(), &Rec))
          return false;
        if (I->isWritten())
          W.TraverseStmt(I->getInit());
      }
    W.TraverseStmt(Def->getBody());
  }
  // Out-of-line member definitions are found through their declarations
  // above (getDefinition); friends could write the field too.
  if (C->hasFriends())
    return false;
  ASTContext &Ctx = Rec.getASTContext();
  return !W.Other && !W.addressEscapes() && !W.Stored.empty() &&
         llvm::all_of(W.Stored, [&](const Expr *F) {
           // A null deleter is never called (and calling one is another
           // finding's business).
           return isNullConstant(F, Ctx) ||
                  keepsItsArgument(destructorFunction(F));
         });
}

} // namespace

namespace {
/// Whether Body uses V only as the base of `->` member accesses or in a test
/// against null; with AllowDelete also as the argument of its own deleter
/// call (`v->deleter(v)`); with DataOnlyTested, reading its `data` field
/// (`v->dl_tensor.data`) only to test it against null.
bool usesOnlyFields(const ValueDecl *V, const Stmt *Body, bool AllowDelete,
                    bool DataOnlyTested) {
  class Uses : public RecursiveASTVisitor<Uses> {
  public:
    Uses(const ValueDecl *V, bool AllowDelete)
        : V(V), AllowDelete(AllowDelete) {}
    bool VisitMemberExpr(MemberExpr *ME) {
      if (ME->isArrow() && referencedDecl(ME->getBase()) == V)
        AsBase.insert(cast<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts()));
      if (dlpackFieldOfMember(ME) == DLPackField::Data &&
          memberChainRoot(ME) == V)
        DataReads.push_back(ME);
      return true;
    }
    bool VisitDeclRefExpr(DeclRefExpr *DRE) {
      if (DRE->getDecl() == V)
        All.push_back(DRE);
      return true;
    }
    bool VisitCallExpr(CallExpr *Call) {
      const Expr *Base = nullptr;
      if (AllowDelete && Call->getNumArgs() == 1 &&
          isDeleterCall(Call, &Base) && referencedDecl(Base) == V)
        noteTested(Call->getArg(0));
      return true;
    }
    // `!self`, `if (self)`, `self == nullptr`: a test, not a use.
    bool VisitImplicitCastExpr(ImplicitCastExpr *ICE) {
      if (ICE->getCastKind() == CK_PointerToBoolean)
        noteTested(ICE->getSubExpr());
      return true;
    }
    bool VisitBinaryOperator(BinaryOperator *BO) {
      if (!BO->isEqualityOp())
        return true;
      ASTContext &Ctx = V->getASTContext();
      if (isNullConstant(BO->getRHS(), Ctx))
        noteTested(BO->getLHS());
      else if (isNullConstant(BO->getLHS(), Ctx))
        noteTested(BO->getRHS());
      return true;
    }
    void noteTested(const Expr *E) {
      E = E->IgnoreParenImpCasts();
      if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
        if (DRE->getDecl() == V)
          AsBase.insert(DRE);
      if (const auto *ME = dyn_cast<MemberExpr>(E))
        Tested.insert(ME);
    }
    const ValueDecl *V;
    bool AllowDelete;
    llvm::SmallPtrSet<const DeclRefExpr *, 8> AsBase;
    llvm::SmallPtrSet<const MemberExpr *, 4> Tested;
    llvm::SmallVector<const DeclRefExpr *, 8> All;
    llvm::SmallVector<const MemberExpr *, 4> DataReads;
  } U(V, AllowDelete);
  U.TraverseStmt(const_cast<Stmt *>(Body));
  return llvm::all_of(
             U.All,
             [&](const DeclRefExpr *DRE) { return U.AsBase.contains(DRE); }) &&
         (!DataOnlyTested ||
          llvm::all_of(U.DataReads, [&](const MemberExpr *ME) {
            return U.Tested.contains(ME);
          }));
}
} // namespace

bool keepsItsArgument(const FunctionDecl *FD) {
  const FunctionDecl *Def = FD ? FD->getDefinition() : nullptr;
  if (!Def || !Def->getBody() || Def->getNumParams() != 1)
    return false;
  return usesOnlyFields(Def->getParamDecl(0), Def->getBody(),
                        /*AllowDelete=*/false, /*DataOnlyTested=*/false);
}

const ValueDecl *releasableHolder(const Stmt *At, const ParmVarDecl *Param,
                                  const FunctionDecl &FD) {
  const Stmt *Body = FD.getBody();
  const auto *Site = dyn_cast_or_null<Expr>(At);
  if (!Body || (!Param && !Site))
    return nullptr;
  // The owned parameter, or the local whose one value is the site.
  const ValueDecl *Holder =
      Param ? Param : localStoresOf(FD).holderOf(Site, /*ThroughCasts=*/true);
  if (!Holder)
    return nullptr;
  if (!isManagedPointer(Holder->getType()) ||
      !usesOnlyFields(Holder, Body, /*AllowDelete=*/true,
                      /*DataOnlyTested=*/true))
    return nullptr;
  return Holder;
}

std::string releaseStatement(const ValueDecl &Holder) {
  std::string N = Holder.getNameAsString();
  return "if (" + N + "->deleter) " + N + "->deleter(" + N + ");";
}

bool callsOwnDeleterThatKeepsRecord(const CallExpr &Call,
                                    const FunctionDecl &FD) {
  const Expr *Base = nullptr;
  if (!isDeleterCall(&Call, &Base) || !Base)
    return false;
  const ValueDecl *Rec = byValueRecord(Base);
  if (!Rec || Call.getNumArgs() != 1)
    return false;
  const auto *Addr =
      dyn_cast<UnaryOperator>(Call.getArg(0)->IgnoreParenImpCasts());
  if (!Addr || Addr->getOpcode() != UO_AddrOf ||
      byValueRecord(Addr->getSubExpr()) != Rec)
    return false;
  // A member of the class whose own record it is: what the class's members
  // ever install decides, wherever they install it (a constructor installs,
  // the destructor calls).
  if (const auto *Field = dyn_cast<FieldDecl>(Rec))
    if (isa<CXXMethodDecl>(FD) &&
        classOnlyInstallsDeletersThatKeepRecord(*Field))
      return true;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(FD.getBody());
  if (!Body)
    return false;
  const SourceManager &SM = FD.getASTContext().getSourceManager();
  const Expr *Installed = nullptr;
  for (const Stmt *S : Body->body()) {
    if (isa<LabelStmt>(S))
      return false; // a goto may reach what follows without what precedes
    bool Holds =
        !SM.isBeforeInTranslationUnit(Call.getBeginLoc(), S->getBeginLoc()) &&
        !SM.isBeforeInTranslationUnit(S->getEndLoc(), Call.getBeginLoc());
    RecordWrites W(Rec, Holds ? &Call : nullptr);
    W.TraverseStmt(const_cast<Stmt *>(S));
    const Expr *Stored = W.lastStored();
    if (Holds) {
      if (W.Other || Stored || !Installed)
        return false;
      return keepsItsArgument(destructorFunction(Installed));
    }
    if (W.Other)
      Installed = nullptr;
    if (Stored && !W.Other) {
      // Only a plain statement `rec.deleter = f;` counts as run before.
      const auto *E = dyn_cast<Expr>(S);
      const auto *BO =
          E ? dyn_cast<BinaryOperator>(E->IgnoreImplicit()) : nullptr;
      Installed = BO && BO->getRHS() == Stored ? Stored : nullptr;
    } else if (Stored) {
      Installed = nullptr;
    }
  }
  return false;
}

const FieldDecl *byValueFieldThroughPointer(const Expr *Arg) {
  const auto *UO = dyn_cast<UnaryOperator>(Arg->IgnoreParenCasts());
  if (!UO || UO->getOpcode() != UO_AddrOf)
    return nullptr;
  const auto *ME =
      dyn_cast<MemberExpr>(UO->getSubExpr()->IgnoreParenImpCasts());
  if (!ME || !ME->isArrow() ||
      isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
    return nullptr;
  const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl());
  if (!F || F->getType()->isReferenceType() ||
      !isManagedTensor(classifyDLPackType(F->getType())))
    return nullptr;
  return F;
}

namespace {
/// E is a copy of another managed tensor: an lvalue of managed-tensor type
/// (`*mt`, `t`, `p->tensor`), through std::move and copy constructions.
bool isTensorCopy(const Expr *E) {
  const Expr *From = copiedFrom(E);
  return From && From->isGLValue() &&
         isManagedTensor(classifyDLPackType(From->getType()));
}

const FieldDecl *fieldOf(const Expr *E) {
  const auto *ME = dyn_cast<MemberExpr>(E->IgnoreParenImpCasts());
  return ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
}

/// A pointer variable of namespace or static storage that holds a pointer
/// to a managed tensor: what it points to can be filled in one function
/// and released in another.
bool isStoredTensorPointer(const VarDecl &V) {
  return V.hasGlobalStorage() && V.getType()->isPointerType() &&
         isManagedPointer(V.getType());
}

class CopyFinder : public RecursiveASTVisitor<CopyFinder> {
public:
  CopyFinder(ASTContext &Ctx, llvm::SmallPtrSetImpl<const ValueDecl *> &Copies)
      : Ctx(Ctx), Copies(Copies) {}
  void into(const Expr *Target, const Expr *Value) {
    if (const FieldDecl *F = fieldOf(Target)) {
      if (isManagedTensor(classifyDLPackType(F->getType())) &&
          isTensorCopy(Value))
        Copies.insert(F);
      return;
    }
    // `*given = t` (or `given[0] = t`): what the pointer points to is
    // filled with a copy.
    const Expr *T = Target->IgnoreParenImpCasts();
    const Expr *Base = nullptr;
    if (const auto *UO = dyn_cast<UnaryOperator>(T);
        UO && UO->getOpcode() == UO_Deref)
      Base = UO->getSubExpr();
    else if (const auto *AS = dyn_cast<ArraySubscriptExpr>(T))
      Base = AS->getBase();
    if (const VarDecl *V = Base ? storedTensorPointer(Base) : nullptr) {
      if (isTensorCopy(Value))
        PointsToCopy.insert(V);
      return;
    }
    // The pointer itself pointed elsewhere than at fresh memory: what it
    // points to may be the producer's own tensor.
    if (const VarDecl *V = storedTensorPointer(Target))
      if (!pointsAtFreshMemory(Value))
        Rebound.insert(V);
  }
  bool pointsAtFreshMemory(const Expr *Value) const {
    const Expr *E = Value->IgnoreParenCasts();
    return isRawAllocation(E) || isa<CXXNewExpr>(E) ||
           E->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull);
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->getOpcode() == BO_Assign)
      into(BO->getLHS(), BO->getRHS());
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *Call) {
    if (Call->getOperator() == OO_Equal && Call->getNumArgs() == 2)
      into(Call->getArg(0), Call->getArg(1));
    return true;
  }
  bool VisitCXXConstructorDecl(CXXConstructorDecl *Ctor) {
    for (const CXXCtorInitializer *Init : Ctor->inits())
      if (const FieldDecl *F = Init->getMember())
        if (Init->isWritten() &&
            isManagedTensor(classifyDLPackType(F->getType())) &&
            isTensorCopy(Init->getInit()))
          Copies.insert(F);
    return true;
  }
  bool VisitVarDecl(VarDecl *V) {
    if (isStoredTensorPointer(*V) && V->getInit() &&
        !pointsAtFreshMemory(V->getInit()))
      Rebound.insert(V);
    return true;
  }
  // Its address handed out: it may be pointed anywhere.
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->getOpcode() == UO_AddrOf)
      if (const VarDecl *V = storedTensorPointer(UO->getSubExpr()))
        Rebound.insert(V);
    return true;
  }
  /// Pointers whose pointee is filled with a copy and that only ever point
  /// at fresh memory.
  void finish() {
    for (const VarDecl *V : PointsToCopy)
      if (!Rebound.contains(V))
        Copies.insert(V);
  }
  ASTContext &Ctx;
  llvm::SmallPtrSetImpl<const ValueDecl *> &Copies;
  llvm::SmallPtrSet<const VarDecl *, 2> PointsToCopy, Rebound;
};
} // namespace

bool CopiedTensorFields::holdsCopies(const ValueDecl *D, ASTContext &Ctx) {
  if (!Scanned) {
    Scanned = true;
    CopyFinder Finder(Ctx, Copies);
    Finder.TraverseDecl(Ctx.getTranslationUnitDecl());
    Finder.finish();
  }
  return Copies.contains(D);
}

const VarDecl *storedTensorPointer(const Expr *E) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  return V && isStoredTensorPointer(*V) ? V : nullptr;
}

} // namespace clang::interop::ownership
