//===--- ArrayDeviceUnseenGuards.cpp - guards the analysis cannot see -----===//

#include "lib/arraydevice/ArrayDeviceUnseenGuards.h"

#include "lib/engine/GuardEngine.h"
#include "lib/support/AstHelpers.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseMap.h"

namespace clang::interop {
namespace {

/// The subject still unproven at a sink, if any.
bool needsGuard(const SinkFact &F) {
  if (!F.Modelled || !F.Subject)
    return false;
  if (F.Kind == SinkKind::Import)
    return F.Addressable == Proof::Unknown;
  return F.SingleDevice == Proof::Unknown;
}

/// One walk keeping the statements around each sink call wanted.
class SinkChains : public GuardScan {
public:
  llvm::DenseMap<const Stmt *, StmtChain> Chains;

private:
  void inspect(const Stmt *S) override {
    auto It = Chains.find(S);
    if (It != Chains.end())
      It->second = Stack;
  }
  bool capturedByRef(const VarDecl &) override { return true; }
};

/// A call whose body the analysis cannot see and whose meaning the API model
/// does not give: a candidate for the option.
bool isUnseenPredicate(const ApiModel &M, const CallExpr &CE,
                       const VarDecl &Subject) {
  const FunctionDecl *Callee = CE.getDirectCallee();
  if (!Callee || Callee->hasBody() || !M.classify(Callee).empty() ||
      !Callee->getReturnType()->isBooleanType())
    return false;
  // The modelled types' own members are the API the model describes.
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Callee))
    if (!MD->isStatic() &&
        M.classify(MD->getFunctionObjectParameterType()) != TypeRole::None)
      return false;
  for (const Expr *Arg : CE.arguments())
    if (namedVar(Arg) == &Subject)
      return true;
  return false;
}

} // namespace

void findUnseenGuards(const ApiModel &M, const FunctionDecl &FD,
                      std::vector<SinkFact> &Events) {
  if (!FD.getBody())
    return;
  SinkChains Scan;
  for (const SinkFact &F : Events)
    if (needsGuard(F) && namedVar(F.Subject))
      Scan.Chains[F.Call];
  if (Scan.Chains.empty())
    return;
  forEachInitializerExpr(FD, [&](const Expr &Init) { Scan.walk(&Init); });
  Scan.walk(FD.getBody());
  if (Scan.Refused)
    return;
  GuardProof Guards(FD, Scan.Written);
  for (SinkFact &F : Events) {
    auto It = Scan.Chains.find(F.Call);
    const VarDecl *V = namedVar(F.Subject);
    if (It == Scan.Chains.end() || It->second.empty() || !V ||
        Scan.Written.count(V) || !needsGuard(F))
      continue;
    const CallExpr *Found = nullptr;
    // Taking the call as the predicate: does its being true guard the sink?
    Guards.guarded(It->second, F.Call, [&](const Expr *C, bool Value) {
      const auto *CE = dyn_cast<CallExpr>(C);
      if (!Value || !CE || !isUnseenPredicate(M, *CE, *V))
        return false;
      Found = CE;
      return true;
    });
    F.UnseenGuard = Found;
  }
}

} // namespace clang::interop
