// Unit tests of lib/dlpackfields/DLPackWrittenDeviceTypes.h: a producer
// that writes a constant device type into its own tensor and imports it
// makes an import whose device type is known; any other write leaves it
// unknown. Run through the field model (the writes are noted during its
// transfer, read back when an import is judged).

#include "lib/dlpackfields/DLPackFieldFacts.h"

#include "dlpack_snippets.h"
#include "snippet_annotations.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"

#include "gtest/gtest.h"

#include <map>
#include <string>

using namespace clang;
using namespace clang::interop;
using namespace interop_test;

namespace {

/// Per function of the snippet, its imports' proven device types and where
/// each was written, as "7@-1" (the write's line offset from the import),
/// one per import event, space-separated; "" when no import has one.
std::map<std::string, std::string> importsOf(llvm::StringRef Snippet) {
  resetFactCache();
  std::map<std::string, std::string> Out;
  ParsedSnippet P = parseSnippet(DLPackPrelude, Snippet, DLPackSnippetArgs);
  EXPECT_EQ(P.Error, "");
  if (!P.Error.empty())
    return Out;
  ASTContext &Ctx = P.AST->getASTContext();
  const SourceManager &SM = Ctx.getSourceManager();
  DLPackFieldConfig Config;
  Config.SyntacticProofs = false;
  for (const FunctionDecl *FD : P.Functions) {
    const DLPackFieldFacts &F = getDLPackFieldFacts(*FD, Ctx, Config);
    std::string &Text = Out[FD->getNameAsString()];
    if (F.Skipped != SkipReason::None) {
      Text = "skipped";
      continue;
    }
    for (const DLPackEvent &E : F.Events) {
      if (E.K != DLPackEvent::TensorCallArg || !E.ProvenDeviceType)
        continue;
      std::string At = "none";
      if (E.DeviceCheck)
        At = std::to_string(int(lineOf(SM, E.DeviceCheck->getBeginLoc())) -
                            int(lineOf(SM, E.Use->getBeginLoc())));
      Text += (Text.empty() ? "" : " ") + std::to_string(*E.ProvenDeviceType) +
              "@" + At;
    }
  }
  return Out;
}

TEST(DLPackWrittenDeviceTypes, ConstantsWrittenIntoTheOwnTensor) {
  auto Got = importsOf(R"cpp(
void braced(DLManagedTensor *mt, const interop::Device &d) {
  mt->dl_tensor.device = DLDevice{kDLVulkan, 0};
  interop::from_dlpack(mt, d);
}
void field(DLManagedTensor *mt, const interop::Device &d) {
  mt->dl_tensor.device.device_type = kDLCUDA;
  mt->dl_tensor.device.device_id = 3;
  interop::from_dlpack(mt, d);
}
void cast_constant(DLManagedTensor *mt, const interop::Device &d) {
  mt->dl_tensor.device.device_type = static_cast<DLDeviceType>(10);
  interop::from_dlpack(mt, d);
}
void rewritten(DLManagedTensor *mt, const interop::Device &d) {
  mt->dl_tensor.device.device_type = kDLCPU;
  mt->dl_tensor.device.device_type = kDLMetal;
  interop::from_dlpack(mt, d);
}
)cpp");
  EXPECT_EQ(Got["braced"], "7@-1");
  EXPECT_EQ(Got["field"], "2@-2");
  EXPECT_EQ(Got["cast_constant"], "10@-1");
  // The last write counts.
  EXPECT_EQ(Got["rewritten"], "8@-1");
}

TEST(DLPackWrittenDeviceTypes, WriterReadFromItsBody) {
  auto Got = importsOf(R"cpp(
inline void set_type(DLDevice &device, int raw) noexcept {
  __builtin_memcpy(&device.device_type, &raw, sizeof(raw));
}
inline void set_type_by_name_only(DLDevice &device, int raw) noexcept {
  (void)device;
  (void)raw;
}
inline void two_statements(DLDevice &device, int raw) noexcept {
  __builtin_memcpy(&device.device_type, &raw, sizeof(raw));
  device.device_id = 0;
}
void through_writer(DLManagedTensor *mt, const interop::Device &d) {
  set_type(mt->dl_tensor.device, kDLROCM);
  interop::from_dlpack(mt, d);
}
void writer_of_a_variable(DLManagedTensor *mt, const interop::Device &d,
                          int raw) {
  set_type(mt->dl_tensor.device, raw);
  interop::from_dlpack(mt, d);
}
void not_a_writer(DLManagedTensor *mt, const interop::Device &d) {
  set_type_by_name_only(mt->dl_tensor.device, kDLROCM);
  interop::from_dlpack(mt, d);
}
void not_only_a_writer(DLManagedTensor *mt, const interop::Device &d) {
  two_statements(mt->dl_tensor.device, kDLROCM);
  interop::from_dlpack(mt, d);
}
)cpp");
  EXPECT_EQ(Got["through_writer"], "10@-1");
  EXPECT_EQ(Got["writer_of_a_variable"], "");
  EXPECT_EQ(Got["not_a_writer"], "");
  EXPECT_EQ(Got["not_only_a_writer"], "");
}

TEST(DLPackWrittenDeviceTypes, UnknownWrites) {
  auto Got = importsOf(R"cpp(
void variable(DLManagedTensor *mt, const interop::Device &d, DLDeviceType t) {
  mt->dl_tensor.device.device_type = t;
  interop::from_dlpack(mt, d);
}
void braced_variable(DLManagedTensor *mt, const interop::Device &d,
                     DLDeviceType t) {
  mt->dl_tensor.device = DLDevice{t, 0};
  interop::from_dlpack(mt, d);
}
void one_path(DLManagedTensor *mt, const interop::Device &d, bool b) {
  if (b)
    mt->dl_tensor.device.device_type = kDLCUDA;
  interop::from_dlpack(mt, d);
}
void unwritten(DLManagedTensor *mt, const interop::Device &d) {
  interop::from_dlpack(mt, d);
}
)cpp");
  EXPECT_EQ(Got["variable"], "");
  EXPECT_EQ(Got["braced_variable"], "");
  EXPECT_EQ(Got["one_path"], "");
  EXPECT_EQ(Got["unwritten"], "");
}

} // namespace
