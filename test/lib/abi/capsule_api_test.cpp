// Unit tests of lib/abi/CapsuleAPI.h: the CPython capsule API and the
// managed tensor's deleter, by name.

#include "lib/abi/CapsuleAPI.h"
#include "lib/abi/CapsuleCalls.h"

#include "ast_search.h"
#include "snippet_annotations.h"

#include "gtest/gtest.h"

using namespace clang;
using namespace clang::interop;
using namespace interop_test;

namespace {

const char *Code = R"cpp(#include <Python.h>
#include <dlpack/dlpack.h>
static const char kName[] = "dltensor_versioned";
void destroy(PyObject *capsule) {
  auto *mt = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule, "dltensor"));
  if (mt && mt->deleter)
    mt->deleter(mt);
}
struct Holder { DLManagedTensor dlm; void drop() { dlm.deleter(&dlm); } };
PyObject *make(DLManagedTensor *mt, DLManagedTensorVersioned *v) {
  PyCapsule_SetName(nullptr, "used_dltensor");
  auto del = mt->deleter;
  DLManagedTensor copy = *mt;
  del(&copy);
  PyObject *a = PyCapsule_New(v, kName, nullptr);
  return PyCapsule_New(mt, "dltensor", destroy);
}
)cpp";

TEST(CapsuleAPI, CallsNamesAndDestructors) {
  auto AST = parseWithInputs(Code);
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  ASSERT_FALSE(Ctx.getDiagnostics().hasErrorOccurred());
  const Stmt *Make = functionNamed(Ctx, "make")->getBody();
  const CallExpr *Rename = callNamed(Make, "PyCapsule_SetName");
  EXPECT_EQ(classifyCapsuleCall(Rename), CapsuleCall::SetName);
  EXPECT_EQ(classifyCapsuleName(Rename->getArg(1), Ctx),
            CapsuleName::UsedLegacy);
  EXPECT_EQ(classifyCapsuleName(Rename->getArg(0), Ctx), CapsuleName::Null);
  // The first PyCapsule_New names its capsule through a constant array and
  // installs no destructor; the second installs `destroy`.
  const CallExpr *First = callNamed(Make, "PyCapsule_New");
  EXPECT_EQ(classifyCapsuleName(First->getArg(1), Ctx), CapsuleName::Versioned);
  EXPECT_EQ(constantString(First->getArg(1), Ctx),
            std::optional<std::string>("dltensor_versioned"));
  EXPECT_FALSE(installedDestructor(*First));
  const auto *Last = firstNode<ReturnStmt>(Make);
  const CallExpr *Second = callNamed(Last, "PyCapsule_New");
  const FunctionDecl *D = installedDestructor(*Second);
  ASSERT_TRUE(D);
  EXPECT_EQ(D->getName(), "destroy");
  EXPECT_EQ(capsuleNameFor(DLPackRecord::ManagedTensorVersioned),
            "dltensor_versioned");
  EXPECT_EQ(unconsumedNameText(CapsuleName::Legacy), "dltensor");
  EXPECT_TRUE(mentionsDLPack("my.DLPack.tensor"));
  EXPECT_FALSE(mentionsDLPack("buffer"));
}

TEST(CapsuleAPI, DeleterCalls) {
  auto AST = parseWithInputs(Code);
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  // Through a local copy of the deleter pointer, on a by-value copy.
  const Stmt *Make = functionNamed(Ctx, "make")->getBody();
  const auto *Del = firstNode<CallExpr>(
      Make, [](const CallExpr &CE) { return !CE.getDirectCallee(); });
  ASSERT_TRUE(Del);
  EXPECT_TRUE(isDeleterCall(Del));
  const NamedDecl *Copy = byValueManagedTensor(Del->getArg(0));
  ASSERT_TRUE(Copy);
  EXPECT_EQ(Copy->getName(), "copy");
  // A member of this: `&dlm`, a by-value field.
  const Stmt *Drop = functionNamed(Ctx, "drop")->getBody();
  const auto *Member = firstNode<CallExpr>(Drop);
  ASSERT_TRUE(Member);
  const Expr *Base = nullptr;
  EXPECT_TRUE(isDeleterCall(Member, &Base));
  EXPECT_TRUE(Base);
  ASSERT_TRUE(byValueManagedTensor(Member->getArg(0)));
  // The destructor's pointer: not by value.
  const Stmt *Destroy = functionNamed(Ctx, "destroy")->getBody();
  const auto *Call = firstNode<CallExpr>(
      Destroy, [](const CallExpr &CE) { return !CE.getDirectCallee(); });
  ASSERT_TRUE(Call);
  EXPECT_FALSE(byValueManagedTensor(Call->getArg(0)));
  EXPECT_EQ(capsuleRoot(callNamed(Destroy, "PyCapsule_GetPointer")->getArg(0))
                ->getName(),
            "capsule");
}

