// Unit tests of lib/dlpackfields/DLPackCallerGuards.h: a helper whose calls
// are all in the translation unit, and that reads a tensor parameter's
// strides, is vouched for only when every call of it sits behind a NULL test
// of that argument's strides.

#include "lib/dlpackfields/DLPackCallerGuards.h"

#include "ast_search.h"
#include "dlpack_snippets.h"
#include "snippet_annotations.h"

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

/// callerGuards() for the first read of the field named Field in the
/// helper named Helper, in Prelude + Code: "guarded", "not guarded", or why
/// it could not be asked.
std::string ask(llvm::StringRef Code, llvm::StringRef Helper = "helper",
                llvm::StringRef Field = "strides",
                CallerTest Test = CallerTest::StridesNonNull) {
  auto AST = parseDLPackCode(std::string(DLPackPrelude) + Code.str());
  if (!AST)
    return "did not parse";
  ASTContext &Ctx = AST->getASTContext();
  if (Ctx.getDiagnostics().hasErrorOccurred())
    return "compile errors";
  // The definition whose body reads the field (of a template, the
  // instantiation: its pattern has no member expression to ask about).
  using namespace clang::ast_matchers;
  for (const BoundNodes &N :
       match(functionDecl(hasName(Helper), isDefinition()).bind("fn"), Ctx)) {
    const auto *FD = N.getNodeAs<FunctionDecl>("fn");
    if (FD->getDescribedFunctionTemplate())
      continue; // a pattern is never judged
    const MemberExpr *Read =
        firstNode<MemberExpr>(FD->getBody(), [&](const MemberExpr &ME) {
          const auto *F = dyn_cast<FieldDecl>(ME.getMemberDecl());
          return F && F->getName() == Field;
        });
    if (Read)
      return callerGuards(*FD, Read, Test) ? "guarded" : "not guarded";
  }
  return "no read";
}

TEST(DLPackCallerGuards, EveryCallerTestsTheStrides) {
  // XLA's shape: the only call sits under `if (t.strides)`.
  EXPECT_EQ(ask(R"cpp(
static long helper(const DLTensor &t) { return t.strides[0]; }
long caller(const DLTensor &t) {
  if (t.strides)
    return helper(t);
  return 0;
}
)cpp"),
            "guarded");
  // An early return, a pointer parameter, an anonymous namespace, and two
  // callers that both test.
  EXPECT_EQ(ask(R"cpp(
namespace {
long helper(const DLTensor *t) { return t->strides[1]; }
}
long first(const DLTensor *t) {
  if (!t->strides)
    return -1;
  return helper(t);
}
long second(const DLTensor *u) {
  if (u->strides != nullptr)
    return helper(u);
  return 0;
}
)cpp"),
            "guarded");
  // Through a managed tensor's dl_tensor, and in a conditional's arm.
  EXPECT_EQ(ask(R"cpp(
static long helper(DLManagedTensor *mt) { return mt->dl_tensor.strides[0]; }
long caller(DLManagedTensor *mt) {
  return mt->dl_tensor.strides ? helper(mt) : 0;
}
)cpp"),
            "guarded");
}

TEST(DLPackCallerGuards, OneUnguardedCallIsEnough) {
  EXPECT_EQ(ask(R"cpp(
static long helper(const DLTensor &t) { return t.strides[0]; }
long guarded(const DLTensor &t) { return t.strides ? helper(t) : 0; }
long unguarded(const DLTensor &t) { return helper(t); }
)cpp"),
            "not guarded");
  // The test is of another tensor's strides.
  EXPECT_EQ(ask(R"cpp(
static long helper(const DLTensor &t) { return t.strides[0]; }
long caller(const DLTensor &t, const DLTensor &other) {
  if (other.strides)
    return helper(t);
  return 0;
}
)cpp"),
            "not guarded");
  // The test proves NULL, not non-NULL.
  EXPECT_EQ(ask(R"cpp(
static long helper(const DLTensor &t) { return t.strides[0]; }
long caller(const DLTensor &t) {
  if (t.strides == NULL)
    return helper(t);
  return 0;
}
)cpp"),
            "not guarded");
  // No call at all: nothing vouches for it.
  EXPECT_EQ(ask(R"cpp(
static long helper(const DLTensor &t) { return t.strides[0]; }
)cpp"),
            "not guarded");
}

