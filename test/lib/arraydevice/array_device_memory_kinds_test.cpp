// Unit tests of lib/arraydevice/ArrayDeviceMemoryKinds.h: the "device
// memory" fact kept beside "pinned host" (an enumerator's literal, a
// comparison's relation to it), unknown whenever DeviceMemoryKinds is
// empty, and what the flow analysis then says of an array on TPU that is
// not in pinned host memory.

#include "lib/arraydevice/ArrayDeviceMemoryKinds.h"

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
using interop_test::proofName;

namespace {

const char *const Kinds = R"cpp(#include "interop/interop.h"
using namespace interop;
void f(MemoryKind k) {
  (void)MemoryKind::kDevice;
  (void)MemoryKind::kPinnedHost;
  (void)MemoryKind::kUnpinnedHost;
  (void)k;
}
)cpp";

struct Fixture {
  std::unique_ptr<ASTUnit> AST = interop_test::parseInteropCode(Kinds);
  DataflowAnalysisContext DACtx{std::make_unique<WatchedLiteralsSolver>()};
  Environment Env{DACtx};
  const DeclRefExpr *Device = nullptr, *Pinned = nullptr, *Unpinned = nullptr,
                    *Param = nullptr;

  Fixture() {
    const FunctionDecl *F =
        interop_test::functionNamed(AST->getASTContext(), "f");
    std::vector<const DeclRefExpr *> Refs;
    for (const Stmt *S : cast<CompoundStmt>(F->getBody())->body())
      Refs.push_back(interop_test::firstNode<DeclRefExpr>(S));
    Device = Refs[0];
    Pinned = Refs[1];
    Unpinned = Refs[2];
    Param = Refs[3];
  }
  const EnumConstantDecl *enumOf(const DeclRefExpr *E) {
    return cast<EnumConstantDecl>(E->getDecl());
  }
  /// "true", "false" or "unknown" for a formula.
  std::string literal(const Formula &F) {
    if (F.isLiteral(true))
      return "true";
    if (F.isLiteral(false))
      return "false";
    return "unknown";
  }
};

TEST(ArrayDeviceMemoryKinds, DeviceMemoryOfAnArgument) {
  Fixture F;
  ApiModel M{ApiModelOptions()};
  EXPECT_EQ(F.literal(deviceMemOf(M, F.Device, F.Env).formula()), "true");
  EXPECT_EQ(F.literal(deviceMemOf(M, F.Pinned, F.Env).formula()), "false");
  EXPECT_EQ(F.literal(deviceMemOf(M, F.Unpinned, F.Env).formula()), "false");
  // A value with no fact: a fresh unknown each time.
  BoolValue &A = deviceMemOf(M, F.Param, F.Env);
  BoolValue &B = deviceMemOf(M, F.Param, F.Env);
  EXPECT_EQ(F.literal(A.formula()), "unknown");
  EXPECT_NE(&A, &B);
  // Without DeviceMemoryKinds no kind is device memory, nor known not to be.
  ApiModelOptions None;
  None.DeviceMemoryKinds = "";
  ApiModel Unnamed{None};
  EXPECT_EQ(F.literal(deviceMemOf(Unnamed, F.Device, F.Env).formula()),
            "unknown");
  EXPECT_EQ(F.literal(deviceMemOf(Unnamed, F.Pinned, F.Env).formula()),
            "unknown");
}

TEST(ArrayDeviceMemoryKinds, LinkedToAMemoryKindValue) {
  Fixture F;
  ApiModel M{ApiModelOptions()};
  auto PropOf = [&](const Value &V) -> std::string {
    auto *B = dyn_cast_or_null<BoolValue>(V.getProperty(kIsDeviceMem));
    return B ? F.literal(B->formula()) : "none";
  };
  Value &OfDevice = F.Env.makeAtomicBoolValue();
  linkDeviceMemory(M, F.enumOf(F.Device), nullptr, OfDevice, F.Env);
  EXPECT_EQ(PropOf(OfDevice), "true");
  Value &OfPinned = F.Env.makeAtomicBoolValue();
  linkDeviceMemory(M, F.enumOf(F.Pinned), nullptr, OfPinned, F.Env);
  EXPECT_EQ(PropOf(OfPinned), "false");
  // Neither an enumerator nor an owner: nothing to link.
  Value &Neither = F.Env.makeAtomicBoolValue();
  linkDeviceMemory(M, nullptr, nullptr, Neither, F.Env);
  EXPECT_EQ(PropOf(Neither), "none");
  ApiModelOptions None;
  None.DeviceMemoryKinds = "";
  Value &Unnamed = F.Env.makeAtomicBoolValue();
  linkDeviceMemory(ApiModel{None}, F.enumOf(F.Device), nullptr, Unnamed, F.Env);
  EXPECT_EQ(PropOf(Unnamed), "none");
}

