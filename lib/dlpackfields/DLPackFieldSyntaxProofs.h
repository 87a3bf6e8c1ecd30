//===--- DLPackFieldSyntaxProofs.h - DLPack facts by syntax -----*- C++ -*-===//
//
// The fast path in front of the DLPack field model (DLPackFieldModel.h), on
// the engine of GuardEngine.h. Correct bridge code reads a tensor in a few
// usual shapes:
//
//   if (t->device.device_type != kDLCPU) return -1;      // host memory
//   if (!mt || mt->version.major != DLPACK_MAJOR_VERSION) return -1;
//   if (mt->flags & DLPACK_FLAG_BITMASK_READ_ONLY) return -1;
//   int64_t step = t->strides ? t->strides[0] : 1;       // NULL strides
//   auto *p = reinterpret_cast<const float *>(
//       static_cast<const char *>(t->data) + t->byte_offset);
//
// When every read of `data` in a function has `byte_offset` added where it is
// read, behind a guard that proves the device type host-accessible, and the
// function looks at that tensor's strides (or proves them NULL); every
// dereference of `strides` is behind a NULL check; every access to a
// versioned tensor's `dl_tensor` or `flags` is behind a check of
// `version.major` that stays in release builds; and a pointer from a
// versioned tensor's `data` is read-only or behind a READ_ONLY check, then
// every event the field model would produce has every fact proven that any
// DLPack field check can ask (isFullyProven), and the model need not run.
//
// The tensors are named by member chains from the function's own variables
// (`mt->dl_tensor`, a reference or pointer local bound to one, a local copy
// of a field), and nothing may change what a guard tested: a function that
// writes any DLPack field or record, takes a field's address, reassigns a
// variable a chain starts from, passes a tensor to an importer (whose device
// type the model proves), or jumps past a guard goes to the flow model.
// Anything else the shapes do not cover goes there too: this pass only proves
// that nothing is to be reported, never that something is.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_LIB_DLPACKFIELDS_DLPACKFIELDSYNTAXPROOFS_H
#define INTEROP_LIB_DLPACKFIELDS_DLPACKFIELDSYNTAXPROOFS_H

#include "lib/dlpackfields/DLPackFieldConfig.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseMap.h"

namespace clang::interop {

/// True when the syntax of FD's body proves that every event the DLPack
/// field model would produce for FD is fully proven (isFullyProven), so that
/// no DLPack field check can report anything in FD, whatever its options.
bool proveDLPackFieldsBySyntax(const FunctionDecl &FD, ASTContext &Ctx,
                               const DLPackFieldConfig &Config,
                               const DLPackFieldCompiled &Compiled);

/// True when, in Enclosing, the guards around Lambda (where it is created)
/// prove the strides of the tensor Var names non-NULL, by the same shapes
/// as above, and nothing in Enclosing may change them. What a lambda reads
/// of a capture that cannot change (a copy, or a reference to const) holds
/// there, as for strides read in an immediately invoked lambda after
/// `if (is_compact(t)) return;`.
bool provesCapturedStridesNonNull(const FunctionDecl &Enclosing,
                                  const LambdaExpr &Lambda, const VarDecl &Var,
                                  ASTContext &Ctx,
                                  const DLPackFieldConfig &Config,
                                  const DLPackFieldCompiled &Compiled);

/// The memo of provesCapturedStridesNonNull for one translation unit: the
/// strides read at Read (`t.strides`) inside a lambda's call operator
/// Current, of a capture that cannot change (a copy, or a reference to
/// const), proven non-NULL by the enclosing function's guards where the
/// lambda is created; asked once per lambda and variable.
class CapturedStridesProofs {
public:
  bool nonNull(const Expr *Read, const FunctionDecl &Current,
               const DLPackFieldConfig &Config,
               const DLPackFieldCompiled &Compiled);

private:
  llvm::DenseMap<std::pair<const void *, const void *>, bool> Captured;
};

} // namespace clang::interop

#endif // INTEROP_LIB_DLPACKFIELDS_DLPACKFIELDSYNTAXPROOFS_H
