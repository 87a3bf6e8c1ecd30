// Unit tests of lib/abi/MemoryCalls.h: how a call treats memory passed to
// it.

#include "lib/abi/MemoryCalls.h"

#include "ast_search.h"
#include "snippet_annotations.h"

#include "gtest/gtest.h"

using namespace clang;
using namespace clang::interop;
using namespace interop_test;

namespace {

TEST(MemoryCalls, ByName) {
  auto AST = parseWithInputs(R"cpp(
typedef unsigned long size_t;
extern "C" void *memcpy(void *, const void *, size_t);
extern "C" int memcmp(const void *, const void *, size_t);
extern "C" void free(void *);
int cudaMemcpy(void *, const void *, size_t, int);
namespace std { template <class I, class O> O copy(I, I, O); }
void copy(int *, int *, int *);
void f(int *a, int *b) {
  memcpy(a, b, 4); memcmp(a, b, 4); free(a); cudaMemcpy(a, b, 4, 0);
  std::copy(a, b, a); copy(a, b, a);
}
)cpp");
  ASSERT_TRUE(AST);
  const Stmt *Body = functionNamed(AST->getASTContext(), "f")->getBody();
  auto Callee = [&](llvm::StringRef Name, unsigned Nth = 0) {
    const FunctionDecl *Found = nullptr;
    unsigned Seen = 0;
    firstNode<CallExpr>(Body, [&](const CallExpr &CE) {
      const FunctionDecl *FD = CE.getDirectCallee();
      if (FD && FD->getIdentifier() && FD->getName() == Name && Seen++ == Nth)
        Found = FD;
      return Found != nullptr;
    });
    return Found;
  };
  EXPECT_EQ(classifyMemoryCall(Callee("memcpy")), MemoryCallKind::HostCopy);
  EXPECT_TRUE(isCopyDestination(Callee("memcpy"), 0));
  EXPECT_FALSE(isCopyDestination(Callee("memcpy"), 1));
  EXPECT_FALSE(isCopyDestination(Callee("memcmp"), 0));
  EXPECT_EQ(classifyMemoryCall(Callee("free")), MemoryCallKind::Dealloc);
  EXPECT_EQ(classifyMemoryCall(Callee("cudaMemcpy")),
            MemoryCallKind::DeviceCopy);
  // std::copy writes its third argument; a `copy` outside std is unknown.
  EXPECT_EQ(classifyMemoryCall(Callee("copy", 0)), MemoryCallKind::HostCopy);
  EXPECT_TRUE(isCopyDestination(Callee("copy", 0), 2));
  EXPECT_EQ(classifyMemoryCall(Callee("copy", 1)), MemoryCallKind::None);
  EXPECT_EQ(classifyMemoryCall(nullptr), MemoryCallKind::None);
}

} // namespace
