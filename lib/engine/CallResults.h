//===--- CallResults.h - what unmodelled calls return ----------*- C++ -*-===//
//
// clang's dataflow framework gives no value to the result of a call it does
// not model, yet gives one to a local that such a call initialises. So
// `getTensor()->data` had no tensor behind it while `auto *t =
// getTensor(); t->data` had one, and every family read the two spellings
// differently. The pieces here give such results their value once, for
// every family (valueCases() runs them first), and keep what an accessor
// returned on an object, so that two calls of `h->` in one function reach
// the same tensor.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_ENGINE_CALLRESULTS_H
#define INTEROP_LIB_ENGINE_CALLRESULTS_H

#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/Analysis/FlowSensitive/DataflowEnvironment.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <utility>

namespace clang::interop {

/// The value of the prvalue E, made (and set) when the framework left it
/// without one (the result of a call it does not model); null for a type
/// the framework has no values of.
dataflow::Value *valueOrFresh(const Expr &E, dataflow::Environment &Env);

/// `getTensor()->data`, `holder->data` through a wrapper's `operator->`:
/// Call returns a pointer to a record and the framework (which does not
/// model the callee) left it without a value, so the fields read through it
/// would have none either. Stored in a local first, the same result gets a
/// fresh value from the framework: a value is the same value inline as
/// through a variable. (A record returned by reference is left alone: the
/// families model the accessors that return one themselves.)
bool lacksCallResult(const CallExpr &Call, const dataflow::Environment &Env);

/// Gives Call (see lacksCallResult) its value. An accessor (`operator->`,
/// `operator*`, or a `const` method taking no argument) called again on the
/// same object during the same analysis returns the value it returned the
/// first time, so that `h->device` tested and `h->data` read are fields of
/// one tensor; any other call returns a fresh value each time, as it would
/// to a local. (A mutation of the object between the two calls is not
/// seen.)
void makeCallResult(const CallExpr &Call, dataflow::Environment &Env);

/// What Accessor returns on the object at Object during this analysis: the
/// value an earlier call of it returned, or a fresh one kept for the later
/// calls (`h.IsContiguous()` asks about the tensor `h->` gives). Null
/// outside an analysis or for a type without values.
dataflow::Value *accessorResult(const dataflow::StorageLocation &Object,
                                const CXXMethodDecl &Accessor,
                                dataflow::Environment &Env);

/// `std::make_unique<T>(...)`, `std::make_shared<T>(...)`: a smart pointer
/// holding a new T. Its pointer accessors (`operator->` and `get()`, of its
/// bases too, as libstdc++ declares them) return a pointer to one fresh T
/// during this analysis; that object is returned, for a family to mark as
/// made here. Null when Call is no such call, T is no record, or outside an
/// analysis.
dataflow::RecordStorageLocation *smartPointerMade(const CallExpr &Call,
                                                  dataflow::Environment &Env);

/// `auto x = NDArray::Empty(...)` before C++17, `y = x`: a copy or move of
/// an object whose accessors returned something (or were told what they
/// return: a family's model of an allocation) returns the same from the
/// copy. Applies to copy and move constructions and assignments.
bool copiesAccessedObject(const Expr &E, const dataflow::Environment &Env);
/// Copies the accessor results of E's source object to its result.
void copyCallResults(const Expr &E, dataflow::Environment &Env);

/// The accessor results of one flow analysis (makeCallResult), kept while
/// the scope lives; nested analyses (a helper's summary run during a
/// judged function's) keep their own.
class CallResultScope {
public:
  CallResultScope();
  ~CallResultScope();
  CallResultScope(const CallResultScope &) = delete;
  CallResultScope &operator=(const CallResultScope &) = delete;

  /// The value Accessor returned on the object at Object, or null.
  dataflow::Value *&slot(const dataflow::StorageLocation &Object,
                         const Decl &Accessor);
  /// Whether no accessor returned anything yet (most analyses).
  bool empty() const { return Results.empty(); }
  /// Whether any accessor returned something on Object.
  bool has(const dataflow::StorageLocation &Object) const {
    return Results.count(&Object);
  }
  /// What the accessors of From returned, now also To's.
  void copy(const dataflow::StorageLocation &From,
            const dataflow::StorageLocation &To);
  /// The innermost live scope, or null outside any analysis.
  static CallResultScope *current();

private:
  using Returned =
      llvm::SmallVector<std::pair<const Decl *, dataflow::Value *>, 2>;
  llvm::DenseMap<const dataflow::StorageLocation *, Returned> Results;
  CallResultScope *Outer;
};

} // namespace clang::interop

#endif // INTEROP_LIB_ENGINE_CALLRESULTS_H
