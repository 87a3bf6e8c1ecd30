//===--- AnalysisBridge.h - the engine's steps around a transfer -*- C++
//-*-===//
//
// A family's analysis as the framework sees it, with the engine's own steps
// around each element's transfer, so that a capability the framework lacks
// is added once for every family instead of inside each family's transfer:
//   - before an element: a switch arm's entry assumes what its labels prove
//     (lib/engine/SwitchArms.h);
//   - after an element: C's truth operands get a boolean
//     (lib/engine/LanguageBridge.h), a switch condition's value is kept.
// Everything else (lattice, joins, widening, branches) is the family's.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_ENGINE_ANALYSISBRIDGE_H
#define INTEROP_LIB_ENGINE_ANALYSISBRIDGE_H

#include "clang/Analysis/CFG.h"
#include "clang/Analysis/FlowSensitive/DataflowEnvironment.h"
#include "clang/Analysis/FlowSensitive/TypeErasedDataflowAnalysis.h"
#include "llvm/ADT/SmallVector.h"

#include <functional>
#include <optional>
#include <utility>

namespace clang::interop {

class AnalysisBridge : public dataflow::TypeErasedDataflowAnalysis {
public:
  using Step = std::function<void(const CFGElement &, dataflow::Environment &)>;

  explicit AnalysisBridge(dataflow::TypeErasedDataflowAnalysis &Inner)
      : TypeErasedDataflowAnalysis(
            dataflow::DataflowAnalysisOptions{Inner.builtinOptions()}),
        Inner(Inner) {}

  void before(Step S) { Before.push_back(std::move(S)); }
  void after(Step S) { After.push_back(std::move(S)); }
  /// Whether any step was added (else the family's analysis runs alone).
  bool empty() const { return Before.empty() && After.empty(); }

  ASTContext &getASTContext() override { return Inner.getASTContext(); }
  dataflow::TypeErasedLattice typeErasedInitialElement() override {
    return Inner.typeErasedInitialElement();
  }
  dataflow::TypeErasedLattice
  joinTypeErased(const dataflow::TypeErasedLattice &A,
                 const dataflow::TypeErasedLattice &B) override {
    return Inner.joinTypeErased(A, B);
  }
  dataflow::LatticeEffect
  widenTypeErased(dataflow::TypeErasedLattice &Current,
                  const dataflow::TypeErasedLattice &Previous) override {
    return Inner.widenTypeErased(Current, Previous);
  }
  bool isEqualTypeErased(const dataflow::TypeErasedLattice &A,
                         const dataflow::TypeErasedLattice &B) override {
    return Inner.isEqualTypeErased(A, B);
  }
  void transferTypeErased(const CFGElement &Elt, dataflow::TypeErasedLattice &L,
                          dataflow::Environment &Env) override {
    for (const Step &S : Before)
      S(Elt, Env);
    Inner.transferTypeErased(Elt, L, Env);
    for (const Step &S : After)
      S(Elt, Env);
  }
  void transferBranchTypeErased(bool Branch, const Stmt *Cond,
                                dataflow::TypeErasedLattice &L,
                                dataflow::Environment &Env) override {
    Inner.transferBranchTypeErased(Branch, Cond, L, Env);
  }

  dataflow::ComparisonResult compare(QualType T, const dataflow::Value &V1,
                                     const dataflow::Environment &E1,
                                     const dataflow::Value &V2,
                                     const dataflow::Environment &E2) override {
    return Inner.compare(T, V1, E1, V2, E2);
  }
  void join(QualType T, const dataflow::Value &V1,
            const dataflow::Environment &E1, const dataflow::Value &V2,
            const dataflow::Environment &E2, dataflow::Value &Joined,
            dataflow::Environment &JoinedEnv) override {
    Inner.join(T, V1, E1, V2, E2, Joined, JoinedEnv);
  }
  std::optional<dataflow::WidenResult>
  widen(QualType T, dataflow::Value &Prev, const dataflow::Environment &PrevEnv,
        dataflow::Value &Current, dataflow::Environment &CurrentEnv) override {
    return Inner.widen(T, Prev, PrevEnv, Current, CurrentEnv);
  }

private:
  dataflow::TypeErasedDataflowAnalysis &Inner;
  llvm::SmallVector<Step, 2> Before, After;
};

} // namespace clang::interop

#endif // INTEROP_LIB_ENGINE_ANALYSISBRIDGE_H
