//===--- AstHelpers.cpp - what every analysis asks of the AST -------------===//

#include "lib/support/AstHelpers.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Regex.h"

namespace clang::interop {

const Expr *ignoreTemporaries(const Expr *E) {
  while (true) {
    E = E->IgnoreParenImpCasts();
    if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
      E = EWC->getSubExpr();
    else if (const auto *MTE = dyn_cast<MaterializeTemporaryExpr>(E))
      E = MTE->getSubExpr();
    else if (const auto *BTE = dyn_cast<CXXBindTemporaryExpr>(E))
      E = BTE->getSubExpr();
    else
      return E;
  }
}

const Expr *stripIdentityCasts(const Expr *E) {
  while (E) {
    E = E->IgnoreParens();
    if (const auto *MTE = dyn_cast<MaterializeTemporaryExpr>(E)) {
      E = MTE->getSubExpr();
      continue;
    }
    const auto *CE = dyn_cast<CastExpr>(E);
    if (!CE)
      return E;
    switch (CE->getCastKind()) {
    case CK_NoOp:
    case CK_BitCast:
    case CK_IntegralCast:
    case CK_LValueToRValue:
    case CK_UserDefinedConversion:
      E = CE->getSubExpr();
      continue;
    default:
      return E;
    }
  }
  return E;
}

const Expr *underCopies(const Expr *E) {
  // A bound: copies of copies are rare, and a chain is never circular.
  for (unsigned Step = 0; E && Step < 8; ++Step) {
    E = ignoreTemporaries(E);
    // `T(x)`, `static_cast<T &&>(x)` (std::move spelt out), `(const T &)x`.
    if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E);
        Cast && (Cast->getCastKind() == CK_ConstructorConversion ||
                 Cast->getCastKind() == CK_NoOp))
      E = Cast->getSubExpr();
    else if (const auto *C = dyn_cast<CXXConstructExpr>(E);
             C && C->getNumArgs() >= 1 &&
             C->getConstructor()->isCopyOrMoveConstructor())
      E = C->getArg(0);
    else if (const auto *Move = dyn_cast<CallExpr>(E);
             Move && Move->getNumArgs() == 1 && Move->isCallToStdMove())
      E = Move->getArg(0);
    else
      return E;
  }
  return E;
}

const VarDecl *namedVar(const Expr *E, bool Captures) {
  E = underCopies(E);
  const auto *DRE = E ? dyn_cast<DeclRefExpr>(E) : nullptr;
  if (!DRE || (!Captures && DRE->refersToEnclosingVariableOrCapture()))
    return nullptr;
  return dyn_cast<VarDecl>(DRE->getDecl());
}

const ValueDecl *referencedDecl(const Expr *E) {
  E = E ? E->IgnoreParenCasts() : nullptr;
  if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E))
    return DRE->getDecl();
  return nullptr;
}

const ValueDecl *memberChainRoot(const Expr *E) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      E = ME->getBase();
      continue;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return DRE->getDecl();
    return nullptr;
  }
  return nullptr;
}

namespace {

std::optional<MemberChain> memberChainFrom(const Expr *E, bool FollowPointers,
                                           unsigned Hops) {
  // Local references (and pointers) followed to what they are bound to.
  constexpr unsigned MaxHops = 4;
  llvm::SmallVector<const FieldDecl *, 4> Reversed;
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
      if (!FD)
        return std::nullopt;
      Reversed.push_back(FD);
      E = ME->getBase();
      continue;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E);
        UO && (UO->getOpcode() == UO_Deref || UO->getOpcode() == UO_AddrOf)) {
      E = UO->getSubExpr();
      continue;
    }
    break;
  }
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E);
  if (!DRE)
    return std::nullopt;
  MemberChain C;
  const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
  QualType T = VD ? VD->getType() : QualType();
  if (VD && !isa<ParmVarDecl>(VD) && VD->getInit() && Hops < MaxHops &&
      (T->isReferenceType() || (FollowPointers && T->isPointerType()))) {
    std::optional<MemberChain> Inner =
        memberChainFrom(VD->getInit(), FollowPointers, Hops + 1);
    if (!Inner)
      return std::nullopt;
    C = *Inner;
  } else {
    C.Root = DRE->getDecl();
  }
  C.Fields.append(Reversed.rbegin(), Reversed.rend());
  return C;
}

} // namespace

