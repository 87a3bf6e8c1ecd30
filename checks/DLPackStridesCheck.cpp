//===--- DLPackStridesCheck.cpp - interop-dlpack-strides ------------------===//

#include "DLPackStridesCheck.h"

#include "lib/dlpackfields/DLPackFieldFacts.h"
#include "lib/dlpackfields/DLPackFieldValues.h"
#include "lib/support/AstHelpers.h"

#include "clang/AST/Expr.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang::ast_matchers;
using namespace clang::interop;

namespace clang::tidy::interop {

// Calls that take a data pointer and a byte count or an element count and
// read it as one contiguous block. memcpy-like calls are recognised without
// being listed.
static constexpr llvm::StringLiteral DefaultCompactConsumers =
    "::at::from_blob$;::torch::from_blob$;TFE_NewTensorHandleFromDeviceMemory$;"
    "::Eigen::Map$;PyArray_SimpleNewFromData$;PyMemoryView_FromMemory$";

DLPackStridesCheck::DLPackStridesCheck(StringRef Name,
                                       ClangTidyContext *Context)
    : DLPackFieldCheckBase(Name, Context),
      CompactConsumers(
          nameListOption("CompactConsumers", DefaultCompactConsumers)),
      CheckCompactUse(Options.get("CheckCompactUse", true)),
      Consumers(splitOptionList(CompactConsumers)) {}

void DLPackStridesCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "CompactConsumers", CompactConsumers);
  Options.store(Opts, "CheckCompactUse", CheckCompactUse);
  DLPackFieldCheckBase::storeOptions(Opts);
}

void DLPackStridesCheck::checkFacts(const FunctionDecl &FD,
                                    const DLPackFieldFacts &Facts,
                                    ASTContext &Ctx) {
  llvm::DenseSet<const Expr *> Reported;
  // Which callees may read strides (mayConsiderStrides), for this function.
  llvm::DenseMap<const FunctionDecl *, bool> StridesMemo;
  for (const DLPackEvent &E : Facts.Events) {
    if (E.K == DLPackEvent::StridesDeref) {
      if (E.NonNullProven)
        continue;
      if (E.FieldRead && !Reported.insert(E.FieldRead).second)
        continue;
      if (E.StridesAsRange)
        diag(E.Use->getBeginLoc(), "'strides' passed as an array of 'ndim' "
                                   "elements without a NULL check on this "
                                   "path")
            << E.Use->getSourceRange();
      else
        diag(E.Use->getBeginLoc(),
             "'strides' dereferenced without a NULL check on this path")
            << E.Use->getSourceRange();
      if (E.FieldRead && E.FieldRead->getBeginLoc() != E.Use->getBeginLoc())
        diag(E.FieldRead->getBeginLoc(), "'strides' read here",
             DiagnosticIDs::Note);
      diag(
          E.Use->getBeginLoc(),
          "a NULL 'strides' means a compact row-major tensor; producers before "
          "DLPack 1.2 may send it",
          DiagnosticIDs::Note);
      continue;
    }
    if (!CheckCompactUse)
      continue;
    if (E.K != DLPackEvent::DataDeref && E.K != DLPackEvent::DataCallArg &&
        E.K != DLPackEvent::DataKept)
      continue;
    if (E.StridesNullProven || E.StridesConsidered)
      continue;
    DataCallKind Kind = DataCallKind::Other;
    if (E.K == DLPackEvent::DataKept) {
      // The object keeps the data and the shape, and nothing of it reads
      // the strides: it can only index the data as compact. Another
      // object's readers may be anywhere: they are not judged.
      if (!E.KeptByThis || !E.KeptWithShape ||
          dlpackfield::classMayConsiderStrides(
              *cast<CXXRecordDecl>(E.KeptIn->getParent()), StridesMemo))
        continue;
    } else if (E.K == DLPackEvent::DataCallArg) {
      Kind = classifyDataCall(E, Consumers);
      // A call given the shape alone reads the data as that shape, unless
      // the function looks at strides anywhere or hands a tensor to code
      // that may (by syntax: the flow facts follow one tensor object, and
      // a check on a copy or on the managed tensor around it counts too).
      if (Kind == DataCallKind::WithShapeOnly &&
          dlpackfield::mayConsiderStrides(FD, StridesMemo))
        continue;
      if (Kind == DataCallKind::Other || Kind == DataCallKind::Dealloc ||
          Kind == DataCallKind::WithLayout)
        continue;
    } else if (readsOnlyFirstElement(E.Use, Ctx)) {
      continue;
    }
    if (E.FieldRead && !Reported.insert(E.FieldRead).second)
      continue;
    if (Kind == DataCallKind::Copy)
      diag(E.Use->getBeginLoc(), "tensor data copied as one compact block, "
                                 "but its 'strides' are never checked")
          << E.Use->getSourceRange();
    else if (Kind == DataCallKind::WithShapeOnly)
      diag(E.Use->getBeginLoc(),
           "tensor data passed to %0 with the tensor's shape, as one compact "
           "block, but its 'strides' are never checked")
          << calleeNameForDiagnostic(E.Callee) << E.Use->getSourceRange();
    else if (E.K == DLPackEvent::DataKept)
      diag(E.Use->getBeginLoc(),
           "tensor data kept in %0 with the tensor's shape, as one compact "
           "block, but its 'strides' are never checked")
          << E.KeptIn << E.Use->getSourceRange();
    else if (E.K == DLPackEvent::DataCallArg)
      diag(E.Use->getBeginLoc(), "tensor data passed to %0 as one compact "
                                 "block, but its 'strides' are never checked")
          << calleeNameForDiagnostic(E.Callee) << E.Use->getSourceRange();
    else
      diag(E.Use->getBeginLoc(), "tensor data indexed as if compact, but its "
                                 "'strides' are never checked")
          << E.Use->getSourceRange();
    if (E.FieldRead && E.FieldRead->getBeginLoc() != E.Use->getBeginLoc())
      diag(E.FieldRead->getBeginLoc(), "'data' read here", DiagnosticIDs::Note);
    diag(E.Use->getBeginLoc(),
         "non-NULL 'strides' may be non-compact (transposed, broadcast, "
         "sliced); compare them with the compact strides or reject them",
         DiagnosticIDs::Note);
  }
}

} // namespace clang::tidy::interop
