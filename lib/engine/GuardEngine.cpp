//===--- GuardEngine.cpp - facts a guard proves in the syntax -------------===//

#include "lib/engine/GuardEngine.h"

#include "lib/support/AstHelpers.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

namespace clang::interop {
namespace {

/// Bounds on the scan: deeper or larger bodies go to the flow analysis,
/// which has its own bounds.
constexpr unsigned MaxDepth = 256;
constexpr unsigned MaxNodes = 20000;
/// Nesting of !, &&, || and stored guards that implies() looks through.
constexpr unsigned MaxConditionDepth = 16;
/// Conditions one GuardProof reads in all: a body with thousands of uses
/// and thousands of statements before them goes to the flow analysis (and
/// its bounds) instead of taking quadratic time here.
constexpr unsigned MaxConditions = 200000;

} // namespace

bool neverFallsThrough(const Stmt *S) {
  if (const auto *E = dyn_cast_or_null<Expr>(S))
    S = ignoreTemporaries(E);
  if (isJump(S))
    return true;
  // Every normal completion of a block runs each of its statements (case
  // labels are only allowed directly in a switch body, see GuardScan).
  if (const auto *CS = dyn_cast_or_null<CompoundStmt>(S))
    for (const Stmt *Child : CS->body())
      if (neverFallsThrough(Child))
        return true;
  return false;
}

//===----------------------------------------------------------------------===//
// GuardScan
//===----------------------------------------------------------------------===//

void GuardScan::walk(const Stmt *S) {
  if (Refused || !S)
    return;
  if (++Nodes > MaxNodes || Stack.size() > MaxDepth) {
    Refused = true;
    return;
  }
  if (const auto *L = dyn_cast<LambdaExpr>(S)) {
    lambda(*L);
    return;
  }
  if (isa<GotoStmt, IndirectGotoStmt, AsmStmt, CoroutineBodyStmt, SEHTryStmt,
          SEHLeaveStmt, BlockExpr>(S)) {
    Refused = true;
    return;
  }
  if (isa<SwitchCase>(S))
    caseLabel();
  findChanges(S);
  inspect(S);
  Stack.push_back(S);
  for (const Stmt *Child : S->children())
    walk(Child);
  Stack.pop_back();
}

void GuardScan::changed(const Expr *E, Change How) {
  if (const VarDecl *V = namedVar(E))
    Written.insert(V);
  changes(*E, How);
}

void GuardScan::findChanges(const Stmt *S) {
  if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (BO->isAssignmentOp())
      changed(BO->getLHS(), Change::Assigned);
  } else if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
    if (UO->isIncrementDecrementOp())
      changed(UO->getSubExpr(), Change::Assigned);
    else if (UO->getOpcode() == UO_AddrOf)
      changed(UO->getSubExpr(), Change::Bound);
  } else if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D))
        if (isNonConstReference(VD->getType()) && VD->getInit() &&
            !isTemporary(VD->getInit()))
          changed(VD->getInit(), Change::Bound);
  } else if (const auto *CE = dyn_cast<CallExpr>(S)) {
    const Expr *Receiver = receiverOf(*CE);
    if (const auto *OCE = dyn_cast<CXXOperatorCallExpr>(CE);
        OCE && OCE->isAssignmentOp() && OCE->getNumArgs() > 0)
      changed(OCE->getArg(0), Change::Assigned);
    unsigned First = isa<CXXOperatorCallExpr>(CE) && Receiver ? 1 : 0;
    // std::make_shared<T>(a) changes a only as the constructor it forwards
    // to may.
    const CXXConstructorDecl *Forwarded = forwardedConstructor(*CE);
    for (unsigned I = First; I < CE->getNumArgs(); ++I)
      if (isNonConstReference(Forwarded ? Forwarded->getParamDecl(I)->getType()
                                        : paramType(*CE, I)) &&
          !isTemporary(CE->getArg(I)))
        changed(CE->getArg(I), Change::Bound);
  } else if (const auto *CCE = dyn_cast<CXXConstructExpr>(S)) {
    const CXXConstructorDecl *Ctor = CCE->getConstructor();
    for (unsigned I = 0; I < CCE->getNumArgs(); ++I)
      if (I < Ctor->getNumParams() &&
          isNonConstReference(Ctor->getParamDecl(I)->getType()) &&
          !isTemporary(CCE->getArg(I)))
        changed(CCE->getArg(I), Change::Bound);
  }
}

/// Case labels only directly in the body of their switch, so that "the
/// statements before this one in the block" is all that can run before it
/// once the block is entered.
void GuardScan::caseLabel() {
  size_t I = Stack.size();
  while (I > 0 && isa<SwitchCase>(Stack[I - 1]))
    --I;
  const auto *Switch = I >= 2 ? dyn_cast<SwitchStmt>(Stack[I - 2]) : nullptr;
  if (!Switch || Switch->getBody() != Stack[I - 1])
    Refused = true;
}

/// What matters of a lambda here is what it captures by reference: it may
/// change it whenever it is called.
void GuardScan::lambda(const LambdaExpr &L) {
  for (const LambdaCapture &C : L.captures()) {
    if (!C.capturesVariable() || C.getCaptureKind() != LCK_ByRef)
      continue;
    const auto *V = dyn_cast<VarDecl>(C.getCapturedVar());
    if (!V || V->isInitCapture()) {
      Refused = true;
      continue;
    }
    Written.insert(V);
    if (!capturedByRef(*V))
      Refused = true;
  }
  Stack.push_back(&L);
  for (const Expr *Init : L.capture_inits())
    walk(Init);
  Stack.pop_back();
}

