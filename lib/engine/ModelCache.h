//===--- ModelCache.h - per-TU memo of a flow model -------------*- C++ -*-===//
//
// Every check that reads a model's facts asks for them per function; the
// model runs once per function and configuration, and the memo lives until
// the translation unit changes (or a check clears it at the start of one).
// The DLPack field model and the ownership model keep the same three things:
// the pre-filter's answer per function, the facts per configuration and
// function, and each configuration's compiled form (its regexes).
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_ENGINE_MODELCACHE_H
#define INTEROP_LIB_ENGINE_MODELCACHE_H

#include "lib/engine/FlowRunner.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <memory>
#include <string>
#include <vector>

namespace clang::interop {

/// `UseT`: the pre-filter's answer; `FactsKeyT`: what identifies one run
/// within a configuration (the function, or the function and its role);
/// `CompiledT`: a configuration's compiled form.
template <typename UseT, typename FactsKeyT, typename FactsT,
          typename CompiledT>
class ModelCache {
public:
  /// Forgets everything cached for another translation unit.
  void enter(const ASTContext &Ctx) {
    if (this->Ctx != &Ctx) {
      clear();
      this->Ctx = &Ctx;
    }
  }
  void clear() {
    Uses.clear();
    Facts.clear();
    Compiled.clear();
    Ctx = nullptr;
  }

  /// The pre-filter's answer for FD: Scan(FD) on first use.
  template <typename ScanFn>
  const UseT &use(const FunctionDecl &FD, ScanFn Scan) {
    enter(FD.getASTContext());
    auto [It, New] = Uses.try_emplace(&FD);
    if (New)
      It->second = Scan(FD);
    return It->second;
  }

  /// The slot of one run's facts; empty until the run has happened.
  std::unique_ptr<FactsT> &facts(llvm::StringRef ConfigKey,
                                 const FactsKeyT &Key) {
    return Facts[ConfigKey][Key];
  }

  /// The compiled configuration: Compile() on first use of ConfigKey.
  template <typename CompileFn>
  const CompiledT &compiled(llvm::StringRef ConfigKey, CompileFn Compile) {
    auto [It, New] = Compiled.try_emplace(ConfigKey);
    if (New)
      It->second = Compile();
    return It->second;
  }

private:
  const ASTContext *Ctx = nullptr;
  llvm::DenseMap<const FunctionDecl *, UseT> Uses;
  llvm::StringMap<llvm::DenseMap<FactsKeyT, std::unique_ptr<FactsT>>> Facts;
  llvm::StringMap<CompiledT> Compiled;
};

/// A configuration's cache key: each list joined with ';', the lists, the
/// bounds and whether syntactic proofs come first separated by '|'.
/// Configurations with equal keys share their runs.
std::string
modelConfigKey(llvm::ArrayRef<const std::vector<std::string> *> Lists,
               const FlowBounds &Bounds, bool SyntacticProofs);

} // namespace clang::interop

#endif // INTEROP_LIB_ENGINE_MODELCACHE_H
