//===--- ArrayDeviceSummaries.h - same-TU helpers, from their bodies -*- C++
//-*-===//
//
// What a helper defined in the translation unit proves or produces about its
// arguments, derived from its body by the array/device flow analysis itself
// (clang's context-sensitive mode analyses callees with a no-op analysis,
// so none of the model's facts would be set inside them). Never from a
// helper's name.
//
// A summary holds only what holds on every normal return of the helper
// (throw paths and calls to noreturn functions are not returns), about a
// subject: a parameter that is a reference to const (or a const value) of
// a modelled type, or a field of modelled type of such a parameter
// (`const Entry &e` with `e.array`):
//
//   - a bool helper: "true implies f(P)", "false implies f(P)" and the
//     negated forms (`exportable(a)`, `many_devices(a)`);
//   - a status helper (StatusTypes): "not an error implies f(P)", where the
//     returns that construct a status from an error code (OkStatusCodes)
//     are errors and every other return is taken as possibly OK;
//   - any helper: "after the call, f(P)" when f holds on every normal
//     return (`ensure_single(a)`, which throws otherwise);
//   - a helper returning a reference to a parameter: the call is that
//     argument (`to_dlpack(require_single(a))`);
//   - a helper returning a modelled value: what every return proves of it,
//     and the strongest origin among the returns (a device taken from every
//     process's devices stays one).
//
// Bounds (FlowBounds, options of every check): a helper is summarised when
// its body has at most MaxSummaryStatements statements and its CFG at most
// MaxSummaryBlocks blocks, within the checks' flow bounds; helpers called
// from a helper are summarised down to MaxSummaryDepth levels from the
// judged function; recursion, try blocks, templates, lambdas
// called directly (their captures are not parameters; a lambda handed to a
// standard algorithm as its predicate is summarised, ofPredicate) and
// functions of the API model get no summary. Summaries are cached per
// translation unit and configuration, by function and remaining depth, so
// results do not depend on the order in which functions are judged.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICESUMMARIES_H
#define INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICESUMMARIES_H

#include "lib/arraydevice/ApiModel.h"
#include "lib/arraydevice/ArrayDeviceEvents.h"
#include "lib/arraydevice/ArrayDeviceState.h"
#include "lib/engine/FlowRunner.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <optional>

namespace clang::interop::arraydevice {

/// What one helper proves or produces.
struct HelperSummary {
  /// A parameter, or a field (chain) of a parameter; or, for a const
  /// member function of a modelled class, its own object (kThis).
  struct Subject {
    static constexpr unsigned kThis = ~0u;
    unsigned Param = 0;
    llvm::SmallVector<const FieldDecl *, 2> Fields;
    /// The object the field chain names inside \p Root (the parameter's
    /// object in the helper, or the argument's in a caller); null where a
    /// link is not modelled.
    dataflow::RecordStorageLocation *
    within(dataflow::RecordStorageLocation *Root) const;
  };
  /// When a fact holds: after the call; when the bool result is true or
  /// false; when the status result is not an error.
  enum class When : unsigned char { After, IfTrue, IfFalse, IfOk };
  struct Fact {
    unsigned Subject;
    /// A synthetic field of ArrayDeviceState.h (kSingle, kAddressable...).
    llvm::StringRef Field;
    When Cond;
    /// The fact, or its negation.
    bool Holds;
  };
  llvm::SmallVector<Subject, 2> Subjects;
  llvm::SmallVector<Fact, 4> Facts;
  /// Every return returns (a reference to) this parameter's object.
  std::optional<unsigned> ReturnsParam;
  /// Facts of the returned modelled object (of the value a Result holds),
  /// proven on every return: field and value.
  llvm::SmallVector<std::pair<llvm::StringRef, bool>, 2> ResultFacts;
  /// The returned object's strongest origin (of every return).
  Origin ResultOrigin;
  bool ReturnsModelled = false;

  bool empty() const {
    return Facts.empty() && !ReturnsParam && !ReturnsModelled;
  }
};

/// What the enclosing function proves, where a lambda is created, about
/// the variables it captures: by copy always (the closure holds the value
/// of that point), by reference only a variable that cannot change (a const
/// object or a reference to const).
struct CaptureFacts {
  struct Seed {
    const VarDecl *Var;
    llvm::StringRef Field;
    bool Holds;
  };
  llvm::SmallVector<Seed, 4> Facts;
  llvm::SmallVector<std::pair<const VarDecl *, Origin>, 2> Origins;
  /// Integer variables holding this process's index
  /// (ArrayDeviceEquivalentForms.h).
  llvm::SmallVector<const VarDecl *, 1> CurrentProcess;
};

/// The summaries of one translation unit, for one configuration.
class HelperSummaries {
public:
  HelperSummaries(FlowBounds Bounds, unsigned FactBits)
      : Bounds(Bounds), FactBits(FactBits) {}

