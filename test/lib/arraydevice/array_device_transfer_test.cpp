// Unit tests of the array/device transfer table's guards
// (lib/arraydevice/ArrayDeviceTransfer.h), which are its only gate: a case
// applies to the statements that involve the model, to no other, and to a
// few only while elements are cached or a value carries a fact. What the
// cases do is tested through the model (array_device_model_test.cpp and the
// unit tests of the transfers' units).

#include "lib/arraydevice/ArrayDeviceTransfer.h"

#include "arraydevice/array_device_snippets.h"
#include "ast_search.h"
#include "snippet_annotations.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Analysis/FlowSensitive/DataflowAnalysisContext.h"
#include "clang/Analysis/FlowSensitive/WatchedLiteralsSolver.h"

#include "gtest/gtest.h"

#include <memory>
#include <string>

using namespace clang;
using namespace clang::interop;
using namespace clang::interop::arraydevice;
using namespace clang::dataflow;
using interop_test::firstNode;

namespace {

const char *const Snippet = R"cpp(#include "interop/interop.h"
using namespace interop;
struct Holder {
  void mutate();
  int get() const;
};
void helper(int);
void f(const Array &a, const Array &b, const Device &d, Holder &h,
       std::vector<Device> &v, int i, int flag, bool c) {
  (void)to_dlpack(a);
  (void)a.is_single_device();
  helper(1);
  h.mutate();
  (void)h.get();
  (void)v.size();
  Device copy = d;
  std::optional<Device> o;
  Array fresh;
  ++i;
  (void)(i < 3);
  (void)(flag == 0);
  int me = current_topology().process_index;
  int cpus = current_topology().cpu_devices_per_process;
  if (o)
    ++i;
  for (const Device &e : v)
    ++i;
  const Array &r = c ? a : b;
  int k = c ? 1 : 2;
  (void)Platform::kTpu;
  (void)StatusCode::kOk;
}
)cpp";

struct Fixture {
  std::unique_ptr<ASTUnit> AST = interop_test::parseInteropCode(Snippet);
  ApiModel M{ApiModelOptions()};
  DataflowAnalysisContext DACtx{std::make_unique<WatchedLiteralsSolver>()};
  Environment Env{DACtx};
  ArrayDeviceLattice Empty, Cached;
  TransferContext Ctx;
  const Stmt *Body = nullptr;

  Fixture() {
    EXPECT_FALSE(AST->getASTContext().getDiagnostics().hasErrorOccurred());
    Body = interop_test::functionNamed(AST->getASTContext(), "f")->getBody();
    // An element is cached (what it is does not matter to the gate).
    Cached.Accessors[{nullptr, nullptr, nullptr}] = nullptr;
  }

  /// The first node of type NodeT whose source text starts with Text.
  template <typename NodeT> const NodeT *node(llvm::StringRef Text) {
    const SourceManager &SM = AST->getSourceManager();
    const NodeT *N = firstNode<NodeT>(Body, [&](const NodeT &X) {
      return llvm::StringRef(SM.getCharacterData(X.getBeginLoc()))
          .starts_with(Text);
    });
    EXPECT_NE(N, nullptr) << Text.str();
    return N;
  }

  bool matters(const Stmt *S, ArrayDeviceLattice &L) {
    if (!S)
      return false;
    State St{L, Env, Ctx, M, AST->getASTContext()};
    return transferSwitch().applies(*S, St);
  }
};

TEST(ArrayDeviceTransfer, CallsThatInvolveTheModel) {
  Fixture F;
  EXPECT_TRUE(F.matters(F.node<CallExpr>("to_dlpack(a)"), F.Empty));
  EXPECT_TRUE(F.matters(F.node<CallExpr>("a.is_single_device()"), F.Empty));
  // A call on a range of devices.
  EXPECT_TRUE(F.matters(F.node<CallExpr>("v.size()"), F.Empty));
  EXPECT_FALSE(F.matters(F.node<CallExpr>("helper(1)"), F.Empty));
  // A mutation of another object matters only while getters are cached.
  EXPECT_FALSE(F.matters(F.node<CallExpr>("h.mutate()"), F.Empty));
  EXPECT_TRUE(F.matters(F.node<CallExpr>("h.mutate()"), F.Cached));
  EXPECT_FALSE(F.matters(F.node<CallExpr>("h.get()"), F.Cached));
}