std::optional<MemberChain> memberChainOf(const Expr *E, bool FollowPointers) {
  return memberChainFrom(E, FollowPointers, 0);
}

const ParmVarDecl *parameterNamedBy(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    if (U->getOpcode() == UO_Deref)
      E = U->getSubExpr()->IgnoreParenImpCasts();
  // *ptr and ptr-> of a smart pointer.
  if (const auto *OCE = dyn_cast<CXXOperatorCallExpr>(E))
    if ((OCE->getOperator() == OO_Star || OCE->getOperator() == OO_Arrow) &&
        OCE->getNumArgs() == 1)
      E = OCE->getArg(0)->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return dyn_cast<ParmVarDecl>(DRE->getDecl());
  return nullptr;
}

bool isTemporary(const Expr *E) {
  E = E->IgnoreParens();
  return isa<MaterializeTemporaryExpr>(E) || E->isPRValue();
}

bool isNonConstReference(QualType T) {
  return T->isReferenceType() && !T.getNonReferenceType().isConstQualified();
}

const EnumConstantDecl *enumerator(const Expr *E) {
  if (!E)
    return nullptr;
  if (const auto *DA = dyn_cast<CXXDefaultArgExpr>(E->IgnoreParenImpCasts()))
    E = DA->getExpr();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    return dyn_cast<EnumConstantDecl>(DRE->getDecl());
  return nullptr;
}

std::optional<llvm::APSInt> integerConstant(const Expr *E,
                                            const ASTContext &Ctx) {
  if (!E || E->isValueDependent() || E->isTypeDependent())
    return std::nullopt;
  if (!E->IgnoreParenImpCasts()->getType()->isIntegralOrEnumerationType() &&
      !E->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  return R.Val.getInt();
}

bool isNullConstant(const Expr *E, ASTContext &Ctx) {
  return E && !E->isValueDependent() &&
         E->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull) !=
             Expr::NPCK_NotNull;
}

std::string calleeNameForDiagnostic(const FunctionDecl *FD) {
  if (!FD)
    return "a function pointer";
  const NamedDecl *Named = FD;
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(FD))
    Named = Ctor->getParent();
  return "'" + Named->getNameAsString() + "'";
}

const Expr *receiverOf(const CallExpr &CE) {
  if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(&CE))
    return MCE->getImplicitObjectArgument();
  if (const auto *OCE = dyn_cast<CXXOperatorCallExpr>(&CE))
    if (isa_and_nonnull<CXXMethodDecl>(OCE->getDirectCallee()) &&
        OCE->getNumArgs() > 0)
      return OCE->getArg(0);
  return nullptr;
}

QualType paramType(const CallExpr &CE, unsigned I) {
  const FunctionDecl *FD = CE.getDirectCallee();
  unsigned First =
      isa<CXXOperatorCallExpr>(CE) && isa_and_nonnull<CXXMethodDecl>(FD) ? 1
                                                                         : 0;
  if (I < First)
    return CE.getArg(I)->getType();
  if (FD && I - First < FD->getNumParams())
    return FD->getParamDecl(I - First)->getType();
  // A call through a function pointer: its prototype's parameters.
  if (!FD)
    if (const auto *PT = CE.getCallee()->getType()->getAs<PointerType>())
      if (const auto *Proto = PT->getPointeeType()->getAs<FunctionProtoType>())
        if (I < Proto->getNumParams())
          return Proto->getParamType(I);
  return CE.getArg(I)->getType();
}

bool isNonConstMemberCall(const CallExpr &CE) {
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(CE.getDirectCallee());
  return MD && !MD->isStatic() && !MD->isConst() && receiverOf(CE);
}

