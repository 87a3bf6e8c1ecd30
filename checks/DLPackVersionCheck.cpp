//===--- DLPackVersionCheck.cpp - interop-dlpack-version ------------------===//

#include "DLPackVersionCheck.h"

#include "lib/support/AstHelpers.h"
#include "lib/support/NameLists.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang::ast_matchers;
using namespace clang::interop;

namespace clang::tidy::interop {

static std::string defaultAssertMacros() {
  return llvm::join(DLPackFieldConfig().DebugOnlyAssertMacros, ";");
}

DLPackVersionCheck::DLPackVersionCheck(StringRef Name,
                                       ClangTidyContext *Context)
    : DLPackFieldCheckBase(Name, Context),
      DebugOnlyAssertMacros(
          Options.get("DebugOnlyAssertMacros", defaultAssertMacros())),
      CheckReadOnly(Options.get("CheckReadOnly", true)) {
  Config.DebugOnlyAssertMacros = optionStrings(DebugOnlyAssertMacros);
}

void DLPackVersionCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "DebugOnlyAssertMacros", DebugOnlyAssertMacros);
  Options.store(Opts, "CheckReadOnly", CheckReadOnly);
  DLPackFieldCheckBase::storeOptions(Opts);
}

void DLPackVersionCheck::checkFacts(const FunctionDecl &FD,
                                    const DLPackFieldFacts &Facts,
                                    ASTContext &Ctx) {
  // One finding per managed tensor and kind of finding.
  llvm::DenseSet<const Decl *> ReportedVersion, ReportedReadOnly;
  for (const DLPackEvent &E : Facts.Events) {
    if (E.K == DLPackEvent::VersionedAccess && !E.MajorChecked) {
      const Decl *Root = memberChainRoot(E.Use);
      if (Root && !ReportedVersion.insert(Root).second)
        continue;
      StringRef Field =
          cast<MemberExpr>(E.Use)->getMemberDecl()->getName() == "flags"
              ? "flags"
              : "dl_tensor";
      if (E.MajorAssertedOnly) {
        diag(E.Use->getExprLoc(),
             "'%0' of a versioned tensor used with 'version.major' checked "
             "only by an assertion that is compiled out under NDEBUG")
            << Field;
        if (E.AssertCheck)
          diag(E.AssertCheck->getBeginLoc(), "the only check is here",
               DiagnosticIDs::Note);
      } else {
        diag(E.Use->getExprLoc(), "'%0' of a versioned tensor used without "
                                  "checking 'version.major' on this path")
            << Field;
      }
      diag(E.Use->getExprLoc(),
           "a consumer that does not support the major version must call the "
           "deleter and touch no other field",
           DiagnosticIDs::Note);
      continue;
    }
    if (!CheckReadOnly || !E.IsWrite || !E.FromVersioned ||
        E.ReadOnlyClearProven)
      continue;
    if (E.K != DLPackEvent::DataDeref && E.K != DLPackEvent::DataCallArg)
      continue;
    const Decl *Root = memberChainRoot(E.FieldRead ? E.FieldRead : E.Use);
    if (Root && !ReportedReadOnly.insert(Root).second)
      continue;
    diag(E.Use->getBeginLoc(), "write through 'data' of a versioned tensor "
                               "without checking its READ_ONLY flag")
        << E.Use->getSourceRange();
    if (E.FieldRead && E.FieldRead->getBeginLoc() != E.Use->getBeginLoc())
      diag(E.FieldRead->getBeginLoc(), "'data' read here", DiagnosticIDs::Note);
    diag(E.Use->getBeginLoc(),
         "test 'flags & DLPACK_FLAG_BITMASK_READ_ONLY' and copy instead of "
         "writing when it is set",
         DiagnosticIDs::Note);
  }
}

} // namespace clang::tidy::interop