//===----------------------------------------------------------------------===//
// GuardProof
//===----------------------------------------------------------------------===//

const VarDecl *GuardProof::localOf(const VarDecl *D) const {
  if (!D || !D->hasLocalStorage() || D->getParentFunctionOrMethod() != &FD)
    return nullptr;
  return D;
}

bool GuardProof::guarded(llvm::ArrayRef<const Stmt *> Above, const Stmt *Node,
                         AtomFn Atom) {
  const Stmt *Child = Node;
  for (size_t I = Above.size(); I > 0; --I) {
    if (guardsChild(Above[I - 1], Child, Atom))
      return true;
    Child = Above[I - 1];
  }
  return false;
}

/// Whether entering `Child` from `Parent` proves the fact.
bool GuardProof::guardsChild(const Stmt *Parent, const Stmt *Child,
                             AtomFn Atom) {
  if (const auto *If = dyn_cast<IfStmt>(Parent)) {
    if (!If->getCond() || Child == If->getCond())
      return false;
    if (Child == If->getThen())
      return implies(If->getCond(), true, Atom);
    return Child == If->getElse() && implies(If->getCond(), false, Atom);
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(Parent)) {
    if (Child == CO->getTrueExpr())
      return implies(CO->getCond(), true, Atom);
    return Child == CO->getFalseExpr() && implies(CO->getCond(), false, Atom);
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(Parent)) {
    if (Child != BO->getRHS())
      return false;
    if (BO->getOpcode() == BO_LAnd)
      return implies(BO->getLHS(), true, Atom);
    if (BO->getOpcode() == BO_LOr)
      return implies(BO->getLHS(), false, Atom);
    return false;
  }
  if (const auto *W = dyn_cast<WhileStmt>(Parent))
    return Child == W->getBody() && implies(W->getCond(), true, Atom);
  if (const auto *F = dyn_cast<ForStmt>(Parent))
    return Child == F->getBody() && F->getCond() &&
           implies(F->getCond(), true, Atom);
  if (const auto *CS = dyn_cast<CompoundStmt>(Parent)) {
    // A case label lets control in past the statements before it.
    if (isa<SwitchCase>(Child))
      return false;
    for (auto It = CS->body_rbegin(); It != CS->body_rend(); ++It) {
      if (*It != Child)
        continue;
      for (++It; It != CS->body_rend(); ++It) {
        if (isa<SwitchCase>(*It))
          return false;
        if (guardsAfter(*It, Atom))
          return true;
      }
      return false;
    }
  }
  return false;
}

/// Whether every normal completion of S proves the fact:
/// `if (!guard) return;`, `if (guard) {} else throw ...;`, assert(guard).
bool GuardProof::guardsAfter(const Stmt *S, AtomFn Atom) {
  if (++Conditions > MaxConditions)
    return false;
  if (const auto *If = dyn_cast<IfStmt>(S)) {
    if (!If->getCond())
      return false;
    if (neverFallsThrough(If->getThen()) && implies(If->getCond(), false, Atom))
      return true;
    return If->getElse() && neverFallsThrough(If->getElse()) &&
           implies(If->getCond(), true, Atom);
  }
  // assert(e): `e ? void(0) : __assert_fail(...)`.
  if (const auto *E = dyn_cast<Expr>(S)) {
    const Expr *Inner = ignoreTemporaries(E);
    if (const auto *Cast = dyn_cast<ExplicitCastExpr>(Inner))
      Inner = ignoreTemporaries(Cast->getSubExpr());
    // require_host(t): a void call that returns only where the fact holds
    // (a validator); the client reads it as a condition that is true.
    if (const auto *Call = dyn_cast<CallExpr>(Inner);
        Call && Call->getType()->isVoidType())
      return Atom(Call, true);
    if (const auto *CO = dyn_cast<ConditionalOperator>(Inner)) {
      if (neverFallsThrough(CO->getFalseExpr()) &&
          implies(CO->getCond(), true, Atom))
        return true;
      return neverFallsThrough(CO->getTrueExpr()) &&
             implies(CO->getCond(), false, Atom);
    }
  }
  return false;
}

bool GuardProof::implies(const Expr *C, bool Value, AtomFn Atom,
                         unsigned Depth) {
  if (!C || Depth > MaxConditionDepth || ++Conditions > MaxConditions)
    return false;
  C = ignoreTemporaries(C);
  if (const auto *Cast = dyn_cast<ExplicitCastExpr>(C))
    if (Cast->getType()->isBooleanType())
      return implies(Cast->getSubExpr(), Value, Atom, Depth + 1);
  if (const auto *UO = dyn_cast<UnaryOperator>(C))
    if (UO->getOpcode() == UO_LNot)
      return implies(UO->getSubExpr(), !Value, Atom, Depth + 1);
  if (const auto *BO = dyn_cast<BinaryOperator>(C)) {
    bool And = BO->getOpcode() == BO_LAnd;
    if (And || BO->getOpcode() == BO_LOr) {
      bool L = implies(BO->getLHS(), Value, Atom, Depth + 1);
      bool R = implies(BO->getRHS(), Value, Atom, Depth + 1);
      // Both operands are known when `&&` is true or `||` is false; only
      // one of them is otherwise.
      return And == Value ? L || R : L && R;
    }
  }
  // A guard stored in a local bool that nothing writes afterwards.
  if (const VarDecl *B = localOf(namedVar(C)))
    if (!isa<ParmVarDecl>(B) && B->getType()->isBooleanType() && B->getInit() &&
        !Written.count(B))
      return implies(B->getInit(), Value, Atom, Depth + 1);
  return Atom(C, Value);
}

} // namespace clang::interop
