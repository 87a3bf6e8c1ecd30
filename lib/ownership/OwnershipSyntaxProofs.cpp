//===--- OwnershipSyntaxProofs.cpp - events by syntax ---------------------===//

#include "lib/ownership/OwnershipSyntaxProofs.h"

#include "lib/abi/CapsuleAPI.h"
#include "lib/abi/DLPackFields.h"
#include "lib/abi/DeleterCalls.h"
#include "lib/engine/GuardEngine.h"
#include "lib/support/AstHelpers.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/STLExtras.h"

namespace clang::interop::ownership {

namespace {

/// Whether every release in a body (a deleter call, free(), delete) is an
/// expression statement after which the function ends: the next statement
/// returns (or throws, or calls a noreturn function, in a function with no
/// try block to catch it), or the release is the last thing the body does,
/// through the arms of ifs. Then no path releases anything after a release,
/// so no path can delete twice or delete after a hand-off that follows a
/// delete.
class ReleaseScan : public GuardScan {
public:
  /// False once a release may be followed by more of the function.
  bool OnlyAtExit = true;
  /// Some release relies on a throw or noreturn call to end the function.
  bool EndsByThrow = false;
  bool HasTry = false;
  const Stmt *Body = nullptr;
  ReleaseFunctions *Releases = nullptr;

private:
  void inspect(const Stmt *S) override {
    if (isa<CXXTryStmt>(S))
      HasTry = true;
    const auto *Call = dyn_cast<CallExpr>(S);
    bool Release =
        isa<CXXDeleteExpr>(S) ||
        (Call && (Releases->isReleaseCall(Call) || isRawDeallocation(Call)));
    if (Release && OnlyAtExit && !endsFunction(S))
      OnlyAtExit = false;
  }
  bool capturedByRef(const VarDecl &) override { return true; }

  /// Whether the function ends right after the release S (Stack: what
  /// encloses it).
  bool endsFunction(const Stmt *S) {
    size_t I = Stack.size();
    // The release is the whole statement: only parentheses, cleanups,
    // implicit casts and a cast to void around it.
    while (I > 0 &&
           isa<ParenExpr, ExprWithCleanups, ImplicitCastExpr>(Stack[I - 1]))
      S = Stack[--I];
    if (I > 0)
      if (const auto *Cast = dyn_cast<CStyleCastExpr>(Stack[I - 1]);
          Cast && Cast->getType()->isVoidType())
        S = Stack[--I];
    for (; I > 0; S = Stack[--I]) {
      const Stmt *Parent = Stack[I - 1];
      if (const auto *If = dyn_cast<IfStmt>(Parent)) {
        if (S != If->getThen() && S != If->getElse())
          return false;
        continue;
      }
      const auto *CS = dyn_cast<CompoundStmt>(Parent);
      if (!CS)
        return false;
      const Stmt *const *It = llvm::find(CS->body(), S);
      if (It == CS->body_end())
        return false;
      if (++It == CS->body_end())
        continue; // the last statement of this block
      if (isa<ReturnStmt>(*It))
        return true;
      if (const auto *E = dyn_cast<Expr>(*It);
          E && isJump(ignoreTemporaries(E))) {
        EndsByThrow = true;
        return true;
      }
      return false;
    }
    // Past the outermost block: the function falls off its end.
    return S == Body;
  }
};

} // namespace

bool releasesOnlyAtExit(const FunctionDecl &FD, ReleaseFunctions &Releases) {
  ReleaseScan Scan;
  Scan.Body = FD.getBody();
  Scan.Releases = &Releases;
  Scan.walk(FD.getBody());
  return !Scan.Refused && Scan.OnlyAtExit && !(Scan.EndsByThrow && Scan.HasTry);
}

} // namespace clang::interop::ownership

namespace clang::interop::ownership {

namespace {

/// The deleter calls of a body on tensors isForeignTensor() names, and
/// whether the body reads such a deleter any other way (a test, a copy):
/// then only the flow can tell which calls it guards. Lambdas are their own
/// functions.
class ForeignDeleterScan : public RecursiveASTVisitor<ForeignDeleterScan> {
public:
  explicit ForeignDeleterScan(const RunContext &RC) : RC(RC) {}
  bool shouldVisitLambdaBody() const { return false; }

  bool VisitCallExpr(CallExpr *Call) {
    const Expr *Base = nullptr;
    if (isDeleterCall(Call, &Base) && foreign(Base)) {
      Calls.push_back(Call);
      Callees.insert(calledPointer(*Call));
    }
    return true;
  }
  bool VisitMemberExpr(MemberExpr *ME) {
    if (dlpackFieldOfMember(ME) == DLPackField::Deleter &&
        foreign(ME->getBase()))
      Reads.push_back(ME);
    return true;
  }

  bool readOtherwise() const {
    return llvm::any_of(Reads,
                        [&](const Expr *ME) { return !Callees.contains(ME); });
  }

  std::vector<const CallExpr *> Calls;

private:
  /// Only unowned sites reach this scan (ownershipEventsBySyntax), and
  /// those are found by their variable.
  bool foreign(const Expr *Base) const {
    auto It = RC.SiteOfVar.find(referencedDecl(Base));
    return It != RC.SiteOfVar.end() &&
           isForeignTensor(RC.Sites[It->second], RC);
  }

  const RunContext &RC;
  std::vector<const Expr *> Reads;
  llvm::SmallPtrSet<const Expr *, 4> Callees;
};

} // namespace

std::optional<std::vector<OwnershipEvent>>
ownershipEventsBySyntax(const RunContext &RC, const FunctionDecl &FD) {
  // Only a capsule, a producer's export, an owned tensor (one whose leak is
  // judged) or a capsule destructor's checks need the flow analysis.
  if (RC.IsDestructor || !RC.Capsules.empty() || !RC.Exports.Calls.empty() ||
      llvm::any_of(RC.Sites,
                   [](const Site &S) { return S.From != Site::Unowned; }) ||
      !releasesOnlyAtExit(FD, RC.Releases))
    return std::nullopt;
  // A foreign tensor's deleter the body never tests is called unchecked
  // wherever it is called; one it tests is left to the flow.
  std::vector<OwnershipEvent> Out;
  if (llvm::none_of(RC.Sites,
                    [&](const Site &S) { return isForeignTensor(S, RC); }))
    return Out;
  ForeignDeleterScan Scan(RC);
  Scan.TraverseStmt(FD.getBody());
  if (Scan.readOtherwise())
    return std::nullopt;
  for (const CallExpr *Call : Scan.Calls)
    Out.push_back({OwnershipEvent::DeleterUnchecked, Call, nullptr, nullptr});
  return Out;
}

} // namespace clang::interop::ownership
