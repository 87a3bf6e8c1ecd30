//===--- FactCache.h - every family's facts, per TU -------------*- C++ -*-===//
//
// The one memo of lib/. Checks ask for a function's facts once per check;
// the pipeline (FactPipeline.h) computes them once per function, role and
// configuration, and keeps them here: one store per family and
// configuration, holding the configuration's compiled form (its regexes, its
// API model), the pre-filters' answers and the facts. A store is named by
// one key built from the family's name and every option that changes its
// results (the Config::key() of each family). Everything points into one
// translation unit's AST, so all of it is forgotten together by the one
// reset, resetFactCache(): checks call it at the start of every translation
// unit, and a request naming another ASTContext than the last one resets
// too.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_ENGINE_FACTCACHE_H
#define INTEROP_LIB_ENGINE_FACTCACHE_H

#include "lib/engine/SkipReason.h"
#include "lib/support/DeclMemo.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace clang::interop {

/// What one family found in one function: its events, or why it was not
/// analysed.
template <typename EventT> struct FunctionFacts {
  /// Why the function was not analysed (None when it was, or when the
  /// pre-filters found nothing to judge).
  SkipReason Skipped = SkipReason::None;
  /// The framework's message for a give-up, or the CFG size.
  std::string Detail;
  std::vector<EventT> Events;
  /// The syntactic proof answered; the flow analysis did not run.
  bool BySyntax = false;
};

/// What the pipeline keeps for one family (see FactPipeline.h) under one
/// configuration.
template <typename Family> struct FamilyStore {
  explicit FamilyStore(const typename Family::Config &Config)
      : Compiled(Family::compile(Config)) {}

  /// The configuration, compiled once.
  typename Family::Compiled Compiled;
  /// Family::translationUnitMayMatter(), once.
  std::optional<bool> TranslationUnitMatters;
  /// Family::preFilter() per function.
  llvm::DenseMap<const FunctionDecl *, typename Family::Use> Uses;
  /// The facts per function and role.
  llvm::DenseMap<std::pair<const FunctionDecl *, unsigned>,
                 std::unique_ptr<FunctionFacts<typename Family::Event>>>
      Facts;
  /// Functions run through the flow analysis (tests and benchmarks).
  unsigned FlowRuns = 0;
};

/// The stores of every family and configuration of one translation unit.
class FactCache {
public:
  /// The cache every check and entry point shares.
  static FactCache &shared();

  /// Family's store for the configuration named Key, made from Config on
  /// first use.
  template <typename Family>
  FamilyStore<Family> &store(const ASTContext &Ctx, llvm::StringRef Key,
                             const typename Family::Config &Config) {
    enter(Ctx);
    std::unique_ptr<StoreBase> &Slot = Stores[Key];
    if (!Slot)
      Slot = std::make_unique<Holder<Family>>(Config);
    return static_cast<Holder<Family> &>(*Slot).Store;
  }

  /// Forgets every store.
  void reset();
  /// Changes at every reset, so that a caller may keep a store's address
  /// for as long as it is valid.
  unsigned generation() const { return Generation; }

private:
  void enter(const ASTContext &Ctx) {
    if (Owner != &Ctx) {
      reset();
      Owner = &Ctx;
    }
  }
  struct StoreBase {
    virtual ~StoreBase() = default;
  };
  template <typename Family> struct Holder : StoreBase {
    explicit Holder(const typename Family::Config &Config) : Store(Config) {}
    FamilyStore<Family> Store;
  };

  const ASTContext *Owner = nullptr;
  llvm::StringMap<std::unique_ptr<StoreBase>> Stores;
  unsigned Generation = 0;
};

/// The one reset between translation units: forgets every family's facts
/// and every DeclMemo's answers (lib/support/DeclMemo.h).
/// Checks call it at the start of each translation unit (a new ASTContext
/// may be allocated where the last one was); tests whenever they parse.
void resetFactCache();

/// Appends one option to a configuration key: a list joined with ';', or a
/// value, then '|'.
void appendListToKey(std::string &Key, llvm::ArrayRef<std::string> List);
void appendToKey(std::string &Key, llvm::StringRef Value);

} // namespace clang::interop

#endif // INTEROP_LIB_ENGINE_FACTCACHE_H