TEST(ArrayDeviceTransfer, ConstructionsAndIndexWrites) {
  Fixture F;
  auto Construct = [&](llvm::StringRef Var) -> const Stmt * {
    const auto *D = F.node<DeclStmt>(Var);
    if (!D)
      return nullptr;
    const Expr *Init = cast<VarDecl>(D->getSingleDecl())->getInit();
    return Init ? Init->IgnoreImplicit() : nullptr;
  };
  EXPECT_TRUE(F.matters(Construct("Device copy"), F.Empty));
  // An empty optional of a device is a construction that matters.
  EXPECT_TRUE(F.matters(Construct("std::optional<Device> o"), F.Empty));
  // A default-constructed array has nothing to copy.
  EXPECT_FALSE(F.matters(Construct("Array fresh"), F.Empty));
  const auto *Inc = F.node<UnaryOperator>("++i");
  EXPECT_FALSE(F.matters(Inc, F.Empty));
  EXPECT_TRUE(F.matters(Inc, F.Cached));
}

TEST(ArrayDeviceTransfer, ComparisonsOfValuesThatCarryAFact) {
  Fixture F;
  const auto *Less = F.node<BinaryOperator>("i < 3");
  EXPECT_FALSE(F.matters(Less, F.Empty));
  const auto *Truth = F.node<BinaryOperator>("flag == 0");
  ASSERT_NE(Truth, nullptr);
  EXPECT_FALSE(F.matters(Truth, F.Empty));
  // `flag` holding a truth (ValueFacts.h) makes it one.
  F.Env.setValue(*Truth->getLHS(), F.Env.makeAtomicBoolValue());
  EXPECT_TRUE(F.matters(Truth, F.Empty));
}

TEST(ArrayDeviceTransfer, OtherStatements) {
  Fixture F;
  // A field holding this process's index; another field.
  EXPECT_TRUE(F.matters(F.node<MemberExpr>("current_topology().process_index"),
                        F.Empty));
  EXPECT_FALSE(F.matters(
      F.node<MemberExpr>("current_topology().cpu_devices_per_process"),
      F.Empty));
  // The test of an optional.
  const auto *If = F.node<IfStmt>("if (o)");
  ASSERT_NE(If, nullptr);
  EXPECT_TRUE(
      F.matters(firstNode<ImplicitCastExpr>(If->getCond(),
                                            [](const ImplicitCastExpr &C) {
                                              return C.getCastKind() ==
                                                     CK_UserDefinedConversion;
                                            }),
                F.Empty));
  // A range-for variable; an ordinary declaration.
  const auto *For = F.node<CXXForRangeStmt>("for (const Device &e");
  ASSERT_NE(For, nullptr);
  EXPECT_TRUE(F.matters(For->getLoopVarStmt(), F.Empty));
  EXPECT_FALSE(F.matters(F.node<DeclStmt>("int k"), F.Empty));
  // A glvalue conditional of a modelled type; a prvalue int one.
  EXPECT_TRUE(F.matters(F.node<ConditionalOperator>("c ? a : b"), F.Empty));
  EXPECT_FALSE(F.matters(F.node<ConditionalOperator>("c ? 1 : 2"), F.Empty));
  // An enumerator of a fact's enum; of another enum.
  EXPECT_TRUE(F.matters(F.node<DeclRefExpr>("Platform::kTpu"), F.Empty));
  EXPECT_FALSE(F.matters(F.node<DeclRefExpr>("StatusCode::kOk"), F.Empty));
}

} // namespace
