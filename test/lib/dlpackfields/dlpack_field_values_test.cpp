// Unit tests of lib/dlpackfields/DLPackFieldValues.h, the vocabulary of the
// field model: the properties a value carries, the run's side tables, and
// the syntactic recognisers (layout and byte_offset mentions, helpers that
// may look at the strides, the chain an assignment writes).

#include "lib/dlpackfields/DLPackFieldValues.h"

#include "ast_search.h"
#include "dlpack_snippets.h"
#include "snippet_annotations.h"

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Analysis/FlowSensitive/DataflowAnalysisContext.h"
#include "clang/Analysis/FlowSensitive/WatchedLiteralsSolver.h"

#include "gtest/gtest.h"

#include <memory>
#include <string>

using namespace clang;
using namespace clang::interop;
using namespace clang::interop::dlpackfield;
using namespace clang::dataflow;
using namespace interop_test;

namespace {

struct EnvFixture {
  DataflowAnalysisContext DACtx{std::make_unique<WatchedLiteralsSolver>()};
  Environment Env{DACtx};
};

TEST(DLPackFieldValues, PropertiesOfAValue) {
  EnvFixture F;
  Environment &Env = F.Env;
  Value &V = Env.create<IntegerValue>();
  EXPECT_FALSE(isTracked(&V));
  EXPECT_FALSE(isTracked(nullptr));
  EXPECT_FALSE(hasProp(nullptr, kByteOffset));
  V.setProperty(kByteOffset, Env.getBoolLiteralValue(true));
  EXPECT_TRUE(hasProp(&V, kByteOffset));
  EXPECT_TRUE(isTracked(&V));
  EXPECT_FALSE(isLocal(&V));
  // An atom is made once.
  EXPECT_EQ(boolProp(&V, kZero), nullptr);
  BoolValue &Zero = atomProp(V, kZero, Env);
  EXPECT_EQ(&atomProp(V, kZero, Env), &Zero);
  EXPECT_EQ(boolProp(&V, kZero), &Zero);
  // Proven only where the path says so, either way round.
  EXPECT_FALSE(provesProp(Env, &V, kZero));
  EXPECT_FALSE(provesProp(Env, &V, kZero, /*Negated=*/true));
  Env.assume(Env.arena().makeNot(Zero.formula()));
  EXPECT_FALSE(provesProp(Env, &V, kZero));
  EXPECT_TRUE(provesProp(Env, &V, kZero, /*Negated=*/true));
  EXPECT_FALSE(provesProp(Env, &V, kNull));
  // A value the function wrote itself is tracked, and its own.
  Value &Own = Env.create<IntegerValue>();
  Own.setProperty(kLocal, Env.getBoolLiteralValue(true));
  EXPECT_TRUE(isLocal(&Own));
  EXPECT_TRUE(isTracked(&Own));
}

TEST(DLPackFieldValues, OriginsAndReadSites) {
  EnvFixture F;
  auto AST = parseDLPackCode(std::string(DLPackPrelude) +
                             "long f(const DLTensor *t) { return t->ndim; }\n");
  ASSERT_TRUE(AST);
  const Expr *Read = firstNode<MemberExpr>(
      functionNamed(AST->getASTContext(), "f")->getBody());
  ASSERT_NE(Read, nullptr);
  RunContext RC;
  Value &First = F.Env.create<IntegerValue>();
  Value &Clone = F.Env.create<IntegerValue>();
  Value &CloneOfClone = F.Env.create<IntegerValue>();
  RC.ReadSite[&First] = Read;
  RC.Origin[&Clone] = &First;
  RC.Origin[&CloneOfClone] = &First;
  EXPECT_EQ(originOf(RC, &First), &First);
  EXPECT_EQ(originOf(RC, &Clone), &First);
  EXPECT_EQ(readSiteOf(RC, &Clone), Read);
  EXPECT_EQ(readSiteOf(RC, &CloneOfClone), Read);
  Value &Unread = F.Env.create<IntegerValue>();
  EXPECT_EQ(readSiteOf(RC, &Unread), nullptr);
}

const char *const Mentions = R"cpp(
void use(long);
static bool compact(const DLTensor &t) { return t.strides == NULL; }
static bool reads_ndim(const DLTensor &t) { return t.ndim == 1; }
bool declared_only(const DLTensor &t);
void put(long long v);
static void writes_strides(const DLTensor &t, long long *out) {
  if (t.strides)
    for (int i = 0; i < t.ndim; ++i)
      out[i] = t.strides[i];
  else
    put(0);
  if (t.strides != NULL)
    put(t.strides[0]);
}
static long long first_stride(const DLTensor &t) {
  return t.strides ? t.strides[0] : 0;
}
void hands_to_compact(const DLTensor &t) { compact(t); }
void hands_to_reads_ndim(const DLTensor &t) { reads_ndim(t); }
void hands_to_unknown(const DLTensor &t) { declared_only(t); }
void f(const DLTensor &t) {
  use(t.ndim + 1);
  use(t.shape[0]);
  use((long)t.dtype.bits);
  use(t.byte_offset);
  use(t.device.device_id);
  long n = t.ndim;
  long a1 = n, a2 = a1, a3 = a2, a4 = a3, a5 = a4;
  long a6 = a5, a7 = a6, a8 = a7, a9 = a8, a10 = a9;
  use(n);
  use(a10);
  char *base = (char *)t.data + t.byte_offset;
  size_t off = t.byte_offset;
  use(off);
  use((long)base);
  long count = 1;
  for (int i = 0; i < t.ndim; ++i)
    count *= t.shape[i];
  use(count);
}
)cpp";

