// Unit tests of lib/arraydevice/ArrayDeviceState.h, the vocabulary of the
// array/device transfers: the synthetic fields' accessors, the objects the
// model keeps stable per program point, the facts a value read from an
// accessor carries, and the enumerator facts of an argument.

#include "lib/arraydevice/ArrayDeviceState.h"
#include "lib/support/LLVMCompat.h"

#include "arraydevice/array_device_snippets.h"
#include "ast_search.h"
#include "snippet_annotations.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Analysis/FlowSensitive/DataflowAnalysisContext.h"
#include "clang/Analysis/FlowSensitive/WatchedLiteralsSolver.h"

#include "gtest/gtest.h"

#include <memory>
#include <set>
#include <string>

using namespace clang;
using namespace clang::interop;
using namespace clang::interop::arraydevice;
using namespace clang::dataflow;
using interop_test::firstNode;

namespace {

const char *const Code = R"cpp(#include "interop/interop.h"
using namespace interop;
struct Modelled {};
struct Plain {};
struct Entry { Array a; Array b; };
void f(int count, int other, MemoryKind k, Platform p) {
  long wide = count;
  long plain = other;
  MemoryKind kind = k;
  (void)MemoryKind::kPinnedHost;
  (void)MemoryKind::kDevice;
  (void)Platform::kTpu;
  (void)Platform::kCuda;
}
)cpp";

/// An environment whose `Modelled` records have two synthetic bools.
struct Fixture {
  std::unique_ptr<ASTUnit> AST = interop_test::parseInteropCode(Code);
  ASTContext &Ctx = AST->getASTContext();
  DataflowAnalysisContext DACtx{std::make_unique<WatchedLiteralsSolver>()};
  std::unique_ptr<Environment> Env;
  QualType ModelledTy, PlainTy;
  const FunctionDecl *F = nullptr;

  Fixture() {
    using namespace clang::ast_matchers;
    auto Record = [&](llvm::StringRef Name) {
      auto Found =
          match(cxxRecordDecl(hasName(Name), isDefinition()).bind("r"), Ctx);
      EXPECT_EQ(Found.size(), 1u) << Name.str();
      return clang::interop::compat::recordType(
          Ctx, Found[0].getNodeAs<CXXRecordDecl>("r"));
    };
    ModelledTy = Record("Modelled");
    PlainTy = Record("Plain");
    QualType Bool = Ctx.BoolTy;
    QualType M = ModelledTy;
    DACtx.setSyntheticFieldCallback(
        [M, Bool](QualType T) -> llvm::StringMap<QualType> {
          if (T.getCanonicalType().getUnqualifiedType() != M)
            return {};
          return {{kSingle, Bool}, {kTpu, Bool}};
        });
    Env = std::make_unique<Environment>(DACtx);
    F = interop_test::functionNamed(Ctx, "f");
  }

  RecordStorageLocation &object(QualType T) {
    return cast<RecordStorageLocation>(Env->createObject(T));
  }
  /// The initialiser of local Var, as written (outermost implicit cast).
  const Expr *initOf(llvm::StringRef Var) {
    for (const Stmt *S : cast<CompoundStmt>(F->getBody())->body())
      if (const auto *D = dyn_cast<DeclStmt>(S))
        if (const auto *V = dyn_cast<VarDecl>(D->getSingleDecl()))
          if (V->getName() == Var)
            return V->getInit();
    ADD_FAILURE() << "no " << Var.str();
    return nullptr;
  }
  /// The enumerator reference of the statement `(void)Name;`.
  const DeclRefExpr *enumRef(llvm::StringRef Name) {
    const DeclRefExpr *R =
        firstNode<DeclRefExpr>(F->getBody(), [&](const DeclRefExpr &D) {
          return D.getDecl()->getName() == Name;
        });
    EXPECT_NE(R, nullptr) << Name.str();
    return R;
  }
};

