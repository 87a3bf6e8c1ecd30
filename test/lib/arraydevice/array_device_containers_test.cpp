// Unit tests of lib/arraydevice/ArrayDeviceContainers.h: its recognisers
// (subscripts by a variable, index writes, optionals of a device or an
// array, the standard algorithms read by contract), and, through the flow
// analysis alone, what elements, quantifiers, searches and optionals prove.

#include "lib/arraydevice/ArrayDeviceContainers.h"

#include "arraydevice/array_device_snippets.h"
#include "ast_search.h"
#include "snippet_annotations.h"
#include "syntax_vs_flow.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace clang;
using namespace clang::interop;
using namespace clang::interop::arraydevice;
using interop_test::firstNode;
using interop_test::proofName;

namespace {

using Sinks = std::vector<std::string>;

const char *const Recognised = R"cpp(#include "interop/interop.h"
using namespace interop;
namespace mine {
template <class It, class P> bool all_of(It f, It l, P p) { return p(*f); }
}
struct Slots {
  Device &operator[](int);
};
void uses(std::vector<Device> &v, const std::vector<Device> &cv,
          std::vector<int> &ints, Slots &slots, int i, long j, double x) {
  (void)v[i];
  (void)cv[i];
  (void)v.at(i);
  (void)v[0];
  (void)v[i + 1];
  (void)v.front();
  (void)ints[i];
  (void)slots[i];
  ++i;
  i--;
  i = 2;
  j += i;
  x = 1.0;
  (void)-i;
  (void)(i == 2);
  std::optional<Device> o;
  std::optional<Array> oa = std::nullopt;
  std::optional<int> oi;
  o = std::nullopt;
  o = v[i];
  o.reset();
  o.emplace(v[i]);
  (void)o.has_value();
  (void)o.value();
  oi.reset();
  if (o)
    ++i;
  (void)std::all_of(v.begin(), v.end(), [](const Device &d) { return true; });
  (void)std::none_of(v.begin(), v.end(), [](const Device &d) { return true; });
  (void)std::any_of(v.begin(), v.end(), [](const Device &d) { return true; });
  (void)std::find_if(v.begin(), v.end(), [](const Device &d) { return true; });
  (void)std::find(v.begin(), v.end(), v[i]);
  std::for_each(v.begin(), v.end(), [](const Device &d) {});
  (void)mine::all_of(v.begin(), v.end(), [](const Device &d) { return true; });
}
)cpp";

/// The statements of `uses`, in order, and the model.
struct Parsed {
  std::unique_ptr<ASTUnit> AST = interop_test::parseInteropCode(Recognised);
  ApiModel M{ApiModelOptions()};
  std::vector<const Stmt *> Stmts;

  Parsed() {
    EXPECT_FALSE(AST->getASTContext().getDiagnostics().hasErrorOccurred());
    const FunctionDecl *F =
        interop_test::functionNamed(AST->getASTContext(), "uses");
    // `(void)e;` stands for `e`.
    for (const Stmt *S : cast<CompoundStmt>(F->getBody())->body()) {
      if (const auto *Cast = dyn_cast<CStyleCastExpr>(S))
        S = Cast->getSubExpr()->IgnoreParens();
      Stmts.push_back(S);
    }
  }
  /// The first statement whose source text starts with Text.
  const Stmt *stmt(llvm::StringRef Text) const {
    const SourceManager &SM = AST->getSourceManager();
    for (const Stmt *S : Stmts) {
      const char *Begin = SM.getCharacterData(S->getBeginLoc());
      if (llvm::StringRef(Begin).starts_with(Text))
        return S;
    }
    ADD_FAILURE() << "no statement " << Text.str();
    return nullptr;
  }
  const CallExpr *call(llvm::StringRef Text) const {
    const Stmt *S = stmt(Text);
    if (const auto *E = dyn_cast_or_null<Expr>(S))
      return dyn_cast<CallExpr>(E->IgnoreImplicit());
    return nullptr;
  }
};

TEST(ArrayDeviceContainers, SubscriptsByAVariable) {
  Parsed P;
  auto Indexed = [&](llvm::StringRef Text) {
    const CallExpr *CE = P.call(Text);
    return CE && isIndexedElementAccess(P.M, *CE);
  };
  EXPECT_TRUE(Indexed("v[i]"));
  EXPECT_TRUE(Indexed("cv[i]"));
  EXPECT_TRUE(Indexed("v.at(i)"));
  // A constant or computed index, another accessor.
  EXPECT_FALSE(Indexed("v[0]"));
  EXPECT_FALSE(Indexed("v[i + 1]"));
  EXPECT_FALSE(Indexed("v.front()"));
  // Not a range of devices or arrays; a non-const subscript of a class
  // the standard does not specify.
  EXPECT_FALSE(Indexed("ints[i]"));
  EXPECT_FALSE(Indexed("slots[i]"));
}

