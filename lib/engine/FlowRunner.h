//===--- FlowRunner.h - the bounded flow analysis ---------------*- C++ -*-===//
//
// Every flow-sensitive interop check runs its model through this header, so
// that all of them share one engine (clang's dataflow framework), one set of
// bounds, one cheap "should this function be analysed at all" step, and one
// way of reporting a give-up. Models live beside it in lib/ (one per family of
// facts); checks only call runFlowAnalysis() and turn results into
// diagnostics.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_ENGINE_FLOWRUNNER_H
#define INTEROP_LIB_ENGINE_FLOWRUNNER_H

#include "lib/engine/AnalysisBridge.h"
#include "lib/engine/CDCLSolver.h"
#include "lib/engine/CallResults.h"
#include "lib/engine/JudgedFunctions.h"
#include "lib/engine/LanguageBridge.h"
#include "lib/engine/SkipReason.h"
#include "lib/engine/SwitchArms.h"
#include "lib/support/AstHelpers.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Analysis/FlowSensitive/AdornedCFG.h"
#include "clang/Analysis/FlowSensitive/DataflowAnalysis.h"
#include "clang/Analysis/FlowSensitive/TypeErasedDataflowAnalysis.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Errc.h"
#include "llvm/Support/Error.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>

namespace clang::interop {

/// Bounds that keep one function's analysis from hanging clang-tidy or
/// blowing up its memory. A function over a bound is skipped, never analysed
/// partially.
struct FlowBounds {
  /// SAT solver iterations for the whole function (the framework's default is
  /// 10^9, which can take minutes on pathological code). An iteration costs
  /// tens of nanoseconds, so this bounds the solver to well under a second;
  /// nested loops that copy modelled values need a few hundred thousand.
  std::int64_t MaxSATIterations = 1'000'000;
  /// Wall-clock backstop for one function, in milliseconds: formulas can
  /// grow so large that building them, not solving them, takes the time.
  /// Only pathological functions reach it (results are otherwise
  /// deterministic); 0 disables it.
  std::int64_t MaxMilliseconds = 10'000;
  /// Basic-block visits before the fixpoint is abandoned.
  std::int32_t MaxBlockVisits = 20'000;
  /// Functions whose CFG has more blocks than this are not analysed at all.
  unsigned MaxCFGBlocks = 2'000;
  /// Statements of a same-file helper's body that a summary of it may read
  /// (every family): a longer helper is judged by its name and signature
  /// only. Helpers are read once per translation unit, so this bounds the
  /// extra work a call to a helper costs, not the judged function's.
  unsigned MaxSummaryStatements = 400;
  /// Levels of calls below the judged function at which helpers are still
  /// summarised: a helper's summary reads the summaries of the helpers it
  /// calls while fewer levels than this separate it from the judged
  /// function; deeper calls are judged as calls of unknown functions.
  unsigned MaxSummaryDepth = 2;
  /// Control-flow blocks of a helper that a summary runs the family's flow
  /// model on (the MaxCFGBlocks of a summary run).
  unsigned MaxSummaryBlocks = 64;
  /// Values of a tested field that a helper's body is evaluated with, for
  /// families whose summaries evaluate the body once per value (the DLPack
  /// fields: every device type the body compares with, and one other).
  unsigned MaxSummaryValues = 64;
  /// Statements evaluated per value by such a summary (both branches of a
  /// condition it cannot decide are evaluated, so nested conditions
  /// multiply): a body that needs more gives no summary.
  unsigned MaxSummarySteps = 4'096;

  /// Every bound, for a configuration's cache key: results depend on each.
  std::string key() const;

