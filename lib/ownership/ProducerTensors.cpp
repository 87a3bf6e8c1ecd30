//===--- ProducerTensors.cpp - what a producer's tensor owns --------------===//

#include "lib/ownership/ProducerTensors.h"

#include "lib/abi/CapsuleAPI.h"
#include "lib/abi/DLPackFields.h"
#include "lib/abi/DLPackTypes.h"
#include "lib/abi/MemoryCalls.h"
#include "lib/engine/CallSites.h"
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
    // Through a local reference to the struct's tensor (`auto &t =
    // mt->dl_tensor; t.data = ...`): a store into the struct's field.
    if (std::optional<MemberChain> Chain = memberChainOf(E->getLHS()))
      Stores[Chain->Root].push_back({F, E->getRHS()});
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
/// `&this->values`, `&obj.buf[0]`; directly or through a local that only
/// ever holds it), not a raw address it was handed (a pointer or integer
/// parameter, a local holding one): a producer that wraps a raw address
/// leaves its lifetime to its caller.
bool reachedThroughObject(const Expr *E, const LocalStores &Locals) {
  // Values through variables: a local that only ever holds the address.
  E = ignoreTemporaries(Locals.valueOf(E, /*ThroughCasts=*/true))
          ->IgnoreParenCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_AddrOf) {
    E = UO->getSubExpr()->IgnoreParenCasts();
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
      E = AS->getBase()->IgnoreParenCasts();
  }
  return isa<MemberExpr, CXXMemberCallExpr>(E);
}

/// A standard container that owns its elements and nothing else
/// (std::vector, std::array, std::basic_string, std::deque): the element
/// type, or null for anything else.
QualType stdContainerElement(const RecordDecl &RD) {
  const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(&RD);
  if (!Spec || !Spec->isInStdNamespace() ||
      Spec->getTemplateArgs().size() == 0 ||
      Spec->getTemplateArgs()[0].getKind() != TemplateArgument::Type ||
      !llvm::is_contained(
          std::initializer_list<llvm::StringRef>{"vector", "array",
                                                 "basic_string", "deque"},
          Spec->getName()))
    return {};
  return Spec->getTemplateArgs()[0].getAsType();
}

/// What a manager_ctx object of type T can keep alive.
enum class ContextHolds {
  /// Something that may own memory (a handle, a counted reference, a class
  /// with its own destructor).
  Anything,
  /// Numbers only: arithmetic and enumeration values, arrays and standard
  /// containers of them, and structs of those.
  Numbers,
  /// Numbers and pointers that nothing in the file reads: such a pointer
  /// releases nothing, so it keeps nothing alive.
  NumbersAndUnreadPointers,
};

ContextHolds contextHolds(QualType T, int Depth = 0);

/// A member F of a context: a pointer counts as unread when it is not a
/// Python object (a counted reference, released perhaps in another file)
/// and no code of the file, which alone defines the record, reads it.
ContextHolds memberHolds(const FieldDecl &F, int Depth) {
  QualType T = F.getType();
  if (!T->isPointerType() && !T->isReferenceType())
    return contextHolds(T, Depth);
  const SourceManager &SM = F.getASTContext().getSourceManager();
  if (isPyObjectPointer(T) || fieldReadHere(F) ||
      !SM.isInMainFile(SM.getExpansionLoc(F.getParent()->getLocation())))
    return ContextHolds::Anything;
  return ContextHolds::NumbersAndUnreadPointers;
}

ContextHolds contextHolds(QualType T, int Depth) {
  T = T.getCanonicalType();
  if (T->isArithmeticType() || T->isEnumeralType())
    return ContextHolds::Numbers;
  if (const auto *A = dyn_cast<ConstantArrayType>(T.getTypePtr()))
    return contextHolds(A->getElementType(), Depth);
  const RecordDecl *Named = T->getAsRecordDecl();
  const RecordDecl *RD = Named ? Named->getDefinition() : nullptr;
  if (!RD || Depth >= 4 || RD->isUnion())
    return ContextHolds::Anything;
  // Pointers inside a container are not members anybody reads by name.
  if (QualType Element = stdContainerElement(*RD); !Element.isNull())
    return contextHolds(Element, Depth + 1) == ContextHolds::Numbers
               ? ContextHolds::Numbers
               : ContextHolds::Anything;
  ContextHolds Out = ContextHolds::Numbers;
  auto Add = [&](ContextHolds H) {
    if (H == ContextHolds::Anything || Out == ContextHolds::Anything)
      Out = ContextHolds::Anything;
    else if (H == ContextHolds::NumbersAndUnreadPointers)
      Out = H;
  };
  // A destructor of its own may release anything; an implicit one only
  // destroys the members, judged one by one.
  if (const auto *CRD = dyn_cast<CXXRecordDecl>(RD)) {
    if (CRD->isDynamicClass() ||
        (CRD->getDestructor() && CRD->getDestructor()->isUserProvided()))
      return ContextHolds::Anything;
    for (const CXXBaseSpecifier &B : CRD->bases())
      Add(contextHolds(B.getType(), Depth + 1));
  }
  for (const FieldDecl *F : RD->fields())
    Add(memberHolds(*F, Depth + 1));
  return Out;
}

