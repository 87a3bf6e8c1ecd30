//===--- TpuDLPackMemoryKindCheck.cpp - interop-tpu-dlpack-memory-kind ----===//

#include "TpuDLPackMemoryKindCheck.h"

using namespace clang::interop;

namespace clang::tidy::interop {

TpuDLPackMemoryKindCheck::TpuDLPackMemoryKindCheck(StringRef Name,
                                                   ClangTidyContext *Context)
    : ArrayDeviceCheckBase(Name, Context, SinkKind::Export, TpuMemoryFacts) {}

bool TpuDLPackMemoryKindCheck::judge(const SinkFact &Fact, ASTContext &Ctx) {
  // Only arrays known to be on TPU: the export of an array whose platform is
  // unknown is not this check's business (most arrays are not on TPU).
  if (Fact.Tpu != Proof::Holds || Fact.PinnedHost == Proof::Holds)
    return false;
  std::string Gather = roleName(FnRole::SingleDeviceProducer, "gather");
  if (Fact.PinnedHost == Proof::Refuted) {
    // Which memory it is in instead, when that is proven too.
    StringRef Where = Fact.DeviceMemory == Proof::Holds ? ": it is in TPU "
                                                          "device memory"
                      : Fact.DeviceMemory == Proof::Refuted
                          ? ": it is in unpinned host memory"
                          : "";
    diag(Fact.Call->getBeginLoc(),
         "'%0' of TPU array %1, which is not in pinned host memory on this "
         "path; the call will always fail%2")
        << calleeName(*Fact.Call) << subjectText(Fact, Ctx) << Where
        << Fact.Subject->getSourceRange();
  } else
    diag(Fact.Call->getBeginLoc(),
         "'%0' of TPU array %1, whose memory kind is not proven to be pinned "
         "host; TPU device memory cannot be exported through DLPack")
        << calleeName(*Fact.Call) << subjectText(Fact, Ctx)
        << Fact.Subject->getSourceRange();
  if (Fact.PinnedHost != Proof::Refuted)
    noteOrigin(Fact, "in pinned host memory");
  diag(Fact.Call->getBeginLoc(),
       "copy the array into pinned host memory first ('%0' with a pinned "
       "host memory kind), or exchange it through host memory",
       DiagnosticIDs::Note)
      << Gather;
  return true;
}

} // namespace clang::tidy::interop
