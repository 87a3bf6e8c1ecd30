//===--- ProducerTensors.cpp - what a producer's tensor owns --------------===//

#include "lib/ownership/ProducerTensors.h"

#include "lib/abi/CapsuleAPI.h"
#include "lib/abi/DLPackFields.h"
#include "lib/abi/DLPackTypes.h"
#include "lib/abi/MemoryCalls.h"
#include "lib/ownership/Releases.h"
#include "lib/support/AstHelpers.h"
#include "lib/support/LocalStores.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <tuple>

namespace clang::interop::ownership {

namespace {

/// The stores of one variable's DLPack fields, by field, in source order.
using FieldStores =
    llvm::DenseMap<const ValueDecl *,
                   llvm::SmallVector<std::pair<DLPackField, const Expr *>, 4>>;

/// The initialiser of field Want in a braced list of a DLPack record
/// (DLManagedTensor, its versioned twin, DLTensor), designated or not.
const Expr *initOfField(const InitListExpr &IL, DLPackField Want) {
  const auto *RD = IL.getType()->getAsRecordDecl();
  if (!RD)
    return nullptr;
  unsigned I = 0;
  for (const FieldDecl *F : RD->fields()) {
    if (I >= IL.getNumInits())
      break;
    const Expr *Init = IL.getInit(I++);
    if (classifyDLPackField(F) == Want)
      return isa<ImplicitValueInitExpr>(Init) ? nullptr : Init;
  }
  return nullptr;
}

class Scan : public RecursiveASTVisitor<Scan> {
public:
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool VisitCXXNewExpr(CXXNewExpr *E) {
    if (isManagedPointer(E->getType()))
      Allocations.push_back(E);
    return true;
  }
  bool VisitExplicitCastExpr(ExplicitCastExpr *E) {
    if (isManagedPointer(E->getType()) && isRawAllocation(E->getSubExpr()))
      Allocations.push_back(E);
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *E) {
    if (E->getOpcode() != BO_Assign)
      return true;
    DLPackField F = dlpackFieldOfMember(E->getLHS());
    if (F == DLPackField::None)
      return true;
    if (const ValueDecl *Root = memberChainRoot(E->getLHS()))
      Stores[Root].push_back({F, E->getRHS()});
    return true;
  }
  bool VisitCXXDeleteExpr(CXXDeleteExpr *E) {
    if (const ValueDecl *D = referencedDecl(E->getArgument()))
      Freed.insert(D);
    return true;
  }
  bool VisitCallExpr(CallExpr *E) {
    if (isRawDeallocation(E) && E->getNumArgs() == 1)
      if (const ValueDecl *D = referencedDecl(E->getArg(0)))
        Freed.insert(D);
    if (classifyCapsuleCall(E) == CapsuleCall::New && E->getNumArgs() >= 1) {
      if (const ValueDecl *D = referencedDecl(E->getArg(0)))
        InCapsule.insert(D);
      return true;
    }
    passed(E->arguments());
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    if (E->getNumArgs() >= 1 && makesCapsuleWithDestructor(*E)) {
      if (const ValueDecl *D = referencedDecl(E->getArg(0)))
        InCapsule.insert(D);
      return true;
    }
    passed(E->arguments());
    return true;
  }
  /// Pointers handed to another call, which may set their fields.
  template <typename Range> void passed(Range Args) {
    for (const Expr *Arg : Args)
      if (const ValueDecl *D = referencedDecl(Arg))
        Passed.insert(D);
  }

  llvm::SmallVector<const Expr *, 2> Allocations;
  FieldStores Stores;
  llvm::DenseSet<const ValueDecl *> Freed;
  llvm::DenseSet<const ValueDecl *> InCapsule;
  llvm::DenseSet<const ValueDecl *> Passed;
};

/// The last store of field F into Root, or null.
const Expr *lastStore(const FieldStores &Stores, const ValueDecl *Root,
                      DLPackField F) {
  auto It = Stores.find(Root);
  if (It == Stores.end())
    return nullptr;
  const Expr *Last = nullptr;
  for (auto [Field, Value] : It->second)
    if (Field == F)
      Last = Value;
  return Last;
}

/// The `data` a DLTensor value carries: a braced list's, or a local
/// DLTensor's (its initialiser's, or the last `dl.data = ...`).
const Expr *dataOfTensor(const Expr *E, const FieldStores &Stores,
                         const LocalStores &Locals) {
  for (int Depth = 0; E && Depth < 3; ++Depth) {
    E = ignoreTemporaries(E);
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
      if (CE->getNumArgs() != 1)
        return nullptr;
      E = CE->getArg(0);
      continue;
    }
    if (const auto *IL = dyn_cast<InitListExpr>(E))
      return initOfField(*IL, DLPackField::Data);
    const VarDecl *L = LocalStores::localNamed(E);
    if (!L)
      return nullptr;
    if (const Expr *Stored = lastStore(Stores, L, DLPackField::Data))
      return Stored;
    E = Locals.onlyValue(L);
  }
  return nullptr;
}

/// The deleter's visible body reads field F of anything.
bool bodyTouches(const FunctionDecl &Fn, DLPackField F) {
  class Finder : public RecursiveASTVisitor<Finder> {
  public:
    explicit Finder(DLPackField F) : F(F) {}
    bool VisitMemberExpr(MemberExpr *ME) {
      Found = Found || dlpackFieldOfMember(ME) == F;
      return !Found;
    }
    DLPackField F;
    bool Found = false;
  } Find(F);
  const FunctionDecl *Def = Fn.getDefinition();
  if (!Def || !Def->getBody())
    return true; // unknown: it may
  Find.TraverseStmt(Def->getBody());
  return Find.Found;
}

/// Memory that outlives every consumer: a string, a global or static.
bool isStaticMemory(const Expr *E) {
  E = E->IgnoreParenCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->getOpcode() == UO_AddrOf)
      E = UO->getSubExpr()->IgnoreParenCasts();
  if (isa<StringLiteral>(E))
    return true;
  const auto *VD = dyn_cast_or_null<VarDecl>(referencedDecl(E));
  return VD && !VD->hasLocalStorage() && !VD->getType()->isPointerType();
}