TEST(ArrayDeviceContainers, WrittenIndexVariables) {
  Parsed P;
  auto Written = [&](llvm::StringRef Text) -> std::string {
    const Stmt *S = P.stmt(Text);
    const VarDecl *V = S ? writtenIndexVariable(*S) : nullptr;
    return V ? V->getNameAsString() : "none";
  };
  EXPECT_EQ(Written("++i"), "i");
  EXPECT_EQ(Written("i--"), "i");
  EXPECT_EQ(Written("i = 2"), "i");
  EXPECT_EQ(Written("j += i"), "j");
  EXPECT_EQ(Written("x = 1.0"), "none");
  EXPECT_EQ(Written("-i"), "none");
  EXPECT_EQ(Written("i == 2"), "none");
  EXPECT_EQ(Written("v[i]"), "none");
}

TEST(ArrayDeviceContainers, OptionalsOfADeviceOrAnArray) {
  Parsed P;
  ASTContext &Ctx = P.AST->getASTContext();
  const FunctionDecl *F = interop_test::functionNamed(Ctx, "uses");
  auto TypeOf = [&](llvm::StringRef Var) {
    for (const Stmt *S : P.Stmts)
      if (const auto *D = dyn_cast<DeclStmt>(S))
        if (const auto *VD = dyn_cast<VarDecl>(D->getSingleDecl()))
          if (VD->getName() == Var)
            return VD->getType();
    return QualType();
  };
  EXPECT_TRUE(isOptionalOfElement(P.M, TypeOf("o")));
  EXPECT_TRUE(isOptionalOfElement(P.M, TypeOf("oa")));
  EXPECT_FALSE(isOptionalOfElement(P.M, TypeOf("oi")));
  EXPECT_FALSE(isOptionalOfElement(P.M, F->getParamDecl(0)->getType()));

  auto Changes = [&](llvm::StringRef Text) {
    const Stmt *S = P.stmt(Text);
    if (!S)
      return false;
    // A declaration changes it through its construction.
    if (const auto *D = dyn_cast<DeclStmt>(S))
      S = cast<VarDecl>(D->getSingleDecl())->getInit();
    if (const auto *E = dyn_cast_or_null<Expr>(S))
      S = E->IgnoreImplicit();
    return S && changesOptionalContents(P.M, *S);
  };
  EXPECT_TRUE(Changes("std::optional<Device> o"));
  EXPECT_TRUE(Changes("std::optional<Array> oa"));
  EXPECT_TRUE(Changes("o = std::nullopt"));
  EXPECT_TRUE(Changes("o = v[i]"));
  EXPECT_TRUE(Changes("o.reset()"));
  EXPECT_TRUE(Changes("o.emplace(v[i])"));
  EXPECT_TRUE(Changes("o.has_value()"));
  // Reading the value changes nothing; an optional of something else is
  // not modelled.
  EXPECT_FALSE(Changes("o.value()"));
  EXPECT_FALSE(Changes("std::optional<int> oi"));
  EXPECT_FALSE(Changes("oi.reset()"));

  // `if (o)`: the contextual conversion is the test.
  const auto *If = dyn_cast_or_null<IfStmt>(P.stmt("if (o)"));
  ASSERT_NE(If, nullptr);
  const auto *ICE =
      firstNode<ImplicitCastExpr>(If->getCond(), [](const ImplicitCastExpr &C) {
        return C.getCastKind() == CK_UserDefinedConversion;
      });
  ASSERT_NE(ICE, nullptr);
  EXPECT_TRUE(isOptionalTestConversion(P.M, *ICE));
  const auto *Other = firstNode<ImplicitCastExpr>(P.stmt("ints[i]"));
  ASSERT_NE(Other, nullptr);
  EXPECT_FALSE(isOptionalTestConversion(P.M, *Other));
}

TEST(ArrayDeviceContainers, StandardAlgorithmsByContract) {
  Parsed P;
  auto Algorithm = [&](llvm::StringRef Text) {
    const CallExpr *CE = P.call(Text);
    return CE && isStdContainerAlgorithm(*CE);
  };
  EXPECT_TRUE(Algorithm("std::all_of"));
  EXPECT_TRUE(Algorithm("std::none_of"));
  EXPECT_TRUE(Algorithm("std::any_of"));
  EXPECT_TRUE(Algorithm("std::find_if"));
  EXPECT_TRUE(Algorithm("std::find("));
  // Another algorithm; the same name outside std.
  EXPECT_FALSE(Algorithm("std::for_each"));
  EXPECT_FALSE(Algorithm("mine::all_of"));
}

std::string addressable(const SinkFact &F) { return proofName(F.Addressable); }
std::string single(const SinkFact &F) { return proofName(F.SingleDevice); }

