//===--- ShardedDLPackExportCheck.cpp - interop-sharded-dlpack-export -----===//

#include "ShardedDLPackExportCheck.h"

using namespace clang::interop;

namespace clang::tidy::interop {

ShardedDLPackExportCheck::ShardedDLPackExportCheck(StringRef Name,
                                                   ClangTidyContext *Context)
    : ArrayDeviceCheckBase(Name, Context, SinkKind::Export, SingleDeviceFacts) {
}

bool ShardedDLPackExportCheck::judge(const SinkFact &Fact, ASTContext &Ctx) {
  if (Fact.SingleDevice == Proof::Holds)
    return false;
  if (Fact.SingleDevice == Proof::Refuted) {
    std::string Gather = roleName(FnRole::SingleDeviceProducer, "gather");
    diag(Fact.Call->getBeginLoc(),
         "'%0' needs an array on a single device, but %1 is sharded over "
         "more than one device on this path; the call will always fail")
        << calleeName(*Fact.Call) << subjectText(Fact, Ctx)
        << Fact.Subject->getSourceRange();
    diag(Fact.Call->getBeginLoc(),
         "copy the array onto one device with '%0' before exporting it",
         DiagnosticIDs::Note)
        << Gather << gatherFix(Fact, Ctx);
    return true;
  }
  diag(Fact.Call->getBeginLoc(),
       "'%0' needs an array on a single device, but %1 is not proven to be "
       "single-device on every path to this call")
      << calleeName(*Fact.Call) << subjectText(Fact, Ctx)
      << Fact.Subject->getSourceRange();
  noteOrigin(Fact, "on a single device");
  noteUnseenGuard(Fact);
  noteGuardOrGather(Fact, Ctx);
  return true;
}

} // namespace clang::tidy::interop