TEST(CapsuleAPI, ConsumptionsAndSites) {
  auto AST = parseWithInputs(Code);
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  const Stmt *Destroy = functionNamed(Ctx, "destroy")->getBody();
  std::vector<CapsuleConsumption> C = findCapsuleConsumptions(Destroy, Ctx);
  ASSERT_EQ(C.size(), 1u);
  EXPECT_FALSE(C[0].Claimed);
  EXPECT_FALSE(C[0].PointerPassedOn);
  CapsuleSites S = findCapsuleSites(Destroy);
  EXPECT_EQ(S.CapsuleCalls.size(), 1u);
  EXPECT_EQ(S.DeleterCalls.size(), 1u);
  EXPECT_EQ(S.PointerCasts.size(), 1u);
}

TEST(CapsuleAPI, ImportsThatFailOnlyByThrowing) {
  auto AST = parseWithInputs(R"cpp(
#include <Python.h>
#include <dlpack/dlpack.h>
struct Tensor { int dim() const; };
struct Checked { bool ok() const; };
struct Base { explicit operator bool() const; };
struct Derived : Base {};
Tensor as_tensor(DLManagedTensor *);
Checked checked(DLManagedTensor *);
Derived derived(DLManagedTensor *);
Tensor *pointer(DLManagedTensor *);
void adopt(DLManagedTensor *);
int f(PyObject *cap) {
  auto *mt = (DLManagedTensor *)PyCapsule_GetPointer(cap, "dltensor");
  adopt(mt);
  as_tensor(mt); checked(mt); derived(mt); pointer(mt);
  return 0;
}
)cpp");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  const Stmt *Body = functionNamed(Ctx, "f")->getBody();
  EXPECT_TRUE(failsOnlyByThrowing(*callNamed(Body, "adopt")));
  EXPECT_TRUE(failsOnlyByThrowing(*callNamed(Body, "as_tensor")));
  EXPECT_FALSE(failsOnlyByThrowing(*callNamed(Body, "checked")));
  EXPECT_FALSE(failsOnlyByThrowing(*callNamed(Body, "derived")))
      << "a base's test of success counts";
  EXPECT_FALSE(failsOnlyByThrowing(*callNamed(Body, "pointer")));
  // The first call the pointer reaches is the one a claim follows.
  std::vector<CapsuleConsumption> C = findCapsuleConsumptions(Body, Ctx);
  ASSERT_EQ(C.size(), 1u);
  EXPECT_TRUE(C[0].PointerPassedOn);
  EXPECT_EQ(C[0].PassedTo, callNamed(Body, "adopt"));
}

TEST(CapsuleAPI, ReadsUnderAUsedName) {
  auto AST = parseWithInputs(R"cpp(
#include <Python.h>
#include <dlpack/dlpack.h>
PyObject *kept;
void *handed(PyObject *cap) {
  PyObject *alias = cap;
  return PyCapsule_GetPointer(alias, "used_dltensor_versioned");
}
void *own(PyObject *cap) {
  PyCapsule_SetName(cap, "used_dltensor");
  return PyCapsule_GetPointer(cap, "used_dltensor");
}
void *stored() { return PyCapsule_GetPointer(kept, "used_dltensor"); }
)cpp");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  auto ForeignReads = [&](const char *Fn) {
    std::vector<const CallExpr *> Reads;
    EXPECT_TRUE(
        findCapsuleConsumptions(functionNamed(Ctx, Fn)->getBody(), Ctx, &Reads)
            .empty())
        << "a read under a used_ name is no consumption";
    return Reads;
  };
  std::vector<const CallExpr *> Handed = ForeignReads("handed");
  ASSERT_EQ(Handed.size(), 1u) << "a parameter, through a local alias";
  EXPECT_EQ(Handed[0], callNamed(functionNamed(Ctx, "handed")->getBody(),
                                 "PyCapsule_GetPointer"));
  EXPECT_TRUE(ForeignReads("own").empty()) << "renamed by this body";
  EXPECT_TRUE(ForeignReads("stored").empty()) << "a capsule the file keeps";
}

TEST(CapsuleAPI, TheNamesADestructorReadsUnder) {
  auto AST = parseWithInputs(R"cpp(
#include <Python.h>
void used(PyObject *cap) {
  if (PyCapsule_IsValid(cap, "used_dltensor"))
    PyCapsule_GetPointer(cap, "used_dltensor");
}
void both(PyObject *cap) {
  PyCapsule_GetPointer(cap, "used_dltensor");
  PyCapsule_GetPointer(cap, "dltensor");
}
void other(PyObject *cap) { PyCapsule_GetPointer(cap, "tensor"); }
void any(PyObject *cap) {
  PyCapsule_GetPointer(cap, PyCapsule_GetName(cap));
}
)cpp");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  auto Reads = [&](const char *Fn) {
    return destructorNameReads(*functionNamed(Ctx, Fn), "dltensor", Ctx);
  };
  DestructorNameReads Used = Reads("used");
  EXPECT_FALSE(Used.CreatedOrUnknown);
  ASSERT_TRUE(Used.Used);
  EXPECT_EQ(classifyCapsuleCall(Used.Used), CapsuleCall::GetPointer)
      << "the GetPointer read is the one shown";
  EXPECT_EQ(readOnlyUnderUsedName(*functionNamed(Ctx, "used"), "dltensor", Ctx),
            Used.Used);
  EXPECT_FALSE(
      readUnderOtherName(*functionNamed(Ctx, "used"), "dltensor", Ctx));
  EXPECT_TRUE(Reads("both").CreatedOrUnknown);
  EXPECT_FALSE(
      readOnlyUnderUsedName(*functionNamed(Ctx, "both"), "dltensor", Ctx));
  EXPECT_TRUE(Reads("other").Other);
  EXPECT_TRUE(
      readUnderOtherName(*functionNamed(Ctx, "other"), "dltensor", Ctx));
  DestructorNameReads Any = Reads("any");
  EXPECT_FALSE(Any.CreatedOrUnknown || Any.Used || Any.Other)
      << "the capsule's own name matches whatever it is";
}