void forEachInitializerExpr(const FunctionDecl &FD,
                            llvm::function_ref<void(const Expr &)> F) {
  const auto *Ctor = dyn_cast<CXXConstructorDecl>(&FD);
  if (!Ctor)
    return;
  for (const CXXCtorInitializer *Init : Ctor->inits()) {
    const Expr *E = Init->getInit();
    if (!E)
      continue;
    // A default member initialiser is not a child of its use.
    if (const auto *DIE = dyn_cast<CXXDefaultInitExpr>(E->IgnoreImplicit()))
      E = DIE->getExpr();
    if (E)
      F(*E);
  }
}

namespace {

/// Deep enough for a logger whose destructor makes another logger; a class
/// whose destructor makes its own kind stops here.
constexpr unsigned MaxExitDepth = 4;

bool neverReturnsAt(const Expr &E, unsigned Depth);
bool constructionEndsPathAt(const CXXConstructExpr &E, unsigned Depth);

/// E itself ends the path, whatever its operands do: a throw, a call of a
/// noreturn function, a construction that ends the path.
bool endsPathHere(const Expr &E, unsigned Depth) {
  if (isa<CXXThrowExpr>(E))
    return true;
  if (const auto *Call = dyn_cast<CallExpr>(&E))
    if (const FunctionDecl *FD = Call->getDirectCallee();
        FD && FD->isNoReturn())
      return true;
  const auto *Ctor = dyn_cast<CXXConstructExpr>(&E);
  return Ctor && constructionEndsPathAt(*Ctor, Depth);
}

bool alwaysExitsAt(const Stmt *S, unsigned Depth) {
  if (!S)
    return false;
  // The last statement that is not empty (`{ throw e; };` from a macro).
  if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
    for (auto It = CS->body_rbegin(); It != CS->body_rend(); ++It)
      if (!isa<NullStmt>(*It))
        return alwaysExitsAt(*It, Depth);
    return false;
  }
  const auto *E = dyn_cast<Expr>(S);
  return E && neverReturnsAt(*E, Depth);
}

/// Some path through S never completes (a throw or exit under a test).
bool mayExit(const Stmt *S, unsigned Depth) {
  if (!S)
    return false;
  if (const auto *E = dyn_cast<Expr>(S); E && endsPathHere(*E, Depth))
    return true;
  for (const Stmt *Child : S->children())
    if (mayExit(Child, Depth))
      return true;
  return false;
}

/// An enumerator or constant a logging library names its fatal severity by.
bool isFatalSeverity(const Expr *Arg) {
  const auto *DRE = dyn_cast<DeclRefExpr>(Arg->IgnoreParenImpCasts());
  const ValueDecl *D = DRE ? DRE->getDecl() : nullptr;
  if (!D || !D->getIdentifier())
    return false;
  const auto *Var = dyn_cast<VarDecl>(D);
  if (!isa<EnumConstantDecl>(D) &&
      !(Var && Var->getType().isConstQualified()))
    return false;
  static const llvm::Regex Re("^(k|GLOG_|LOG_|LS_)?(FATAL|Fatal)$");
  return Re.match(D->getName());
}

bool constructionEndsPathAt(const CXXConstructExpr &E, unsigned Depth) {
  const CXXRecordDecl *RD = E.getConstructor()->getParent();
  if (!RD || !RD->hasDefinition() || Depth >= MaxExitDepth)
    return false;
  if (RD->isAnyDestructorNoReturn())
    return true;
  const CXXDestructorDecl *Dtor = RD->getDestructor();
  if (!Dtor || !Dtor->isUserProvided())
    return false;
  const FunctionDecl *Def = nullptr;
  const Stmt *Body = Dtor->getBody(Def);
  if (Body && alwaysExitsAt(Body, Depth + 1))
    return true;
  if (Body && !mayExit(Body, Depth + 1))
    return false;
  return llvm::any_of(E.arguments(), isFatalSeverity);
}

