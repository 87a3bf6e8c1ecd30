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

TEST(MemoryCalls, DeviceCopySides) {
  auto AST = parseWithInputs(R"cpp(
typedef unsigned long size_t;
typedef unsigned long long CUdeviceptr;
enum cudaMemcpyKind { cudaMemcpyHostToHost, cudaMemcpyHostToDevice,
  cudaMemcpyDeviceToHost, cudaMemcpyDeviceToDevice, cudaMemcpyDefault };
int cudaMemcpy(void *, const void *, size_t, cudaMemcpyKind);
int cudaMemcpy2DAsync(void *, size_t, const void *, size_t, size_t, size_t,
                      cudaMemcpyKind, void *);
int cudaMemcpyPeer(void *, int, const void *, int, size_t);
int cudaMemset(void *, int, size_t);
int cuMemcpyDtoH(void *, CUdeviceptr, size_t);
int hipMemcpyHtoDAsync(void *, void *, size_t, void *);
void f(void *a, void *b, cudaMemcpyKind k) {
  cudaMemcpy(a, b, 4, cudaMemcpyHostToDevice);
  cudaMemcpy2DAsync(a, 4, b, 4, 4, 1, cudaMemcpyDeviceToHost, nullptr);
  cudaMemcpy(a, b, 4, cudaMemcpyDefault);
  cudaMemcpy(a, b, 4, k);
  cudaMemcpyPeer(a, 0, b, 1, 4);
  cudaMemset(a, 0, 4);
  cuMemcpyDtoH(a, 0, 4);
  hipMemcpyHtoDAsync(a, b, 4, nullptr);
}
)cpp");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  const Stmt *Body = functionNamed(Ctx, "f")->getBody();
  std::vector<const CallExpr *> Calls;
  firstNode<CallExpr>(Body, [&](const CallExpr &CE) {
    Calls.push_back(&CE);
    return false;
  });
  ASSERT_EQ(Calls.size(), 8u);
  auto Side = [&](unsigned Call, unsigned Arg) {
    return deviceCopySide(*Calls[Call], Arg, Ctx);
  };
  // The kind: destination first, then the source.
  EXPECT_EQ(Side(0, 0), MemorySide::Device);
  EXPECT_EQ(Side(0, 1), MemorySide::Host);
  EXPECT_EQ(Side(0, 2), MemorySide::Unknown) << "a count";
  EXPECT_EQ(Side(1, 0), MemorySide::Host);
  EXPECT_EQ(Side(1, 2), MemorySide::Device) << "the second pointer";
  // The runtime decides, or the kind is not a constant.
  EXPECT_EQ(Side(2, 1), MemorySide::Unknown);
  EXPECT_EQ(Side(3, 1), MemorySide::Unknown);
  EXPECT_EQ(Side(4, 0), MemorySide::Device);
  EXPECT_EQ(Side(4, 2), MemorySide::Device);
  EXPECT_EQ(Side(5, 0), MemorySide::Device);
  // By name: source, then destination.
  EXPECT_EQ(Side(6, 0), MemorySide::Host);
  EXPECT_EQ(Side(6, 1), MemorySide::Device);
  EXPECT_EQ(Side(7, 0), MemorySide::Device);
  EXPECT_EQ(Side(7, 1), MemorySide::Host);
}

} // namespace
