//===--- CapsuleAPI.cpp - the CPython capsule API, by name ----------------===//

#include "lib/abi/CapsuleAPI.h"

#include "lib/abi/DLPackFields.h"
#include "lib/support/AstHelpers.h"
#include "lib/support/LLVMCompat.h"
#include "lib/support/LocalStores.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace clang::interop {

bool raisesPythonError(const CallExpr *Call) {
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD || !FD->getIdentifier())
    return false;
  return compat::StringSwitch<bool>(FD->getName())
      .Cases({"PyErr_SetString", "PyErr_SetObject", "PyErr_SetNone",
              "PyErr_Format", "PyErr_FormatV", "PyErr_NoMemory",
              "PyErr_BadArgument", "PyErr_BadInternalCall",
              "PyErr_SetFromErrno", "PyErr_SetFromErrnoWithFilename"},
             true)
      .Default(false);
}

/// Whether S calls the capsule-API function of kind K.
static bool callsCapsuleAPI(const Stmt *S, CapsuleCall K) {
  if (!S)
    return false;
  class Finder : public RecursiveASTVisitor<Finder> {
  public:
    explicit Finder(CapsuleCall K) : K(K) {}
    bool Found = false;
    bool VisitCallExpr(CallExpr *Call) {
      Found = classifyCapsuleCall(Call) == K;
      return !Found;
    }
    CapsuleCall K;
  } F(K);
  F.TraverseStmt(const_cast<Stmt *>(S));
  return F.Found;
}

bool constructsErrorScope(const CXXConstructExpr *E) {
  const CXXConstructorDecl *Ctor = E ? E->getConstructor() : nullptr;
  const FunctionDecl *Def = nullptr;
  if (!Ctor || !Ctor->hasBody(Def))
    return false;
  const auto *CtorDef = cast<CXXConstructorDecl>(Def);
  bool Saves = callsCapsuleAPI(CtorDef->getBody(), CapsuleCall::ErrFetch);
  for (const CXXCtorInitializer *Init : CtorDef->inits())
    Saves = Saves || callsCapsuleAPI(Init->getInit(), CapsuleCall::ErrFetch);
  if (!Saves)
    return false;
  const CXXDestructorDecl *Dtor = Ctor->getParent()->getDestructor();
  const FunctionDecl *DtorDef = nullptr;
  return Dtor && Dtor->hasBody(DtorDef) &&
         callsCapsuleAPI(DtorDef->getBody(), CapsuleCall::ErrRestore);
}

const ValueDecl *capsuleRoot(const Expr *E) {
  for (int Depth = 0; E && Depth < 8; ++Depth) {
    E = E->IgnoreParenCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return DRE->getDecl();
    const auto *ME = dyn_cast<MemberExpr>(E);
    if (ME && isa<CXXThisExpr>(ME->getBase()->IgnoreParenCasts()))
      return ME->getMemberDecl();
    // capsule.ptr(), handle.get(), and `*capsule` for a `py::capsule *`.
    if (ME)
      E = ME->getBase();
    else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
      // pybind11's `template <class T> operator T *()` converts a capsule to
      // its payload (get_pointer<T>()), not to the capsule object.
      const CXXMethodDecl *MD = MC->getMethodDecl();
      if (MD && isa<CXXConversionDecl>(MD) && MD->getPrimaryTemplate())
        return nullptr;
      E = MC->getImplicitObjectArgument();
    }
    else if (const auto *UO = dyn_cast<UnaryOperator>(E);
             UO && UO->getOpcode() == UO_Deref)
      E = UO->getSubExpr();
    else
      return nullptr;
  }
  return nullptr;
}

const ValueDecl *CapsuleRoots::of(const Expr *E) const {
  const ValueDecl *Root = capsuleRoot(E);
  for (int Depth = 0; Root && Body && Depth < 4; ++Depth) {
    const auto *VD = dyn_cast<VarDecl>(Root);
    if (!VD || !VD->hasLocalStorage() || isa<ParmVarDecl>(VD) ||
        !isPyObjectPointer(VD->getType()))
      break;
    if (!Stores)
      Stores = std::make_shared<const LocalStores>(Body);
    const Expr *Only = Stores->onlyValue(VD);
    if (!Only || !capsuleRoot(Only) || capsuleRoot(Only) == Root)
      break;
    Root = capsuleRoot(Only);
  }
  return Root;
}

