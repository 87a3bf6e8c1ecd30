// Unit tests of the DLPack field family's pre-filter
// (lib/dlpackfields/DLPackFieldPreFilter.h).

#include "lib/abi/TranslationUnitNames.h"
#include "lib/dlpackfields/DLPackFieldFacts.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringExtras.h"

#include "dlpack_snippets.h"
#include "snippet_annotations.h"
#include "syntax_vs_flow.h"
#include "gtest/gtest.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

using namespace clang;
using namespace clang::interop;
using namespace clang::ast_matchers;
using namespace interop_test;

namespace {

const char *const Prelude = DLPackPrelude;

TEST(DLPackPreFilter, WhatAFunctionUses) {
  resetFactCache();
  auto AST = parseDLPackCode(std::string(Prelude) + R"cpp(
void producer(DLTensor &t, void *buffer, int64_t *shape) {
  t.data = buffer;
  t.strides = nullptr;
  t.shape = shape;
}
float reader(const DLTensor *t) { return *static_cast<float *>(t->data); }
int64_t versioned(DLManagedTensorVersioned *t) { return t->flags; }
int type_only(const DLTensor *t) { return t->device.device_type; }
void importer(DLManagedTensor *mt, const interop::Device &d) {
  if (mt->dl_tensor.device.device_type == kDLCPU)
    interop::from_dlpack(mt, d);
}
const char *name(DLDeviceType type) {
  switch (type) {
  case kDLCPU:
    return "cpu";
  default:
    return nullptr;
  }
}
)cpp");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  ASSERT_FALSE(Ctx.getDiagnostics().hasErrorOccurred());
  auto Use = [&](llvm::StringRef Name) {
    return dlpackUseOf(*functionNamed(Ctx, Name));
  };
  // Writing fields (a producer filling in its own tensor) reads nothing.
  EXPECT_FALSE(Use("producer").ReadsModelledFields);
  EXPECT_FALSE(Use("producer").MapsDeviceTypes);
  EXPECT_TRUE(
      getDLPackFieldFacts(*functionNamed(Ctx, "producer"), Ctx).Events.empty());
  EXPECT_TRUE(Use("reader").ReadsModelledFields);
  EXPECT_TRUE(Use("versioned").ReadsModelledFields);
  // A device type matters only with a tensor passed to a call.
  EXPECT_FALSE(Use("type_only").ReadsModelledFields);
  EXPECT_TRUE(Use("importer").ReadsModelledFields);
  EXPECT_FALSE(Use("importer").MapsDeviceTypes);
  // A switch over a device type is a mapping.
  EXPECT_TRUE(Use("name").MapsDeviceTypes);
  EXPECT_FALSE(Use("name").ReadsModelledFields);
  resetFactCache();
}

} // namespace
