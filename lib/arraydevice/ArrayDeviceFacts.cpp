//===--- ArrayDeviceFacts.cpp - array/device facts per function -----------===//

#include "lib/arraydevice/ArrayDeviceFacts.h"

#include "lib/arraydevice/ArrayDeviceSyntaxProofs.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchersMacros.h"

#include <map>
#include <mutex>

namespace clang::interop {

using namespace ast_matchers;

const SinkFact *FunctionFacts::find(const CallExpr *Call) const {
  for (const SinkFact &F : Sinks)
    if (F.Call == Call)
      return &F;
  return nullptr;
}

ArrayDeviceFacts::ArrayDeviceFacts(const ApiModelOptions &Options,
                                   const FlowBounds &Bounds, unsigned Facts,
                                   bool GuardFastPath)
    : Model(Options), Bounds(Bounds), Facts(Facts),
      GuardFastPath(GuardFastPath),
      Transfer(ArrayDeviceAnalysis::buildTransferSwitch(Model)) {}

const FunctionFacts &ArrayDeviceFacts::analyze(const FunctionDecl &FD,
                                               ASTContext &Ctx) {
  std::unique_ptr<FunctionFacts> &Slot = Cache[&FD];
  if (Slot)
    return *Slot;
  Slot = std::make_unique<FunctionFacts>();
  unsigned Tracked = Facts & factsUsedBy(Model, FD);
  if (!Tracked)
    return *Slot;
  // Most correct code guards its sinks in a few syntactic shapes; proving
  // them from the syntax costs a fraction of the flow analysis, which only
  // runs when something is left to prove (see ArrayDeviceSyntaxProofs.h).
  if (GuardFastPath && whyNotAnalysable(FD) == SkipReason::None)
    if (std::optional<llvm::SmallVector<SinkFact>> Proved =
            proveGuardedSinks(Model, FD, Tracked)) {
      Slot->Sinks = std::move(*Proved);
      Slot->BySyntax = true;
      return *Slot;
    }
  // Subjects are collected during the fixpoint and proved once at its end
  // (see ArrayDeviceAnalysis): diagnosis callbacks would cost a second pass
  // over every block.
  llvm::SmallVector<SinkFact> Proved;
  FlowResult<SinkFact> R = runFlowAnalysisWith<ArrayDeviceAnalysis, SinkFact>(
      FD, Ctx,
      [&](ASTContext &C, dataflow::Environment &Env) {
        return ArrayDeviceAnalysis(C, Env, Model, Tracked, Transfer,
                                   /*Collect=*/true);
      },
      dataflow::DiagnosisCallbacks<ArrayDeviceAnalysis, SinkFact>{nullptr,
                                                                  nullptr},
      Bounds, nullptr,
      [&](ArrayDeviceAnalysis &A) { Proved = A.provePending(); });
  if (R.Skipped == SkipReason::None)
    R.Diagnostics = std::move(Proved);
  if (R.Skipped == SkipReason::None || R.Skipped == SkipReason::BoundExceeded ||
      R.Skipped == SkipReason::BuildFailed)
    ++Analysed;
  Slot->Skipped = R.Skipped;
  Slot->Detail = std::move(R.Detail);
  Slot->Sinks = std::move(R.Diagnostics);
  return *Slot;
}

namespace {
struct SharedRegistry {
  std::mutex Lock;
  const ASTContext *Owner = nullptr;
  std::map<std::string, std::unique_ptr<ArrayDeviceFacts>> Instances;
  unsigned Needed = 0;
};
SharedRegistry &registry() {
  static SharedRegistry R;
  return R;
}
} // namespace

void declareNeededFacts(unsigned Facts) {
  SharedRegistry &R = registry();
  std::lock_guard<std::mutex> Guard(R.Lock);
  R.Needed |= Facts;
}

ArrayDeviceFacts &sharedArrayDeviceFacts(ASTContext &Ctx,
                                         const ApiModelOptions &Options,
                                         const FlowBounds &Bounds) {
  SharedRegistry &R = registry();
  std::lock_guard<std::mutex> Guard(R.Lock);
  // Results point into one AST: a new translation unit starts afresh even
  // if a check forgot to release.
  if (R.Owner != &Ctx) {
    R.Instances.clear();
    R.Owner = &Ctx;
  }
  std::string Key = Options.key() + std::to_string(Bounds.MaxSATIterations) +
                    "/" + std::to_string(Bounds.MaxBlockVisits) + "/" +
                    std::to_string(Bounds.MaxCFGBlocks);
  std::unique_ptr<ArrayDeviceFacts> &Slot = R.Instances[Key];
  if (!Slot)
    Slot = std::make_unique<ArrayDeviceFacts>(
        Options, Bounds, R.Needed ? R.Needed : unsigned(AllFacts));
  return *Slot;
}

void releaseSharedArrayDeviceFacts() {
  SharedRegistry &R = registry();
  std::lock_guard<std::mutex> Guard(R.Lock);
  R.Instances.clear();
  R.Owner = nullptr;
}

namespace {
/// factsUsedBy()'s walk. Fewer families, fewer booleans for the solver.
class FactScanner : public RecursiveASTVisitor<FactScanner> {
public:
  explicit FactScanner(const ApiModel &M) : Model(M) {}
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool VisitCallExpr(CallExpr *CE) {
    if (std::optional<SinkKind> K = sinkKindOf(Model, CE->getDirectCallee())) {
      if (*K == SinkKind::Import)
        Used |= AddressableFacts;
      else
        Used |= SingleDeviceFacts;
      if (*K == SinkKind::Export)
        Exports = true;
    }
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (const auto *E = dyn_cast<EnumConstantDecl>(DRE->getDecl()))
      NamesTpu |= Model.isTpuPlatform(E);
    return true;
  }
  unsigned used() const {
    return Used | (Exports && NamesTpu ? unsigned(TpuMemoryFacts) : 0u);
  }

private:
  const ApiModel &Model;
  unsigned Used = 0;
  bool Exports = false, NamesTpu = false;
};

} // namespace

unsigned factsUsedBy(const ApiModel &Model, const FunctionDecl &FD) {
  if (!FD.getBody())
    return 0;
  FactScanner Scan(Model);
  Scan.TraverseStmt(FD.getBody());
  return Scan.used();
}

} // namespace clang::interop