TEST(DLPackFieldValues, LayoutAndByteOffsetMentions) {
  auto AST = parseDLPackCode(std::string(DLPackPrelude) + Mentions);
  ASSERT_TRUE(AST);
  ASSERT_FALSE(AST->getASTContext().getDiagnostics().hasErrorOccurred());
  const FunctionDecl *Fn = functionNamed(AST->getASTContext(), "f");
  // The argument of each call of `use`, in order.
  std::vector<const Expr *> Args;
  for (const Stmt *S : cast<CompoundStmt>(Fn->getBody())->body())
    if (const auto *CE = dyn_cast<CallExpr>(S))
      Args.push_back(CE->getArg(0));
  ASSERT_EQ(Args.size(), 10u);
  EXPECT_TRUE(mentionsLayout(Args[0]));  // t.ndim + 1
  EXPECT_TRUE(mentionsLayout(Args[1]));  // t.shape[0]
  EXPECT_TRUE(mentionsLayout(Args[2]));  // t.dtype.bits
  EXPECT_FALSE(mentionsLayout(Args[3])); // t.byte_offset
  EXPECT_FALSE(mentionsLayout(Args[4])); // t.device.device_id
  // Through a local's initialiser, a bounded number of locals deep.
  EXPECT_TRUE(mentionsLayout(Args[5]));  // n
  EXPECT_FALSE(mentionsLayout(Args[6])); // a10 = ... = a1 = n
  EXPECT_FALSE(mentionsLayout(nullptr));
  // A count multiplied up from the shape, with the function's stores.
  EXPECT_FALSE(mentionsLayout(Args[9])); // count
  LocalStores Stores(Fn->getBody());
  EXPECT_TRUE(mentionsLayout(Args[9], &Stores));
  EXPECT_TRUE(mentionsLayout(Args[5], &Stores));
  EXPECT_FALSE(mentionsLayout(Args[6], &Stores));
  EXPECT_FALSE(mentionsLayout(Args[3], &Stores));

  // The shape alone: shape and ndim, not dtype or strides.
  EXPECT_TRUE(mentionsShape(Args[0], nullptr));
  EXPECT_TRUE(mentionsShape(Args[1], nullptr));
  EXPECT_FALSE(mentionsShape(Args[2], nullptr));
  EXPECT_FALSE(mentionsShape(Args[3], nullptr));
  EXPECT_TRUE(mentionsShape(Args[5], nullptr));
  EXPECT_TRUE(mentionsShape(Args[9], &Stores));
  EXPECT_FALSE(mentionsShape(Args[9], nullptr));

  EnvFixture F;
  EXPECT_TRUE(mentionsByteOffset(Args[3], F.Env));
  EXPECT_FALSE(mentionsByteOffset(Args[0], F.Env));
  // `base` is initialised from it, but without the function's stores only
  // the expression is looked at.
  const Expr *Base = Args[8]; // (long)base
  EXPECT_FALSE(mentionsByteOffset(Base, F.Env));
  // With the function's stores, a number computed from it does (`off`);
  // a pointer moved by it (`base`) is not the offset but what it moved.
  EXPECT_TRUE(mentionsByteOffset(Args[7], F.Env, &Stores)); // off
  EXPECT_FALSE(mentionsByteOffset(Base, F.Env, &Stores));
  EXPECT_FALSE(mentionsByteOffset(Args[9], F.Env, &Stores)); // count
  // A variable whose value was read from byte_offset.
  const Expr *OffArg = Args[7];
  const auto *Off = cast<DeclRefExpr>(OffArg->IgnoreImpCasts());
  const auto *OffVar = cast<VarDecl>(Off->getDecl());
  EXPECT_FALSE(mentionsByteOffset(OffArg, F.Env));
  StorageLocation &Loc = F.Env.createStorageLocation(*OffVar);
  F.Env.setStorageLocation(*OffVar, Loc);
  Value &Read = F.Env.create<IntegerValue>();
  Read.setProperty(kByteOffset, F.Env.getBoolLiteralValue(true));
  F.Env.setValue(Loc, Read);
  EXPECT_TRUE(mentionsByteOffset(OffArg, F.Env));
}

