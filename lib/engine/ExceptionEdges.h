//===--- ExceptionEdges.h - where an exception can leave -------*- C++ -*-===//
//
// clang's CFG, as the dataflow framework builds it, has no exception edges:
// a call that throws is a path the flow never walks, and a handler is a
// block nothing reaches. What a family needs to know about those paths is
// answered here, once for every family: which calls can throw at all (by
// their declared exception specification: noexcept, a C function, a
// builtin cannot), and which of a function's calls and throw expressions
// can leave the function by an exception (outside every try block of it).
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_ENGINE_EXCEPTIONEDGES_H
#define INTEROP_LIB_ENGINE_EXCEPTIONEDGES_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::interop {

/// Evaluating S itself (not its operands) can throw: a throw expression, or
/// a call whose callee does not rule it out. Ruled out: noexcept or
/// throw(), C linkage (the CPython, CUDA and C library APIs), builtins,
/// destructors, a function pointer declared in C (a DLPack deleter field of
/// an extern "C" struct), and, by convention, const member functions,
/// conversions and overloaded operators (observers such as `r.ok()` and
/// `p->x`, which are rarely declared noexcept and practically never
/// throw), pybind11's `cast` of a C++ pointer to a Python object (it throws
/// only for a class never registered), and a callee whose body this
/// translation unit holds and in which
/// nothing can throw (read two calls deep, at most 64 statements each: a
/// setter, a scoped holder's `release()`). Running out of memory is not
/// modelled: constructions and new-expressions do not count.
bool mayThrow(const Stmt &S);

/// S may throw (mayThrow) and there is evidence that it does: a throw
/// expression, or a call of a function whose body this translation unit
/// holds and throws out of it (a throw expression outside its try blocks,
/// or such a call; three bodies deep, 256 statements in all). A family that
/// reports what is lost on an exception path asks this, not mayThrow: a
/// callee declared without noexcept is not evidence by itself.
bool throwsVisibly(const Stmt &S);

/// The calls and throw expressions of FD's body (not of the
/// lambdas in it) that may throw (mayThrow) and sit in no try block of FD:
/// an exception there leaves FD. A try block counts whatever its handlers
/// catch (a handler may clean up and rethrow). In source order; at most
/// Max, the rest dropped (Truncated says so).
struct ExceptionExits {
  llvm::SmallVector<const Stmt *, 8> Points;
  bool Truncated = false;
};
ExceptionExits exceptionExits(const FunctionDecl &FD, unsigned Max);

} // namespace clang::interop

#endif // INTEROP_LIB_ENGINE_EXCEPTIONEDGES_H
