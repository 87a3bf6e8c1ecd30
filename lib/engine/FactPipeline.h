//===--- FactPipeline.h - one pipeline for every family ---------*- C++ -*-===//
//
// Every family of facts (array/device, DLPack fields, ownership) is computed
// by the same steps, written once here (FactQuery<Family>::compute):
//
//   1. pre-filters: the translation unit (can it matter at all?), then the
//      function (one syntactic scan: can it have an event?); a function
//      they reject has no events, BySyntax;
//   2. the gate (JudgedFunctions.h): a function no flow analysis can judge
//      (no body, a template pattern, code that does not compile) is
//      skipped, and the facts say why;
//   3. the syntactic proof: correct code usually proves what it needs right
//      where it needs it; a function its syntax proves is not flow-analysed;
//   4. the bounded flow analysis (FlowRunner.h), whose recorded states the
//      family judges into events once the fixpoint is reached (and, for a
//      family that judges exits, the state at each exit);
//   5. post-processing: one event per place, source order;
//   6. the facts, cached per function, role and configuration
//      (FactCache.h).
//
// A family is a trait, a struct of types and static functions:
//
//   Name                           part of every cache key
//   Event, Config, Use             what is found; the options that change it
//                                  (with key(), Bounds, SyntacticProofs);
//                                  the function pre-filter's answer
//   Compiled, Run, Analysis        the compiled configuration, the state of
//                                  one function's steps 3-5, the dataflow
//                                  analysis (a dataflow::DataflowAnalysis)
//   JudgesExits                    whether judgeExit() is called
//   Compiled compile(const Config &)
//   bool translationUnitMayMatter(const ASTContext &)
//   Use preFilter(const FunctionDecl &, const Compiled &)
//   bool mayHaveEvents(const Use &, const Config &)
//   Run prepare(const PipelineInput<Family> &)
//   std::optional<std::vector<Event>> proveBySyntax(Run &)
//   Analysis makeAnalysis(ASTContext &, dataflow::Environment &, Run &
//                         [, const dataflow::AdornedCFG &])
//   void judgeExit(Run &, const CFGBlock &, exit state)
//   void collect(Run &, Analysis &, std::vector<Event> &)
//   void postProcess(Run &, std::vector<Event> &)
//
// A family's header declares the trait and `extern template class
// FactQuery<Family>`; its .cpp defines the trait, includes this file and
// instantiates FactQuery<Family>. docs/architecture.md says where a new
// family, a bound or a summary of same-TU helpers goes.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_ENGINE_FACTPIPELINE_H
#define INTEROP_LIB_ENGINE_FACTPIPELINE_H

#include "lib/engine/FactCache.h"
#include "lib/engine/FactQuery.h"
#include "lib/engine/FlowRunner.h"
#include "lib/engine/JudgedFunctions.h"

#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

