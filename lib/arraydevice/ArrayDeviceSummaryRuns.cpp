//===--- ArrayDeviceSummaryRuns.cpp - the model run on a helper -----------===//
//
// The half of HelperSummaries that runs the array/device model itself: on a
// helper's body, read at its normal exits (summarizeExits), and on a
// lambda's enclosing function, read where the lambda is made
// (captureFactsAt). It sits above the model so that the summaries the model
// reads (ArrayDeviceSummaries.h) do not depend on it.
//
//===----------------------------------------------------------------------===//

#include "lib/arraydevice/ArrayDeviceModel.h"
#include "lib/arraydevice/ArrayDeviceSummaries.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

#include <algorithm>
#include <optional>

namespace clang::interop::arraydevice {

using namespace dataflow;

std::unique_ptr<HelperSummary>
HelperSummaries::compute(const FunctionDecl &FD, const ApiModel &M,
                         ASTContext &Ctx, unsigned Depth, bool Throws,
                         const CaptureFacts *Seeds) {
  ++Runs;
  FlowBounds B = Bounds;
  B.MaxCFGBlocks = std::min(B.MaxCFGBlocks, B.MaxSummaryBlocks);
  auto Out = std::make_unique<HelperSummary>();
  bool Void = FD.getReturnType()->isVoidType();
  std::optional<ExitState> FunctionExit;
  bool Done = false;
  FlowResult<SinkFact> R = runFlowAnalysisWith<ArrayDeviceModel, SinkFact>(
      FD, Ctx,
      [&](ASTContext &C, Environment &Env, const AdornedCFG &CFG) {
        ArrayDeviceModel A(C, Env, M, FactBits, /*Collect=*/false, &CFG, this,
                           Depth + 1, /*RecordReturns=*/true);
        A.seedCaptures(Seeds);
        return A;
      },
      DiagnosisCallbacks<ArrayDeviceModel, SinkFact>{nullptr, nullptr}, B,
      nullptr,
      [&](ArrayDeviceModel &A) {
        std::vector<ExitState> Exits;
        if (Void) {
          // A void helper's exits are its end and its `return;`s, joined
          // at the exit block, throws included: only without throws is
          // that join what a normal return guarantees.
          if (Throws || !FunctionExit)
            return;
          Exits.push_back(std::move(*FunctionExit));
        } else {
          Exits = A.takeReturns();
        }
        summarizeExits(FD, M, Ctx, Exits, *Out);
        Done = true;
      },
      [&](const TypeErasedDataflowAnalysisState &St) {
        if (Void && !Throws)
          FunctionExit.emplace(ExitState{
              nullptr, St.Env.fork(),
              llvm::any_cast<const ArrayDeviceLattice &>(St.Lattice.Value)});
      });
  if (!Done || R.Skipped != SkipReason::None || Out->empty())
    return nullptr;
  return Out;
}

const CaptureFacts *HelperSummaries::capturesOf(const FunctionDecl &CallOp,
                                                const ApiModel &M,
                                                ASTContext &Ctx) {
  const auto *MD = dyn_cast<CXXMethodDecl>(&CallOp);
  if (!MD || !MD->getParent()->isLambda())
    return nullptr;
  const CXXRecordDecl *Closure = MD->getParent();
  const auto *Parent = dyn_cast<FunctionDecl>(Closure->getDeclContext());
  if (!Parent || !Parent->doesThisDeclarationHaveABody())
    return nullptr;
  if (Enclosing.try_emplace(Parent).second) {
    // One run of the enclosing function (null while it runs: a lambda in a
    // lambda of the same function gets nothing).
    auto Found =
        std::make_unique<llvm::DenseMap<const CXXRecordDecl *, CaptureFacts>>();
    ++Runs;
    runFlowAnalysisWith<ArrayDeviceModel, SinkFact>(
        *Parent, Ctx,
        [&](ASTContext &C, Environment &Env, const AdornedCFG &CFG) {
          ArrayDeviceModel A(C, Env, M, FactBits, /*Collect=*/false, &CFG, this,
                             /*Depth=*/0);
          A.recordLambdas();
          return A;
        },
        DiagnosisCallbacks<ArrayDeviceModel, SinkFact>{nullptr, nullptr},
        Bounds, nullptr,
        [&](ArrayDeviceModel &A) {
          for (LambdaState &S : A.takeLambdas())
            (*Found)[S.Lambda->getLambdaClass()] =
                captureFactsAt(*S.Lambda, M, S.Env, S.Lattice);
        });
    Enclosing[Parent] = std::move(Found);
  }
  auto &Map = Enclosing[Parent];
  if (!Map)
    return nullptr;
  auto F = Map->find(Closure);
  return F == Map->end() ? nullptr : &F->second;
}

} // namespace clang::interop::arraydevice
