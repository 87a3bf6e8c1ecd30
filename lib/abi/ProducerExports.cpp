//===--- ProducerExports.cpp - calls of a producer's __dlpack__ ----------===//

#include "lib/abi/ProducerExports.h"

#include "lib/abi/CapsuleAPI.h"
#include "lib/support/AstHelpers.h"
#include "lib/support/LocalStores.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/STLExtras.h"

#include <optional>

namespace clang::interop {

namespace {

llvm::StringRef calleeName(const CallExpr &Call) {
  const FunctionDecl *F = Call.getDirectCallee();
  return F && F->getIdentifier() ? F->getName() : llvm::StringRef();
}

/// E names the method `__dlpack__`: a constant string (through variables
/// and choices, constantString), or a Python string made from one
/// (`PyUnicode_InternFromString("__dlpack__")`, `nb::str("__dlpack__")`).
bool namesExportMethod(const Expr *E, ASTContext &Ctx) {
  if (!E)
    return false;
  E = ignoreTemporaries(E);
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E))
    return CE->getNumArgs() == 1 && namesExportMethod(CE->getArg(0), Ctx);
  if (const auto *FC = dyn_cast<CXXFunctionalCastExpr>(E))
    return namesExportMethod(FC->getSubExpr(), Ctx);
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    llvm::StringRef N = calleeName(*Call);
    return (N == "PyUnicode_FromString" ||
            N == "PyUnicode_InternFromString") &&
           Call->getNumArgs() == 1 && namesExportMethod(Call->getArg(0), Ctx);
  }
  std::optional<std::string> S = constantString(E, Ctx);
  return S && *S == "__dlpack__";
}

/// The object whose `__dlpack__` attribute E reads: `x.attr("__dlpack__")`,
/// `getattr(x, "__dlpack__")`, `PyObject_GetAttrString(x, "__dlpack__")`.
const Expr *attributeOwner(const Expr *E, ASTContext &Ctx) {
  E = ignoreTemporaries(E);
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *M = MC->getMethodDecl();
    if (M && M->getIdentifier() && M->getName() == "attr" &&
        MC->getNumArgs() >= 1 && namesExportMethod(MC->getArg(0), Ctx))
      return MC->getImplicitObjectArgument();
    return nullptr;
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    llvm::StringRef N = calleeName(*Call);
    if ((N == "getattr" || N == "PyObject_GetAttrString" ||
         N == "PyObject_GetAttr") &&
        Call->getNumArgs() >= 2 && namesExportMethod(Call->getArg(1), Ctx))
      return Call->getArg(0);
  }
  return nullptr;
}

/// The same, through a local that holds the bound method (`auto m =
/// obj.attr("__dlpack__"); m();`).
const Expr *methodOwner(const Expr *E, const LocalStores &Locals,
                        ASTContext &Ctx) {
  if (const Expr *Owner = attributeOwner(E, Ctx))
    return Owner;
  const Expr *Inner = ignoreTemporaries(E);
  if (const auto *CE = dyn_cast<CXXConstructExpr>(Inner))
    if (CE->getNumArgs() == 1)
      Inner = ignoreTemporaries(CE->getArg(0));
  if (const VarDecl *M = LocalStores::localNamed(Inner))
    if (const Expr *V = Locals.onlyValue(M))
      return attributeOwner(V, Ctx);
  return nullptr;
}

/// The variable an object expression names: `obj`, `obj.ptr()`,
/// `(PyObject *)obj`.
const ValueDecl *producerNamed(const Expr *E) {
  E = ignoreTemporaries(E);
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E))
    if (const CXXMethodDecl *M = MC->getMethodDecl())
      if (M->getIdentifier() && M->getName() == "ptr")
        E = ignoreTemporaries(MC->getImplicitObjectArgument());
  const ValueDecl *D = referencedDecl(E->IgnoreParenCasts());
  return isa_and_nonnull<VarDecl>(D) ? D : nullptr;
}