/// The lambda or function a local variable holds for good: a lambda
/// (heldLambda), or a const function pointer's initialiser.
static const Expr *heldCallable(const VarDecl *VD) {
  if (const LambdaExpr *L = heldLambda(VD))
    return L;
  if (!VD || !VD->hasLocalStorage() || !VD->getInit() ||
      !VD->getType().isConstQualified() ||
      !VD->getType()->isFunctionPointerType())
    return nullptr;
  return VD->getInit();
}

const FunctionDecl *destructorFunction(const Expr *E) {
  for (int Depth = 0; E && Depth < 8; ++Depth) {
    // A closure copied into the argument is the closure.
    E = underCopies(E);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      // auto dtor = [](PyObject *c) { ... }; PyCapsule_New(t, name, dtor)
      if (const Expr *Held = heldCallable(dyn_cast<VarDecl>(DRE->getDecl()))) {
        E = Held;
        continue;
      }
      return dyn_cast<FunctionDecl>(DRE->getDecl());
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (UO->getOpcode() == UO_AddrOf || UO->getOpcode() == UO_Plus) {
        E = UO->getSubExpr();
        continue;
      }
      return nullptr;
    }
    if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E)) {
      E = Cast->getSubExpr();
      continue;
    }
    if (const auto *Lambda = dyn_cast<LambdaExpr>(E))
      return Lambda->getCallOperator();
    // A lambda converted to a function pointer: lambda.operator fn-ptr().
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
      if (isa<CXXConversionDecl>(MC->getMethodDecl())) {
        E = MC->getImplicitObjectArgument();
        continue;
      }
      return nullptr;
    }
    return nullptr;
  }
  return nullptr;
}

bool smartPointerView(const CXXConstructExpr &E) {
  if (E.getNumArgs() < 2 || !stdSmartPointer(E.getConstructor()->getParent()))
    return false;
  const FunctionDecl *D = destructorFunction(E.getArg(1));
  const FunctionDecl *Def = D ? D->getDefinition() : nullptr;
  return Def && Def->hasBody() && Def->getNumParams() == 1 &&
         !Def->getParamDecl(0)->isReferenced();
}

const FunctionDecl *installedDestructor(const CallExpr &Call) {
  CapsuleCall K = classifyCapsuleCall(&Call);
  unsigned DestructorArg = K == CapsuleCall::New             ? 2
                           : K == CapsuleCall::SetDestructor ? 1
                                                             : ~0u;
  if (DestructorArg >= Call.getNumArgs())
    return nullptr;
  return destructorFunction(Call.getArg(DestructorArg));
}

bool makesDLPackCapsule(const Expr *Payload, const Expr *Name,
                        ASTContext &Ctx) {
  if (Payload && isManagedTensor(classifyDLPackPointee(
                     Payload->IgnoreParenImpCasts()->getType())))
    return true;
  std::optional<llvm::SmallVector<std::string, 2>> Texts =
      Name ? constantStrings(Name, Ctx) : std::nullopt;
  return Texts && llvm::any_of(*Texts, mentionsDLPack);
}

bool isPyObjectPointer(QualType T) {
  const auto *PT = T.isNull() ? nullptr : T->getAs<PointerType>();
  const RecordDecl *RD = PT ? PT->getPointeeType()->getAsRecordDecl() : nullptr;
  llvm::StringRef Name = tagName(RD);
  return Name == "_object" || Name == "PyObject";
}