/// The object a fresh allocation of manager_ctx makes (`new Ctx{...}`, a
/// malloc'd one), through a local that only ever holds it; with the local,
/// if any. Null when Ctx is anything else.
const Expr *freshContext(const Expr *Ctx, const LocalStores &Locals,
                         const VarDecl *&Holder) {
  Holder = nullptr;
  const Expr *E = Ctx->IgnoreParenCasts();
  if (const VarDecl *L = LocalStores::localNamed(E)) {
    Holder = L;
    E = Locals.onlyValue(L);
    if (!E)
      return nullptr;
  }
  E = ignoreTemporaries(E);
  if (const auto *New = dyn_cast<CXXNewExpr>(E->IgnoreParenImpCasts()))
    return New->isArray() ? nullptr : New;
  if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E->IgnoreParenImpCasts()))
    if (isRawAllocation(Cast->getSubExpr()))
      return Cast;
  return nullptr;
}

/// E points into the object Holder holds (`ctx->shape`, `&ctx->n`,
/// `ctx->dims + 1`, `ctx->strides.data()`).
bool pointsInto(const Expr *E, const VarDecl *Holder) {
  if (!Holder)
    return false;
  E = E->IgnoreParenCasts();
  for (int Depth = 0; Depth < 6; ++Depth) {
    if (const auto *UO = dyn_cast<UnaryOperator>(E);
        UO && UO->getOpcode() == UO_AddrOf)
      E = UO->getSubExpr();
    else if (const auto *ME = dyn_cast<MemberExpr>(E))
      E = ME->getBase();
    else if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
      E = AS->getBase();
    // A member container's elements: `ctx->shape.data()`, `&ctx->v[0]`.
    else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E))
      E = MC->getImplicitObjectArgument();
    else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E);
             OC && OC->getOperator() == OO_Subscript)
      E = OC->getArg(0);
    else if (const auto *BO = dyn_cast<BinaryOperator>(E);
             BO && BO->isAdditiveOp())
      E = BO->getLHS();
    else
      break;
    E = E->IgnoreParenCasts();
  }
  return referencedDecl(E) == Holder;
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
    T.Producer = &FD;
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

UnkeptPointer unkeptPointer(const ProducedTensor &T) {
  UnkeptPointer Out;
  if (!T.DeleterFn || T.FreedHere || !T.Producer)
    return Out;
  ASTContext &Ctx = T.DeleterFn->getASTContext();
  const LocalStores &Locals = localStoresOf(*T.Producer);
  // manager_ctx NULL keeps nothing, unless the deleter reaches something
  // through it anyway; a fresh object of numbers keeps only what points
  // into it, whatever the deleter does with it.
  const VarDecl *Holder = nullptr;
  if (T.ManagerCtx && !isNullConstant(T.ManagerCtx, Ctx)) {
    const Expr *Fresh = freshContext(T.ManagerCtx, Locals, Holder);
    ContextHolds Holds = Fresh
                             ? contextHolds(Fresh->getType()->getPointeeType())
                             : ContextHolds::Anything;
    if (Holds == ContextHolds::Anything)
      return Out;
    Out.NumbersContext = Fresh;
    Out.UnreadPointers = Holds == ContextHolds::NumbersAndUnreadPointers;
  } else if (bodyTouches(*T.DeleterFn, DLPackField::ManagerCtx)) {
    return Out;
  }
  // The metadata too: shape and strides into an object nothing keeps die
  // with it, whoever frees the data (a wrapper's own std::vectors).
  const std::tuple<const Expr *, DLPackField, const char *> Pointers[] = {
      {T.Data, DLPackField::Data, "data"},
      {T.Shape, DLPackField::Shape, "shape"},
      {T.Strides, DLPackField::Strides, "strides"}};
  for (auto [E, F, Name] : Pointers)
    if (E && !isNullConstant(E, Ctx) && !isStaticMemory(E) &&
        !pointsInto(E, Holder) && reachedThroughObject(E, Locals) &&
        !bodyTouches(*T.DeleterFn, F)) {
      Out.At = E;
      Out.Field = Name;
      return Out;
    }
  Out.NumbersContext = nullptr;
  Out.UnreadPointers = false;
  return Out;
}

} // namespace clang::interop::ownership