TEST(ArrayDeviceContainers, ElementsReadThroughTheSameIndex) {
  auto AST = interop_test::parseInteropCode(R"cpp(#include "interop/interop.h"
using namespace interop;
void indexed(DLManagedTensor *t, const std::vector<Device> &v, int i, int k) {
  if (v[i].is_addressable()) {
    (void)from_dlpack(t, v[i]);
    (void)from_dlpack(t, v[k]);
    ++i;
    (void)from_dlpack(t, v[i]);
  }
}
void element_written(std::vector<Array> &v, int i, int k, const Array &b) {
  if (!v[i].is_single_device())
    return;
  (void)to_dlpack(v[i]);
  v[k] = b;
  (void)to_dlpack(v[i]);
}
)cpp");
  ASSERT_TRUE(AST);
  ASSERT_FALSE(AST->getASTContext().getDiagnostics().hasErrorOccurred());
  EXPECT_EQ(interop_test::flowAtSinks(AST, "indexed", addressable),
            (Sinks{"holds", "unknown", "unknown"}));
  // A non-const access may alias any other index.
  EXPECT_EQ(interop_test::flowAtSinks(AST, "element_written", single),
            (Sinks{"holds", "unknown"}));
}

TEST(ArrayDeviceContainers, QuantifiersAndSearches) {
  auto AST = interop_test::parseInteropCode(R"cpp(#include "interop/interop.h"
using namespace interop;
bool is_mine(const Device &d) { return d.is_addressable(); }
bool named_like_a_check(const Device &d) { return d.id() > 0; }
void all(DLManagedTensor *t, const std::vector<Device> &v) {
  if (!std::all_of(v.begin(), v.end(), is_mine))
    return;
  for (const Device &d : v)
    (void)from_dlpack(t, d);
}
void none(DLManagedTensor *t, const std::vector<Device> &v) {
  if (std::none_of(v.begin(), v.end(),
                   [](const Device &d) { return !d.is_addressable(); }))
    (void)from_dlpack(t, v.front());
  if (std::any_of(v.begin(), v.end(),
                  [](const Device &d) { return !d.is_addressable(); }))
    (void)from_dlpack(t, v.front());
}
void by_name_only(DLManagedTensor *t, const std::vector<Device> &v) {
  if (std::all_of(v.begin(), v.end(), named_like_a_check))
    (void)from_dlpack(t, v.front());
}
void other_range(DLManagedTensor *t, const std::vector<Device> &v,
                 const std::vector<Device> &w) {
  if (std::all_of(v.begin(), w.end(), is_mine))
    (void)from_dlpack(t, v.front());
}
void search(DLManagedTensor *t, const std::vector<Device> &v) {
  const Device *it = std::find_if(v.begin(), v.end(), is_mine);
  (void)from_dlpack(t, *it);
  const Device *same = std::find(v.begin(), v.end(), v.front());
  (void)from_dlpack(t, *same);
}
void search_global(DLManagedTensor *t) {
  std::vector<Device> all = devices();
  const Device *it = std::find_if(all.begin(), all.end(),
                                  [](const Device &d) { return d.id() == 3; });
  (void)from_dlpack(t, *it);
}
)cpp");
  ASSERT_TRUE(AST);
  ASSERT_FALSE(AST->getASTContext().getDiagnostics().hasErrorOccurred());
  EXPECT_EQ(interop_test::flowAtSinks(AST, "all", addressable),
            (Sinks{"holds"}));
  // none_of true and any_of false with the negated predicate prove the
  // same; any_of true proves nothing of every element.
  EXPECT_EQ(interop_test::flowAtSinks(AST, "none", addressable),
            (Sinks{"holds", "unknown"}));
  // The predicate's body, not its name.
  EXPECT_EQ(interop_test::flowAtSinks(AST, "by_name_only", addressable),
            (Sinks{"unknown"}));
  EXPECT_EQ(interop_test::flowAtSinks(AST, "other_range", addressable),
            (Sinks{"unknown"}));
  // find_if's match is what its predicate proves; find's is only an
  // element.
  EXPECT_EQ(interop_test::flowAtSinks(AST, "search", addressable),
            (Sinks{"holds", "unknown"}));
  // The position keeps the searched list's provenance.
  EXPECT_EQ(interop_test::flowAtSinks(
                AST, "search_global",
                [](const SinkFact &F) {
                  return std::string(
                      F.From.K == Origin::GlobalDevices ? "global" : "other");
                }),
            (Sinks{"global"}));
}

TEST(ArrayDeviceContainers, OptionalsAreRangesOfAtMostOne) {
  auto AST = interop_test::parseInteropCode(R"cpp(#include "interop/interop.h"
using namespace interop;
void optional(DLManagedTensor *t, const Device &d, const Device &e) {
  std::optional<Device> o;
  if (d.is_addressable())
    o = d;
  if (o)
    (void)from_dlpack(t, *o);
  o = e;
  if (o.has_value())
    (void)from_dlpack(t, *o);
  o.reset();
  std::vector<Device> local = local_devices();
  const Device &x = o ? *o : local.front();
  (void)from_dlpack(t, x);
}
)cpp");
  ASSERT_TRUE(AST);
  ASSERT_FALSE(AST->getASTContext().getDiagnostics().hasErrorOccurred());
  EXPECT_EQ(interop_test::flowAtSinks(AST, "optional", addressable),
            (Sinks{"holds", "unknown", "holds"}));
}

} // namespace
