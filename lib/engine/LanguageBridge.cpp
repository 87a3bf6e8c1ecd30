//===--- LanguageBridge.cpp - C and Objective-C++ for the framework -------===//

#include "lib/engine/LanguageBridge.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"

#include <optional>

namespace clang::interop {

LanguageWindow::LanguageWindow(ASTContext &Ctx) {
  const LangOptions &LO = Ctx.getLangOpts();
  if (LO.CPlusPlus && !LO.ObjC)
    return;
  // The options belong to the compiler invocation; the AST only hands them
  // out as const. Two bits change, and only while the CFG is built.
  Opts = &const_cast<LangOptions &>(LO);
  CPlusPlus = Opts->CPlusPlus;
  ObjC = Opts->ObjC;
  Opts->CPlusPlus = true;
  Opts->ObjC = false;
}

LanguageWindow::~LanguageWindow() {
  if (!Opts)
    return;
  Opts->CPlusPlus = CPlusPlus;
  Opts->ObjC = ObjC;
}

namespace {

/// A scalar that is not a bool, tested for truth: the operand the families
/// are asked about. Parens are stripped, as in the CFG's elements.
const Expr *truthOperand(const Expr *E) {
  if (!E)
    return nullptr;
  E = E->IgnoreParens();
  QualType T = E->getType();
  if (!E->isPRValue() || !T->isScalarType() || T->isBooleanType())
    return nullptr;
  // C's comparisons, `!` and `&&` have int type, but the framework makes
  // booleans of them itself (of a condition, after the block's last
  // element: a value set before would stand in for its own).
  if (const auto *BO = dyn_cast<BinaryOperator>(E);
      BO && (BO->isComparisonOp() || BO->isLogicalOp()))
    return nullptr;
  if (const auto *U = dyn_cast<UnaryOperator>(E);
      U && U->getOpcode() == UO_LNot)
    return nullptr;
  return E;
}

/// The condition a block's terminator branches on, where it is a truth
/// test (a switch's condition is not one).
const Expr *branchCondition(const CFGBlock &B) {
  const Stmt *T = B.getTerminatorStmt();
  if (!T ||
      !(isa<IfStmt, WhileStmt, DoStmt, ForStmt, ConditionalOperator>(T) ||
        (isa<BinaryOperator>(T) && cast<BinaryOperator>(T)->isLogicalOp())))
    return nullptr;
  return truthOperand(dyn_cast_or_null<Expr>(B.getTerminatorCondition()));
}

} // namespace

TruthOperands truthOperands(const CFG &G) {
  TruthOperands Out;
  auto Add = [&](const Expr *E) {
    if (const Expr *Op = truthOperand(E))
      Out.Operands.insert(Op);
  };
  // `!`, `&&`, `||` and `?:` test their operands, whether they appear as
  // elements (in a value) or only as terminators (in a condition).
  auto AddOperandsOf = [&](const Stmt *S) {
    if (const auto *U = dyn_cast_or_null<UnaryOperator>(S);
        U && U->getOpcode() == UO_LNot)
      Add(U->getSubExpr());
    else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(S);
             BO && BO->isLogicalOp()) {
      Add(BO->getLHS());
      Add(BO->getRHS());
    } else if (const auto *CO = dyn_cast_or_null<ConditionalOperator>(S))
      Add(CO->getCond());
  };
  for (const CFGBlock *B : G) {
    if (!B)
      continue;
    AddOperandsOf(B->getTerminatorStmt());
    const Stmt *Last = nullptr;
    bool CondIsElement = false;
    const Expr *Cond = branchCondition(*B);
    for (const CFGElement &Elt : *B) {
      std::optional<CFGStmt> CS = Elt.getAs<CFGStmt>();
      if (!CS)
        continue;
      const Stmt *S = CS->getStmt();
      Last = S;
      CondIsElement |= S == Cond;
      AddOperandsOf(S);
    }
    if (!Cond)
      continue;
    if (CondIsElement)
      Out.Operands.insert(Cond);
    else if (Last)
      Out.AfterLastElement[Last] = Cond;
  }
  return Out;
}

void settleTruthOperand(const Expr &E, dataflow::Environment &Env,
                        llvm::function_ref<dataflow::BoolValue *(
                            const Expr &, dataflow::Environment &)>
                            Truth) {
  // Env.get<BoolValue> would assert on the pointer or integer it may hold.
  if (isa_and_present<dataflow::BoolValue>(Env.getValue(E)))
    return;
  dataflow::BoolValue *B = Truth(E, Env);
  Env.setValue(E, B ? *B : Env.makeAtomicBoolValue());
}

namespace {

/// Finds the first brace initializer of a record without a C++ class.
class CInitializerFinder : public RecursiveASTVisitor<CInitializerFinder> {
public:
  const InitListExpr *Found = nullptr;

  bool VisitInitListExpr(InitListExpr *E) {
    const InitListExpr *Semantic =
        E->isSemanticForm() ? E : E->getSemanticForm();
    QualType T = Semantic ? Semantic->getType() : QualType();
    if (!T.isNull() && T->isRecordType() && !T->getAsCXXRecordDecl()) {
      Found = Semantic;
      return false;
    }
    return true;
  }
};

/// The variables declared in a body, each with its initializer.
class InitializedVariables : public RecursiveASTVisitor<InitializedVariables> {
public:
  llvm::SmallVector<VarDecl *, 8> Found;
  bool VisitVarDecl(VarDecl *VD) {
    if (VD->getInit())
      Found.push_back(VD);
    return true;
  }
};

} // namespace

const InitListExpr *unmodelledInitializer(const FunctionDecl &FD) {
  CInitializerFinder Finder;
  Finder.TraverseStmt(FD.getBody());
  return Finder.Found;
}

ConstantInitializersAside::ConstantInitializersAside(const FunctionDecl &FD,
                                                     const ASTContext &Ctx) {
  if (Ctx.getLangOpts().CPlusPlus || !FD.getBody())
    return;
  InitializedVariables Vars;
  Vars.TraverseStmt(FD.getBody());
  for (VarDecl *VD : Vars.Found) {
    Expr *Init = VD->getInit();
    CInitializerFinder Finder;
    Finder.TraverseStmt(Init);
    if (!Finder.Found ||
        !Init->isConstantInitializer(const_cast<ASTContext &>(Ctx),
                                     /*ForRef=*/false))
      continue;
    // The declaration belongs to the AST the check was handed as const;
    // its initializer is put back before anything else reads it.
    Aside.emplace_back(VD, Init);
    VD->setInit(nullptr);
  }
}

ConstantInitializersAside::~ConstantInitializersAside() {
  for (auto [VD, Init] : Aside)
    VD->setInit(Init);
}

} // namespace clang::interop