/// The producer whose `__dlpack__` Call calls, and whether the call
/// returns NULL on failure.
std::optional<std::pair<const ValueDecl *, bool>>
exportOf(const CallExpr &Call, const LocalStores &Locals, ASTContext &Ctx) {
  const Expr *Owner = nullptr;
  bool MayFail = false;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(&Call)) {
    if (Op->getOperator() != OO_Call || Op->getNumArgs() < 1)
      return std::nullopt;
    Owner = methodOwner(Op->getArg(0), Locals, Ctx);
  } else {
    llvm::StringRef N = calleeName(Call);
    // PyObject_CallMethod(obj, "__dlpack__", ...) and its siblings.
    if (N.starts_with("PyObject_CallMethod") && Call.getNumArgs() >= 2 &&
        namesExportMethod(Call.getArg(1), Ctx))
      Owner = Call.getArg(0);
    // PyObject_CallNoArgs(method), PyObject_Call(method, args, kwargs), ...
    else if ((N.starts_with("PyObject_Call") ||
              N.starts_with("PyObject_Vectorcall")) &&
             Call.getNumArgs() >= 1)
      Owner = methodOwner(Call.getArg(0), Locals, Ctx);
    MayFail = true;
  }
  const ValueDecl *P = Owner ? producerNamed(Owner) : nullptr;
  if (!P)
    return std::nullopt;
  return std::pair(P, MayFail);
}

bool isInspection(const CallExpr &Call) {
  // A test of the object itself (`capsule.is_none()`).
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(&Call))
    if (const CXXMethodDecl *MD = MC->getMethodDecl();
        MD && MD->isConst() && MC->getNumArgs() == 0 &&
        MD->getReturnType()->isBooleanType())
      return true;
  // Functions that look at an object without taking what it holds: its
  // name, its type, a test of an attribute, dropping a reference.
  static constexpr llvm::StringLiteral Names[] = {
      "PyCapsule_IsValid", "PyCapsule_GetName", "PyCapsule_CheckExact",
      "Py_IS_TYPE",        "Py_TYPE",           "PyObject_TypeCheck",
      "Py_IsNone",         "isinstance",        "hasattr",
      "PyObject_HasAttrString", "Py_DecRef",    "Py_DECREF",
      "Py_XDECREF",        "_Py_DECREF",        "_Py_XDECREF",
      "Py_XDecRef"};
  return llvm::is_contained(Names, calleeName(Call));
}

/// How the value of an expression is used by the statements around it.
enum class UseKind { Inspected, StoredInLocal, Written, Used, Discarded };
struct Use {
  UseKind K;
  const VarDecl *Local = nullptr; // StoredInLocal
};

/// What the statement P does with the value of its child Child, when P
/// is no operator or call: a condition tests it; a full statement drops
/// it; any other expression (a return, a choice, an initialiser list, a
/// capture, a range) passes it on.
UseKind statementUse(const Stmt &P, const Stmt &Child) {
  const Stmt *Cond = nullptr;
  if (const auto *If = dyn_cast<IfStmt>(&P))
    Cond = If->getCond();
  else if (const auto *While = dyn_cast<WhileStmt>(&P))
    Cond = While->getCond();
  else if (const auto *For = dyn_cast<ForStmt>(&P))
    Cond = For->getCond();
  else if (const auto *Do = dyn_cast<DoStmt>(&P))
    Cond = Do->getCond();
  if (Cond == &Child)
    return UseKind::Inspected;
  if (isa<Expr, ReturnStmt, CXXForRangeStmt, SwitchStmt>(&P))
    return UseKind::Used;
  return UseKind::Discarded;
}

