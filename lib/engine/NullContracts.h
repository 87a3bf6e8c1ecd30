//===--- NullContracts.h - callees that need a non-NULL argument -*- C++ -*-===//
//
// A callee contract for every family: a function whose body dereferences a
// pointer parameter before anything could have tested it (`void
// consume(DLManagedTensor *t) { use(t->dl_tensor); ... }`) crashes on a NULL
// argument, so passing it a pointer that may be NULL is a dereference at the
// call. Read from the same-TU body, once per callee and translation unit.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_ENGINE_NULLCONTRACTS_H
#define INTEROP_LIB_ENGINE_NULLCONTRACTS_H

#include "clang/AST/Decl.h"

namespace clang::interop {

/// Whether Callee's visible body dereferences (`p->f`, `*p`, `p[i]`) its
/// pointer parameter I in a statement that runs unconditionally, before any
/// other use of the parameter: before a test, a store, a call that receives
/// it, or any statement that branches on it. False without a body, and for
/// a parameter of no pointer type.
bool dereferencesBeforeTest(const FunctionDecl &Callee, unsigned I);

} // namespace clang::interop

#endif // INTEROP_LIB_ENGINE_NULLCONTRACTS_H