  /// The summary of the helper CE calls, or null when it has none (not a
  /// helper, over a bound, nothing to say). `Depth`: how many helpers deep
  /// the analysis asking is (0 for a judged function).
  const HelperSummary *of(const CallExpr &CE, const ApiModel &M,
                          ASTContext &Ctx, unsigned Depth);

  /// The summary of a predicate handed to a standard algorithm
  /// (ArrayDeviceContainers.h): a function, or a lambda's call operator,
  /// whose facts about its parameter hold whatever it captured, except
  /// that a lambda's integer copy of this process's index is known to be
  /// one (capturesOf; such a predicate has its own summary); null when it
  /// has none.
  const HelperSummary *ofPredicate(const FunctionDecl &FD, const ApiModel &M,
                                   ASTContext &Ctx, unsigned Depth);

  /// The facts of the captures of the lambda whose call operator is
  /// `CallOp`, from one flow run of its enclosing function (made once per
  /// enclosing function and translation unit); null when none is known.
  const CaptureFacts *capturesOf(const FunctionDecl &CallOp, const ApiModel &M,
                                 ASTContext &Ctx);

  /// Helpers summarised by a flow run so far (for tests and benchmarks).
  unsigned runs() const { return Runs; }

private:
  const HelperSummary *ofDefinition(const FunctionDecl &Callee,
                                    const ApiModel &M, ASTContext &Ctx,
                                    unsigned Depth,
                                    const CaptureFacts *Seeds = nullptr);
  /// One flow run of the model on FD (ArrayDeviceSummaryRuns.cpp), read at
  /// its normal exits; `Throws`: FD's body has a throw expression.
  std::unique_ptr<HelperSummary> compute(const FunctionDecl &FD,
                                         const ApiModel &M, ASTContext &Ctx,
                                         unsigned Depth, bool Throws,
                                         const CaptureFacts *Seeds = nullptr);

  FlowBounds Bounds;
  unsigned FactBits;
  unsigned Runs = 0;
  /// By definition and depth; null: no summary (or being computed, so a
  /// recursive helper gets none).
  llvm::DenseMap<std::pair<const FunctionDecl *, unsigned>,
                 std::unique_ptr<HelperSummary>>
      Cache;
  /// The same, for lambda predicates seeded with their integer captures.
  llvm::DenseMap<std::pair<const FunctionDecl *, unsigned>,
                 std::unique_ptr<HelperSummary>>
      SeededCache;
  /// Per enclosing function: its lambdas' capture facts, by closure class.
  llvm::DenseMap<
      const FunctionDecl *,
      std::unique_ptr<llvm::DenseMap<const CXXRecordDecl *, CaptureFacts>>>
      Enclosing;
  /// Whether a function can have a summary at all (cheap syntactic test),
  /// and whether its body throws.
  struct Candidate {
    bool Summarised = false, Throws = false;
  };
  llvm::DenseMap<const FunctionDecl *, Candidate> Candidates;
};

/// The summary half of a run of the model on a helper: what holds of its
/// subjects on every exit in `Exits` (its normal returns), into `Out`.
void summarizeExits(const FunctionDecl &FD, const ApiModel &M, ASTContext &Ctx,
                    std::vector<ExitState> &Exits, HelperSummary &Out);

/// What the state where lambda `LE` is created proves of its captures.
CaptureFacts captureFactsAt(const LambdaExpr &LE, const ApiModel &M,
                            Environment &Env, const ArrayDeviceLattice &L);

/// Whether S is a call to a same-TU helper with a summary: such calls
/// matter though the transfer table's gate says no.
bool mayBeSummarisedCall(const Stmt *St, State &S);

/// A call to a summarised helper: what its body proves of its arguments
/// (after the call, or under its bool or status result), the argument it
/// returns, and what it proves of the value it returns.
void transferSummarisedCall(const CallExpr *CE, State &S);

} // namespace clang::interop::arraydevice

#endif // INTEROP_LIB_ARRAYDEVICE_ARRAYDEVICESUMMARIES_H
