//===--- ProducerExports.h - calls of a producer's __dlpack__ ---*- C++ -*-===//
//
// A consumer asks a producer for its data by calling the producer's
// `__dlpack__` method, once per import: each call exports the data again
// (a new capsule, a new managed tensor, for some producers a copy or a
// stream synchronisation), and a capsule the consumer then drops unused
// was asked for for nothing. This names, for every spelling of that call
// (pybind11 and nanobind attribute calls, the CPython call API, a bound
// method held in a local), which variable's method it calls, and how the
// body uses the capsule each call returns: inspected (its name tested, its
// type, its NULL-ness, its reference dropped), held in a local, or used
// (passed on, returned, stored, imported).
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_ABI_PRODUCEREXPORTS_H
#define INTEROP_LIB_ABI_PRODUCEREXPORTS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"

#include <vector>

namespace clang::interop {

/// One call of a producer's `__dlpack__` in a function body.
struct ExportCall {
  const CallExpr *Call = nullptr;
  /// The variable or parameter whose method is called.
  const ValueDecl *Producer = nullptr;
  /// The call returns NULL when it fails (the CPython call API); pybind11's
  /// and nanobind's calls throw instead.
  bool MayFail = false;
  /// The local that holds the returned capsule (`py::object cap =
  /// obj.attr("__dlpack__")();`, `cap = PyObject_CallMethod(...)`), or
  /// null.
  const VarDecl *Holder = nullptr;
  /// The returned capsule is used where it is made (passed to a call that
  /// is not an inspection, returned, stored outside a local).
  bool UsedAtOnce = false;
};

/// The `__dlpack__` calls of a function body and the references that use
/// the capsules they return.
struct ExportUses {
  /// Source order; lambdas in the body are their own functions.
  std::vector<ExportCall> Calls;
  /// Each reference to a holder that uses the capsule it holds (anything
  /// but an inspection or a store into the holder), with the holder.
  llvm::DenseMap<const DeclRefExpr *, const VarDecl *> UsingReferences;
};

/// Finds Body's export calls; empty for a body without the string
/// "__dlpack__" (cheap: the pre-filter's question).
ExportUses findExportCalls(const Stmt *Body, ASTContext &Ctx);

/// A capsule a function gets from a producer's `__dlpack__` and lets die
/// at its end unclaimed, while it returns the tensor pointer taken from it:
/// the capsule, still named `dltensor`, deletes the tensor in its destructor
/// as the caller receives the pointer.
struct DyingCapsule {
  /// The local holding the capsule: an object whose destructor drops the
  /// reference (`py::object`), or a pointer the body Py_DECREFs.
  const VarDecl *Holder = nullptr;
  const CallExpr *GetPointer = nullptr;
  const ReturnStmt *Return = nullptr;
};

/// Body's dying capsules: the capsule is never renamed, nor its destructor
/// cleared, nor used other than to read it (its pointer, name or validity,
/// inspections such as `is_none()`), so nothing keeps it past the return.
std::vector<DyingCapsule> findDyingCapsules(const Stmt *Body, ASTContext &Ctx);

/// Whether Body names `__dlpack__` (isExportMethodName).
bool mentionsProducerExport(const Stmt *Body);

/// E is the string "__dlpack__", or names a constant variable initialised
/// with it: what a pre-filter looks for, node by node.
bool isExportMethodName(const Expr &E);

} // namespace clang::interop

#endif // INTEROP_LIB_ABI_PRODUCEREXPORTS_H
