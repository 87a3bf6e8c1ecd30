// realistic/status_macros.h - the error-propagation macros the corpus's
// "applications" share, in the shape absl/XLA code uses (RETURN_IF_ERROR,
// ASSIGN_OR_RETURN) over interop::Status and interop::Result<T>.
//
// Part of the realistic corpus (test/realistic/README.md): macros only, no
// functions, so every guard a corpus file relies on has its body in that file.
#ifndef REALISTIC_STATUS_MACROS_H
#define REALISTIC_STATUS_MACROS_H

#include <interop/status.h>

#include <utility>

#define REALISTIC_CONCAT_INNER(a, b) a##b
#define REALISTIC_CONCAT(a, b) REALISTIC_CONCAT_INNER(a, b)

// Evaluates `expr` (an interop::Status) once and returns it from the
// enclosing function when it is an error.
#define RETURN_IF_ERROR(expr)                                                  \
  do {                                                                         \
    ::interop::Status realistic_status_ = (expr);                              \
    if (!realistic_status_.ok())                                               \
      return realistic_status_;                                                \
  } while (0)

// Evaluates `rexpr` (an interop::Result<T>), returns its status from the
// enclosing function on error, else moves the value into `lhs` (which may
// be a declaration: ASSIGN_OR_RETURN(interop::Array a, make());).
#define ASSIGN_OR_RETURN(lhs, rexpr)                                           \
  ASSIGN_OR_RETURN_IMPL(REALISTIC_CONCAT(realistic_result_, __LINE__), lhs,    \
                        rexpr)
#define ASSIGN_OR_RETURN_IMPL(result, lhs, rexpr)                              \
  auto result = (rexpr);                                                       \
  if (!result.ok())                                                            \
    return result.status();                                                    \
  lhs = std::move(result).value()

#endif // REALISTIC_STATUS_MACROS_H
