// Unit tests of lib/engine/ValueFacts.h: `flag == 0` / `flag != 0` of an
// integer that holds a truth value is that truth (or its negation),
// valueCases() starts every family's transfer table with that case,
// ValueChoices records what a value joined from two arms stands for, and
// syntheticField() answers null where a record has no such field, and
// syntheticFieldsWithBases() gives a derived record its bases' fields.

#include "lib/engine/ValueFacts.h"
#include "lib/support/LLVMCompat.h"

#include "ast_search.h"
#include "snippet_annotations.h"

#include "clang/AST/ASTContext.h"
#include "clang/Analysis/FlowSensitive/DataflowAnalysisContext.h"
#include "clang/Analysis/FlowSensitive/DataflowEnvironment.h"
#include "clang/Analysis/FlowSensitive/WatchedLiteralsSolver.h"

#include "gtest/gtest.h"

#include <memory>
#include <string>
#include <vector>

using namespace clang;
using namespace clang::interop;
using namespace clang::dataflow;
using namespace interop_test;

namespace {

const char *const Comparisons = R"cpp(
void f(int flag, long n, int unknown) {
  (void)(flag != 0);
  (void)(flag == 0);
  (void)(0 == flag);
  (void)((flag) != (0));
  (void)(flag == false);
  (void)(flag == 1);
  (void)(flag < 0);
  (void)(flag != n);
  (void)(n == 0);
  (void)(unknown != 0);
}
)cpp";

/// The comparisons of f, in order, in an environment where `flag` and `n`
/// hold truths (as a family's transfer of a C predicate leaves
/// them); `unknown` holds none.
struct Fixture {
  std::unique_ptr<ASTUnit> AST = parseWithInputs(Comparisons);
  DataflowAnalysisContext DACtx{std::make_unique<WatchedLiteralsSolver>()};
  Environment Env{DACtx};
  std::vector<const BinaryOperator *> Ops;
  BoolValue *Flag = nullptr;

  Fixture() {
    const FunctionDecl *F = functionNamed(AST->getASTContext(), "f");
    for (const Stmt *S : cast<CompoundStmt>(F->getBody())->body()) {
      const auto *Cast = cast<CStyleCastExpr>(S);
      Ops.push_back(cast<BinaryOperator>(Cast->getSubExpr()->IgnoreParens()));
    }
    Flag = &Env.makeAtomicBoolValue();
    BoolValue &N = Env.makeAtomicBoolValue();
    // Every read of a parameter gets its truth (the framework gives each
    // read of a variable the variable's value).
    for (const BinaryOperator *BO : Ops)
      for (const Expr *Side : {BO->getLHS(), BO->getRHS()}) {
        const auto *Read = dyn_cast<ImplicitCastExpr>(Side->IgnoreParens());
        if (!Read || Read->getCastKind() != CK_LValueToRValue)
          continue;
        llvm::StringRef Name =
            cast<DeclRefExpr>(Read->getSubExpr()->IgnoreParens())
                ->getDecl()
                ->getName();
        if (Name == "flag")
          Env.setValue(*Read, *Flag);
        else if (Name == "n")
          Env.setValue(*Read, N);
      }
  }

  /// The truth the comparison's value now holds: "flag", "!flag", "none"
  /// or "other".
  std::string valueOf(const BinaryOperator &BO) {
    auto *V = dyn_cast_or_null<BoolValue>(Env.getValue(BO));
    if (!V)
      return "none";
    Arena &A = Env.arena();
    if (Env.proves(A.makeEquals(V->formula(), Flag->formula())))
      return "flag";
    if (Env.proves(A.makeEquals(V->formula(), A.makeNot(Flag->formula()))))
      return "!flag";
    return "other";
  }
};

TEST(ValueFacts, ComparisonsOfATruthWithZero) {
  Fixture F;
  ASSERT_EQ(F.Ops.size(), 10u);
  std::vector<std::string> Recognised;
  for (const BinaryOperator *BO : F.Ops)
    Recognised.push_back(isTruthComparison(*BO, F.Env) ? "yes" : "no");
  // `== false` compares with zero too; `== 1`, `<` and another variable do
  // not; any integer type holds a truth; an integer without a truth is an
  // unknown integer.
  EXPECT_EQ(Recognised,
            (std::vector<std::string>{"yes", "yes", "yes", "yes", "yes", "no",
                                      "no", "no", "yes", "no"}));
}

