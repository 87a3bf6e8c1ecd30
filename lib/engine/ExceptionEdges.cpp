//===--- ExceptionEdges.cpp - where an exception can leave ----------------===//

#include "lib/engine/ExceptionEdges.h"

#include "lib/support/AstHelpers.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"

namespace clang::interop {
namespace {

/// The function type's own specification rules throwing out.
bool typeCannotThrow(QualType T) {
  if (const auto *PT = T->getAs<PointerType>())
    T = PT->getPointeeType();
  else if (const auto *MPT = T->getAs<MemberPointerType>())
    T = MPT->getPointeeType();
  const auto *FPT = T->getAs<FunctionProtoType>();
  return FPT && FPT->canThrow() == CT_Cannot;
}

bool callCannotThrow(const CallExpr &CE, unsigned Depth);

/// How deep a callee's body is read for calls that may throw, and how many
/// statements of each body: a setter or `release()` of a scoped holder is a
/// few assignments.
constexpr unsigned kBodyDepth = 2;
constexpr unsigned kBodyStatements = 64;

/// FD's definition is in this translation unit and nothing in it can throw:
/// no throw expression, and every call it makes cannot throw (the same
/// rules, Depth - 1 bodies deeper). A virtual function may run another
/// body; a body over the bound is not read.
bool bodyCannotThrow(const FunctionDecl &FD, unsigned Depth) {
  const FunctionDecl *Def = nullptr;
  if (Depth == 0 || !FD.hasBody(Def) || !Def || !Def->getBody())
    return false;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Def); MD && MD->isVirtual())
    return false;
  struct Walk : RecursiveASTVisitor<Walk> {
    unsigned Depth;
    unsigned Left = kBodyStatements;
    bool Throws = false;
    explicit Walk(unsigned Depth) : Depth(Depth) {}
    // A lambda's body runs when it is called, not here.
    bool TraverseLambdaExpr(LambdaExpr *) { return true; }
    bool VisitStmt(Stmt *S) {
      if (Left-- == 0 || isa<CXXThrowExpr>(S))
        Throws = true;
      else if (const auto *CE = dyn_cast<CallExpr>(S))
        Throws = !callCannotThrow(*CE, Depth);
      return !Throws;
    }
  } W(Depth - 1);
  W.TraverseStmt(Def->getBody());
  return !W.Throws;
}

/// pybind11::cast of a C++ pointer to a Python object (`py::cast(this)`):
/// it throws only when the pointee's class was never registered with
/// pybind11, a programming error, not a path a function's cleanup must
/// cover. The other direction (a Python object to a C++ value) raises on
/// bad input and is not this.
bool isPointerToPythonCast(const FunctionDecl &FD) {
  if (!FD.getIdentifier() || FD.getName() != "cast" || FD.getNumParams() < 1)
    return false;
  const auto *NS = dyn_cast<NamespaceDecl>(FD.getDeclContext());
  if (!NS || !NS->getIdentifier() || NS->getName() != "pybind11")
    return false;
  const auto *Ret = FD.getReturnType()->getAsCXXRecordDecl();
  QualType Arg = FD.getParamDecl(0)->getType().getNonReferenceType();
  return Ret && Ret->getIdentifier() &&
         (Ret->getName() == "object" || Ret->getName() == "handle") &&
         Arg->isPointerType();
}

bool calleeCannotThrow(const FunctionDecl *FD, unsigned Depth) {
  if (!FD)
    return false;
  if (isPointerToPythonCast(*FD))
    return true;
  // A C function (the CPython, CUDA and C library APIs) never throws, and
  // neither do builtins and destructors (implicitly noexcept).
  if (FD->isExternC() || FD->isInExternCContext() || FD->getBuiltinID() ||
      isa<CXXDestructorDecl>(FD))
    return true;
  // Observers and operators: `r.ok()`, `t.device()`, `*p`, `p->x`, `if
  // (ptr)` are rarely declared noexcept and practically never throw; taking
  // them at their declared word would make every accessor a path.
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  if (MD && MD->getParent()->isLambda()) // a local function, not an observer
    return typeCannotThrow(FD->getType()) || bodyCannotThrow(*FD, Depth);
  if (MD && (MD->isConst() || isa<CXXConversionDecl>(MD)))
    return true;
  if (FD->isOverloadedOperator())
    return true;
  return typeCannotThrow(FD->getType()) || bodyCannotThrow(*FD, Depth);
}

