// Unit tests of lib/arraydevice/ArrayDeviceUnseenGuards.h: for a sink whose
// subject is not proven, the bool call without a visible body that guards
// it and would prove it if the API model listed it as a predicate.

#include "lib/arraydevice/ArrayDeviceUnseenGuards.h"

#include "lib/arraydevice/ArrayDeviceFacts.h"

#include "arraydevice/array_device_snippets.h"
#include "snippet_annotations.h"

#include "clang/AST/ASTContext.h"
#include "clang/Frontend/ASTUnit.h"

#include "gtest/gtest.h"

#include <map>
#include <string>
#include <vector>

using namespace clang;
using namespace clang::interop;

namespace {

const char *const Snippet = R"cpp(#include "interop/interop.h"
using namespace interop;
bool exportable(const Array &a);
bool usable(const Device &d);
int counted(const Array &a);
bool seen(const Array &a) { return a.num_devices() > 0; }
namespace mylib {
struct Checker {
  static bool fine(const Array &a);
};
}

void guarded(const Array &a) {
  if (exportable(a))
    (void)to_dlpack(a);
}
void early_return(const Array &a) {
  if (!exportable(a))
    return;
  (void)to_dlpack(a);
}
void static_member(const Array &a) {
  if (mylib::Checker::fine(a))
    (void)to_dlpack(a);
}
void imports(DLManagedTensor *t, const Device &d) {
  if (usable(d))
    (void)from_dlpack(t, d);
}
void negated(const Array &a) {
  if (!exportable(a))
    (void)to_dlpack(a);
}
void not_bool(const Array &a) {
  if (counted(a))
    (void)to_dlpack(a);
}
void visible_body(const Array &a) {
  if (seen(a))
    (void)to_dlpack(a);
}
void api_member(const Array &a) {
  if (a.is_fully_replicated())
    (void)to_dlpack(a);
}
void other_variable(const Array &a, const Array &b) {
  if (exportable(b))
    (void)to_dlpack(a);
}
void written(Array a, const Array &b) {
  if (exportable(a)) {
    a = b;
    (void)to_dlpack(a);
  }
}
void unguarded(const Array &a) {
  exportable(a);
  (void)to_dlpack(a);
}
void already_proven(const Array &a) {
  if (a.is_single_device() && exportable(a))
    (void)to_dlpack(a);
}
)cpp";

struct Found {
  /// The callee of the guard found by findUnseenGuards() itself, or "none".
  std::string Direct;
  /// The same, as the facts' post-processing left it.
  std::string ViaFacts;
};

/// The unseen guard of the one sink of each function of the snippet.
std::map<std::string, Found> unseenGuards() {
  std::map<std::string, Found> Out;
  auto AST = interop_test::parseInteropCode(Snippet);
  EXPECT_TRUE(AST);
  if (!AST)
    return Out;
  ASTContext &Ctx = AST->getASTContext();
  EXPECT_FALSE(Ctx.getDiagnostics().hasErrorOccurred());
  ApiModel M{ApiModelOptions()};
  ArrayDeviceQuery Query({ApiModelOptions(), FlowBounds()});
  auto Name = [](const CallExpr *CE) {
    return CE ? CE->getDirectCallee()->getNameAsString() : std::string("none");
  };
  using namespace clang::ast_matchers;
  for (const BoundNodes &N :
       match(functionDecl(isDefinition(), isExpansionInMainFile(),
                          hasBody(hasDescendant(callExpr())))
                 .bind("fn"),
             Ctx)) {
    const auto *FD = N.getNodeAs<FunctionDecl>("fn");
    const ArrayDeviceFacts &F = Query.facts(*FD, Ctx);
    if (F.Events.size() != 1)
      continue;
    std::vector<SinkFact> Events = F.Events;
    Events[0].UnseenGuard = nullptr;
    findUnseenGuards(M, *FD, Events);
    Out[FD->getNameAsString()] = {Name(Events[0].UnseenGuard),
                                  Name(F.Events[0].UnseenGuard)};
  }
  return Out;
}

TEST(ArrayDeviceUnseenGuards, BoolCallsWithoutABodyThatGuardTheSink) {
  auto Got = unseenGuards();
  EXPECT_EQ(Got["guarded"].Direct, "exportable");
  EXPECT_EQ(Got["early_return"].Direct, "exportable");
  // A static member of a type the model does not know.
  EXPECT_EQ(Got["static_member"].Direct, "fine");
  // An import's subject is the target device.
  EXPECT_EQ(Got["imports"].Direct, "usable");
  // The facts' post-processing finds the same.
  for (const char *Fn : {"guarded", "early_return", "static_member", "imports"})
    EXPECT_EQ(Got[Fn].ViaFacts, Got[Fn].Direct) << Fn;
}

TEST(ArrayDeviceUnseenGuards, NoGuardToName) {
  auto Got = unseenGuards();
  for (const char *Fn :
       {"negated", "not_bool", "visible_body", "api_member", "other_variable",
        "written", "unguarded", "already_proven"}) {
    ASSERT_TRUE(Got.count(Fn)) << Fn << " has no single sink";
    EXPECT_EQ(Got[Fn].Direct, "none") << Fn;
    EXPECT_EQ(Got[Fn].ViaFacts, "none") << Fn;
  }
}

} // namespace