/// Where the value of E goes; Parents are E's ancestors, the innermost
/// last.
Use useOf(const Expr *E, llvm::ArrayRef<const Stmt *> Parents) {
  const Stmt *Child = E;
  for (const Stmt *P : llvm::reverse(Parents)) {
    if (const auto *IC = dyn_cast<ImplicitCastExpr>(P)) {
      if (IC->getCastKind() == CK_PointerToBoolean)
        return {UseKind::Inspected};
    } else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(P)) {
      const CXXMethodDecl *M = MC->getMethodDecl();
      llvm::StringRef N =
          M && M->getIdentifier() ? M->getName() : llvm::StringRef();
      if (MC->getCallee() != Child)
        return {UseKind::Used}; // an argument of a member call
      if (N == "is_none" || N == "is_valid" || N == "check" ||
          N == "dec_ref" ||
          (isa_and_nonnull<CXXConversionDecl>(M) &&
           M->getReturnType()->isBooleanType()))
        return {UseKind::Inspected};
      // obj.ptr(), obj.cast<py::capsule>(): the same object.
      if (N != "ptr" && N != "cast")
        return {UseKind::Used};
    } else if (const auto *CE = dyn_cast<CXXConstructExpr>(P)) {
      if (CE->getNumArgs() != 1) // a copy or a conversion keeps the value
        return {UseKind::Used};
    } else if (const auto *UO = dyn_cast<UnaryOperator>(P)) {
      return {UO->getOpcode() == UO_LNot ? UseKind::Inspected : UseKind::Used};
    } else if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
      if (BO->isEqualityOp())
        return {UseKind::Inspected};
      if (BO->getOpcode() != BO_Assign)
        return {UseKind::Used};
      if (BO->getLHS() == Child)
        return {UseKind::Written};
      const VarDecl *L = LocalStores::localNamed(BO->getLHS());
      return L ? Use{UseKind::StoredInLocal, L} : Use{UseKind::Used};
    } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(P)) {
      if (Op->getOperator() == OO_EqualEqual ||
          Op->getOperator() == OO_ExclaimEqual)
        return {UseKind::Inspected};
      if (Op->getOperator() != OO_Equal || Op->getNumArgs() != 2)
        return {UseKind::Used};
      if (Op->getArg(0) == Child)
        return {UseKind::Written};
      const VarDecl *L = LocalStores::localNamed(Op->getArg(0));
      return L ? Use{UseKind::StoredInLocal, L} : Use{UseKind::Used};
    } else if (const auto *Call = dyn_cast<CallExpr>(P)) {
      return {isInspection(*Call) ? UseKind::Inspected : UseKind::Used};
    } else if (const auto *CO = dyn_cast<AbstractConditionalOperator>(P)) {
      // cond ? obj.__dlpack__() : nullptr: the choice's value is where the
      // capsule goes (values through a conditional operator).
      if (CO->getCond() == Child)
        return {UseKind::Inspected};
    } else if (const auto *DS = dyn_cast<DeclStmt>(P)) {
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D))
          if (VD->getInit() == Child && VD->hasLocalStorage() &&
              !VD->getType()->isReferenceType())
            return {UseKind::StoredInLocal, VD};
      return {UseKind::Used};
    } else if (!isa<ParenExpr, ExplicitCastExpr, MaterializeTemporaryExpr,
                    CXXBindTemporaryExpr, ExprWithCleanups, MemberExpr>(P)) {
      return {statementUse(*P, *Child)};
    }
    Child = P;
  }
  return {UseKind::Discarded};
}

/// One walk of a body that keeps the chain of statements above each node
/// (lambda bodies left out: they are functions of their own).
template <typename Derived>
class ChainVisitor : public RecursiveASTVisitor<Derived> {
  ChainVisitor() = default;
  friend Derived;

public:
  bool dataTraverseStmtPre(Stmt *S) {
    Chain.push_back(S);
    return true;
  }
  bool dataTraverseStmtPost(Stmt *) {
    Chain.pop_back();
    return true;
  }
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  /// The ancestors of the node being visited (it is Chain.back()).
  llvm::ArrayRef<const Stmt *> parents() const {
    return llvm::ArrayRef(Chain).drop_back();
  }

private:
  llvm::SmallVector<const Stmt *, 16> Chain;
};

} // namespace

bool isExportMethodName(const Expr &E) {
  const Expr *S = &E;
  // A name held in a constant variable (`constexpr const char *kExport =
  // "__dlpack__";`).
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || !VD->getInit() ||
        !(VD->getType().isConstQualified() || VD->isConstexpr()))
      return false;
    S = VD->getInit()->IgnoreParenImpCasts();
  }
  const auto *Lit = dyn_cast<StringLiteral>(S);
  return Lit && Lit->getCharByteWidth() == 1 &&
         Lit->getString() == "__dlpack__";
}

bool mentionsProducerExport(const Stmt *Body) {
  class Finder : public RecursiveASTVisitor<Finder> {
  public:
    bool Found = false;
    bool VisitExpr(Expr *E) {
      Found = isa<StringLiteral, DeclRefExpr>(E) && isExportMethodName(*E);
      return !Found;
    }
  } F;
  if (Body)
    F.TraverseStmt(const_cast<Stmt *>(Body));
  return F.Found;
}

