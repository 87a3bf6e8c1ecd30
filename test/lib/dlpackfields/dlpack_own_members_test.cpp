// Unit tests of lib/dlpackfields/DLPackOwnMembers.h: a member's tensor is
// the class's own when some method of the class writes its layout, and a
// read reaches the member through references, smart pointers and get().

#include "lib/dlpackfields/DLPackOwnMembers.h"

#include "ast_search.h"
#include "dlpack_snippets.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

#include "gtest/gtest.h"

#include <string>

using namespace clang;
using namespace clang::interop;
using namespace interop_test;

namespace {

/// For the first read of `strides` in the method named Method: the member
/// it goes through and whether that member's tensor is the class's own
/// ("batch own", "given producer's"), "no member", or why it could not be
/// asked.
std::string ask(llvm::StringRef Code, llvm::StringRef Method = "read") {
  auto AST = parseDLPackCode(std::string(DLPackPrelude) +
                             "#include <memory>\n#include <algorithm>\n" +
                             Code.str());
  if (!AST)
    return "did not parse";
  ASTContext &Ctx = AST->getASTContext();
  if (Ctx.getDiagnostics().hasErrorOccurred())
    return "compile errors";
  using namespace clang::ast_matchers;
  for (const BoundNodes &N :
       match(cxxMethodDecl(hasName(Method), isDefinition()).bind("fn"), Ctx)) {
    const auto *FD = N.getNodeAs<FunctionDecl>("fn");
    const MemberExpr *Read =
        firstNode<MemberExpr>(FD->getBody(), [&](const MemberExpr &ME) {
          const auto *F = dyn_cast<FieldDecl>(ME.getMemberDecl());
          return F && F->getName() == "strides";
        });
    if (!Read)
      return "no read";
    const FieldDecl *M = thisMemberRootOf(Read);
    if (!M)
      return "no member";
    return M->getName().str() +
           (isOwnTensorMember(*M) ? " own" : " producer's");
  }
  return "no method";
}

TEST(DLPackOwnMembers, AClassThatWritesTheLayoutBuildsTheTensor) {
  // Copied into through a local reference, read back through another.
  EXPECT_EQ(ask(R"cpp(
struct Del { void operator()(DLManagedTensor *t) const; };
std::unique_ptr<DLManagedTensor, Del> make(long n);
class Builder {
  std::unique_ptr<DLManagedTensor, Del> batch;
public:
  void fill(const long *s) {
    batch = make(4);
    auto &dl = batch->dl_tensor;
    std::copy(s, s + 4, dl.strides);
  }
  long read() const { const auto &dl = batch->dl_tensor; return dl.strides[0]; }
};
)cpp"),
            "batch own");
  // An element assigned, in an out-of-line method; read through get().
  EXPECT_EQ(ask(R"cpp(
class Builder {
  std::unique_ptr<DLTensor> t;
public:
  void describe();
  long read() const { return t.get()->strides[1]; }
};
void Builder::describe() { t->shape[0] = 3; }
)cpp"),
            "t own");
}

TEST(DLPackOwnMembers, AMemberOnlyReadIsAProducers) {
  EXPECT_EQ(ask(R"cpp(
class View {
  DLTensor given;
public:
  explicit View(const DLTensor &t) : given(t) {}
  long read() const { return given.strides[0]; }
};
)cpp"),
            "given producer's");
  // Another member's layout written does not make this one the class's.
  EXPECT_EQ(ask(R"cpp(
class Pair {
  DLTensor mine, given;
public:
  void describe() { mine.strides[0] = 1; }
  long read() const { return given.strides[0]; }
};
)cpp"),
            "given producer's");
  // A wrapper that copies the tensor it is given, then replaces its
  // strides only when there are some: the producer's NULL stays.
  EXPECT_EQ(ask(R"cpp(
class Memory {
  DLTensor handle;
  long own_strides[4];
public:
  void set(const DLTensor &h) {
    handle = h;
    if (h.strides) {
      handle.strides = own_strides;
    }
  }
  long read() const { return handle.strides[0]; }
};
)cpp"),
            "handle producer's");
  // The same through a constructor's initialiser.
  EXPECT_EQ(ask(R"cpp(
class Memory {
  DLTensor handle;
  long own_strides[4];
public:
  explicit Memory(const DLTensor &h) : handle(h) { handle.strides = own_strides; }
  long read() const { return handle.strides[0]; }
};
)cpp"),
            "handle producer's");
  // A parameter's tensor is no member at all.
  EXPECT_EQ(ask(R"cpp(
struct S {
  long read(const DLTensor &t) const { return t.strides[0]; }
};
)cpp"),
            "no member");
}

} // namespace

TEST(DLPackOwnMembers, AHandleMemberOnlyGivenItsOwnAllocations) {
  const char *Handle = R"cpp(
struct Array {
  DLTensor *operator->() const;
  static Array Empty(long n, DLDevice device);
};
)cpp";
  // Allocated in the constructor, replaced by a larger allocation through
  // a local, moved from another instance.
  EXPECT_EQ(ask(std::string(Handle) + R"cpp(
class Vec {
  Array data_;
public:
  Vec(long n, DLDevice dev) : data_(Array::Empty(n, dev)) {}
  void grow(long n) { Array b = Array::Empty(n, data_->device); data_ = b; }
  void take(Vec &&o) { data_ = static_cast<Array &&>(o.data_); }
  long read() const { return data_->strides[0]; }
};
)cpp"),
            "data_ own");
  // Default-constructed (an implicit initialiser, an empty handle), then
  // allocated in the constructor's body.
  EXPECT_EQ(ask(R"cpp(
struct Handle {
  Handle();
  DLTensor *operator->() const;
  static Handle Empty(long n, DLDevice device);
};
class Vec {
  Handle data_;
public:
  Vec(long n, DLDevice dev) { data_ = Handle::Empty(n, dev); }
  long read() const { return data_->strides[0]; }
};
)cpp"),
            "data_ own");
  // Also given a handle from outside: the producer's.
  EXPECT_EQ(ask(std::string(Handle) + R"cpp(
class Vec {
  Array data_;
public:
  Vec(long n, DLDevice dev) : data_(Array::Empty(n, dev)) {}
  void adopt(Array a) { data_ = a; }
  long read() const { return data_->strides[0]; }
};
)cpp"),
            "data_ producer's");
  // Given a handle some other call returns: an import, whoever stores it.
  EXPECT_EQ(ask(std::string(Handle) + R"cpp(
Array load(const char *path);
class Vec {
  Array data_;
public:
  Vec() : data_(load("x")) {}
  long read() const { return data_->strides[0]; }
};
)cpp"),
            "data_ producer's");
}
