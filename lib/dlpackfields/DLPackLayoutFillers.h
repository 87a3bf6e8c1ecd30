//===--- DLPackLayoutFillers.h - locals a helper fills with a layout -*- C++
//-*-===//
//
// `read_layout(dt, shape, strides); make_view(dt.data, shape, strides)`: the
// arrays passed beside `data` are the tensor's layout when a call of the
// function handed them, with the tensor, to a same-TU helper whose body
// writes through that parameter a value read from a layout field (shape,
// strides, ndim, dtype), like MatX's dlpack_shape_and_strides. Read from
// the helper's body, never from its name; a helper without a body here
// fills nothing.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_DLPACKFIELDS_DLPACKLAYOUTFILLERS_H
#define INTEROP_LIB_DLPACKFIELDS_DLPACKLAYOUTFILLERS_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::interop {

class DLPackLayoutFillers {
public:
  /// Scans FD's body once for calls that fill locals with a tensor's layout.
  explicit DLPackLayoutFillers(const FunctionDecl &FD);

  /// The tensor arguments (DeclRefExprs of a DLTensor, by value, reference
  /// or pointer) of the calls that filled the local E names (an array or
  /// pointer variable, through decays and casts); empty for anything else.
  llvm::ArrayRef<const DeclRefExpr *> tensorsFilling(const Expr *E) const;

private:
  llvm::DenseMap<const VarDecl *, llvm::SmallVector<const DeclRefExpr *, 1>>
      Filled;
};

} // namespace clang::interop

#endif // INTEROP_LIB_DLPACKFIELDS_DLPACKLAYOUTFILLERS_H