bool neverReturnsAt(const Expr &E, unsigned Depth) {
  if (endsPathHere(E, Depth))
    return true;
  // Operands that run whatever the others are (not an arm, a lambda's
  // body or an unevaluated operand).
  if (isa<AbstractConditionalOperator, LambdaExpr, StmtExpr, BlockExpr,
          UnaryExprOrTypeTraitExpr, CXXNoexceptExpr, CXXTypeidExpr>(E))
    return false;
  if (const auto *BO = dyn_cast<BinaryOperator>(&E); BO && BO->isLogicalOp())
    return neverReturnsAt(*BO->getLHS(), Depth);
  for (const Stmt *Child : E.children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child);
        CE && neverReturnsAt(*CE, Depth))
      return true;
  return false;
}

} // namespace

bool neverReturns(const Expr &E) { return neverReturnsAt(E, 0); }

bool alwaysExits(const Stmt *S) { return alwaysExitsAt(S, 0); }

bool constructionEndsPath(const CXXConstructExpr &E) {
  return constructionEndsPathAt(E, 0);
}

bool isJump(const Stmt *S) {
  if (!S)
    return false;
  if (isa<BreakStmt, ReturnStmt, ContinueStmt, GotoStmt>(S))
    return true;
  const auto *E = dyn_cast<Expr>(S);
  return E && neverReturns(*E);
}

BinaryOperatorKind mirroredComparison(BinaryOperatorKind Op) {
  switch (Op) {
  case BO_LT:
    return BO_GT;
  case BO_GT:
    return BO_LT;
  case BO_LE:
    return BO_GE;
  case BO_GE:
    return BO_LE;
  default:
    return Op;
  }
}

bool isInMacroExpansion(SourceLocation Loc, const SourceManager &SM,
                        const LangOptions &LO,
                        llvm::ArrayRef<std::string> Macros) {
  // Walk the whole expansion stack: a token passed through several macros
  // (MATX_ASSERT_STR(a) -> assert(a)) is a macro argument at each level, and
  // each level's macro is named by where its parameter sits in its body.
  for (int Depth = 0; Loc.isMacroID() && Depth < 64; ++Depth) {
    if (!SM.isMacroArgExpansion(Loc)) {
      llvm::StringRef Name = Lexer::getImmediateMacroName(Loc, SM, LO);
      if (llvm::is_contained(Macros, Name))
        return true;
    }
    Loc = SM.getImmediateExpansionRange(Loc).getBegin();
  }
  return false;
}

const LambdaExpr *lambdaOfClosure(const CXXRecordDecl &Closure,
                                  const Stmt *Body) {
  class Finder : public RecursiveASTVisitor<Finder> {
  public:
    explicit Finder(const CXXRecordDecl &Closure) : Closure(Closure) {}
    bool VisitLambdaExpr(LambdaExpr *L) {
      if (L->getLambdaClass() == &Closure)
        Found = L;
      return !Found;
    }
    const CXXRecordDecl &Closure;
    const LambdaExpr *Found = nullptr;
  } F(Closure);
  F.TraverseStmt(const_cast<Stmt *>(Body));
  return F.Found;
}

const LambdaExpr *calledLocalLambda(const CallExpr &Call) {
  const auto *Op = dyn_cast<CXXOperatorCallExpr>(&Call);
  if (!Op || Op->getOperator() != OO_Call || Op->getNumArgs() == 0)
    return nullptr;
  const Expr *Object = ignoreTemporaries(Op->getArg(0))->IgnoreParenCasts();
  if (const auto *L = dyn_cast<LambdaExpr>(Object))
    return L;
  return heldLambda(namedVar(Object));
}

const LambdaExpr *heldLambda(const VarDecl *Var) {
  // A bound on `auto b = a;` chains.
  for (unsigned Step = 0; Var && Step < 4; ++Step) {
    const CXXRecordDecl *Closure =
        Var->getType().getNonReferenceType()->getAsCXXRecordDecl();
    if (!Var->isLocalVarDecl() || !Var->getInit() || !Closure ||
        !Closure->isLambda())
      return nullptr;
    const Expr *Init = underCopies(Var->getInit())->IgnoreParenCasts();
    if (const auto *L = dyn_cast<LambdaExpr>(Init))
      return L->getLambdaClass() == Closure ? L : nullptr;
    Var = namedVar(Init);
  }
  return nullptr;
}

