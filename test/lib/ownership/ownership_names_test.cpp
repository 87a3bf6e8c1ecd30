// Unit tests of the capsule names the ownership model reads
// (lib/ownership/OwnershipNames.h): which C string functions read a name,
// and a PyCapsule_GetName result judged where it is read.

#include "lib/ownership/OwnershipNames.h"

#include "lib/engine/FactCache.h"
#include "lib/ownership/OwnershipFacts.h"

#include "clang/AST/ASTContext.h"
#include "clang/Frontend/ASTUnit.h"

#include "ast_search.h"
#include "ownership/ownership_snippets.h"
#include "snippet_annotations.h"
#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace clang;
using namespace clang::interop;
using namespace clang::interop::ownership;
using namespace interop_test;

namespace {

const char *const StringFunctions = R"cpp(
extern "C" int strcmp(const char *a, const char *b);
extern "C" int strncmp(const char *a, const char *b, unsigned long n);
extern "C" unsigned long strlen(const char *s);
extern "C" char *strchr(const char *s, int c);
int my_compare(const char *a, const char *b);
)cpp";

/// The kinds of the ownership events of the function named Name, in order.
std::vector<OwnershipEvent::Kind> eventsOf(ASTContext &Ctx,
                                           llvm::StringRef Name) {
  std::vector<OwnershipEvent::Kind> Out;
  for (const OwnershipEvent &E :
       getOwnershipFacts(*functionNamed(Ctx, Name), Ctx, false).Events)
    Out.push_back(E.K);
  return Out;
}

TEST(OwnershipNames, CStringReaders) {
  auto AST = parseOwnershipCode(std::string(StringFunctions) + R"cpp(
void f(const char *s) {
  strcmp(s, "a");
  strncmp("a", s, 1);
  strlen(s);
  strchr(s, 'x');
  my_compare(s, "a");
}
)cpp");
  ASSERT_TRUE(AST);
  const Stmt *Body = functionNamed(AST->getASTContext(), "f")->getBody();
  EXPECT_TRUE(readsCString(*callNamed(Body, "strcmp"), 0));
  EXPECT_TRUE(readsCString(*callNamed(Body, "strcmp"), 1));
  EXPECT_TRUE(readsCString(*callNamed(Body, "strncmp"), 1));
  EXPECT_FALSE(readsCString(*callNamed(Body, "strncmp"), 2));
  EXPECT_TRUE(readsCString(*callNamed(Body, "strlen"), 0));
  // strchr reads its string, not the character.
  EXPECT_TRUE(readsCString(*callNamed(Body, "strchr"), 0));
  EXPECT_FALSE(readsCString(*callNamed(Body, "strchr"), 1));
  // A project's own comparison may test for NULL itself.
  EXPECT_FALSE(readsCString(*callNamed(Body, "my_compare"), 0));
}

TEST(OwnershipNames, NameReadWithoutANullTest) {
  resetFactCache();
  auto AST = parseOwnershipCode(std::string(OwnershipPrelude) +
                                StringFunctions + R"cpp(
bool unchecked(PyObject *c) {
  const char *name = PyCapsule_GetName(c);
  return strcmp(name, "dltensor") == 0;
}
bool checked(PyObject *c) {
  const char *name = PyCapsule_GetName(c);
  return name && strcmp(name, "dltensor") == 0;
}
bool reassigned(PyObject *c, PyObject *d) {
  const char *name = PyCapsule_GetName(c);
  if (!name)
    return false;
  name = PyCapsule_GetName(d);
  return strlen(name) > 0;
}
static void own(PyObject *c) {
  if (strcmp(PyCapsule_GetName(c), "used_dltensor") == 0)
    return;
}
)cpp");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  using K = std::vector<OwnershipEvent::Kind>;
  EXPECT_EQ(eventsOf(Ctx, "unchecked"), K{OwnershipEvent::CapsuleNameUnchecked});
  EXPECT_EQ(eventsOf(Ctx, "checked"), K{});
  // The test was of the first name; the second is a new value.
  EXPECT_EQ(eventsOf(Ctx, "reassigned"),
            K{OwnershipEvent::CapsuleNameUnchecked});
  // A function of a capsule destructor's shape reads its own capsule.
  EXPECT_EQ(eventsOf(Ctx, "own"), K{});
  resetFactCache();
}

} // namespace
