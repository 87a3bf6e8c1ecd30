//===--- NonaddressableDLPackImportCheck.cpp - imports onto other devices -===//

#include "NonaddressableDLPackImportCheck.h"

using namespace clang::interop;

namespace clang::tidy::interop {

NonaddressableDLPackImportCheck::NonaddressableDLPackImportCheck(
    StringRef Name, ClangTidyContext *Context)
    : ArrayDeviceCheckBase(Name, Context, SinkKind::Import, AddressableFacts),
      Strict(Options.get("Strict", false)) {}

void NonaddressableDLPackImportCheck::storeOptions(
    ClangTidyOptions::OptionMap &Opts) {
  ArrayDeviceCheckBase::storeOptions(Opts);
  Options.store(Opts, "Strict", Strict);
}

bool NonaddressableDLPackImportCheck::judge(const SinkFact &Fact,
                                            ASTContext &Ctx) {
  if (Fact.Addressable == Proof::Holds)
    return false;
  bool FromGlobalList = Fact.From.K == Origin::GlobalDevices;
  std::string Local = roleName(FnRole::AddressableDeviceSource, "");
  std::string Check = roleName(FnRole::AddressablePredicate, "is_addressable");
  if (Fact.Addressable == Proof::Refuted) {
    diag(Fact.Call->getBeginLoc(),
         "'%0' imports onto device %1, which is not addressable by this "
         "process on this path; the call will always fail")
        << calleeName(*Fact.Call) << subjectText(Fact, Ctx)
        << Fact.Subject->getSourceRange();
  } else if (FromGlobalList) {
    diag(Fact.Call->getBeginLoc(),
         "'%0' imports onto device %1, taken from a list of every process's "
         "devices, with no addressability check on this path")
        << calleeName(*Fact.Call) << subjectText(Fact, Ctx)
        << Fact.Subject->getSourceRange();
  } else if (Strict) {
    diag(Fact.Call->getBeginLoc(),
         "'%0' imports onto device %1, which is not proven to be addressable "
         "by this process")
        << calleeName(*Fact.Call) << subjectText(Fact, Ctx)
        << Fact.Subject->getSourceRange();
  } else {
    return false;
  }
  if (Fact.Addressable != Proof::Refuted)
    noteOrigin(Fact, "addressable by this process");
  noteUnseenGuard(Fact);
  if (Local.empty())
    diag(Fact.Call->getBeginLoc(), "check '%0()' first", DiagnosticIDs::Note)
        << Check;
  else
    diag(Fact.Call->getBeginLoc(),
         "check '%0()' first, or take the device from '%1()'",
         DiagnosticIDs::Note)
        << Check << Local;
  return true;
}

} // namespace clang::tidy::interop