const Expr *calledPointer(const CallExpr &Call) {
  const Expr *Callee = Call.getCallee()->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(Callee))
    if (UO->getOpcode() == UO_Deref)
      Callee = UO->getSubExpr()->IgnoreParenImpCasts();
  return Callee;
}

bool mentionsVariable(const Stmt *S, const ValueDecl *V) {
  class Finder : public RecursiveASTVisitor<Finder> {
  public:
    explicit Finder(const ValueDecl *V) : V(V) {}
    bool VisitDeclRefExpr(DeclRefExpr *DRE) {
      Found |= DRE->getDecl() == V;
      return !Found;
    }
    const ValueDecl *V;
    bool Found = false;
  } F(V);
  F.TraverseStmt(const_cast<Stmt *>(S));
  return F.Found;
}

llvm::SmallPtrSet<const Stmt *, 32> blockStatements(const Stmt *Body) {
  class Finder : public RecursiveASTVisitor<Finder> {
  public:
    bool VisitCompoundStmt(CompoundStmt *CS) {
      Out.insert(CS->body_begin(), CS->body_end());
      return true;
    }
    llvm::SmallPtrSet<const Stmt *, 32> Out;
  } F;
  F.TraverseStmt(const_cast<Stmt *>(Body));
  return std::move(F.Out);
}

llvm::SmallPtrSet<const Stmt *, 8> unbracedBodies(const Stmt *Body) {
  class Finder : public RecursiveASTVisitor<Finder> {
  public:
    bool VisitIfStmt(IfStmt *If) {
      add(If->getThen());
      add(If->getElse());
      return true;
    }
    bool VisitForStmt(ForStmt *S) { return add(S->getBody()); }
    bool VisitWhileStmt(WhileStmt *S) { return add(S->getBody()); }
    bool VisitCXXForRangeStmt(CXXForRangeStmt *S) { return add(S->getBody()); }
    bool add(const Stmt *S) {
      // `else if` is an if of its own, not a body to brace.
      if (S && !isa<CompoundStmt>(S) && !isa<IfStmt>(S))
        Out.insert(S);
      return true;
    }
    llvm::SmallPtrSet<const Stmt *, 8> Out;
  } F;
  F.TraverseStmt(const_cast<Stmt *>(Body));
  return std::move(F.Out);
}

llvm::SmallVector<FixItHint, 2>
insertBefore(const Stmt &S, llvm::StringRef Code,
             const llvm::SmallPtrSetImpl<const Stmt *> &Blocks,
             const llvm::SmallPtrSetImpl<const Stmt *> &Unbraced,
             ASTContext &Ctx) {
  auto [After, Line] = afterStatement(S, Ctx);
  if (After.isInvalid())
    return {};
  if (Blocks.contains(&S))
    // The new line takes S's indentation; S keeps its own.
    return {FixItHint::CreateInsertion(S.getBeginLoc(), (Code + Line).str())};
  if (Unbraced.contains(&S))
    return {
        FixItHint::CreateInsertion(S.getBeginLoc(), ("{ " + Code + " ").str()),
        FixItHint::CreateInsertion(After, " }")};
  return {};
}

const Stmt *
evaluatingBlockStatement(const Expr &E,
                         const llvm::SmallPtrSetImpl<const Stmt *> &Blocks,
                         const SourceManager &SM) {
  SourceRange R = E.getSourceRange();
  if (R.isInvalid())
    return nullptr;
  auto Holds = [&](const Stmt *S) {
    SourceRange Outer = S->getSourceRange();
    return Outer.isValid() &&
           !SM.isBeforeInTranslationUnit(R.getBegin(), Outer.getBegin()) &&
           !SM.isBeforeInTranslationUnit(Outer.getEnd(), R.getEnd());
  };
  const Stmt *Inner = nullptr;
  for (const Stmt *S : Blocks) {
    if (!Holds(S))
      continue;
    // The statements holding E are nested: the innermost begins last, or
    // ends first.
    if (!Inner ||
        SM.isBeforeInTranslationUnit(Inner->getBeginLoc(), S->getBeginLoc()) ||
        SM.isBeforeInTranslationUnit(S->getEndLoc(), Inner->getEndLoc()))
      Inner = S;
  }
  return Inner && (isa<Expr>(Inner) || isa<DeclStmt>(Inner)) ? Inner : nullptr;
}

