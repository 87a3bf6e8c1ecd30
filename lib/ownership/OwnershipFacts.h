//===--- OwnershipFacts.h - who owns a DLPack managed tensor ----*- C++ -*-===//
//
// The ownership family of facts, on the pipeline of
// lib/engine/FactPipeline.h: a dataflow model (OwnershipModel.cpp) of the
// ownership of DLPack managed tensors and of the capsules that carry them:
//
//   - each place a function obtains a managed tensor (created with new or
//     malloc, returned by a producer, taken from a capsule it has claimed, a
//     parameter the function deletes somewhere) is a site with three ghost
//     booleans: still owned here, deleted, handed on;
//   - each capsule the function touches has ghosts for "claimed" (renamed to
//     used_dltensor or its destructor cleared), "unconsumed" (what
//     PyCapsule_IsValid(c, "dltensor") answers), and "imported";
//   - a capsule destructor has a ghost for "the exception in flight was
//     saved".
//
// Ghosts are boolean formulas, so correlated conditions (`bool handed = ...;
// if (!handed) delete`) are understood; null checks of the tensor and of its
// deleter are atoms (a NULL deleter means nothing to free). Events are judged
// on the state before each element and at each exit of the function. A
// function that owns no tensor, touches no capsule and releases a tensor only
// as its last act is not run (the syntactic proof): it has no event.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_OWNERSHIP_OWNERSHIPFACTS_H
#define INTEROP_LIB_OWNERSHIP_OWNERSHIPFACTS_H

#include "lib/engine/FactQuery.h"
#include "lib/engine/ExitConditions.h"
#include "lib/engine/FlowRunner.h"
#include "lib/ownership/OwnershipEvents.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "clang/Analysis/FlowSensitive/DataflowEnvironment.h"
#include "clang/Analysis/FlowSensitive/TypeErasedDataflowAnalysis.h"

#include <optional>

#include <string>
#include <vector>

namespace clang::interop {

template <typename Family> struct PipelineInput;
class OwnershipModel;

struct OwnershipConfig {
  /// Importers that take ownership on every path, failure included (so the
  /// capsule must be claimed whatever they return).
  std::vector<std::string> OwnershipTakingImporters = {
      "::interop::from_dlpack$"};
  FlowBounds Bounds;
  /// Callee contracts read from names (lib/engine/ExitConditions.h),
  /// TensorSources among them: calls whose returned tensor the caller owns.
  ExitConditionNames Exits;
  /// Try the syntactic proof first (OwnershipSyntaxProofs.h). Tests turn
  /// this off to compare it with the flow analysis.
  bool SyntacticProofs = true;

  std::string key() const;
};

/// What a function is to the ownership family: a capsule destructor has
/// duties of its own (check the capsule is unconsumed before deleting, save
/// the exception in flight), so its facts are cached per role.
enum OwnershipRole : unsigned {
  PlainFunction = 0,
  CapsuleDestructor = 1,
};

/// The family trait (see lib/engine/FactPipeline.h).
struct OwnershipFamily {
  static constexpr const char *Name = "ownership";
  using Config = OwnershipConfig;
  using Event = OwnershipEvent;
  /// Whether the body names a managed tensor type, its deleter or the
  /// capsule API (mentionsOwnership).
  using Use = bool;
  using Analysis = OwnershipModel;
  struct Compiled;
  struct Run;
  static constexpr bool JudgesExits = true;

  static Compiled compile(const Config &C);
  static bool translationUnitMayMatter(const ASTContext &Ctx);
  static Use preFilter(const FunctionDecl &FD, const Compiled &);
  /// The pre-filter is a syntactic proof: off with the other proofs (tests
  /// compare both with the flow analysis).
  static bool mayHaveEvents(Use U, const Config &C) {
    return U || !C.SyntacticProofs;
  }
  static Run prepare(const PipelineInput<OwnershipFamily> &In);
  static std::optional<std::vector<OwnershipEvent>> proveBySyntax(Run &R);
  static Analysis makeAnalysis(ASTContext &Ctx, dataflow::Environment &Env,
                               Run &R);
  static void judgeExit(Run &R, const CFGBlock &B,
                        const dataflow::TypeErasedDataflowAnalysisState &S);
  static void collect(Run &R, Analysis &A, std::vector<OwnershipEvent> &Out);
  static void postProcess(Run &R, std::vector<OwnershipEvent> &Events);
};

extern template class FactQuery<OwnershipFamily>;
using OwnershipQuery = FactQuery<OwnershipFamily>;
using OwnershipFacts = FunctionFacts<OwnershipEvent>;

/// FD's facts in its role under Config (a query built for the call: checks
/// keep an OwnershipQuery instead, whose key is built once).
const OwnershipFacts &getOwnershipFacts(const FunctionDecl &FD, ASTContext &Ctx,
                                        bool IsCapsuleDestructor,
                                        const OwnershipConfig &Config = {});

/// The pre-filters' answer for FD: its body names a managed tensor type,
/// its deleter, or the capsule API.
bool mentionsOwnership(const FunctionDecl &FD);

} // namespace clang::interop

#endif // INTEROP_LIB_OWNERSHIP_OWNERSHIPFACTS_H