TEST(ValueFacts, TheComparisonIsTheTruthOrItsNegation) {
  Fixture F;
  ASSERT_EQ(F.Ops.size(), 10u);
  for (const BinaryOperator *BO : F.Ops)
    transferTruthComparison(*BO, F.Env);
  EXPECT_EQ(F.valueOf(*F.Ops[0]), "flag");  // flag != 0
  EXPECT_EQ(F.valueOf(*F.Ops[1]), "!flag"); // flag == 0
  EXPECT_EQ(F.valueOf(*F.Ops[2]), "!flag"); // 0 == flag
  EXPECT_EQ(F.valueOf(*F.Ops[3]), "flag");  // (flag) != (0)
  EXPECT_EQ(F.valueOf(*F.Ops[4]), "!flag"); // flag == false
  // Not a truth comparison: left as it was.
  EXPECT_EQ(F.valueOf(*F.Ops[5]), "none");
  EXPECT_EQ(F.valueOf(*F.Ops[6]), "none");
  EXPECT_EQ(F.valueOf(*F.Ops[7]), "none");
  EXPECT_EQ(F.valueOf(*F.Ops[9]), "none");
  // n's own truth, not flag's.
  EXPECT_EQ(F.valueOf(*F.Ops[8]), "other");
}

struct FamilyState {
  Environment &Env;
  std::string Seen;
};

/// The callee contracts the shared cases apply: bodies only, here.
const ExitConditions &exitConditionsOf(const FamilyState &) {
  static const ExitConditions BodiesOnly;
  return BodiesOnly;
}

TEST(ValueFacts, EveryFamilysTableStartsWithTheSharedCases) {
  Fixture F;
  ASSERT_EQ(F.Ops.size(), 10u);
  // A family's table: the shared cases, then its own (here: any other
  // binary operator).
  StmtSwitch<FamilyState> Table = valueCases<FamilyState>();
  Table.caseOf<BinaryOperator>(
      [](const BinaryOperator *, FamilyState &S) { S.Seen += "own;"; });
  FamilyState S{F.Env, ""};
  EXPECT_TRUE(Table(*F.Ops[1], S));
  EXPECT_EQ(S.Seen, "");
  EXPECT_EQ(F.valueOf(*F.Ops[1]), "!flag");
  EXPECT_TRUE(Table(*F.Ops[5], S));
  EXPECT_EQ(S.Seen, "own;");
  EXPECT_EQ(F.valueOf(*F.Ops[5]), "none");
  // Without the family's cases, a statement they are about is no case.
  FamilyState Bare{F.Env, ""};
  EXPECT_FALSE(valueCases<FamilyState>()(*F.Ops[6], Bare));
  EXPECT_TRUE(valueCases<FamilyState>()(*F.Ops[0], Bare));
  EXPECT_EQ(F.valueOf(*F.Ops[0]), "flag");
}

/// Two arms of an if on `b` and their join, each holding one pointer.
struct JoinFixture {
  DataflowAnalysisContext DACtx{std::make_unique<WatchedLiteralsSolver>()};
  Environment Base{DACtx};
  const Formula &B = Base.arena().makeAtomRef(Base.arena().makeAtom());
  Environment Then = Base.fork();
  Environment Else = Base.fork();
  std::unique_ptr<Environment> Joined;
  Value *V1 = nullptr, *V2 = nullptr;

  JoinFixture() {
    Then.assume(B);
    Else.assume(Base.arena().makeNot(B));
    Environment::ValueModel NoModel;
    Joined = std::make_unique<Environment>(
        Environment::join(Then, Else, NoModel, Environment::DiscardExprState));
    V1 = &Base.create<PointerValue>(Base.createStorageLocation(QualType()));
    V2 = &Base.create<PointerValue>(Base.createStorageLocation(QualType()));
  }
  Value &fresh() {
    return Base.create<PointerValue>(Base.createStorageLocation(QualType()));
  }
};

