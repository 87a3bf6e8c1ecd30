// Unit tests of the callee contracts read on the definition side
// (lib/ownership/OwnershipContracts.h): which returns of a function named by
// TensorSources hand on a tensor a smart pointer still owns.

#include "lib/ownership/OwnershipContracts.h"

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Frontend/ASTUnit.h"

#include "ownership/ownership_snippets.h"
#include "snippet_annotations.h"
#include "gtest/gtest.h"

#include <string>

using namespace clang;
using namespace clang::interop;
using namespace clang::interop::ownership;
using namespace interop_test;

namespace {

const char *const SmartPointers = R"cpp(
namespace std {
template <class T> struct default_delete {
  void operator()(T *p) const { delete p; }
};
template <class T, class D = default_delete<T>> class unique_ptr {
public:
  explicit unique_ptr(T *p);
  ~unique_ptr();
  T *get() const;
  T *release();
  void reset(T *p = nullptr);
};
} // namespace std
struct Calls {
  void operator()(DLManagedTensor *t) const { t->deleter(t); }
};
struct Keeps {
  void operator()(DLManagedTensor *) const {}
};
struct Hidden {
  void operator()(DLManagedTensor *) const;
};
)cpp";

struct Parsed {
  std::unique_ptr<ASTUnit> AST;
  std::vector<StillOwnedReturn> Returns(const char *Name) {
    NameList Sources(
        std::vector<std::string>{"to_?[Dd][Ll][Pp]ack$", "To[Dd][Ll][Pp]ack$"});
    const FunctionDecl *FD = functionNamed(AST->getASTContext(), Name);
    EXPECT_NE(FD, nullptr) << Name;
    return FD ? stillOwnedReturns(*FD, Sources)
              : std::vector<StillOwnedReturn>();
  }
};

Parsed parse(const std::string &Code) {
  Parsed P{
      parseOwnershipCode(std::string(OwnershipPrelude) + SmartPointers + Code)};
  EXPECT_TRUE(P.AST);
  return P;
}

TEST(OwnershipContracts, MemberGetInASourceBreaksTheContract) {
  Parsed P = parse(R"cpp(
struct T {
  DLManagedTensor *ToDLPack() { return t_.get(); }
  DLManagedTensor *borrow() { return t_.get(); }
  std::unique_ptr<DLManagedTensor, Calls> t_;
};
void use(T &t) { t.ToDLPack(); t.borrow(); }
)cpp");
  auto R = P.Returns("ToDLPack");
  ASSERT_EQ(R.size(), 1u);
  EXPECT_EQ(R[0].Owner->getName(), "t_");
  EXPECT_TRUE(P.Returns("borrow").empty()); // not a source: lent
}

TEST(OwnershipContracts, ReleasedMovedOrResetOwnersAreLeftAlone) {
  Parsed P = parse(R"cpp(
DLManagedTensor *to_dlpack() {
  std::unique_ptr<DLManagedTensor> p(new DLManagedTensor());
  DLManagedTensor *out = p.get();
  p.release();
  return out;
}
DLManagedTensor *toDLPack() {
  std::unique_ptr<DLManagedTensor> p(new DLManagedTensor());
  DLManagedTensor *out = p.get();
  return out;
}
)cpp");
  EXPECT_TRUE(P.Returns("to_dlpack").empty());
  auto R = P.Returns("toDLPack");
  ASSERT_EQ(R.size(), 1u); // through the local `out`
  EXPECT_EQ(R[0].Owner->getName(), "p");
}

TEST(OwnershipContracts, OwnershipFollowsTheDeleter) {
  Parsed P = parse(R"cpp(
std::unique_ptr<DLManagedTensor, Calls> *a;
std::unique_ptr<DLManagedTensor, Keeps> *b;
std::unique_ptr<DLManagedTensor, Hidden> *c;
std::unique_ptr<DLManagedTensor> *d;
std::unique_ptr<DLTensor> *e;
)cpp");
  ASTContext &Ctx = P.AST->getASTContext();
  auto TypeOf = [&](const char *Name) {
    using namespace clang::ast_matchers;
    auto Found = match(varDecl(hasName(Name)).bind("v"), Ctx);
    EXPECT_EQ(Found.size(), 1u) << Name;
    return Found.empty()
               ? QualType()
               : Found[0].getNodeAs<VarDecl>("v")->getType()->getPointeeType();
  };
  EXPECT_TRUE(isOwningTensorPointer(TypeOf("a")));  // calls the deleter
  EXPECT_FALSE(isOwningTensorPointer(TypeOf("b"))); // keeps it
  EXPECT_TRUE(isOwningTensorPointer(TypeOf("c")));  // cannot be seen
  EXPECT_TRUE(isOwningTensorPointer(TypeOf("d")));  // default_delete
  EXPECT_FALSE(isOwningTensorPointer(TypeOf("e"))); // not a managed tensor
}

} // namespace