TEST(CapsuleAPI, PointerDestructorCapsules) {
  auto AST = parseWithInputs(R"cpp(
#include <dlpack/dlpack.h>
#include <pybind11/pybind11.h>
void f(DLManagedTensor *t) {
  pybind11::capsule a(t, [](void *) {});
  pybind11::capsule b(t, "dltensor", [](void *) {});
  pybind11::capsule c(t, "dltensor", [](PyObject *) {});
  pybind11::capsule d(t, "dltensor");
}
)cpp");
  ASSERT_TRUE(AST);
  std::vector<const CXXConstructExpr *> Made;
  firstNode<CXXConstructExpr>(
      functionNamed(AST->getASTContext(), "f")->getBody(),
      [&](const CXXConstructExpr &E) {
        if (E.getConstructor()->getParent()->getName() == "capsule")
          Made.push_back(&E);
        return false;
      });
  ASSERT_EQ(Made.size(), 4u);
  EXPECT_TRUE(pointerDestructorOf(*Made[0]));
  EXPECT_TRUE(pointerDestructorOf(*Made[1]));
  EXPECT_FALSE(pointerDestructorOf(*Made[2])) << "a destructor of the capsule";
  EXPECT_FALSE(pointerDestructorOf(*Made[3])) << "no destructor";
  EXPECT_TRUE(isPybindCapsuleNew(*Made[2]));
}

} // namespace

namespace {

TEST(CapsuleAPI, WhichCapsulesAreDLPack) {
  auto AST = parseWithInputs(R"cpp(#include <Python.h>
#include <dlpack/dlpack.h>
struct Internals;
constexpr const char *kMine = "acme_dltensor";
void f(DLManagedTensor *mt, Internals *in, void *holder, const char *name) {
  PyCapsule_New(mt, nullptr, nullptr);
  PyCapsule_New(holder, kMine, nullptr);
  PyCapsule_New(in, "acme_internals", nullptr);
  PyCapsule_New(holder, name, nullptr);
}
)cpp");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  std::vector<const CallExpr *> News;
  firstNode<CallExpr>(functionNamed(Ctx, "f")->getBody(),
                      [&](const CallExpr &CE) {
                        News.push_back(&CE);
                        return false;
                      });
  ASSERT_EQ(News.size(), 4u);
  auto DLPack = [&](const CallExpr *C) {
    return makesDLPackCapsule(C->getArg(0), C->getArg(1), Ctx);
  };
  EXPECT_TRUE(DLPack(News[0])) << "a managed tensor inside";
  EXPECT_TRUE(DLPack(News[1])) << "a name that says so, through a constant";
  EXPECT_FALSE(DLPack(News[2])) << "a library's own capsule";
  EXPECT_FALSE(DLPack(News[3])) << "nothing says so";
}

} // namespace

TEST(CapsuleNames, TheCapsulesOwnNameReadBack) {
  auto AST = parseWithInputs(R"cpp(
#include <Python.h>
namespace text {
struct string {
  string(const char *);
  string(const string &);
  const char *c_str() const;
  const char *data() const;
};
}
void use(const char *);
void g(PyObject *c, const char *param) {
  const char *name = PyCapsule_GetName(c);
  text::string s = PyCapsule_GetName(c);
  text::string copy = s;
  use(name);
  use(s.c_str());
  use(copy.data());
  use(param);
  use("dltensor");
}
)cpp");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  const Stmt *Body = functionNamed(Ctx, "g")->getBody();
  std::vector<const Expr *> Args;
  firstNode<CallExpr>(Body, [&](const CallExpr &Call) {
    const FunctionDecl *FD = Call.getDirectCallee();
    if (FD && FD->getIdentifier() && FD->getName() == "use")
      Args.push_back(Call.getArg(0));
    return false;
  });
  ASSERT_EQ(Args.size(), 5u);
  for (unsigned I = 0; I < 3; ++I) {
    EXPECT_TRUE(nameReadOf(Args[I])) << I;
    EXPECT_EQ(classifyCapsuleName(Args[I], Ctx), CapsuleName::FromGetName);
  }
  EXPECT_FALSE(nameReadOf(Args[3])) << "a parameter";
  EXPECT_FALSE(nameReadOf(Args[4])) << "a constant";
}
