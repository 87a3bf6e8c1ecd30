// Unit tests of lib/arraydevice/ArrayDeviceEquivalentForms.h: a device's
// process index compared with this process's is its addressability (the
// accessors and sources are options), a lambda's capture of this process's
// index keeps that meaning, and a glvalue conditional keeps what each arm
// proves.

#include "lib/arraydevice/ArrayDeviceEquivalentForms.h"

#include "arraydevice/array_device_snippets.h"
#include "ast_search.h"
#include "snippet_annotations.h"
#include "syntax_vs_flow.h"

#include "clang/AST/ASTContext.h"
#include "clang/Analysis/FlowSensitive/DataflowAnalysisContext.h"
#include "clang/Analysis/FlowSensitive/WatchedLiteralsSolver.h"

#include "gtest/gtest.h"

#include <memory>
#include <string>
#include <vector>

using namespace clang;
using namespace clang::interop;
using namespace clang::interop::arraydevice;
using namespace clang::dataflow;
using interop_test::firstNode;
using interop_test::proofName;

namespace {

using Sinks = std::vector<std::string>;

TEST(ArrayDeviceEquivalentForms, ProcessIndexReads) {
  auto AST = interop_test::parseInteropCode(R"cpp(#include "interop/interop.h"
using namespace interop;
void f(const Device &d) {
  (void)d.process_index();
  (void)current_topology().process_index;
  (void)d.id();
  (void)current_topology().process_count;
}
)cpp");
  ASSERT_TRUE(AST);
  const FunctionDecl *F =
      interop_test::functionNamed(AST->getASTContext(), "f");
  std::vector<const Stmt *> Reads;
  for (const Stmt *S : cast<CompoundStmt>(F->getBody())->body())
    Reads.push_back(cast<CStyleCastExpr>(cast<Expr>(S)->IgnoreImplicit())
                        ->getSubExpr()
                        ->IgnoreImplicit());
  ASSERT_EQ(Reads.size(), 4u);
  ApiModel M{ApiModelOptions()};
  EXPECT_TRUE(readsProcessIndex(M, *Reads[0]));
  EXPECT_TRUE(readsProcessIndex(M, *Reads[1]));
  EXPECT_FALSE(readsProcessIndex(M, *Reads[2]));
  EXPECT_FALSE(readsProcessIndex(M, *Reads[3]));
  // The accessor and the source are options, not names.
  ApiModelOptions None;
  None.ProcessIndexFunctions = "";
  None.CurrentProcessIndexSources = "";
  ApiModel Unlisted{None};
  EXPECT_FALSE(readsProcessIndex(Unlisted, *Reads[0]));
  EXPECT_FALSE(readsProcessIndex(Unlisted, *Reads[1]));
}

TEST(ArrayDeviceEquivalentForms, CapturedCurrentProcessIndex) {
  auto AST = interop_test::parseInteropCode(R"cpp(
void f() {
  int me = 0;
  double ratio = 0;
  int unplaced = 0;
}
)cpp");
  ASSERT_TRUE(AST);
  const FunctionDecl *F =
      interop_test::functionNamed(AST->getASTContext(), "f");
  auto Var = [&](llvm::StringRef Name) {
    const DeclStmt *D =
        firstNode<DeclStmt>(F->getBody(), [&](const DeclStmt &S) {
          return cast<VarDecl>(S.getSingleDecl())->getName() == Name;
        });
    return cast<VarDecl>(D->getSingleDecl());
  };
  DataflowAnalysisContext DACtx(std::make_unique<WatchedLiteralsSolver>());
  Environment Env(DACtx);
  const VarDecl *Me = Var("me"), *Ratio = Var("ratio"),
                *Unplaced = Var("unplaced");
  Env.setStorageLocation(*Me, Env.createStorageLocation(*Me));
  Env.setStorageLocation(*Ratio, Env.createStorageLocation(*Ratio));
  EXPECT_FALSE(holdsCurrentProcessIndex(*Me, Env));
  setCurrentProcessIndex(*Me, Env);
  EXPECT_TRUE(holdsCurrentProcessIndex(*Me, Env));
  // Not an integer; no storage to give it to.
  setCurrentProcessIndex(*Ratio, Env);
  EXPECT_FALSE(holdsCurrentProcessIndex(*Ratio, Env));
  setCurrentProcessIndex(*Unplaced, Env);
  EXPECT_FALSE(holdsCurrentProcessIndex(*Unplaced, Env));
}

std::string addressable(const SinkFact &F) { return proofName(F.Addressable); }
std::string single(const SinkFact &F) { return proofName(F.SingleDevice); }

TEST(ArrayDeviceEquivalentForms, ProcessIndexComparisons) {
  auto AST = interop_test::parseInteropCode(R"cpp(#include "interop/interop.h"
using namespace interop;
void compared(DLManagedTensor *t, const Device &d) {
  if (d.process_index() == current_topology().process_index)
    (void)from_dlpack(t, d);
  if (current_topology().process_index != d.process_index())
    (void)from_dlpack(t, d);
  if (d.process_index() == 0)
    (void)from_dlpack(t, d);
  (void)from_dlpack(t, d);
}
void stored(DLManagedTensor *t, const Device &d) {
  const int me = current_topology().process_index;
  const int owner = d.process_index();
  if (owner != me)
    return;
  (void)from_dlpack(t, d);
}
void captured(DLManagedTensor *t, const std::vector<Device> &v) {
  const int me = current_topology().process_index;
  if (std::all_of(v.begin(), v.end(),
                  [me](const Device &d) { return d.process_index() == me; }))
    (void)from_dlpack(t, v.front());
}
)cpp");
  ASSERT_TRUE(AST);
  ASSERT_FALSE(AST->getASTContext().getDiagnostics().hasErrorOccurred());
  EXPECT_EQ(interop_test::flowAtSinks(AST, "compared", addressable),
            (Sinks{"holds", "refuted", "unknown", "unknown"}));
  EXPECT_EQ(interop_test::flowAtSinks(AST, "stored", addressable),
            (Sinks{"holds"}));
  EXPECT_EQ(interop_test::flowAtSinks(AST, "captured", addressable),
            (Sinks{"holds"}));
  // Without the options the comparison is no fact.
  ApiModelOptions None;
  None.ProcessIndexFunctions = "";
  EXPECT_EQ(interop_test::flowAtSinks(AST, "compared", addressable, None),
            (Sinks{"unknown", "unknown", "unknown", "unknown"}));
}

TEST(ArrayDeviceEquivalentForms, ConditionalKeepsEachArmsFacts) {
  auto AST = interop_test::parseInteropCode(R"cpp(#include "interop/interop.h"
using namespace interop;
void arms(const Array &a, bool ok) {
  Result<Array> r = gather(a, local_devices()[0]);
  std::vector<Array> local = a.addressable_shards();
  const Array &both = ok ? *r : local.front();
  (void)to_dlpack(both);
  const Array &one = ok ? *r : a;
  (void)to_dlpack(one);
}
)cpp");
  ASSERT_TRUE(AST);
  ASSERT_FALSE(AST->getASTContext().getDiagnostics().hasErrorOccurred());
  EXPECT_EQ(interop_test::flowAtSinks(AST, "arms", single),
            (Sinks{"holds", "unknown"}));
}

} // namespace