namespace clang::interop {

/// What a family's prepare() receives.
template <typename Family> struct PipelineInput {
  const FunctionDecl &FD;
  ASTContext &Ctx;
  const typename Family::Config &Config;
  const typename Family::Compiled &Compiled;
  const typename Family::Use &Use;
  /// What the function is to the family (the ownership family: whether it
  /// is a capsule destructor); 0 for a family with one role.
  unsigned Role;
};

template <typename Family>
FactQuery<Family>::FactQuery(Config C)
    : Conf(std::move(C)), Key(std::string(Family::Name) + "|" + Conf.key()) {}

template <typename Family>
FamilyStore<Family> &FactQuery<Family>::store(ASTContext &Ctx) {
  FactCache &Cache = FactCache::shared();
  if (!Cached || CachedGeneration != Cache.generation() || CachedCtx != &Ctx) {
    Cached = &Cache.store<Family>(Ctx, Key, Conf);
    CachedGeneration = Cache.generation();
    CachedCtx = &Ctx;
  }
  return *Cached;
}

template <typename Family>
const typename Family::Use &FactQuery<Family>::use(const FunctionDecl &FD,
                                                   ASTContext &Ctx) {
  FamilyStore<Family> &S = store(Ctx);
  if (!S.TranslationUnitMatters)
    S.TranslationUnitMatters = Family::translationUnitMayMatter(Ctx);
  if (!*S.TranslationUnitMatters) {
    static const typename Family::Use Nothing{};
    return Nothing;
  }
  auto [It, New] = S.Uses.try_emplace(&FD);
  if (New)
    It->second = Family::preFilter(FD, S.Compiled);
  return It->second;
}

template <typename Family>
const typename FactQuery<Family>::Facts &
FactQuery<Family>::facts(const FunctionDecl &FD, ASTContext &Ctx,
                         unsigned Role) {
  // 1. Pre-filters: a function in which the syntax shows there is nothing
  // to judge has no facts of its own (and costs no cache entry).
  static const Facts Nothing = [] {
    Facts F;
    F.BySyntax = true;
    return F;
  }();
  const typename Family::Use &U = use(FD, Ctx);
  if (!Family::mayHaveEvents(U, Conf)) {
    // What no family judges (a declaration, a template pattern) says so.
    SkipReason Why = whyNotAnalysable(FD);
    if (Why != SkipReason::NoBody && Why != SkipReason::Dependent)
      return Nothing;
  }
  FamilyStore<Family> &S = store(Ctx);
  auto Found = S.Facts.find({&FD, Role});
  if (Found != S.Facts.end())
    return *Found->second;
  auto Computed = std::make_unique<Facts>(compute(S, FD, Ctx, Role, U));
  Facts &Result = *Computed;
  S.Facts[{&FD, Role}] = std::move(Computed);
  return Result;
}

template <typename Family>
unsigned FactQuery<Family>::flowAnalysedFunctions(ASTContext &Ctx) {
  return store(Ctx).FlowRuns;
}

template <typename Family>
typename FactQuery<Family>::Facts
FactQuery<Family>::compute(FamilyStore<Family> &S, const FunctionDecl &FD,
                           ASTContext &Ctx, unsigned Role,
                           const typename Family::Use &U) {
  using Event = typename Family::Event;
  using Analysis = typename Family::Analysis;
  Facts F;
  // 2. The gate.
  F.Skipped = whyNotAnalysable(FD);
  if (F.Skipped != SkipReason::None)
    return F;
  typename Family::Run Run = Family::prepare(
      PipelineInput<Family>{FD, Ctx, Conf, S.Compiled, U, Role});
  // 3. The syntactic proof.
  if (Conf.SyntacticProofs)
    if (std::optional<std::vector<Event>> Proved = Family::proveBySyntax(Run)) {
      F.Events = std::move(*Proved);
      F.BySyntax = true;
      return F;
    }
  // 4. The flow analysis.
  ExitStateCallback OnExit = nullptr;
  if constexpr (Family::JudgesExits)
    OnExit = [&Run](const CFGBlock &B,
                    const dataflow::TypeErasedDataflowAnalysisState &State) {
      Family::judgeExit(Run, B, State);
    };
  std::vector<Event> Found;
  FlowResult<Event> R = runFlowAnalysisWith<Analysis, Event>(
      FD, Ctx,
      [&Run](ASTContext &C, dataflow::Environment &Env,
             const dataflow::AdornedCFG &CFG) {
        // A family whose analysis reads the CFG (a lambda's seeds) receives
        // it.
        if constexpr (std::is_invocable_v<decltype(&Family::makeAnalysis),
                                          ASTContext &, dataflow::Environment &,
                                          typename Family::Run &,
                                          const dataflow::AdornedCFG &>)
          return Family::makeAnalysis(C, Env, Run, CFG);
        else
          return Family::makeAnalysis(C, Env, Run);
      },
      dataflow::DiagnosisCallbacks<Analysis, Event>{nullptr, nullptr},
      Conf.Bounds, std::move(OnExit),
      [&](Analysis &A) { Family::collect(Run, A, Found); });
  if (R.Skipped == SkipReason::None || R.Skipped == SkipReason::BoundExceeded ||
      R.Skipped == SkipReason::BuildFailed)
    ++S.FlowRuns;
  F.Skipped = R.Skipped;
  F.Detail = std::move(R.Detail);
  if (F.Skipped != SkipReason::None)
    return F;
  // 5. Post-processing.
  Family::postProcess(Run, Found);
  F.Events = std::move(Found);
  return F;
}

} // namespace clang::interop

#endif // INTEROP_LIB_ENGINE_FACTPIPELINE_H