std::pair<SourceLocation, std::string> afterStatement(const Stmt &S,
                                                      ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  if (S.getBeginLoc().isMacroID() || S.getEndLoc().isMacroID())
    return {};
  // A declaration ends at its semicolon; an expression before it.
  SourceLocation After =
      isa<DeclStmt>(S)
          ? Lexer::getLocForEndOfToken(S.getEndLoc(), 0, SM, LO)
          : Lexer::findLocationAfterToken(S.getEndLoc(), tok::semi, SM, LO,
                                          /*SkipTrailingWhitespaceAndNewLine=*/
                                          false);
  if (After.isInvalid())
    return {};
  return {After,
          ("\n" + Lexer::getIndentationForLine(S.getBeginLoc(), SM)).str()};
}

llvm::SmallVector<const NamedDecl *, 2> declsNamed(ASTContext &Ctx,
                                                   llvm::StringRef Qualified) {
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  Qualified.consume_front("::");
  Qualified.split(Parts, "::");
  const DeclContext *DC = Ctx.getTranslationUnitDecl();
  llvm::SmallVector<const NamedDecl *, 2> Out;
  for (auto [I, Part] : llvm::enumerate(Parts)) {
    if (Part.empty())
      return {};
    DeclarationName Name(&Ctx.Idents.get(Part));
    if (I + 1 == Parts.size()) {
      for (const NamedDecl *D : DC->lookup(Name))
        Out.push_back(D);
      return Out;
    }
    const DeclContext *Next = nullptr;
    for (const NamedDecl *D : DC->lookup(Name))
      if (const auto *NS = dyn_cast<NamespaceDecl>(D))
        Next = NS;
    if (!Next)
      return {};
    DC = Next;
  }
  return Out;
}

QualType smartPointerFactoryType(const CallExpr &CE) {
  const FunctionDecl *Callee = CE.getDirectCallee();
  if (!Callee || !Callee->isInStdNamespace() || !Callee->getIdentifier() ||
      (Callee->getName() != "make_shared" &&
       Callee->getName() != "make_unique"))
    return {};
  const TemplateArgumentList *Args = Callee->getTemplateSpecializationArgs();
  if (!Args || Args->size() == 0 ||
      Args->get(0).getKind() != TemplateArgument::Type)
    return {};
  return Args->get(0).getAsType();
}

const ClassTemplateSpecializationDecl *
stdSmartPointer(const CXXRecordDecl *RD) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD);
  if (!Spec || !Spec->isInStdNamespace() || !Spec->getIdentifier() ||
      (Spec->getName() != "unique_ptr" && Spec->getName() != "shared_ptr"))
    return nullptr;
  return Spec;
}

const CXXConstructorDecl *forwardedConstructor(const CallExpr &CE) {
  QualType Made = smartPointerFactoryType(CE);
  const auto *RD = Made.isNull() ? nullptr : Made->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition())
    return nullptr;
  auto Bare = [](QualType T) {
    return T.getNonReferenceType().getCanonicalType().getUnqualifiedType();
  };
  const CXXConstructorDecl *Found = nullptr;
  for (const CXXConstructorDecl *C : RD->ctors()) {
    if (C->getNumParams() != CE.getNumArgs() || C->isCopyOrMoveConstructor())
      continue;
    bool Matches = true;
    for (unsigned I = 0; I < CE.getNumArgs() && Matches; ++I)
      Matches = Bare(C->getParamDecl(I)->getType()) ==
                Bare(CE.getArg(I)->IgnoreImpCasts()->getType());
    if (!Matches)
      continue;
    if (Found)
      return nullptr;
    Found = C;
  }
  return Found;
}

} // namespace clang::interop
