//===--- VersionRequests.h - a producer answering max_version ---*- C++ -*-===//
//
// A consumer tells a producer's `__dlpack__` which DLPack struct it can read
// through `max_version`: none, or a major version below 1, means only the
// legacy DLManagedTensor in a "dltensor" capsule. A producer that receives
// the request, never reads it and always returns a "dltensor_versioned"
// capsule hands every legacy consumer (one passing no max_version, as older
// PyTorch and NumPy releases do) a struct it rejects or misreads.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_ABI_VERSIONREQUESTS_H
#define INTEROP_LIB_ABI_VERSIONREQUESTS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include <optional>

namespace clang::interop {

/// A capsule-making function that ignores the consumer's max_version.
struct IgnoredVersionRequest {
  /// The consumer's request: a parameter or local whose name says
  /// max_version (`py::object max_version`, `PyObject *max_version` that
  /// PyArg_ParseTupleAndKeywords fills).
  const VarDecl *Request = nullptr;
  /// The name argument of the first capsule the function makes, named
  /// "dltensor_versioned".
  const Expr *VersionedName = nullptr;
};

/// FD (a function, a method or a lambda's call operator) has a request
/// variable that nothing reads (its only references are its address handed
/// to a call that fills it, and `(void)` casts), and every capsule FD makes
/// (PyCapsule_New, a pybind11 or nanobind capsule constructed with a name) is
/// named "dltensor_versioned", at least one: the request is ignored. None
/// when FD reads the request, makes a "dltensor" capsule, or chooses the name
/// at run time.
std::optional<IgnoredVersionRequest>
ignoredVersionRequest(const FunctionDecl &FD, ASTContext &Ctx);

} // namespace clang::interop

#endif // INTEROP_LIB_ABI_VERSIONREQUESTS_H
