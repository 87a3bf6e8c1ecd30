//===--- ReturnedTensors.h - tensors a function returns ---------*- C++ -*-===//
//
// A callee contract read from a body of the translation unit: a function
// that allocates or fills the DLPack tensor it returns is a producer, like
// one TensorSources names. Its callers hold their own export (the field
// checks read it where it is made, never as an import) and, when the
// function hands over a fresh managed tensor and keeps nothing of it, own
// it (the ownership checks track it as they track a TensorSources call's
// result). One walk per function and translation unit answers both.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_ABI_RETURNEDTENSORS_H
#define INTEROP_LIB_ABI_RETURNEDTENSORS_H

#include "clang/AST/Decl.h"

namespace clang::interop {

/// How a function of this translation unit makes the DLPack tensor it
/// returns.
struct ReturnedTensor {
  /// Every return is NULL or a tensor the body builds itself: a `new` of
  /// the record, or a local the body writes a DLPack field of
  /// (`m.dl_tensor.data = ...`, `m->deleter = ...`) that is either a record
  /// of its own (returned by value) or a pointer only ever set to an
  /// allocation (`new`, a cast of `malloc`) or NULL; and at least one
  /// return is not NULL. A tensor returned from a parameter or a copy of
  /// one, on any path, is not built.
  bool Built = false;
  /// Built, returned as a pointer to a managed tensor, and nothing but its
  /// fields is used on the way (no call is given the pointer, nothing else
  /// stores it; freeing it on a path that returns NULL is fine): the caller
  /// owns what it gets.
  bool Fresh = false;
};

/// Callee's ReturnedTensor, read from its definition in this translation
/// unit (none without one); memoised per function.
const ReturnedTensor &returnedTensorOf(const FunctionDecl &Callee);

/// returnedTensorOf(Callee).Built.
inline bool returnsOwnTensor(const FunctionDecl &Callee) {
  return returnedTensorOf(Callee).Built;
}

} // namespace clang::interop

#endif // INTEROP_LIB_ABI_RETURNEDTENSORS_H