bool isPybindCapsuleNew(const CXXConstructExpr &E) {
  const CXXConstructorDecl *Ctor = E.getConstructor();
  if (!Ctor || E.getNumArgs() != 3 || Ctor->getNumParams() != 3 ||
      isa<CXXDefaultArgExpr>(E.getArg(2)))
    return false;
  const CXXRecordDecl *RD = Ctor->getParent();
  if (!RD->getIdentifier() || RD->getName() != "capsule")
    return false;
  const auto *NS = dyn_cast<NamespaceDecl>(RD->getDeclContext());
  if (!NS || !NS->getIdentifier() || NS->getName() != "pybind11")
    return false;
  const auto *FnPtr = Ctor->getParamDecl(2)->getType()->getAs<PointerType>();
  const auto *Fn =
      FnPtr ? FnPtr->getPointeeType()->getAs<FunctionProtoType>() : nullptr;
  return Fn && Fn->getNumParams() == 1 &&
         isPyObjectPointer(Fn->getParamType(0));
}

const FunctionDecl *installedDestructor(const CXXConstructExpr &E) {
  return isPybindCapsuleNew(E) ? destructorFunction(E.getArg(2)) : nullptr;
}

bool isBindingCapsule(const CXXRecordDecl *RD) {
  const auto *NS =
      RD ? dyn_cast<NamespaceDecl>(RD->getDeclContext()) : nullptr;
  return RD && tagName(RD) == "capsule" && NS && NS->getIdentifier() &&
         (NS->getName() == "pybind11" || NS->getName() == "nanobind");
}

const Expr *pointerDestructorOf(const CXXConstructExpr &E) {
  const CXXConstructorDecl *Ctor = E.getConstructor();
  if (!Ctor || !isBindingCapsule(Ctor->getParent()))
    return nullptr;
  for (unsigned I = E.getNumArgs(); I-- > 1;) {
    if (isa<CXXDefaultArgExpr>(E.getArg(I)))
      continue;
    const auto *FnPtr = Ctor->getParamDecl(I)->getType()->getAs<PointerType>();
    const auto *Fn =
        FnPtr ? FnPtr->getPointeeType()->getAs<FunctionProtoType>() : nullptr;
    return Fn && Fn->getNumParams() == 1 &&
                   Fn->getParamType(0)->isVoidPointerType()
               ? E.getArg(I)
               : nullptr;
  }
  return nullptr;
}

bool makesCapsuleWithDestructor(const CXXConstructExpr &E) {
  return isPybindCapsuleNew(E) || pointerDestructorOf(E);
}

DLPackRecord memberReadAs(const CallExpr &Get, const ExplicitCastExpr *Cast) {
  DLPackRecord As =
      classifyDLPackPointee(Cast ? Cast->getType() : Get.getType());
  return isManagedTensor(As) ? As : DLPackRecord::None;
}

/// How many helpers deep a name check is looked for: a caller's validator
/// (`check_capsule(cap)`) and the one it calls in turn.
constexpr unsigned kNameCheckHelperDepth = 2;