TEST(ArrayDeviceState, SyntheticFieldAccessors) {
  Fixture X;
  Environment &Env = *X.Env;
  RecordStorageLocation &O = X.object(X.ModelledTy);
  RecordStorageLocation &Other = X.object(X.ModelledTy);
  RecordStorageLocation &P = X.object(X.PlainTy);
  EXPECT_NE(syntheticField(&O, kSingle), nullptr);
  EXPECT_EQ(syntheticField(&O, kPinned), nullptr);
  EXPECT_EQ(syntheticField(&P, kSingle), nullptr);

  // getBool makes a value once; peekBool only reads.
  BoolValue *Single = getBool(&O, kSingle, Env);
  ASSERT_NE(Single, nullptr);
  EXPECT_EQ(getBool(&O, kSingle, Env), Single);
  EXPECT_EQ(peekBool(&O, kSingle, Env), Single);
  EXPECT_EQ(getBool(&P, kSingle, Env), nullptr);
  EXPECT_EQ(getBool(nullptr, kSingle, Env), nullptr);
  EXPECT_EQ(peekBool(nullptr, kSingle, Env), nullptr);

  setBool(&O, kTpu, Env.getBoolLiteralValue(true), Env);
  ASSERT_NE(peekBool(&O, kTpu, Env), nullptr);
  EXPECT_TRUE(peekBool(&O, kTpu, Env)->formula().isLiteral(true));
  // A field the type lacks is not set, and nothing breaks.
  setBool(&P, kTpu, Env.getBoolLiteralValue(true), Env);
  setBool(nullptr, kTpu, Env.getBoolLiteralValue(true), Env);

  // A copy shares the value; a field the source lacks copies nothing.
  copyBool(&O, &Other, kSingle, Env);
  EXPECT_EQ(peekBool(&Other, kSingle, Env), Single);
  BoolValue *Before = peekBool(&Other, kTpu, Env);
  copyBool(&P, &Other, kTpu, Env);
  EXPECT_EQ(peekBool(&Other, kTpu, Env), Before);

  // Forgetting gives a new unknown ("anything" to joins and widening).
  forget(&O, kSingle, Env);
  BoolValue *After = peekBool(&O, kSingle, Env);
  ASSERT_NE(After, nullptr);
  EXPECT_NE(After, Single);
  EXPECT_TRUE(isa<TopBoolValue>(After));
}

TEST(ArrayDeviceState, StableObjectsPerKeyAndType) {
  Fixture X;
  Environment &Env = *X.Env;
  StableObjects Stable;
  int KeyA = 0, KeyB = 0;
  RecordStorageLocation &A = Stable.get(&KeyA, X.ModelledTy, Env);
  // The same point and type: the same object, also through const.
  EXPECT_EQ(&Stable.get(&KeyA, X.ModelledTy.withConst(), Env, false), &A);
  EXPECT_NE(&Stable.get(&KeyB, X.ModelledTy, Env), &A);
  EXPECT_NE(&Stable.get(&KeyA, X.PlainTy, Env),
            static_cast<StorageLocation *>(&A));

  // Revisited without Fresh, the facts stay; with it, they are unknown.
  setBool(&A, kSingle, Env.getBoolLiteralValue(true), Env);
  Stable.get(&KeyA, X.ModelledTy, Env, /*Fresh=*/false);
  ASSERT_NE(peekBool(&A, kSingle, Env), nullptr);
  EXPECT_TRUE(peekBool(&A, kSingle, Env)->formula().isLiteral(true));
  Stable.get(&KeyA, X.ModelledTy, Env);
  BoolValue *Fresh = peekBool(&A, kSingle, Env);
  ASSERT_NE(Fresh, nullptr);
  EXPECT_TRUE(isa<TopBoolValue>(Fresh));
}

