//===--- DLPackByteOffsetCheck.cpp - interop-dlpack-byte-offset -----------===//

#include "DLPackByteOffsetCheck.h"

#include "lib/dlpackfields/DLPackFieldFacts.h"
#include "lib/dlpackfields/DLPackFieldValues.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"

using namespace clang::ast_matchers;
using namespace clang::interop;

namespace clang::tidy::interop {

// Functions and constructors that take the address of a tensor's first
// element: framework tensor factories and host-array wrappers. memcpy-like
// calls and calls that also pass the tensor's shape are recognised without
// being listed.
static constexpr llvm::StringLiteral DefaultAddressConsumers =
    "::at::from_blob$;::torch::from_blob$;TFE_NewTensorHandleFromDeviceMemory$;"
    "::Eigen::Map$;^::pybind11::array;^::nanobind::ndarray;"
    "PyArray_SimpleNewFromData$;PyArray_New$;PyArray_NewFromDescr$;"
    "PyMemoryView_FromMemory$";

DLPackByteOffsetCheck::DLPackByteOffsetCheck(StringRef Name,
                                             ClangTidyContext *Context)
    : DLPackFieldCheckBase(Name, Context),
      AddressConsumers(
          nameListOption("AddressConsumers", DefaultAddressConsumers)),
      Consumers(splitOptionList(AddressConsumers)) {}

void DLPackByteOffsetCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "AddressConsumers", AddressConsumers);
  DLPackFieldCheckBase::storeOptions(Opts);
}

/// The note's fix-it (applied with --fix-notes): the read of `data`, `t->data`
/// or `t.data` spelled here, becomes the address of the first element,
/// `(void *)((char *)t->data + t->byte_offset)`, of the same type. None for
/// a read in a macro or through anything but a member of a named tensor.
static FixItHint addByteOffset(const Expr *FieldRead, ASTContext &Ctx) {
  const auto *ME =
      FieldRead ? dyn_cast<MemberExpr>(FieldRead->IgnoreParenImpCasts())
                : nullptr;
  if (!ME || ME->getBeginLoc().isMacroID() || ME->getEndLoc().isMacroID())
    return {};
  const SourceManager &SM = Ctx.getSourceManager();
  StringRef Base = Lexer::getSourceText(
      CharSourceRange::getTokenRange(ME->getBase()->getSourceRange()), SM,
      Ctx.getLangOpts());
  if (Base.empty())
    return {};
  std::string Access = (Base + (ME->isArrow() ? "->" : ".")).str();
  return FixItHint::CreateReplacement(
      ME->getSourceRange(), "(void *)((char *)" + Access + "data + " + Access +
                                "byte_offset)");
}

void DLPackByteOffsetCheck::checkFacts(const FunctionDecl &FD,
                                       const DLPackFieldFacts &Facts,
                                       ASTContext &Ctx) {
  llvm::DenseSet<const Expr *> Reported;
  for (const DLPackEvent &E : Facts.Events) {
    if (E.K != DLPackEvent::DataDeref && E.K != DLPackEvent::DataCallArg &&
        E.K != DLPackEvent::DataAddressTest &&
        E.K != DLPackEvent::DataStored && E.K != DLPackEvent::DataKept)
      continue;
    if (E.OffsetApplied || E.OffsetZeroProven)
      continue;
    // A class that reads byte_offset somewhere applies it where it reads
    // the pointer it kept.
    if (E.K == DLPackEvent::DataKept)
      if (const auto *RD = dyn_cast<CXXRecordDecl>(E.KeptIn->getParent());
          RD && dlpackfield::classReadsField(*RD, DLPackField::ByteOffset))
        continue;
    if (E.K == DLPackEvent::DataCallArg) {
      DataCallKind K = classifyDataCall(E, Consumers);
      if (K == DataCallKind::Other || K == DataCallKind::Dealloc)
        continue;
    }
    // One finding per read of `data`: the first use in source order.
    if (E.FieldRead && !Reported.insert(E.FieldRead).second)
      continue;
    if (E.K == DLPackEvent::DataKept)
      diag(E.Use->getBeginLoc(),
           "'data' kept in %0 as the address of the first element without "
           "adding 'byte_offset'")
          << E.KeptIn << E.Use->getSourceRange();
    else
      diag(E.Use->getBeginLoc(),
           "'data' used as the address of the first element without adding "
           "'byte_offset'")
          << E.Use->getSourceRange();
    if (E.FieldRead && E.FieldRead->getBeginLoc() != E.Use->getBeginLoc())
      diag(E.FieldRead->getBeginLoc(), "'data' read here", DiagnosticIDs::Note);
    diag(E.Use->getBeginLoc(),
         "add 'byte_offset' (in bytes) to 'data', or reject tensors whose "
         "'byte_offset' is not zero",
         DiagnosticIDs::Note)
        << addByteOffset(E.FieldRead, Ctx);
  }
}

} // namespace clang::tidy::interop
