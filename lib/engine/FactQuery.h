//===--- FactQuery.h - one family's facts, one configuration ----*- C++ -*-===//
//
// What the checks and tests hold to ask for facts: a family (FactPipeline.h
// says what a family is), a configuration and its cache key, built once
// because it names every option. The pipeline itself is compiled with each
// family (its .cpp instantiates FactQuery<Family> explicitly), so a family's
// header exposes its facts, configuration and pre-filter answer, never its
// internal state.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_ENGINE_FACTQUERY_H
#define INTEROP_LIB_ENGINE_FACTQUERY_H

#include "lib/engine/FactCache.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include <string>

namespace clang::interop {

template <typename Family> class FactQuery {
public:
  using Config = typename Family::Config;
  using Facts = FunctionFacts<typename Family::Event>;

  explicit FactQuery(Config C);

  const Config &config() const { return Conf; }

  /// The pre-filters' answer for FD: Family::preFilter() on first use, or a
  /// default Use when the translation unit cannot matter at all.
  const typename Family::Use &use(const FunctionDecl &FD, ASTContext &Ctx);

  /// The facts of FD in Role (0 for a family with one role), computed on
  /// first use by the pipeline.
  const Facts &facts(const FunctionDecl &FD, ASTContext &Ctx,
                     unsigned Role = 0);

  /// Functions run through the flow analysis under this configuration in
  /// the current translation unit (tests, benchmarks).
  unsigned flowAnalysedFunctions(ASTContext &Ctx);

private:
  FamilyStore<Family> &store(ASTContext &Ctx);
  Facts compute(FamilyStore<Family> &S, const FunctionDecl &FD, ASTContext &Ctx,
                unsigned Role, const typename Family::Use &U);

  Config Conf;
  std::string Key;
  /// The store of the current translation unit, while the cache's
  /// generation is CachedGeneration.
  FamilyStore<Family> *Cached = nullptr;
  unsigned CachedGeneration = 0;
  const ASTContext *CachedCtx = nullptr;
};

} // namespace clang::interop

#endif // INTEROP_LIB_ENGINE_FACTQUERY_H