TEST(DLPackCallerGuards, CallersThatChangeWhatWasTested) {
  // The caller writes a DLPack field.
  EXPECT_EQ(ask(R"cpp(
static long helper(DLTensor *t) { return t->strides[0]; }
long caller(DLTensor *t) {
  if (!t->strides)
    return 0;
  t->strides = 0;
  return helper(t);
}
)cpp"),
            "not guarded");
  // The caller changes the variable it passes.
  EXPECT_EQ(ask(R"cpp(
static long helper(const DLTensor *t) { return t->strides[0]; }
long caller(const DLTensor *t, const DLTensor *other) {
  if (!t->strides)
    return 0;
  t = other;
  return helper(t);
}
)cpp"),
            "not guarded");
}

TEST(DLPackCallerGuards, OnlyHelpersWhoseCallsAreAllVisible) {
  // Exported on purpose (C linkage, default visibility): callable from
  // another translation unit or language.
  EXPECT_EQ(ask(R"cpp(
extern "C" long helper(const DLTensor &t) { return t.strides[0]; }
long caller(const DLTensor &t) { return t.strides ? helper(t) : 0; }
)cpp"),
            "not guarded");
  EXPECT_EQ(ask(R"cpp(
__attribute__((visibility("default"))) long helper(const DLTensor &t) {
  return t.strides[0];
}
long caller(const DLTensor &t) { return t.strides ? helper(t) : 0; }
)cpp"),
            "not guarded");
  // A helper that only lacks `static`: no header declares it, so another
  // unit would have to declare it again itself to call it.
  EXPECT_EQ(ask(R"cpp(
long helper(const DLTensor &t) { return t.strides[0]; }
long caller(const DLTensor &t) { return t.strides ? helper(t) : 0; }
)cpp"),
            "guarded");
  // Its address is taken: it may be called from anywhere.
  EXPECT_EQ(ask(R"cpp(
static long helper(const DLTensor &t) { return t.strides[0]; }
long caller(const DLTensor &t) { return t.strides ? helper(t) : 0; }
long (*escaped)(const DLTensor &) = &helper;
)cpp"),
            "not guarded");
  // A member function of a class only this file defines: its calls are
  // here. A virtual one may be called through its base, an operator has
  // its object among the arguments.
  EXPECT_EQ(ask(R"cpp(
struct S {
  long helper(const DLTensor &t) { return t.strides[0]; }
  long caller(const DLTensor &t) { return t.strides ? helper(t) : 0; }
};
)cpp"),
            "guarded");
  EXPECT_EQ(ask(R"cpp(
struct S {
  virtual long helper(const DLTensor &t) { return t.strides[0]; }
  long caller(const DLTensor &t) { return t.strides ? helper(t) : 0; }
};
)cpp"),
            "not guarded");
}

TEST(DLPackCallerGuards, InlineFunctionsAndInstantiations) {
  // A template's instantiation and an inline function of a header are
  // judged in every unit that calls them, with that unit's calls.
  EXPECT_EQ(ask(R"cpp(
template <class T> long helper(const T &t) { return t.strides[0]; }
long caller(const DLTensor &t) { return t.strides ? helper(t) : 0; }
)cpp"),
            "guarded");
  EXPECT_EQ(ask(R"cpp(
inline long helper(const DLTensor &t) { return t.strides[0]; }
long caller(const DLTensor &t) { return t.strides ? helper(t) : 0; }
)cpp"),
            "guarded");
  EXPECT_EQ(ask(R"cpp(
inline long helper(const DLTensor &t) { return t.strides[0]; }
long caller(const DLTensor &t) { return helper(t); }
)cpp"),
            "not guarded");
}