TEST(ValueFacts, ChoicesOfAJoinedValue) {
  JoinFixture F;
  Arena &A = F.Base.arena();
  ValueChoices Choices;
  Value &J = F.fresh();
  Choices.join(*F.V1, F.Then, *F.V2, F.Else, J, *F.Joined,
               [](const Value &) { return true; });
  llvm::ArrayRef<ValueChoices::Choice> Of = Choices.of(J);
  ASSERT_EQ(Of.size(), 2u);
  EXPECT_EQ(Of[0].V, F.V1);
  EXPECT_EQ(Of[1].V, F.V2);
  // V1 on the then-arm's paths, V2 on the else-arm's, never both.
  EXPECT_TRUE(F.Joined->proves(A.makeImplies(F.B, *Of[0].When)));
  EXPECT_TRUE(F.Joined->proves(A.makeImplies(A.makeNot(F.B), *Of[1].When)));
  EXPECT_TRUE(F.Joined->proves(A.makeNot(A.makeAnd(*Of[0].When, *Of[1].When))));
  // No other value is a choice.
  EXPECT_TRUE(Choices.of(*F.V1).empty());
}

TEST(ValueFacts, ChoicesOnlyOfTrackedValues) {
  JoinFixture F;
  ValueChoices Choices;
  Value &None = F.fresh();
  Choices.join(*F.V1, F.Then, *F.V2, F.Else, None, *F.Joined,
               [](const Value &) { return false; });
  EXPECT_TRUE(Choices.of(None).empty());
  // One side tracked: the choice is that side, on its paths.
  Value &One = F.fresh();
  const Value *Tracked = F.V2;
  Choices.join(*F.V1, F.Then, *F.V2, F.Else, One, *F.Joined,
               [&](const Value &V) { return &V == Tracked; });
  llvm::ArrayRef<ValueChoices::Choice> Of = Choices.of(One);
  ASSERT_EQ(Of.size(), 1u);
  EXPECT_EQ(Of[0].V, F.V2);
  Arena &A = F.Base.arena();
  EXPECT_TRUE(F.Joined->proves(A.makeImplies(A.makeNot(F.B), *Of[0].When)));
  EXPECT_FALSE(F.Joined->proves(A.makeImplies(F.B, *Of[0].When)));
}

TEST(ValueFacts, AChoiceOfChoicesIsFlattened) {
  JoinFixture F;
  ValueChoices Choices;
  auto Any = [](const Value &) { return true; };
  Value &Inner = F.fresh();
  Choices.join(*F.V1, F.Then, *F.V2, F.Else, Inner, *F.Joined, Any);
  // A second join of the joined value with a third one.
  Environment Other = F.Base.fork();
  Environment::ValueModel NoModel;
  Environment Outer = Environment::join(*F.Joined, Other, NoModel,
                                        Environment::DiscardExprState);
  Value &V3 = F.fresh();
  Value &Both = F.fresh();
  Choices.join(Inner, *F.Joined, V3, Other, Both, Outer,
               [&](const Value &V) { return &V == &V3; });
  llvm::ArrayRef<ValueChoices::Choice> Of = Choices.of(Both);
  ASSERT_EQ(Of.size(), 3u);
  EXPECT_EQ(Of[0].V, F.V1);
  EXPECT_EQ(Of[1].V, F.V2);
  EXPECT_EQ(Of[2].V, &V3);
  // Each inner choice keeps its own condition under the outer one.
  Arena &A = F.Base.arena();
  EXPECT_TRUE(Outer.proves(A.makeNot(A.makeAnd(*Of[0].When, *Of[1].When))));
  EXPECT_TRUE(Outer.proves(A.makeNot(A.makeAnd(*Of[0].When, *Of[2].When))));
}

} // namespace