TEST(ArrayDeviceMemoryKinds, ComparisonsRelateToDeviceMemory) {
  Fixture F;
  ApiModel M{ApiModelOptions()};
  Arena &A = F.Env.arena();
  // `kind == kDevice` for a kind whose device-memory fact is D.
  BoolValue &D = F.Env.makeAtomicBoolValue();
  Value &Kind = F.Env.makeAtomicBoolValue();
  Kind.setProperty(kIsDeviceMem, D);
  const Formula &EqDevice = A.makeAtomRef(A.makeAtom());
  compareDeviceMemory(M, Kind, F.enumOf(F.Device), EqDevice, F.Env);
  EXPECT_TRUE(F.Env.proves(A.makeEquals(EqDevice, D.formula())));
  // `kind == kUnpinnedHost` implies "not device memory", not the converse.
  const Formula &EqUnpinned = A.makeAtomRef(A.makeAtom());
  compareDeviceMemory(M, Kind, F.enumOf(F.Unpinned), EqUnpinned, F.Env);
  EXPECT_TRUE(F.Env.proves(A.makeImplies(EqUnpinned, A.makeNot(D.formula()))));
  EXPECT_FALSE(F.Env.proves(A.makeImplies(A.makeNot(D.formula()), EqUnpinned)));
  // A value without the fact: nothing is assumed.
  Value &Plain = F.Env.makeAtomicBoolValue();
  const Formula &EqPlain = A.makeAtomRef(A.makeAtom());
  compareDeviceMemory(M, Plain, F.enumOf(F.Device), EqPlain, F.Env);
  EXPECT_FALSE(F.Env.proves(EqPlain));
  EXPECT_FALSE(F.Env.proves(A.makeNot(EqPlain)));
  EXPECT_FALSE(F.Env.proves(A.makeEquals(EqPlain, D.formula())));
}

std::string memory(const SinkFact &F) {
  return std::string("pinned=") + proofName(F.PinnedHost) +
         " device=" + proofName(F.DeviceMemory);
}

const char *const OnTpu = R"cpp(#include "interop/interop.h"
using namespace interop;
void kinds(const Array &a, const Device &d) {
  if (a.platform() != Platform::kTpu)
    return;
  if (a.memory_kind() == MemoryKind::kDevice)
    (void)to_dlpack(a);
  if (a.memory_kind() == MemoryKind::kUnpinnedHost)
    (void)to_dlpack(a);
  if (a.memory_kind() != MemoryKind::kPinnedHost)
    (void)to_dlpack(a);
  if (d.platform() == Platform::kTpu)
    (void)to_dlpack(*gather(a, d));
}
)cpp";

TEST(ArrayDeviceMemoryKinds, WhereAnArrayNotInPinnedHostMemoryIs) {
  auto AST = interop_test::parseInteropCode(OnTpu);
  ASSERT_TRUE(AST);
  ASSERT_FALSE(AST->getASTContext().getDiagnostics().hasErrorOccurred());
  // gather's default memory kind is device memory.
  EXPECT_EQ(interop_test::flowAtSinks(AST, "kinds", memory),
            (std::vector<std::string>{"pinned=refuted device=holds",
                                      "pinned=refuted device=refuted",
                                      "pinned=refuted device=unknown",
                                      "pinned=refuted device=holds"}));
  // Without DeviceMemoryKinds no finding can name a memory kind.
  ApiModelOptions None;
  None.DeviceMemoryKinds = "";
  auto Again = interop_test::parseInteropCode(OnTpu);
  EXPECT_EQ(interop_test::flowAtSinks(Again, "kinds", memory, None),
            (std::vector<std::string>{"pinned=refuted device=unknown",
                                      "pinned=refuted device=unknown",
                                      "pinned=refuted device=unknown",
                                      "pinned=refuted device=unknown"}));
}

} // namespace