TEST(DLPackCallerGuards, HostDeviceTestedByEveryCaller) {
  auto Host = [](llvm::StringRef Code) {
    return ask(Code, "helper", "data", CallerTest::HostDevice);
  };
  // metatensor's shape: the caller throws on any other device first.
  EXPECT_EQ(Host(R"cpp(
template <class T> T helper(const DLTensor &t) {
  return *static_cast<const T *>(t.data);
}
void fail();
double caller(DLManagedTensor *mt) {
  const DLTensor &t = mt->dl_tensor;
  if (t.device.device_type != kDLCPU)
    fail();
  return helper<double>(t);
}
)cpp"),
            "not guarded")
      << "fail() returns: the test leaves nothing proven";
  EXPECT_EQ(Host(R"cpp(
template <class T> T helper(const DLTensor &t) {
  return *static_cast<const T *>(t.data);
}
double caller(DLManagedTensor *mt) {
  const DLTensor &t = mt->dl_tensor;
  if (t.device.device_type != kDLCPU)
    return 0;
  return helper<double>(t);
}
)cpp"),
            "guarded");
  EXPECT_EQ(Host(R"cpp(
static float helper(const DLTensor *t) { return *(float *)t->data; }
float caller(const DLTensor *t) {
  return kDLCUDAHost == t->device.device_type ? helper(t) : 0;
}
)cpp"),
            "guarded");
  // A device type that is not host memory, or another tensor's.
  EXPECT_EQ(Host(R"cpp(
static float helper(const DLTensor *t) { return *(float *)t->data; }
float caller(const DLTensor *t) {
  return t->device.device_type == kDLCUDA ? helper(t) : 0;
}
)cpp"),
            "not guarded");
  EXPECT_EQ(Host(R"cpp(
static float helper(const DLTensor *t) { return *(float *)t->data; }
float caller(const DLTensor *t, const DLTensor *u) {
  return u->device.device_type == kDLCPU ? helper(t) : 0;
}
)cpp"),
            "not guarded");
}

TEST(DLPackCallerGuards, OnlyStridesOfAParameter) {
  // Another field.
  EXPECT_EQ(ask(R"cpp(
static long helper(const DLTensor &t) { return t.shape[0]; }
long caller(const DLTensor &t) { return t.strides ? helper(t) : 0; }
)cpp",
                "helper", "shape"),
            "not guarded");
  // A local tensor's strides, not the parameter's.
  EXPECT_EQ(ask(R"cpp(
static long helper(const DLTensor &t) {
  DLTensor local = t;
  return local.strides[0];
}
long caller(const DLTensor &t) { return t.strides ? helper(t) : 0; }
)cpp"),
            "not guarded");
}

TEST(DLPackCallerGuards, BoundedNumberOfCallSites) {
  auto Calls = [](unsigned N) {
    std::string Code =
        "static long helper(const DLTensor &t) { return t.strides[0]; }\n"
        "long caller(const DLTensor &t) {\n  long s = 0;\n"
        "  if (!t.strides)\n    return 0;\n";
    for (unsigned I = 0; I < N; ++I)
      Code += "  s += helper(t);\n";
    return Code + "  return s;\n}\n";
  };
  EXPECT_EQ(ask(Calls(MaxGuardedCallSites)), "guarded");
  EXPECT_EQ(ask(Calls(MaxGuardedCallSites + 1)), "not guarded");
}

} // namespace

TEST(DLPackCallerGuards, ACallersOwnTensorLaidOutBeforeTheCall) {
  const std::string Helper = R"cpp(
namespace {
long helper(const DLManagedTensor &a) { return a.dl_tensor.strides[0]; }
}
)cpp";
  struct Case {
    const char *Caller, *Want, *Why;
  };
  const Case Cases[] = {
      {"void make(int n) { int64_t *s = new int64_t[n];"
       " DLManagedTensor *mt = new DLManagedTensor;"
       " mt->dl_tensor.strides = s; helper(*mt); }",
       "guarded", "its own tensor, strides a fresh array through a local"},
      {"void make(int n) { DLManagedTensor *mt = new DLManagedTensor;"
       " helper(*mt); mt->dl_tensor.strides = new int64_t[n]; }",
       "not guarded", "written after the call"},
      {"void make(int n, bool b) { DLManagedTensor *mt = new DLManagedTensor;"
       " if (b) { mt->dl_tensor.strides = new int64_t[n]; } helper(*mt); }",
       "not guarded", "written in one branch"},
      {"void make(int64_t *given) { DLManagedTensor *mt = new DLManagedTensor;"
       " mt->dl_tensor.strides = given; helper(*mt); }",
       "not guarded", "written with what a caller gave"},
      {"void make(DLManagedTensor *mt, int n) {"
       " mt->dl_tensor.strides = new int64_t[n]; helper(*mt); }",
       "not guarded", "a tensor it was handed"},
  };
  for (const Case &C : Cases)
    EXPECT_EQ(ask(Helper + C.Caller), C.Want) << C.Why;
}
