//===--- DLPackOwnMembers.h - tensors a class builds itself -----*- C++ -*-===//
//
// A DLPack tensor held in a member is, by default, a producer's: a wrapper
// class keeps whatever tensor it was given, so its strides may be NULL and
// its data offset. A class that writes the layout of the tensor in its
// member (copies a shape or strides into it, assigns them) builds that
// tensor: it is a producer, and every read of the member's tensor in its
// methods reads what the class made (a video loader's frame-batch builder
// that allocates the tensor on its first frame and fills it on each). Not
// when the class also stores a whole tensor handed in into the member: a
// wrapper that copies the tensor it is given and then replaces its strides
// only when there are some keeps the producer's NULL ones. A runtime's
// array handle held in a member is the class's own when every tensor the
// class stores into it is one it allocates (MemoryCalls.h,
// tensorHandleAllocation: `data_ = Tensor::Empty(n, dtype, dev)`), a copy
// or move of the class aside: a growable buffer of the class's own.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_DLPACKFIELDS_DLPACKOWNMEMBERS_H
#define INTEROP_LIB_DLPACKFIELDS_DLPACKOWNMEMBERS_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

namespace clang::interop {

/// The member of `this` that E reads a tensor through (`dl.strides` with
/// `auto &dl = member->dl_tensor`, `this->member.get()->dl_tensor.data`,
/// through smart pointers and local references), or null.
const FieldDecl *thisMemberRootOf(const Expr *E);

/// True when M's class writes the shape or strides of the tensor M holds
/// (an assignment to them or to an element of them, or the destination of
/// a copy or fill call) in a method whose body is in this translation
/// unit, and never stores into M a whole tensor handed in (a parameter's,
/// or reached from one: `m = handle`, a constructor's `m(handle)`); or when
/// the class frees that tensor's data itself (`cudaFree(m->t.data)`,
/// `delete[] m.data`), as only its owner may; or when every whole value
/// the class stores into M (assignments, constructors' initialisers) is a
/// tensor handle it allocates, or M of another instance. One walk of the
/// class's methods, memoised per class.
bool isOwnTensorMember(const FieldDecl &M);

} // namespace clang::interop

#endif // INTEROP_LIB_DLPACKFIELDS_DLPACKOWNMEMBERS_H