  /// F(option name, bound) for each bound, in the order --dump-config shows
  /// them: the one list the checks' options are read from and stored to
  /// (InteropCheckBase).
  template <typename Fn> void forEachOption(Fn F) { forEach(*this, F); }
  template <typename Fn> void forEachOption(Fn F) const { forEach(*this, F); }

private:
  template <typename Self, typename Fn> static void forEach(Self &B, Fn &F) {
    F("MaxSATIterations", B.MaxSATIterations);
    F("MaxMilliseconds", B.MaxMilliseconds);
    F("MaxBlockVisits", B.MaxBlockVisits);
    F("MaxCFGBlocks", B.MaxCFGBlocks);
    F("MaxSummaryStatements", B.MaxSummaryStatements);
    F("MaxSummaryDepth", B.MaxSummaryDepth);
    F("MaxSummaryBlocks", B.MaxSummaryBlocks);
    F("MaxSummaryValues", B.MaxSummaryValues);
    F("MaxSummarySteps", B.MaxSummarySteps);
  }
};

/// What one run of the flow analysis over a function produced: the
/// diagnoser's results, or why the function was skipped.
template <typename Diag> struct FlowResult {
  SkipReason Skipped = SkipReason::None;
  /// The framework's own message when Skipped is BuildFailed/BoundExceeded.
  std::string Detail;
  llvm::SmallVector<Diag> Diagnostics;
};

/// The state of each judged statement as of its last visit during the
/// fixpoint. Once the fixpoint is reached that is the final state at the
/// statement, so a model judges these instead of running a diagnosis pass,
/// which re-transfers every block after the fixpoint.
class LastVisitStates {
public:
  /// Keeps a fork of Env for St when `Judge` (something may be judged there
  /// in this state); otherwise forgets what an earlier visit kept.
  void record(const Stmt *St, const dataflow::Environment &Env, bool Judge) {
    if (Judge)
      States[St] = std::make_shared<dataflow::Environment>(Env.fork());
    else if (auto It = States.find(St); It != States.end())
      It->second = nullptr;
  }
  /// F(St, Env) for each state kept, in the order statements were first
  /// recorded.
  template <typename Fn> void forEach(Fn F) const {
    for (const auto &[St, Env] : States)
      if (Env)
        F(St, *Env);
  }
  void clear() { States.clear(); }

private:
  llvm::MapVector<const Stmt *, std::shared_ptr<dataflow::Environment>> States;
};

/// Receives the final state of a block that leads to the function's exit.
using ExitStateCallback = std::function<void(
    const CFGBlock &, const dataflow::TypeErasedDataflowAnalysisState &)>;

namespace detail {
/// The engine's solver (CDCLSolver.h, after quickSolve) with the FlowBounds
/// budget: its work limit (MaxSATIterations), plus a deadline after which
/// every query answers "timed out" (and the run is reported as over its
/// bound).
class BoundedSolver : public dataflow::Solver {
public:
  BoundedSolver(std::int64_t MaxIterations, std::int64_t MaxMilliseconds);
  Result solve(llvm::ArrayRef<const dataflow::Formula *> Vals) override;
  bool reachedLimit() const override {
    return OutOfTime || Inner.reachedLimit();
  }
  bool outOfTime() const { return OutOfTime; }

private:
  CDCLSolver Inner;
  std::chrono::steady_clock::time_point Deadline;
  bool HasDeadline;
  bool OutOfTime = false;
};

/// Make(Ctx, Env, CFG) when the factory takes the CFG the framework will run
/// on, Make(Ctx, Env) otherwise.
template <typename MakeFn>
auto makeAnalysis(MakeFn &Make, ASTContext &Ctx, dataflow::Environment &Env,
                  const dataflow::AdornedCFG &CFG) {
  if constexpr (std::is_invocable_v<MakeFn &, ASTContext &,
                                    dataflow::Environment &,
                                    const dataflow::AdornedCFG &>)
    return Make(Ctx, Env, CFG);
  else
    return Make(Ctx, Env);
}

/// Maps an error from the framework to a skip reason and its message,
/// consuming it.
SkipReason classifyFrameworkError(llvm::Error E, std::string &Detail);
} // namespace detail

/// Runs the analysis that `Make` builds (a dataflow::DataflowAnalysis
/// subclass; `Make` receives the ASTContext and the initial Environment, so a
/// model can carry configuration such as an API description; a factory that
/// also takes a `const dataflow::AdornedCFG &` receives the CFG) over FD within
/// `Bounds`, and collects what `Diagnoser` reports. The CFG is built once and
/// its size checked before the fixpoint. Never crashes on a give-up: the
/// result says why it skipped instead.
///
/// `OnExit`, when given, is called after the fixpoint with the final state of
/// each block that leaves the function (a return, a throw, falling off the
/// end; blocks ending in a noreturn call are not exits), for models that judge
/// what a function leaves behind, such as an owned resource never released.
///
/// `AfterRun`, when given, is called with the analysis after a successful
/// fixpoint, while its environments are still alive and within the same SAT
/// budget: models that record states during the fixpoint (instead of paying
/// for diagnosis callbacks' extra pass over every block) query them there.
///
/// `OnFunctionExit`, when given, is called (before AfterRun) with the state
/// of the CFG's exit block itself: the join of every exit with its edge
/// condition (what a void helper guarantees when it falls off its end).
template <typename AnalysisT, typename Diag, typename MakeFn>
FlowResult<Diag> runFlowAnalysisWith(
    const FunctionDecl &FD, ASTContext &Ctx, MakeFn &&Make,
    dataflow::DiagnosisCallbacks<AnalysisT, Diag> Diagnoser,
    const FlowBounds &Bounds = {}, const ExitStateCallback &OnExit = nullptr,
    const std::function<void(AnalysisT &)> &AfterRun = nullptr,
    const std::function<void(const dataflow::TypeErasedDataflowAnalysisState &)>
        &OnFunctionExit = nullptr) {
  FlowResult<Diag> Result;
  Result.Skipped = whyNotAnalysable(FD);
  if (Result.Skipped != SkipReason::None)
    return Result;
  // C's brace initializers of structs crash the framework
  // (lib/engine/LanguageBridge.h): those of constants are set aside for the
  // whole run, any other is found before a CFG is built for it.
  ConstantInitializersAside Aside(FD, Ctx);
  if (!Ctx.getLangOpts().CPlusPlus)
    if (const InitListExpr *Init = unmodelledInitializer(FD)) {
      Result.Skipped = SkipReason::Unsupported;
      Result.Detail =
          "a brace initializer of the C struct '" +
          Init->getType().getUnqualifiedType().getAsString(
              Ctx.getPrintingPolicy()) +
          "' at line " +
          std::to_string(Ctx.getSourceManager().getPresumedLineNumber(
              Init->getBeginLoc()));
      return Result;
    }
  // C and Objective-C++ are built as C++ (lib/engine/LanguageBridge.h).
  bool Bridged = false;
  llvm::Expected<dataflow::AdornedCFG> ACFG = [&] {
    LanguageWindow Window(Ctx);
    Bridged = Window.open();
    return dataflow::AdornedCFG::build(FD);
  }();
  if (!ACFG) {
    Result.Skipped = SkipReason::BuildFailed;
    Result.Detail = llvm::toString(ACFG.takeError());
    return Result;
  }
  unsigned Blocks = ACFG->getCFG().getNumBlockIDs();
  if (Blocks > Bounds.MaxCFGBlocks) {
    Result.Skipped = SkipReason::TooLarge;
    Result.Detail = std::to_string(Blocks) + " CFG blocks";
    return Result;
  }
  detail::BoundedSolver Solver(Bounds.MaxSATIterations, Bounds.MaxMilliseconds);
  dataflow::DataflowAnalysisContext AnalysisContext(Solver);
  // What accessors returned in this analysis (CallResults.h).
  CallResultScope CallResults;
  dataflow::Environment Env(AnalysisContext, FD);
  AnalysisT Analysis = detail::makeAnalysis(Make, Ctx, Env, *ACFG);
  using LatticeT = typename AnalysisT::Lattice;
  auto Wrap = [&](dataflow::DiagnosisCallback<AnalysisT, Diag> CB)
      -> std::function<void(
          const CFGElement &,
          const dataflow::TypeErasedDataflowAnalysisState &)> {
    if (!CB)
      return nullptr;
    return [&Ctx, CB,
            &Result](const CFGElement &Elt,
                     const dataflow::TypeErasedDataflowAnalysisState &State) {
      auto Found = CB(Elt, Ctx,
                      dataflow::TransferStateForDiagnostics<LatticeT>(
                          llvm::any_cast<const LatticeT &>(State.Lattice.Value),
                          State.Env));
      for (Diag &D : Found)
        Result.Diagnostics.push_back(std::move(D));
    };
  };
  dataflow::CFGEltCallbacksTypeErased Callbacks;
  Callbacks.Before = Wrap(Diagnoser.Before);
  Callbacks.After = Wrap(Diagnoser.After);
  // The engine's steps around each transfer (lib/engine/AnalysisBridge.h).
  AnalysisBridge Bridge(Analysis);
  // C's truth tests get booleans to branch on.
  if (Bridged)
    if (TruthOperands Ops = truthOperands(ACFG->getCFG()); !Ops.empty())
      Bridge.after([&Analysis, Ops = std::move(Ops)](
                       const CFGElement &Elt, dataflow::Environment &Env) {
        std::optional<CFGStmt> CS = Elt.getAs<CFGStmt>();
        if (!CS)
          return;
        auto Truth =
            [&Analysis](const Expr &E,
                        dataflow::Environment &Env) -> dataflow::BoolValue * {
          if constexpr (HasTruthOfOperand<AnalysisT>::value)
            return Analysis.truthOfOperand(E, Env);
          (void)Analysis;
          return nullptr;
        };
        const Stmt *S = CS->getStmt();
        if (const auto *E = llvm::dyn_cast<Expr>(S);
            E && Ops.Operands.contains(E))
          settleTruthOperand(*E, Env, Truth);
        if (const Expr *Cond = Ops.AfterLastElement.lookup(S))
          settleTruthOperand(*Cond, Env, Truth);
      });
  // Case arms know what their labels prove.
  SwitchArms Switches;
  Switches.collect(ACFG->getCFG(), FD, Ctx);
  if (!Switches.empty()) {
    Bridge.before([&Analysis, &Switches](const CFGElement &Elt,
                                         dataflow::Environment &Env) {
      Switches.enter(
          Elt, Env,
          [&Analysis](const SwitchStmt &Sw, const SwitchCase *L,
                      dataflow::Value &V,
                      dataflow::Environment &Env) -> const dataflow::Formula * {
            if constexpr (HasCaseFormula<AnalysisT>::value)
              return Analysis.caseFormula(Sw, L, V, Env);
            (void)Analysis;
            return nullptr;
          });
    });
    Bridge.after(
        [&Switches](const CFGElement &Elt, dataflow::Environment &Env) {
          Switches.note(Elt, Env);
        });
  }
  dataflow::TypeErasedDataflowAnalysis &Runs =
      Bridge.empty()
          ? static_cast<dataflow::TypeErasedDataflowAnalysis &>(Analysis)
          : Bridge;
  auto States = dataflow::runTypeErasedDataflowAnalysis(
      *ACFG, Runs, Env, Callbacks, Bounds.MaxBlockVisits);
  llvm::Error Err = States ? llvm::Error::success() : States.takeError();
  if (!Err && OnExit)
    for (const CFGBlock *Pred : ACFG->getCFG().getExit().preds())
      if (Pred && !Pred->hasNoReturnElement())
        if (const auto &State = (*States)[Pred->getBlockID()])
          OnExit(*Pred, *State);
  if (!Err && OnFunctionExit)
    if (const auto &State = (*States)[ACFG->getCFG().getExit().getBlockID()])
      OnFunctionExit(*State);
  if (!Err && AfterRun)
    AfterRun(Analysis);
  if (!Err && Solver.outOfTime())
    Err = llvm::createStringError(llvm::errc::interrupted,
                                  "analysis took more than " +
                                      std::to_string(Bounds.MaxMilliseconds) +
                                      " ms (timed out)");
  else if (!Err && Solver.reachedLimit())
    Err = llvm::createStringError(llvm::errc::interrupted,
                                  "SAT solver timed out");
  if (Err) {
    Result.Diagnostics.clear();
    Result.Skipped =
        detail::classifyFrameworkError(std::move(Err), Result.Detail);
  }
  return Result;
}

/// Runs `AnalysisT` (a dataflow::DataflowAnalysis subclass constructible from
/// (ASTContext&, Environment&) or (ASTContext&)) over FD within `Bounds`, and
/// collects what `Diagnoser` reports. Never crashes on a give-up: the result
/// says why it skipped instead.
template <typename AnalysisT, typename Diag>
FlowResult<Diag>
runFlowAnalysis(const FunctionDecl &FD, ASTContext &Ctx,
                dataflow::DiagnosisCallbacks<AnalysisT, Diag> Diagnoser,
                const FlowBounds &Bounds = {}) {
  return runFlowAnalysisWith<AnalysisT, Diag>(
      FD, Ctx,
      [](ASTContext &C, dataflow::Environment &Env) {
        return dataflow::createAnalysis<AnalysisT>(C, Env);
      },
      std::move(Diagnoser), Bounds);
}

/// Convenience overload for a diagnoser that only runs after each element.
template <typename AnalysisT, typename Diag>
FlowResult<Diag>
runFlowAnalysis(const FunctionDecl &FD, ASTContext &Ctx,
                dataflow::DiagnosisCallback<AnalysisT, Diag> After,
                const FlowBounds &Bounds = {}) {
  return runFlowAnalysis<AnalysisT, Diag>(
      FD, Ctx, dataflow::DiagnosisCallbacks<AnalysisT, Diag>{nullptr, After},
      Bounds);
}

} // namespace clang::interop

#endif // INTEROP_LIB_ENGINE_FLOWRUNNER_H