/// Whether FD compares the name of Root's capsule (Root: a variable or
/// parameter of FD, followed through Roots' aliases) before At, or
/// anywhere in FD when At is null; Depth more helpers deep.
static bool nameComparedIn(const FunctionDecl &FD, const ValueDecl *Root,
                           const CapsuleRoots &Roots, const Stmt *At,
                           ASTContext &Ctx, unsigned Depth) {
  class Compares : public RecursiveASTVisitor<Compares> {
  public:
    Compares(const FunctionDecl &FD, const Stmt *At, const ValueDecl *Root,
             ASTContext &Ctx, const CapsuleRoots &Roots, unsigned Depth)
        : FD(FD), At(At), Root(Root), Ctx(Ctx), Roots(Roots), Depth(Depth) {}
    bool before(const Stmt *S) const {
      return !At || Ctx.getSourceManager().isBeforeInTranslationUnit(
                        S->getBeginLoc(), At->getBeginLoc());
    }
    /// Whether E is, or holds, an earlier name read of Root's capsule.
    bool readsName(const Expr *E) const {
      // A local or string object holding the name (nameReadOf).
      if (const CallExpr *Read = nameReadOf(E))
        if (Roots.of(viewCapsuleCall(Read).Capsule) == Root && before(Read))
          return true;
      bool Found = false;
      class Reads : public RecursiveASTVisitor<Reads> {
      public:
        Reads(const Compares &C, bool &Found) : C(C), Found(Found) {}
        bool VisitCallExpr(CallExpr *Call) {
          CapsuleCallView N = viewCapsuleCall(Call);
          if (N.Op == CapsuleCall::GetName &&
              C.Roots.of(N.Capsule) == C.Root && C.before(Call))
            Found = true;
          return !Found;
        }
        const Compares &C;
        bool &Found;
      } R(*this, Found);
      R.TraverseStmt(const_cast<Expr *>(E));
      return Found;
    }
    /// Call, earlier, hands Root's capsule to a function of the
    /// translation unit that compares that parameter's name itself (a
    /// validator: `check_capsule(cap)` throwing unless it is "dltensor").
    bool validatorCall(const CallExpr &Call) const {
      const FunctionDecl *Callee = Call.getDirectCallee();
      const FunctionDecl *Def = nullptr;
      if (!Depth || !Callee || !Callee->hasBody(Def) ||
          Def->getCanonicalDecl() == FD.getCanonicalDecl() || !before(&Call))
        return false;
      unsigned Shift =
          isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(Def);
      for (unsigned I = Shift; I < Call.getNumArgs(); ++I) {
        if (I - Shift >= Def->getNumParams() ||
            Roots.of(Call.getArg(I)) != Root)
          continue;
        const CapsuleRoots Inner(Def->getBody());
        if (nameComparedIn(*Def, Def->getParamDecl(I - Shift), Inner, nullptr,
                           Ctx, Depth - 1))
          return true;
      }
      return false;
    }
    bool VisitBinaryOperator(BinaryOperator *BO) {
      if (BO->isEqualityOp() &&
          (readsName(BO->getLHS()) || readsName(BO->getRHS())))
        Found = true;
      return !Found;
    }
    bool VisitCallExpr(CallExpr *Call) {
      CapsuleCallView N = viewCapsuleCall(Call);
      // PyCapsule_IsValid(capsule, "dltensor") on the same capsule.
      if (N.Op == CapsuleCall::IsValid && N.Name &&
          isUnconsumedName(classifyCapsuleName(N.Name, Ctx)) &&
          Roots.of(N.Capsule) == Root && before(Call))
        Found = true;
      if (Found || N.Op != CapsuleCall::None)
        return !Found;
      for (const Expr *Arg : Call->arguments())
        if (readsName(Arg))
          Found = true;
      if (!Found && validatorCall(*Call))
        Found = true;
      return !Found;
    }
    const FunctionDecl &FD;
    const Stmt *At;
    const ValueDecl *Root;
    ASTContext &Ctx;
    const CapsuleRoots &Roots;
    unsigned Depth;
    bool Found = false;
  } C(FD, At, Root, Ctx, Roots, Depth);
  C.TraverseStmt(FD.getBody());
  return C.Found;
}

bool nameComparedBefore(const CallExpr &Get, ASTContext &Ctx) {
  CapsuleCallView V = viewCapsuleCall(&Get);
  const ValueDecl *Root = capsuleRoot(V.Capsule);
  if (!Root)
    return false;
  const auto *FD = dyn_cast<FunctionDecl>(Root->getDeclContext());
  if (!FD || !FD->getBody())
    return false;
  return nameComparedBefore(Get, V.Capsule, *FD, Ctx);
}

bool nameComparedBefore(const Expr &At, const Expr *Capsule,
                        const FunctionDecl &Within, ASTContext &Ctx) {
  if (!Within.getBody())
    return false;
  const CapsuleRoots Roots(Within.getBody());
  const ValueDecl *Root = Roots.of(Capsule);
  return Root &&
         nameComparedIn(Within, Root, Roots, &At, Ctx, kNameCheckHelperDepth);
}

namespace {
class ConsumptionFinder : public RecursiveASTVisitor<ConsumptionFinder> {
public:
  ConsumptionFinder(ASTContext &Ctx, const Stmt *Body)
      : Ctx(Ctx), Roots(Body) {}