/// The data is reached through an object the producer could have kept
/// (`tensor.data`, `buf->ptr()`, `vec.data()`, or an address inside one:
/// `&this->values`, `&obj.buf[0]`), not a raw address it was handed (a
/// pointer or integer parameter, a local pointer): a producer that wraps a
/// raw address leaves its lifetime to its caller.
bool reachedThroughObject(const Expr *E) {
  E = ignoreTemporaries(E)->IgnoreParenCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_AddrOf) {
    E = UO->getSubExpr()->IgnoreParenCasts();
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
      E = AS->getBase()->IgnoreParenCasts();
  }
  return isa<MemberExpr, CXXMemberCallExpr>(E);
}

} // namespace

std::vector<ProducedTensor> producedTensors(const FunctionDecl &FD) {
  std::vector<ProducedTensor> Out;
  const Stmt *Body = FD.getBody();
  if (!Body)
    return Out;
  Scan S;
  S.TraverseStmt(const_cast<Stmt *>(Body));
  if (S.Allocations.empty())
    return Out;
  const LocalStores &Locals = localStoresOf(FD);
  for (const Expr *A : S.Allocations) {
    ProducedTensor T;
    T.Allocation = A;
    const Expr *Tensor = nullptr;
    if (const auto *New = dyn_cast<CXXNewExpr>(A))
      if (const auto *IL =
              dyn_cast_or_null<InitListExpr>(New->getInitializer())) {
        T.Deleter = initOfField(*IL, DLPackField::Deleter);
        T.ManagerCtx = initOfField(*IL, DLPackField::ManagerCtx);
        Tensor = initOfField(*IL, DLPackField::DLTensor);
      }
    bool ValueInitialised = false;
    if (const auto *New = dyn_cast<CXXNewExpr>(A))
      ValueInitialised =
          New->getInitializationStyle() != CXXNewInitializationStyle::None;
    if (const VarDecl *H = Locals.holderOf(A)) {
      // A struct handed to another call may get its deleter there.
      T.InCapsule = S.InCapsule.contains(H) && !S.Passed.contains(H);
      if (const Expr *D = lastStore(S.Stores, H, DLPackField::Deleter))
        T.Deleter = D;
      if (const Expr *C = lastStore(S.Stores, H, DLPackField::ManagerCtx))
        T.ManagerCtx = C;
      if (const Expr *D = lastStore(S.Stores, H, DLPackField::DLTensor))
        Tensor = D;
      T.Data = lastStore(S.Stores, H, DLPackField::Data);
      T.Shape = lastStore(S.Stores, H, DLPackField::Shape);
      T.Strides = lastStore(S.Stores, H, DLPackField::Strides);
      T.FreedHere = S.Freed.contains(H);
      // manager_ctx pointing at the struct itself: the deleter frees it
      // through the field.
      if (T.ManagerCtx && referencedDecl(T.ManagerCtx) == H)
        T.FreedHere = true;
    }
    if (!T.Data && Tensor)
      T.Data = dataOfTensor(Tensor, S.Stores, Locals);
    if (T.Deleter)
      T.DeleterFn = destructorFunction(T.Deleter);
    T.DeleterNull = T.Deleter ? isNullConstant(T.Deleter, FD.getASTContext())
                              : ValueInitialised;
    Out.push_back(T);
  }
  return Out;
}

bool deleterKeepsStruct(const ProducedTensor &T) {
  return T.DeleterFn && !T.FreedHere && keepsItsArgument(T.DeleterFn);
}

bool nullDeleterExported(const ProducedTensor &T) {
  return T.InCapsule && !T.FreedHere && T.DeleterNull;
}

const Expr *unkeptPointer(const ProducedTensor &T, const char *&Field) {
  if (!T.DeleterFn || T.FreedHere)
    return nullptr;
  ASTContext &Ctx = T.DeleterFn->getASTContext();
  if ((T.ManagerCtx && !isNullConstant(T.ManagerCtx, Ctx)) ||
      bodyTouches(*T.DeleterFn, DLPackField::ManagerCtx))
    return nullptr;
  // The metadata too: shape and strides into an object nothing keeps die
  // with it, whoever frees the data (a wrapper's own std::vectors).
  const std::tuple<const Expr *, DLPackField, const char *> Pointers[] = {
      {T.Data, DLPackField::Data, "data"},
      {T.Shape, DLPackField::Shape, "shape"},
      {T.Strides, DLPackField::Strides, "strides"}};
  for (auto [E, F, Name] : Pointers)
    if (E && !isNullConstant(E, Ctx) && !isStaticMemory(E) &&
        reachedThroughObject(E) && !bodyTouches(*T.DeleterFn, F)) {
      Field = Name;
      return E;
    }
  return nullptr;
}

} // namespace clang::interop::ownership
