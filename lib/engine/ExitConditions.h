//===--- ExitConditions.h - calls that return only on a condition -*- C++ -*-//
//
// A callee contract for every family: a call that returns only when one of
// its bool arguments is true (`validate(t->version.major == 1, "...")`,
// MatX's validate_dlpack_condition), or only when it is false
// (`throw_if(managed == nullptr, ...)`). After such a call the condition
// holds, whatever the family reads from it: a pointer tested against null,
// a version checked, an array known to be on one device.
//
// Read from a same-TU body when there is one: its first statement is
// `if (!p) <exit>` or `if (p) <exit>` (a throw, a noreturn call, or a block
// that ends in one) for a by-value bool parameter p. A function without a
// visible body is one only when a list names it (the options
// ThrowIfFunctions and RequireFunctions of every check; by default only the
// names that say it, `throw_if`), and then only for a bool first argument.
//
// The engine applies the contract in every family's transfer table
// (valueCases(), lib/engine/ValueFacts.h) before the family's own cases.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_ENGINE_EXITCONDITIONS_H
#define INTEROP_LIB_ENGINE_EXITCONDITIONS_H

#include "lib/engine/FactCache.h"
#include "lib/support/NameLists.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Analysis/FlowSensitive/DataflowEnvironment.h"

#include <optional>
#include <string>
#include <vector>

namespace clang::interop {

/// What a call requires of one of its arguments to return.
struct ExitCondition {
  /// The argument (and parameter) index.
  unsigned Arg = 0;
  /// The call returns only when the argument has this truth value.
  bool ReturnsWhen = true;
};

/// Callee contracts read from names: functions without a visible body that
/// exit on a condition of their first argument, and producers whose
/// returned managed tensor the caller owns. Options of every check, in
/// every family's configuration and cache key.
struct ExitConditionNames {
  /// Exit (throw, abort) when the first argument is true: `throw_if(cond,
  /// ...)`. Regexes over qualified names; the default names the functions
  /// whose name says just that (`throw_if`, `ThrowIf`, `throwIf`).
  std::vector<std::string> ThrowIfFunctions = {"(^|::)[Tt]hrow_?[Ii]f$"};
  /// Exit when the first argument is false: `require(cond, ...)`.
  std::vector<std::string> RequireFunctions;
  /// Calls that return a managed tensor the caller then owns: a library's
  /// own export (`toDLPack`, `to_dlpack`, `ToDLPackVersioned`), whose
  /// tensor is the producer's, not an import, where it is read.
  std::vector<std::string> TensorSources = {
      "to_?[Dd][Ll][Pp]ack(_?[Vv]ersioned)?$",
      "To[Dd][Ll][Pp]ack(Versioned)?$", "::release$"};

  std::string key() const;
  /// F(option name, list) for each list, in --dump-config order.
  template <typename Fn> void forEachOption(Fn F) {
    F("ThrowIfFunctions", ThrowIfFunctions);
    F("RequireFunctions", RequireFunctions);
    F("TensorSources", TensorSources);
  }
};

/// The contracts of one configuration, compiled once per configuration.
class ExitConditions {
public:
  ExitConditions() = default;
  explicit ExitConditions(const ExitConditionNames &Names);

  /// The condition Call's callee requires, from its body or from the
  /// lists; none for an operator call or a callee that is neither. Each
  /// callee is read once per translation unit: every family's transfer
  /// table asks at every call.
  std::optional<ExitCondition> of(const CallExpr &Call) const;

  /// Callee is named by TensorSources (once per callee and translation
  /// unit: the field model asks at every call that returns a pointer).
  bool isTensorSource(const FunctionDecl *Callee) const {
    return Callee && SourceMemo.get(Callee->getCanonicalDecl(),
                                    [&] { return Sources.matches(Callee); });
  }
  const NameList &tensorSources() const { return Sources; }

private:
  std::optional<ExitCondition> ofCallee(const FunctionDecl &Callee) const;

  NameList ThrowIf, Require, Sources;
  /// ofCallee per callee.
  DeclMemo<std::optional<ExitCondition>> Memo;
  /// isTensorSource per callee.
  DeclMemo<bool> SourceMemo;
};

/// The condition Callee's same-TU body requires (see above), or none.
std::optional<ExitCondition> exitConditionOfBody(const FunctionDecl *Callee);

/// After Call returns, the condition it requires holds (when its argument
/// has a truth value in Env). True when it assumed something.
bool assumeExitCondition(const CallExpr &Call, const ExitConditions &Exits,
                         dataflow::Environment &Env);

} // namespace clang::interop

#endif // INTEROP_LIB_ENGINE_EXITCONDITIONS_H