  bool VisitCallExpr(CallExpr *Call) {
    CapsuleCallView V = viewCapsuleCall(Call);
    switch (V.Op) {
    case CapsuleCall::GetPointer:
      // A member read is a DLPack one when read as a managed tensor (its
      // cast is seen first, by VisitExplicitCastExpr).
      if ((V.Name && isUnconsumedName(classifyCapsuleName(V.Name, Ctx))) ||
          (V.CurrentName &&
           (MemberDLPackReads.contains(Call) ||
            memberReadAs(*Call, nullptr) != DLPackRecord::None)))
        Gets.push_back({Call, Roots.of(V.Capsule)});
      else if (V.Name && isUsedName(classifyCapsuleName(V.Name, Ctx)))
        UsedNameGets.push_back({Call, Roots.of(V.Capsule)});
      return true;
    case CapsuleCall::SetName:
      if (V.Name && isUsedName(classifyCapsuleName(V.Name, Ctx)))
        Claimed.insert(Roots.of(V.Capsule));
      return true;
    case CapsuleCall::SetDestructor:
      if (Call->getNumArgs() == 2 &&
          classifyCapsuleName(Call->getArg(1), Ctx) == CapsuleName::Null)
        Claimed.insert(Roots.of(Call->getArg(0)));
      return true;
    case CapsuleCall::None:
      break;
    default:
      return true;
    }
    if (isDeleterCall(Call))
      return true;
    // A local lambda called by name runs its body here: what it claims or
    // passes on, this function does at the call (`auto consume = [&] {
    // mark_used(cap, t); }; ... consume();`).
    if (const LambdaExpr *L = calledLocalLambda(*Call)) {
      passes(*Call, llvm::drop_begin(Call->arguments()));
      if (Inlined.insert(L).second) {
        ++InLambdaBody;
        TraverseStmt(L->getBody());
        --InLambdaBody;
      }
      return true;
    }
    passes(*Call, Call->arguments());
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    // A smart pointer that cannot free the tensor only views it.
    if (!smartPointerView(*E))
      passes(*E, E->arguments());
    return true;
  }
  bool VisitReturnStmt(ReturnStmt *R) {
    if (R->getRetValue())
      Returns.push_back(R);
    return true;
  }
  bool VisitExplicitCastExpr(ExplicitCastExpr *Cast) {
    const auto *Call =
        dyn_cast<CallExpr>(Cast->getSubExpr()->IgnoreParenImpCasts());
    if (Call && viewCapsuleCall(Call).CurrentName &&
        memberReadAs(*Call, Cast) != DLPackRecord::None)
      MemberDLPackReads.insert(Call);
    return true;
  }
  /// A lambda is a function of its own (an inline capsule destructor is
  /// judged as a destructor, not as part of the producer around it): only
  /// its captures' initialisers belong to this body.
  bool TraverseLambdaExpr(LambdaExpr *L) {
    for (Expr *Init : L->capture_inits())
      if (Init && !TraverseStmt(Init))
        return false;
    return true;
  }

  ASTContext &Ctx;
  /// A capsule's identity through `PyObject *c = capsule.ptr();`.
  const CapsuleRoots Roots;
  std::vector<std::pair<const CallExpr *, const ValueDecl *>> Gets;
  /// Reads under a used_ name, with the capsule's root.
  std::vector<std::pair<const CallExpr *, const ValueDecl *>> UsedNameGets;
  llvm::SmallPtrSet<const ValueDecl *, 4> Claimed;
  llvm::SmallPtrSet<const CallExpr *, 4> MemberDLPackReads;
  /// Local lambdas whose bodies were read where they are called, and
  /// whether one is being read (its captures name this body's variables).
  llvm::SmallPtrSet<const LambdaExpr *, 4> Inlined;
  unsigned InLambdaBody = 0;
  /// Arguments passed on, each with the capsules passed beside it.
  struct PassedArg {
    const Expr *Arg;
    const Expr *By; // the call or construction
    llvm::SmallVector<const ValueDecl *, 2> Beside;
  };
  std::vector<PassedArg> Passed;
  std::vector<const ReturnStmt *> Returns;

private:
  template <typename Range> void passes(const Expr &By, Range Args) {
    llvm::SmallVector<const ValueDecl *, 2> Beside;
    // The capsule itself, or a copy or move of it (`std::move(capsule)`).
    for (const Expr *Arg : Args) {
      const ValueDecl *R = namedVar(Arg, /*Captures=*/InLambdaBody != 0);
      if (!R)
        R = Roots.of(Arg);
      if (R)
        Beside.push_back(R);
    }
    for (const Expr *Arg : Args)
      Passed.push_back({Arg, &By, Beside});
  }
};

/// The lambda E is, or the callable converted from one
/// (`std::function<void(void *)>(lambda)`); null otherwise.
const LambdaExpr *lambdaOf(const Expr *E) {
  E = ignoreTemporaries(E)->IgnoreParenCasts();
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E);
      CE && CE->getNumArgs() == 1)
    E = ignoreTemporaries(CE->getArg(0))->IgnoreParenCasts();
  return dyn_cast<LambdaExpr>(E);
}

