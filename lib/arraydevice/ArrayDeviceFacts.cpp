//===--- ArrayDeviceFacts.cpp - array/device facts per function -----------===//

#include "lib/arraydevice/ArrayDeviceFacts.h"

#include "lib/arraydevice/ArrayDeviceSummaries.h"
#include "lib/arraydevice/ArrayDeviceSyntaxProofs.h"
#include "lib/arraydevice/ArrayDeviceUnseenGuards.h"
#include "lib/engine/FactPipeline.h"

#include "clang/AST/RecursiveASTVisitor.h"

#include <atomic>
#include <memory>

namespace clang::interop {

std::string ArrayDeviceConfig::key() const {
  std::string K;
  appendToKey(K, Api.key());
  appendToKey(K, Bounds.key());
  appendToKey(K, std::to_string(Facts));
  appendToKey(K, SyntacticProofs ? "syntax" : "flow");
  return K;
}

struct ArrayDeviceFamily::Compiled {
  /// Classifies declarations and types, with a memo per translation unit.
  ApiModel Model;
  /// Same-TU helpers' summaries (the store, hence this, lives for one
  /// translation unit).
  std::unique_ptr<arraydevice::HelperSummaries> Summaries;
};

struct ArrayDeviceFamily::Run {
  const FunctionDecl &FD;
  const Compiled &C;
  /// The families tracked in this function: the configuration's, where the
  /// function can use them.
  unsigned Tracked;
};

ArrayDeviceFamily::Compiled ArrayDeviceFamily::compile(const Config &C) {
  return Compiled{
      ApiModel(C.Api),
      std::make_unique<arraydevice::HelperSummaries>(C.Bounds, C.Facts)};
}

ArrayDeviceFamily::Use ArrayDeviceFamily::preFilter(const FunctionDecl &FD,
                                                    const Compiled &C) {
  return factsUsedBy(C.Model, FD);
}

ArrayDeviceFamily::Run
ArrayDeviceFamily::prepare(const PipelineInput<ArrayDeviceFamily> &In) {
  return Run{In.FD, In.Compiled, In.Config.Facts & In.Use};
}

std::optional<std::vector<SinkFact>> ArrayDeviceFamily::proveBySyntax(Run &R) {
  // Most correct code guards its sinks in a few syntactic shapes; proving
  // them from the syntax costs a fraction of the flow analysis (see
  // ArrayDeviceSyntaxProofs.h).
  if (std::optional<llvm::SmallVector<SinkFact>> Proved =
          proveArrayDeviceSinksBySyntax(R.C.Model, R.FD, R.Tracked))
    return std::vector<SinkFact>(Proved->begin(), Proved->end());
  return std::nullopt;
}

ArrayDeviceModel
ArrayDeviceFamily::makeAnalysis(ASTContext &Ctx, dataflow::Environment &Env,
                                Run &R, const dataflow::AdornedCFG &CFG) {
  // Subjects are collected during the fixpoint and proved once at its end
  // (see ArrayDeviceModel): diagnosis callbacks would cost a second pass
  // over every block.
  ArrayDeviceModel A(Ctx, Env, R.C.Model, R.Tracked, /*Collect=*/true, &CFG,
                     R.C.Summaries.get());
  // A lambda starts from what its enclosing function proved of its
  // captures where it was created.
  A.seedCaptures(R.C.Summaries->capturesOf(R.FD, R.C.Model, Ctx));
  return A;
}

void ArrayDeviceFamily::collect(Run &, Analysis &A,
                                std::vector<SinkFact> &Out) {
  llvm::SmallVector<SinkFact> Proved = A.provePending();
  Out.assign(Proved.begin(), Proved.end());
}

void ArrayDeviceFamily::postProcess(Run &R, std::vector<SinkFact> &Events) {
  findUnseenGuards(R.C.Model, R.FD, Events);
}

template class FactQuery<ArrayDeviceFamily>;

const SinkFact *findSink(const ArrayDeviceFacts &Facts, const CallExpr *Call) {
  for (const SinkFact &F : Facts.Events)
    if (F.Call == Call)
      return &F;
  return nullptr;
}

namespace {
std::atomic<unsigned> Needed{0};
} // namespace

void declareNeededFacts(unsigned Facts) { Needed |= Facts; }

unsigned neededFacts() {
  unsigned N = Needed;
  return N ? N : unsigned(AllFacts);
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
  // A constructor's member initialisers run before its body, and the
  // default member initialisers it does not override run with them.
  forEachInitializerExpr(FD, [&](const Expr &Init) {
    Scan.TraverseStmt(const_cast<Expr *>(&Init));
  });
  Scan.TraverseStmt(FD.getBody());
  return Scan.used();
}

} // namespace clang::interop