bool callCannotThrow(const CallExpr &CE, unsigned Depth) {
  if (const FunctionDecl *FD = CE.getDirectCallee())
    return calleeCannotThrow(FD, Depth);
  const Expr *Callee = calledPointer(CE);
  if (typeCannotThrow(Callee->getType()))
    return true;
  // t->deleter(t), (*t->deleter)(t): a function pointer member of a C struct
  // is C's.
  if (const auto *ME = dyn_cast<MemberExpr>(Callee))
    if (const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl()))
      return Field->getParent()->getDeclContext()->isExternCContext();
  return false;
}

/// How many statements the search for a throw reads in all, across every
/// body it enters: a bound on the whole search, not per body, so that a
/// call tree without a throw costs at most this.
constexpr unsigned kEvidenceStatements = 256;

bool calleeThrowsVisibly(const FunctionDecl *FD, unsigned Depth,
                         unsigned &Left);

/// A throw expression, or a call of a callee that throws visibly, in Body
/// outside its try blocks (lambdas are other functions).
bool throwsOutside(const Stmt *Body, unsigned Depth, unsigned &Left) {
  struct Walk : RecursiveASTVisitor<Walk> {
    unsigned Depth;
    unsigned &Left;
    bool Found = false;
    Walk(unsigned Depth, unsigned &Left) : Depth(Depth), Left(Left) {}
    bool TraverseLambdaExpr(LambdaExpr *) { return true; }
    bool TraverseCXXTryStmt(CXXTryStmt *) { return true; }
    bool VisitStmt(Stmt *S) {
      if (Left == 0)
        return false;
      --Left;
      if (isa<CXXThrowExpr>(S))
        Found = true;
      else if (const auto *CE = dyn_cast<CallExpr>(S))
        Found = !callCannotThrow(*CE, kBodyDepth) &&
                calleeThrowsVisibly(CE->getDirectCallee(), Depth, Left);
      return !Found && Left > 0;
    }
  } W(Depth, Left);
  W.TraverseStmt(const_cast<Stmt *>(Body));
  return W.Found;
}

/// FD's definition is in this translation unit and throws out of it (read
/// Depth bodies deep). A virtual function may run another body.
bool calleeThrowsVisibly(const FunctionDecl *FD, unsigned Depth,
                         unsigned &Left) {
  const FunctionDecl *Def = nullptr;
  if (!FD || Depth == 0 || !FD->hasBody(Def) || !Def || !Def->getBody())
    return false;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Def); MD && MD->isVirtual())
    return false;
  return throwsOutside(Def->getBody(), Depth - 1, Left);
}

/// Collects the statements that may throw outside try blocks; lambdas are
/// other functions.
class ExitFinder : public RecursiveASTVisitor<ExitFinder> {
public:
  explicit ExitFinder(unsigned Max) : Max(Max) {}
  ExceptionExits Out;

  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool TraverseCXXTryStmt(CXXTryStmt *Try) {
    ++TryDepth;
    bool Continue = TraverseStmt(Try->getTryBlock());
    --TryDepth;
    for (unsigned I = 0; Continue && I < Try->getNumHandlers(); ++I)
      Continue = TraverseStmt(Try->getHandler(I));
    return Continue;
  }
  bool VisitStmt(Stmt *S) {
    if (TryDepth || !mayThrow(*S))
      return true;
    if (Out.Points.size() == Max) {
      Out.Truncated = true;
      return false;
    }
    Out.Points.push_back(S);
    return true;
  }

private:
  unsigned Max;
  unsigned TryDepth = 0;
};

} // namespace

bool mayThrow(const Stmt &S) {
  if (isa<CXXThrowExpr>(S))
    return true;
  if (const auto *CE = dyn_cast<CallExpr>(&S))
    return !callCannotThrow(*CE, kBodyDepth);
  // Constructions and new-expressions: what they can throw is running out
  // of memory, which no family models (a capsule that could not be created
  // is left aside the same way).
  return false;
}

bool throwsVisibly(const Stmt &S) {
  if (isa<CXXThrowExpr>(S))
    return true;
  const auto *CE = dyn_cast<CallExpr>(&S);
  unsigned Left = kEvidenceStatements;
  return CE && !callCannotThrow(*CE, kBodyDepth) &&
         calleeThrowsVisibly(CE->getDirectCallee(), kBodyDepth + 1, Left);
}

ExceptionExits exceptionExits(const FunctionDecl &FD, unsigned Max) {
  ExitFinder Finder(Max);
  if (Stmt *Body = FD.getBody())
    Finder.TraverseStmt(Body);
  return Finder.Out;
}

} // namespace clang::interop