/// Whether Arg carries Get's pointer: Get itself, a local variable one of
/// whose whole stores carries it (values through variables), or a lambda
/// that captures it (Caffe2's tensor deleter `[dlMTensor](void *) {...}`:
/// whoever keeps the lambda keeps the pointer).
bool carries(const Expr *Arg, const CallExpr *Get, const LocalStores &Stores,
             int Depth = 0) {
  if (!Arg || Depth >= 4)
    return false;
  if (const LambdaExpr *L = lambdaOf(Arg))
    return llvm::any_of(L->capture_inits(), [&](const Expr *Init) {
      return carries(Init, Get, Stores, Depth + 1);
    });
  Arg = Arg->IgnoreParenCasts();
  const LocalStores::Stores *S = Stores.of(LocalStores::localNamed(Arg));
  return Arg == Get || (S && llvm::any_of(S->Whole, [&](const Expr *V) {
                          return carries(V, Get, Stores, Depth + 1);
                        }));
}
} // namespace

std::vector<CapsuleConsumption>
findCapsuleConsumptions(const Stmt *Body, ASTContext &Ctx,
                        std::vector<const CallExpr *> *ForeignConsumedReads) {
  std::vector<CapsuleConsumption> Out;
  if (!Body)
    return Out;
  ConsumptionFinder F(Ctx, Body);
  F.TraverseStmt(const_cast<Stmt *>(Body));
  // A capsule handed in (a parameter, or a local alias of one) that this
  // body never claims: its used_ name is another consumer's claim. A
  // capsule the file keeps (a member, a global) is read back by the owner
  // that claimed it, as one this body renamed itself is.
  if (ForeignConsumedReads)
    for (const auto &[Get, Root] : F.UsedNameGets)
      if (Root && isa<ParmVarDecl>(Root) && !F.Claimed.contains(Root))
        ForeignConsumedReads->push_back(Get);
  if (F.Gets.empty())
    return Out;
  LocalStores Stores(Body);
  for (const auto &[Get, Root] : F.Gets) {
    CapsuleConsumption C;
    C.GetPointer = Get;
    C.Claimed = Root && F.Claimed.contains(Root);
    const CallExpr *G = Get;
    const ValueDecl *R = Root;
    // Passed on with its capsule (`return {ptr, std::move(capsule)};`),
    // the pointer is borrowed for as long as the receiver keeps the capsule,
    // which still deletes the tensor then: no consumption.
    auto To = llvm::find_if(F.Passed, [&](const auto &P) {
      return carries(P.Arg, G, Stores) &&
             !(R && llvm::is_contained(P.Beside, R));
    });
    C.PointerPassedOn = To != F.Passed.end();
    C.PassedTo = C.PointerPassedOn ? To->By : nullptr;
    C.Root = R;
    // `return ptr;` (a braced return of both is a construction, above).
    for (const ReturnStmt *Ret : F.Returns)
      if (carries(Ret->getRetValue(), G, Stores)) {
        C.ReturnedAlone = Ret;
        break;
      }
    Out.push_back(C);
  }
  return Out;
}