ExportUses findExportCalls(const Stmt *Body, ASTContext &Ctx) {
  ExportUses Out;
  if (!Body || !mentionsProducerExport(Body))
    return Out;
  LocalStores Locals(Body);
  class Calls : public ChainVisitor<Calls> {
  public:
    Calls(const LocalStores &Locals, ASTContext &Ctx, ExportUses &Out)
        : Locals(Locals), Ctx(Ctx), Out(Out) {}
    bool VisitCallExpr(CallExpr *E) {
      auto Export = exportOf(*E, Locals, Ctx);
      if (!Export)
        return true;
      ExportCall C{E, Export->first, Export->second};
      Use U = useOf(E, parents());
      C.Holder = U.K == UseKind::StoredInLocal ? U.Local : nullptr;
      C.UsedAtOnce = U.K == UseKind::Used;
      Out.Calls.push_back(C);
      return true;
    }
    const LocalStores &Locals;
    ASTContext &Ctx;
    ExportUses &Out;
  } Finder(Locals, Ctx, Out);
  Finder.TraverseStmt(const_cast<Stmt *>(Body));
  llvm::SmallPtrSet<const VarDecl *, 4> Holders;
  for (const ExportCall &C : Out.Calls)
    if (C.Holder)
      Holders.insert(C.Holder);
  if (Holders.empty())
    return Out;
  // Every reference to a holder that takes the capsule somewhere; a copy
  // into another local counts, the flow does not follow it further.
  class References : public ChainVisitor<References> {
  public:
    References(const llvm::SmallPtrSetImpl<const VarDecl *> &Holders,
               ExportUses &Out)
        : Holders(Holders), Out(Out) {}
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      const auto *VD = dyn_cast<VarDecl>(E->getDecl());
      if (!VD || !Holders.contains(VD))
        return true;
      UseKind K = useOf(E, parents()).K;
      if (K == UseKind::Used || K == UseKind::StoredInLocal)
        Out.UsingReferences[E] = VD;
      return true;
    }
    const llvm::SmallPtrSetImpl<const VarDecl *> &Holders;
    ExportUses &Out;
  } Refs(Holders, Out);
  Refs.TraverseStmt(const_cast<Stmt *>(Body));
  return Out;
}

namespace {
/// The references to a variable inside the capsule argument of a capsule
/// API call (`PyCapsule_GetPointer(capsule.ptr(), ...)`), and the variables
/// Py_DECREF'd.
class CapsuleReads : public RecursiveASTVisitor<CapsuleReads> {
public:
  bool VisitCallExpr(CallExpr *Call) {
    if (Call->getNumArgs() == 0)
      return true;
    llvm::StringRef N = calleeName(*Call);
    if (N.contains("DECREF") || N.contains("DecRef")) {
      if (const auto *DRE = dyn_cast<DeclRefExpr>(
              Call->getArg(0)->IgnoreParenCasts()))
        if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
          Released.insert(V);
    } else if (classifyCapsuleCall(Call) != CapsuleCall::None) {
      Collect C(Inside);
      C.TraverseStmt(Call->getArg(0));
    }
    return true;
  }
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  llvm::SmallPtrSet<const DeclRefExpr *, 8> Inside;
  llvm::SmallPtrSet<const VarDecl *, 4> Released;

private:
  struct Collect : RecursiveASTVisitor<Collect> {
    explicit Collect(llvm::SmallPtrSetImpl<const DeclRefExpr *> &Out)
        : Out(Out) {}
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      Out.insert(E);
      return true;
    }
    llvm::SmallPtrSetImpl<const DeclRefExpr *> &Out;
  };
};

/// H's capsule reference is dropped when the function ends: H is an object
/// with a destructor, or a pointer the body releases.
bool releasedAtEnd(const VarDecl &H, const CapsuleReads &Reads) {
  if (!H.hasLocalStorage() || isa<ParmVarDecl>(H) ||
      H.getType()->isReferenceType())
    return false;
  if (const CXXRecordDecl *RD = H.getType()->getAsCXXRecordDecl())
    return RD->hasDefinition() && !RD->hasTrivialDestructor();
  return H.getType()->isPointerType() && Reads.Released.contains(&H);
}
} // namespace

std::vector<DyingCapsule> findDyingCapsules(const Stmt *Body,
                                            ASTContext &Ctx) {
  std::vector<DyingCapsule> Out;
  if (!Body || !mentionsProducerExport(Body))
    return Out;
  std::vector<CapsuleConsumption> Gets = findCapsuleConsumptions(Body, Ctx);
  if (llvm::none_of(Gets, [](const CapsuleConsumption &C) {
        return C.ReturnedAlone && !C.Claimed;
      }))
    return Out;
  ExportUses Uses = findExportCalls(Body, Ctx);
  CapsuleReads Reads;
  Reads.TraverseStmt(const_cast<Stmt *>(Body));
  for (const CapsuleConsumption &C : Gets) {
    const auto *H = dyn_cast_or_null<VarDecl>(C.Root);
    if (!C.ReturnedAlone || C.Claimed || !H ||
        llvm::none_of(Uses.Calls,
                      [&](const ExportCall &E) { return E.Holder == H; }) ||
        !releasedAtEnd(*H, Reads))
      continue;
    // Any other use may keep the capsule (stored, passed on, returned).
    if (llvm::any_of(Uses.UsingReferences, [&](const auto &Ref) {
          return Ref.second == H && !Reads.Inside.contains(Ref.first);
        }))
      continue;
    Out.push_back({H, C.GetPointer, C.ReturnedAlone});
  }
  return Out;
}

} // namespace clang::interop
