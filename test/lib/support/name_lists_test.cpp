// Unit tests of lib/support/NameLists.h: the one rule every option that
// names declarations follows.

#include "lib/support/NameLists.h"

#include "ast_search.h"
#include "snippet_annotations.h"

#include "clang/AST/DeclCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

#include "gtest/gtest.h"

using namespace clang;
using namespace clang::interop;
using namespace clang::ast_matchers;
using namespace interop_test;

namespace {

TEST(NameLists, SplitsAndTrims) {
  std::vector<llvm::StringRef> L = splitOptionList(" ::a::f$ ;; b ;");
  ASSERT_EQ(L.size(), 2u);
  EXPECT_EQ(L[0], "::a::f$");
  EXPECT_EQ(L[1], "b");
  EXPECT_EQ(optionStrings("x;y").size(), 2u);
}

const NamedDecl *named(ASTContext &Ctx, llvm::StringRef Name) {
  auto Found = match(namedDecl(hasName(Name)).bind("d"), Ctx);
  return Found.empty() ? nullptr : Found[0].getNodeAs<NamedDecl>("d");
}

TEST(NameLists, PlainNamesAreExactAndPatternsAreSearched) {
  auto AST = parseWithInputs(R"cpp(
namespace at { void from_blob(); void from_blob_ex(); }
namespace other { namespace at { void from_blob(); } }
)cpp");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  const NamedDecl *Blob = named(Ctx, "::at::from_blob");
  const NamedDecl *BlobEx = named(Ctx, "::at::from_blob_ex");
  const NamedDecl *Nested = named(Ctx, "::other::at::from_blob");
  ASSERT_TRUE(Blob && BlobEx && Nested);
  // A plain name names one declaration, with or without the leading "::".
  for (const char *Entry : {"::at::from_blob", "at::from_blob"}) {
    NameList L = NameList::fromOption(Entry);
    EXPECT_TRUE(L.matches(Blob)) << Entry;
    EXPECT_FALSE(L.matches(BlobEx)) << Entry;
    EXPECT_FALSE(L.matches(Nested)) << Entry;
  }
  // A pattern is searched in "::" + the name, as clang-tidy's regex options
  // are.
  NameList Suffix = NameList::fromOption("::at::from_blob$");
  EXPECT_TRUE(Suffix.matches(Blob));
  EXPECT_FALSE(Suffix.matches(BlobEx));
  EXPECT_TRUE(Suffix.matches(Nested));
  NameList Prefix = NameList::fromOption("^::at::from_blob");
  EXPECT_TRUE(Prefix.matches(BlobEx));
  EXPECT_FALSE(Prefix.matches(Nested));
  EXPECT_EQ(NameList::fromOption("::a::f;::b::g$;::a::f").plainNames().size(),
            1u);
  EXPECT_TRUE(NameList().empty());
  EXPECT_FALSE(NameList::fromOption("x").matches(nullptr));
}

TEST(NameLists, OneSpellingForMembersConstructorsAndEnumerators) {
  auto AST = parseWithInputs(R"cpp(
namespace Eigen { template <class T> struct Map { Map(T *); }; }
namespace ns {
template <class T> struct Result { T value(); };
enum Platform { kCpu, kTpu };
enum class Kind { kDevice };
}
void user(float *p) {
  Eigen::Map<float> m(p);
  ns::Result<int> r;
  r.value();
}
)cpp");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  // A constructor is named by its class, a specialisation's by the template.
  auto Ctors = match(cxxConstructExpr().bind("c"), Ctx);
  ASSERT_FALSE(Ctors.empty());
  const CXXConstructorDecl *Ctor =
      Ctors[0].getNodeAs<CXXConstructExpr>("c")->getConstructor();
  EXPECT_EQ(listedName(*Ctor), "Eigen::Map");
  EXPECT_TRUE(NameList::fromOption("::Eigen::Map").matches(Ctor));
  EXPECT_TRUE(NameList::fromOption("::Eigen::Map$").matches(Ctor));
  // A member of a specialisation through the template.
  auto Calls = match(cxxMemberCallExpr().bind("m"), Ctx);
  ASSERT_EQ(Calls.size(), 1u);
  const CXXMethodDecl *Value =
      Calls[0].getNodeAs<CXXMemberCallExpr>("m")->getMethodDecl();
  EXPECT_EQ(listedName(*Value), "ns::Result::value");
  EXPECT_TRUE(NameList::fromOption("::ns::Result::value").matches(Value));
  // An unscoped enumerator with or without its enum's name; a scoped one
  // with it only.
  const NamedDecl *Tpu = named(Ctx, "::ns::kTpu");
  ASSERT_TRUE(Tpu);
  EXPECT_TRUE(NameList::fromOption("::ns::Platform::kTpu").matches(Tpu));
  EXPECT_TRUE(NameList::fromOption("::ns::kTpu").matches(Tpu));
  EXPECT_TRUE(NameList::fromOption("::ns::kTpu$").matches(Tpu));
  EXPECT_FALSE(NameList::fromOption("::ns::kCpu").matches(Tpu));
  const NamedDecl *Device = named(Ctx, "::ns::Kind::kDevice");
  ASSERT_TRUE(Device);
  EXPECT_TRUE(NameList::fromOption("ns::Kind::kDevice").matches(Device));
  EXPECT_FALSE(NameList::fromOption("ns::kDevice").matches(Device));
}

TEST(NameLists, TheOwnNameOfAFunctionByPattern) {
  // HostDeviceGuards' default: "host" in the function's own name, not in its
  // namespace.
  auto AST = parseWithInputs(R"cpp(
bool IsHostDevice(int);
namespace host { bool ready(int); }
struct Dev { bool on_host() const; };
)cpp");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  NameList Guards = NameList::fromOption("[Hh]ost[^:]*$");
  EXPECT_TRUE(Guards.matches(named(Ctx, "::IsHostDevice")));
  EXPECT_TRUE(Guards.matches(named(Ctx, "::Dev::on_host")));
  EXPECT_FALSE(Guards.matches(named(Ctx, "::host::ready")));
}

TEST(NameLists, InvalidExpressionsAreReported) {
  std::vector<std::string> Errors;
  NameList L = NameList::fromOption("ok;bad(;::f$", &Errors);
  ASSERT_EQ(Errors.size(), 1u);
  EXPECT_NE(Errors[0].find("bad("), std::string::npos);
  EXPECT_FALSE(L.empty());
  EXPECT_TRUE(L.matchesName("ok"));
  EXPECT_TRUE(L.matchesName("ns::f"));
  // A name that is not a declaration's (a macro's) follows the same rule.
  EXPECT_FALSE(L.matchesName("bad("));
}

} // namespace