bool failsOnlyByThrowing(const Expr &Import) {
  QualType T = Import.getType();
  if (T->isVoidType())
    return true;
  const CXXRecordDecl *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition())
    return false;
  auto TestsSuccess = [](const CXXRecordDecl *R) {
    return llvm::any_of(R->methods(), [](const CXXMethodDecl *M) {
      if (const auto *Conv = dyn_cast<CXXConversionDecl>(M))
        return Conv->getConversionType()->isBooleanType();
      return M->getDeclName().isIdentifier() &&
             llvm::is_contained({"ok", "has_value", "status"}, M->getName());
    });
  };
  RD = RD->getDefinition();
  bool Tested = TestsSuccess(RD);
  RD->forallBases([&](const CXXRecordDecl *Base) {
    Tested |= TestsSuccess(Base);
    return true;
  });
  return !Tested;
}

/// The capsule parameter of a destructor (its only parameter).
static const ParmVarDecl *capsuleParameter(const FunctionDecl &Dtor) {
  return Dtor.getNumParams() == 1 ? Dtor.getParamDecl(0) : nullptr;
}

void ReadBackCapsuleNames::add(
    const CallExpr &Call,
    const llvm::SmallPtrSetImpl<const FunctionDecl *> &Destructors,
    ASTContext &Ctx) {
  CapsuleCall K = classifyCapsuleCall(&Call);
  if ((K != CapsuleCall::GetPointer && K != CapsuleCall::IsValid) ||
      Call.getNumArgs() != 2)
    return;
  if (const auto *P =
          dyn_cast_or_null<ParmVarDecl>(capsuleRoot(Call.getArg(0))))
    if (const auto *Owner = dyn_cast<FunctionDecl>(P->getDeclContext()))
      if (Destructors.contains(Owner->getCanonicalDecl()))
        return;
  if (std::optional<std::string> Name = constantString(Call.getArg(1), Ctx))
    Names.insert(*Name);
}

DestructorNameReads destructorNameReads(const FunctionDecl &Dtor,
                                        llvm::StringRef Created,
                                        ASTContext &Ctx) {
  DestructorNameReads Out;
  const FunctionDecl *Def = nullptr;
  if (!Dtor.hasBody(Def) || !Def->getBody())
    return Out;
  const ParmVarDecl *Self = capsuleParameter(*Def);
  if (!Self)
    return Out;
  class Reads : public RecursiveASTVisitor<Reads> {
  public:
    Reads(const ParmVarDecl *Self, llvm::StringRef Created, ASTContext &Ctx,
          const Stmt *Body, DestructorNameReads &Out)
        : Self(Self), Created(Created), Ctx(Ctx), Roots(Body), Out(Out) {}
    bool VisitCallExpr(CallExpr *Call) {
      CapsuleCall K = classifyCapsuleCall(Call);
      if ((K != CapsuleCall::GetPointer && K != CapsuleCall::IsValid) ||
          Call->getNumArgs() != 2 || Roots.of(Call->getArg(0)) != Self)
        return true;
      // NULL and PyCapsule_GetName(self) accept any name.
      CapsuleName Kind = classifyCapsuleName(Call->getArg(1), Ctx);
      if (Kind == CapsuleName::Null || Kind == CapsuleName::FromGetName)
        return true;
      std::optional<std::string> Name = constantString(Call->getArg(1), Ctx);
      if (!Name || *Name == Created) {
        Out.CreatedOrUnknown = true;
        return false;
      }
      const CallExpr *&First =
          *Name == ("used_" + Created).str() ? Out.Used : Out.Other;
      // A GetPointer read is the one to show, whatever came first.
      if (!First || (K == CapsuleCall::GetPointer &&
                     classifyCapsuleCall(First) != CapsuleCall::GetPointer))
        First = Call;
      return true;
    }
    const ParmVarDecl *Self;
    llvm::StringRef Created;
    ASTContext &Ctx;
    const CapsuleRoots Roots;
    DestructorNameReads &Out;
  } R(Self, Created, Ctx, Def->getBody(), Out);
  R.TraverseStmt(Def->getBody());
  return Out;
}

const CallExpr *readUnderOtherName(const FunctionDecl &Dtor,
                                   llvm::StringRef Created, ASTContext &Ctx) {
  DestructorNameReads R = destructorNameReads(Dtor, Created, Ctx);
  return R.CreatedOrUnknown || R.Used ? nullptr : R.Other;
}

