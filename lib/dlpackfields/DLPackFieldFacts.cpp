//===--- DLPackFieldFacts.cpp - DLPack field facts per function -----------===//

#include "lib/dlpackfields/DLPackFieldFacts.h"

#include "lib/abi/TranslationUnitNames.h"
#include "lib/dlpackfields/DLPackFieldModel.h"
#include "lib/dlpackfields/DLPackFieldSyntaxProofs.h"
#include "lib/dlpackfields/DLPackHelperSummaries.h"
#include "lib/engine/FactPipeline.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

#include <memory>

namespace clang::interop {

DLPackFieldCompiled
DLPackFieldCompiled::compile(const DLPackFieldConfig &Config) {
  DLPackFieldCompiled Out;
  Out.HostGuards = NameList(Config.HostDeviceGuards);
  Out.DebugOnlyAssertMacros = Config.DebugOnlyAssertMacros;
  Out.Importers = NameList(Config.ImportFunctions);
  Out.Exits = ExitConditions(Config.Exits);
  Out.Summaries = std::make_shared<DLPackHelperSummaries>(Config.Bounds);
  Out.Captures = std::make_shared<CapturedStridesProofs>();
  return Out;
}

struct DLPackFieldFamily::Run {
  const FunctionDecl &FD;
  ASTContext &Ctx;
  const DLPackFieldConfig &Config;
  const DLPackFieldCompiled &Compiled;
  /// The model's side tables, made for the flow analysis only.
  std::unique_ptr<DLPackFieldRun> Model;
};

bool DLPackFieldFamily::translationUnitMayMatter(const ASTContext &Ctx) {
  return translationUnitMayUseDLPack(Ctx);
}

DLPackUse DLPackFieldFamily::preFilter(const FunctionDecl &FD,
                                       const Compiled &C) {
  return scanDLPackUse(FD, C.Summaries.get());
}

DLPackFieldFamily::Run
DLPackFieldFamily::prepare(const PipelineInput<DLPackFieldFamily> &In) {
  return Run{In.FD, In.Ctx, In.Config, In.Compiled, nullptr};
}

std::optional<std::vector<DLPackEvent>>
DLPackFieldFamily::proveBySyntax(Run &R) {
  if (proveDLPackFieldsBySyntax(R.FD, R.Ctx, R.Config, R.Compiled))
    return std::vector<DLPackEvent>();
  return std::nullopt;
}

DLPackFieldModel DLPackFieldFamily::makeAnalysis(ASTContext &Ctx,
                                                 dataflow::Environment &Env,
                                                 Run &R) {
  R.Model = std::make_unique<DLPackFieldRun>(R.FD, R.Config, R.Compiled);
  return DLPackFieldModel(Ctx, Env, *R.Model);
}

void DLPackFieldFamily::collect(Run &, Analysis &A,
                                std::vector<DLPackEvent> &Out) {
  Out = A.judgeRecorded();
}

void DLPackFieldFamily::postProcess(Run &R, std::vector<DLPackEvent> &Events) {
  ASTContext &Ctx = R.Ctx;
  // The diagnoser runs once per CFG element after the fixpoint, but an
  // element can be reported from both a Before and an After state in other
  // configurations; keep one event per (kind, use).
  llvm::DenseSet<std::pair<unsigned, const Expr *>> Seen;
  llvm::erase_if(Events, [&](const DLPackEvent &E) {
    return !Seen.insert({unsigned(E.K), E.Use}).second;
  });
  // Source order, so that "the first use" means what a reader expects.
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::sort(Events, [&](const DLPackEvent &A, const DLPackEvent &B) {
    if (A.Use->getBeginLoc() != B.Use->getBeginLoc())
      return SM.isBeforeInTranslationUnit(A.Use->getBeginLoc(),
                                          B.Use->getBeginLoc());
    return A.K < B.K;
  });
}

template class FactQuery<DLPackFieldFamily>;

const DLPackFieldFacts &getDLPackFieldFacts(const FunctionDecl &FD,
                                            ASTContext &Ctx,
                                            const DLPackFieldConfig &Config) {
  return DLPackFieldQuery(Config).facts(FD, Ctx);
}

const DLPackUse &dlpackUseOf(const FunctionDecl &FD) {
  static DLPackFieldQuery Default{DLPackFieldConfig()};
  return Default.use(FD, FD.getASTContext());
}

} // namespace clang::interop