namespace {

TEST(ValueFacts, SyntheticFieldsOnlyWhereTheCallbackNamesThem) {
  auto AST = parseWithInputs(R"cpp(
struct Named { int x; };
struct Other { int y; };
void f(Named n, Other o) { (void)n.x; (void)o.y; }
)cpp");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  const FunctionDecl *F = functionNamed(Ctx, "f");
  DataflowAnalysisContext DACtx{std::make_unique<WatchedLiteralsSolver>()};
  QualType IntTy = Ctx.IntTy;
  DACtx.setSyntheticFieldCallback([IntTy](
                                      QualType T) -> llvm::StringMap<QualType> {
    if (const auto *RD = T->getAsRecordDecl(); RD && RD->getName() == "Named")
      return {{"extra", IntTy}};
    return {};
  });
  Environment Env(DACtx);
  auto &NamedLoc = cast<RecordStorageLocation>(
      Env.createStorageLocation(F->getParamDecl(0)->getType()));
  auto &OtherLoc = cast<RecordStorageLocation>(
      Env.createStorageLocation(F->getParamDecl(1)->getType()));
  EXPECT_NE(syntheticField(&NamedLoc, "extra"), nullptr);
  EXPECT_EQ(syntheticField(&NamedLoc, "missing"), nullptr);
  // Another type, or no location at all: null, where getSyntheticField()
  // would assert.
  EXPECT_EQ(syntheticField(&OtherLoc, "extra"), nullptr);
  EXPECT_EQ(syntheticField(nullptr, "extra"), nullptr);
}

TEST(ValueFacts, ADerivedRecordHoldsItsBasesSyntheticFields) {
  auto AST = parseWithInputs(R"cpp(
struct Named { int x; };
struct Middle : Named {};
struct Derived : Middle { int z; };
struct Other { int y; };
)cpp");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  QualType IntTy = Ctx.IntTy;
  auto Own = [IntTy](QualType T) -> llvm::StringMap<QualType> {
    if (const auto *RD = T->getAsRecordDecl(); RD && RD->getName() == "Named")
      return {{"extra", IntTy}};
    if (const auto *RD = T->getAsRecordDecl(); RD && RD->getName() == "Derived")
      return {{"own", IntTy}};
    return {};
  };
  auto Fields = [&](llvm::StringRef Name) {
    const CXXRecordDecl *RD = nullptr;
    for (const Decl *D : Ctx.getTranslationUnitDecl()->decls())
      if (const auto *R = dyn_cast<CXXRecordDecl>(D);
          R && R->getName() == Name && R->isThisDeclarationADefinition())
        RD = R;
    std::vector<std::string> Out;
    if (!RD)
      return Out;
    for (const auto &E :
         syntheticFieldsWithBases(compat::recordType(Ctx, RD), Ctx, Own))
      Out.push_back(E.getKey().str());
    llvm::sort(Out);
    return Out;
  };
  EXPECT_EQ(Fields("Named"), std::vector<std::string>{"extra"});
  // An indirect base's fields too, beside the type's own.
  EXPECT_EQ(Fields("Derived"), (std::vector<std::string>{"extra", "own"}));
  EXPECT_TRUE(Fields("Other").empty());
}

} // namespace

namespace {

TEST(ValueFacts, ANullPointerConstantIsKnownNull) {
  // `p = nullptr` and `q = 0` give the framework's null pointer value,
  // which the shared cases mark NULL; another cast is left alone.
  auto AST = parseWithInputs(R"cpp(
void f(long n) {
  int *p = nullptr;
  int *q = 0;
  long m = n;
}
)cpp");
  ASSERT_TRUE(AST);
  const FunctionDecl *F = functionNamed(AST->getASTContext(), "f");
  DataflowAnalysisContext DACtx{std::make_unique<WatchedLiteralsSolver>()};
  Environment Env{DACtx, *F};
  Env.initialize();
  std::vector<const CastExpr *> Casts;
  for (const Stmt *S : cast<CompoundStmt>(F->getBody())->body())
    Casts.push_back(cast<CastExpr>(
        cast<VarDecl>(cast<DeclStmt>(S)->getSingleDecl())->getInit()));
  ASSERT_EQ(Casts.size(), 3u);
  StmtSwitch<FamilyState> Table = valueCases<FamilyState>();
  FamilyState S{Env, ""};
  for (const CastExpr *C : Casts) {
    if (C->getCastKind() == CK_NullToPointer)
      Env.setValue(
          *C, Env.getOrCreateNullPointerValue(C->getType()->getPointeeType()));
    Table(*C, S);
  }
  for (unsigned I = 0; I < 2; ++I) {
    auto *P = dyn_cast_or_null<PointerValue>(Env.getValue(*Casts[I]));
    ASSERT_NE(P, nullptr);
    auto *Null = dyn_cast_or_null<BoolValue>(P->getProperty(kNull));
    ASSERT_NE(Null, nullptr);
    EXPECT_TRUE(Env.proves(Null->formula()));
  }
  EXPECT_EQ(Casts[2]->getCastKind(), CK_LValueToRValue);
}

} // namespace