const CallExpr *readOnlyUnderUsedName(const FunctionDecl &Dtor,
                                      llvm::StringRef Created,
                                      ASTContext &Ctx) {
  if (Created != "dltensor" && Created != "dltensor_versioned")
    return nullptr;
  DestructorNameReads R = destructorNameReads(Dtor, Created, Ctx);
  return R.CreatedOrUnknown ? nullptr : R.Used;
}

namespace {
class SiteFinder : public RecursiveASTVisitor<SiteFinder> {
public:
  CapsuleSites Sites;
  bool VisitCallExpr(CallExpr *Call) {
    switch (viewCapsuleCall(Call).Op) {
    case CapsuleCall::New:
    case CapsuleCall::SetDestructor:
    case CapsuleCall::GetPointer:
    case CapsuleCall::IsValid:
      Sites.CapsuleCalls.push_back(Call);
      return true;
    default:
      break;
    }
    if (isDeleterCall(Call))
      Sites.DeleterCalls.push_back(Call);
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    if (makesCapsuleWithDestructor(*E))
      Sites.CapsuleConstructs.push_back(E);
    return true;
  }
  /// A recovery expression, a parenthesised initialiser list that does not
  /// compile, a call or construction whose arguments do not.
  bool VisitExpr(Expr *E) {
    if (!E->containsErrors() || isa<LambdaExpr>(E))
      return true;
    for (const Stmt *Child : E->children())
      if (const auto *Arg = dyn_cast_or_null<Expr>(Child))
        if (const auto *L = dyn_cast<LambdaExpr>(ignoreTemporaries(Arg)))
          Sites.LambdasOfInvalidCalls.push_back(L->getCallOperator());
    return true;
  }
  bool VisitExplicitCastExpr(ExplicitCastExpr *Cast) {
    const Expr *Operand = Cast->getSubExpr()->IgnoreParenImpCasts();
    if (isPyObjectPointer(Operand->getType()) &&
        isManagedPointer(Cast->getType()))
      Sites.ObjectCasts.push_back(Cast);
    const auto *Call = dyn_cast<CallExpr>(Operand);
    if (!Call)
      return true;
    CapsuleCallView V = viewCapsuleCall(Call);
    if (V.Op == CapsuleCall::GetPointer && (V.Name || V.CurrentName))
      Sites.PointerCasts.push_back({Cast, Call});
    return true;
  }
};
} // namespace

CapsuleSites findCapsuleSites(const Stmt *Body) {
  SiteFinder F;
  if (Body)
    F.TraverseStmt(const_cast<Stmt *>(Body));
  return std::move(F.Sites);
}

namespace {
/// Whether Node is in the tree under Root.
bool contains(const Stmt *Root, const Stmt *Node) {
  if (!Root)
    return false;
  if (Root == Node)
    return true;
  for (const Stmt *Child : Root->children())
    if (contains(Child, Node))
      return true;
  return false;
}
} // namespace

const CallExpr *destructorSetLater(const Stmt *Body, const Expr &Made,
                                   ASTContext &Ctx) {
  struct Finder : RecursiveASTVisitor<Finder> {
    explicit Finder(ASTContext &Ctx) : Ctx(Ctx) {}
    bool VisitCallExpr(CallExpr *Call) {
      if (classifyCapsuleCall(Call) == CapsuleCall::SetDestructor &&
          Call->getNumArgs() == 2 &&
          classifyCapsuleName(Call->getArg(1), Ctx) != CapsuleName::Null)
        Calls.push_back(Call);
      return true;
    }
    ASTContext &Ctx;
    llvm::SmallVector<const CallExpr *, 2> Calls;
  } F(Ctx);
  F.TraverseStmt(const_cast<Stmt *>(Body));
  if (F.Calls.empty())
    return nullptr;
  LocalStores Stores(Body);
  for (const CallExpr *Call : F.Calls) {
    const auto *Holder = dyn_cast_or_null<VarDecl>(capsuleRoot(Call->getArg(0)));
    const LocalStores::Stores *S = Holder ? Stores.of(Holder) : nullptr;
    if (S && llvm::any_of(S->Whole,
                          [&](const Expr *V) { return contains(V, &Made); }))
      return Call;
  }
  return nullptr;
}

} // namespace clang::interop