TEST(DLPackFieldValues, HelpersThatMayLookAtTheStrides) {
  auto AST = parseDLPackCode(std::string(DLPackPrelude) + Mentions);
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  using namespace clang::ast_matchers;
  auto Decl = [&](llvm::StringRef Name) {
    auto Found = match(functionDecl(hasName(Name)).bind("f"), Ctx);
    return Found.empty() ? nullptr : Found[0].getNodeAs<FunctionDecl>("f");
  };
  llvm::DenseMap<const FunctionDecl *, bool> Memo;
  EXPECT_TRUE(mayLookAtStrides(Decl("compact"), Memo));
  EXPECT_FALSE(mayLookAtStrides(Decl("reads_ndim"), Memo));
  // Tests for strides and copies them out, never compares them: a
  // serializer. A number computed from them (returned) is a use.
  EXPECT_FALSE(mayLookAtStrides(Decl("writes_strides"), Memo));
  EXPECT_TRUE(mayLookAtStrides(Decl("first_stride"), Memo));
  // Unknown behaviour: it may.
  EXPECT_TRUE(mayLookAtStrides(Decl("declared_only"), Memo));
  EXPECT_TRUE(mayLookAtStrides(nullptr, Memo));
  // Each body is read once.
  EXPECT_EQ(Memo.size(), 4u);
  EXPECT_EQ(Memo.lookup(Decl("reads_ndim")), false);

  // A function may consider strides: it names them, or hands a tensor to
  // a function that may look at them.
  auto Considers = [&](llvm::StringRef Name) {
    const FunctionDecl *FD = Decl(Name);
    return FD && mayConsiderStrides(*FD, Memo);
  };
  EXPECT_TRUE(Considers("compact"));
  EXPECT_TRUE(Considers("hands_to_compact"));
  EXPECT_TRUE(Considers("hands_to_unknown"));
  EXPECT_FALSE(Considers("hands_to_reads_ndim"));
  EXPECT_FALSE(Considers("reads_ndim"));
  EXPECT_FALSE(Considers("f"));
}

TEST(DLPackFieldValues, WriteChains) {
  auto AST = parseDLPackCode(std::string(DLPackPrelude) + R"cpp(
void f(DLManagedTensor *mt, int64_t *p, DLTensor *t) {
  mt->dl_tensor.data = p;
  *p = 1;
  t->shape[0] = 2;
  p = 0;
}
)cpp");
  ASSERT_TRUE(AST);
  const FunctionDecl *Fn = functionNamed(AST->getASTContext(), "f");
  std::vector<const BinaryOperator *> Assigns;
  for (const Stmt *S : cast<CompoundStmt>(Fn->getBody())->body())
    Assigns.push_back(cast<BinaryOperator>(S));
  ASSERT_EQ(Assigns.size(), 4u);
  RunContext RC;
  for (const BinaryOperator *BO : Assigns)
    markWriteChain(BO->getLHS(), RC);
  markWriteChain(nullptr, RC);
  // The member chain of the first: `.data` and `->dl_tensor`.
  const auto *Data = cast<MemberExpr>(Assigns[0]->getLHS());
  EXPECT_TRUE(RC.WriteChains.contains(Data));
  EXPECT_TRUE(RC.WriteChains.contains(Data->getBase()->IgnoreParenImpCasts()));
  EXPECT_EQ(RC.WriteChains.size(), 2u);
  // The targets written through a pointer, not the members under them.
  EXPECT_TRUE(RC.WriteTargets.contains(Assigns[1]->getLHS()));
  EXPECT_TRUE(RC.WriteTargets.contains(Assigns[2]->getLHS()));
  EXPECT_EQ(RC.WriteTargets.size(), 2u);
}

} // namespace