TEST(ArrayDeviceState, FactsLinkedToAValue) {
  Fixture X;
  Environment &Env = *X.Env;
  llvm::StringRef Property;
  BoolValue &One = Env.makeAtomicBoolValue();
  Value &Count = Env.makeAtomicBoolValue();
  Count.setProperty(kCountIsOne, One);
  EXPECT_EQ(linkedFact(Count, &Property), &One);
  EXPECT_EQ(Property, kCountIsOne);
  Value &Kind = Env.makeAtomicBoolValue();
  BoolValue &Pinned = Env.makeAtomicBoolValue();
  Kind.setProperty(kIsPinned, Pinned);
  EXPECT_EQ(linkedFact(Kind, &Property), &Pinned);
  EXPECT_EQ(Property, kIsPinned);
  // Device memory is a second property of a kind, not the fact it encodes.
  Value &Memory = Env.makeAtomicBoolValue();
  Memory.setProperty(kIsDeviceMem, Env.makeAtomicBoolValue());
  EXPECT_EQ(linkedFact(Memory), nullptr);
  EXPECT_EQ(linkedFact(Env.makeAtomicBoolValue()), nullptr);

  // Through the implicit casts the framework gives no value.
  const auto *Wide = dyn_cast_or_null<ImplicitCastExpr>(X.initOf("wide"));
  ASSERT_NE(Wide, nullptr);
  EXPECT_EQ(valueThroughCasts(Wide, Env), nullptr);
  Env.setValue(*Wide->getSubExpr(), Count);
  EXPECT_EQ(valueThroughCasts(Wide, Env), &Count);
  const auto *Plain = dyn_cast_or_null<ImplicitCastExpr>(X.initOf("plain"));
  ASSERT_NE(Plain, nullptr);
  Env.setValue(*Plain->getSubExpr(), Memory);
  EXPECT_EQ(valueThroughCasts(Plain, Env), nullptr);
  // The walk with another wish.
  EXPECT_EQ(valueThroughCasts(Plain, Env,
                              [&](const Value &V) { return &V == &Memory; }),
            &Memory);
}

TEST(ArrayDeviceState, EnumeratorFactsOfAnArgument) {
  Fixture X;
  Environment &Env = *X.Env;
  ApiModel M{ApiModelOptions()};
  auto Literal = [](const BoolValue &B) -> std::string {
    if (B.formula().isLiteral(true))
      return "true";
    if (B.formula().isLiteral(false))
      return "false";
    return "unknown";
  };
  EXPECT_EQ(Literal(pinnedOf(M, X.enumRef("kPinnedHost"), Env)), "true");
  EXPECT_EQ(Literal(pinnedOf(M, X.enumRef("kDevice"), Env)), "false");
  EXPECT_EQ(Literal(tpuOf(M, X.enumRef("kTpu"), Env)), "true");
  EXPECT_EQ(Literal(tpuOf(M, X.enumRef("kCuda"), Env)), "false");
  // A value read from memory_kind() carries its fact.
  const Expr *Kind = X.initOf("kind");
  ASSERT_NE(Kind, nullptr);
  EXPECT_EQ(Literal(pinnedOf(M, Kind, Env)), "unknown");
  Value &Read = Env.makeAtomicBoolValue();
  BoolValue &IsPinned = Env.makeAtomicBoolValue();
  Read.setProperty(kIsPinned, IsPinned);
  Env.setValue(*Kind, Read);
  EXPECT_EQ(&pinnedOf(M, Kind, Env), &IsPinned);
  // ... only the fact asked for.
  EXPECT_EQ(Literal(tpuOf(M, Kind, Env)), "unknown");
  EXPECT_NE(&tpuOf(M, Kind, Env), &IsPinned);
}

TEST(ArrayDeviceState, HeldFactNames) {
  Fixture X;
  using namespace clang::ast_matchers;
  auto Found =
      match(cxxRecordDecl(hasName("Entry"), isDefinition()).bind("r"), X.Ctx);
  ASSERT_EQ(Found.size(), 1u);
  const auto *Entry = Found[0].getNodeAs<CXXRecordDecl>("r");
  std::set<std::string> Names;
  for (const FieldDecl *F : Entry->fields())
    for (llvm::StringRef Every : {kElemSingle, kElemAddressable})
      Names.insert(heldFact(Every, *F));
  // One name per field and fact, none a fact of the range itself.
  EXPECT_EQ(Names.size(), 4u);
  EXPECT_FALSE(Names.count(kElemSingle.str()));
  EXPECT_FALSE(Names.count(kElemAddressable.str()));
}

} // namespace
