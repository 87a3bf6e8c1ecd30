// Unit tests of lib/ownership/OwnershipJudgement.h: which statements are
// judged, and what the judgement of the recorded states and of each exit
// reports (through the ownership model's flow analysis alone): the exit a
// leak is reported at (a call that throws is one), the earlier call a double
// delete names, one unchecked capsule pointer reported once, a condition
// that leaves the function, a capsule destructor that raises without saving
// the exception in flight, and a producer's tensor freed without its
// deleter.

#include "lib/ownership/OwnershipJudgement.h"

#include "lib/ownership/OwnershipFacts.h"

#include "ast_search.h"
#include "ownership/ownership_snippets.h"
#include "snippet_annotations.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"

#include "gtest/gtest.h"

#include <set>
#include <string>
#include <vector>

using namespace clang;
using namespace clang::interop;
using namespace interop_test;

namespace {

TEST(OwnershipJudgement, JudgedStatements) {
  auto AST = parseWithInputs(R"cpp(
struct T { int n; };
void g();
void f(T *p, T s, int x) {
  g();
  (void)p->n;
  (void)s.n;
  (void)*p;
  (void)&x;
  (void)-x;
  (void)x;
  delete p;
}
)cpp");
  ASSERT_TRUE(AST);
  const FunctionDecl *F = functionNamed(AST->getASTContext(), "f");
  ASSERT_NE(F, nullptr);
  std::vector<bool> Judged;
  for (const Stmt *S : cast<CompoundStmt>(F->getBody())->body()) {
    if (const auto *Cast = dyn_cast<CStyleCastExpr>(S))
      S = Cast->getSubExpr()->IgnoreImplicit();
    Judged.push_back(ownership::isJudgedStatement(S));
  }
  // Calls, dereferences of a pointer (`p->`, `*p`) and delete; not a member
  // of an object, an address, arithmetic or a plain read.
  EXPECT_EQ(Judged, (std::vector<bool>{true, true, false, true, false, false,
                                       false, true}));
}

/// The text of the line L is on, without its indentation.
std::string lineText(const SourceManager &SM, SourceLocation L) {
  if (L.isInvalid())
    return "<none>";
  L = SM.getExpansionLoc(L);
  const char *Start =
      SM.getCharacterData(L) - (SM.getPresumedColumnNumber(L) - 1);
  llvm::StringRef Line(Start);
  return Line.take_until([](char C) { return C == '\n'; }).trim().str();
}

/// The flow analysis's events in the function Name, in the role given, as
/// "kind: <line>" (the exit's line and kind for leaks, "after: <line>" for
/// the related statement), in the order reported.
std::vector<std::string> eventsIn(llvm::StringRef Snippet, llvm::StringRef Name,
                                  bool IsDestructor = false) {
  resetFactCache();
  ParsedSnippet P = parseSnippet(OwnershipPrelude, Snippet, OwnershipArgs);
  EXPECT_EQ(P.Error, "");
  if (!P.Error.empty())
    return {P.Error};
  ASTContext &Ctx = P.AST->getASTContext();
  const SourceManager &SM = Ctx.getSourceManager();
  const FunctionDecl *FD = functionNamed(Ctx, Name);
  if (!FD)
    return {"no function"};
  OwnershipConfig FlowOnly;
  FlowOnly.SyntacticProofs = false;
  const OwnershipFacts &F = getOwnershipFacts(*FD, Ctx, IsDestructor, FlowOnly);
  if (F.Skipped != SkipReason::None)
    return {"skipped: " + describeSkip(F.Skipped, F.Detail)};
  std::vector<std::string> Out;
  for (const OwnershipEvent &E : F.Events) {
    std::string S = kindName(E.K);
    if (E.K == OwnershipEvent::Leak ||
        E.K == OwnershipEvent::NotClaimedAfterImport) {
      S += E.Exit == OwnershipEvent::Return       ? " at return: "
           : E.Exit == OwnershipEvent::Throw      ? " at throw: "
           : E.Exit == OwnershipEvent::CallThrows ? " if this throws: "
                                                  : " at end: ";
      S += lineText(SM, E.ExitLoc);
    } else {
      S += ": " + lineText(SM, E.At ? E.At->getBeginLoc() : SourceLocation());
    }
    if (E.Related)
      S += " after: " + lineText(SM, E.Related->getBeginLoc());
    Out.push_back(S);
  }
  return Out;
}

using Events = std::vector<std::string>;

TEST(OwnershipJudgement, EachExitWhereATensorIsStillOwned) {
  const char *Code = R"cpp(
void leaks(const at::Tensor &x, bool early, bool fail) {
  DLManagedTensor *t = at::toDLPack(x);
  if (early)
    return;
  if (fail)
    throw runtime_error("no");
}
void freed_where_not_null(const at::Tensor &x) {
  DLManagedTensor *t = at::toDLPack(x);
  if (t)
    t->deleter(t);
}
void freed_where_null(const at::Tensor &x) {
  DLManagedTensor *t = at::toDLPack(x);
  if (!t)
    t->deleter(t);
}
)cpp";
  EXPECT_EQ(eventsIn(Code, "leaks"),
            (Events{"leak at return: return;",
                    "leak at throw: throw runtime_error(\"no\");",
                    "leak at end: }"}));
  // The block that leaves on the false edge of `if (t)` leaves where t is
  // NULL: nothing to free there.
  EXPECT_EQ(eventsIn(Code, "freed_where_not_null"), Events{});
  EXPECT_EQ(eventsIn(Code, "freed_where_null"), Events{"leak at end: }"});
}

TEST(OwnershipJudgement, ALeakNamesItsExitAndWhetherEveryPathOwnsIt) {
  resetFactCache();
  ParsedSnippet P = parseSnippet(OwnershipPrelude, R"cpp(
void f(const at::Tensor &x, bool a, bool b, bool c) {
  DLManagedTensor *t = at::toDLPack(x);
  if (a)
    return;
  if (b && t->deleter)
    t->deleter(t);
  if (c)
    throw runtime_error("no");
}
)cpp",
                                 OwnershipArgs);
  ASSERT_EQ(P.Error, "");
  ASTContext &Ctx = P.AST->getASTContext();
  OwnershipConfig FlowOnly;
  FlowOnly.SyntacticProofs = false;
  const OwnershipFacts &F =
      getOwnershipFacts(*functionNamed(Ctx, "f"), Ctx, false, FlowOnly);
  std::vector<std::string> Seen;
  for (const OwnershipEvent &E : F.Events)
    if (E.K == OwnershipEvent::Leak)
      Seen.push_back(
          std::string(E.ExitAt ? E.ExitAt->getStmtClassName() : "end") +
          (E.Certain ? " certain" : " on some path"));
  // Owned on every path to the first return; after a deletion on one path,
  // owned only on some at the throw and at the end.
  EXPECT_EQ(Seen, (std::vector<std::string>{"ReturnStmt certain",
                                            "CXXThrowExpr on some path",
                                            "end on some path"}));
}

TEST(OwnershipJudgement, DeleterCallsNameTheEarlierOne) {
  const char *Code = R"cpp(
void twice(const at::Tensor &x, bool again) {
  DLManagedTensor *t = at::toDLPack(x);
  t->deleter(t);
  if (again)
    t->deleter(t);
}
void once_on_each_path(const at::Tensor &x, bool which) {
  DLManagedTensor *t = at::toDLPack(x);
  if (which)
    t->deleter(t);
  else
    t->deleter(t);
}
)cpp";
  EXPECT_EQ(eventsIn(Code, "twice"),
            (Events{"double-delete: t->deleter(t); after: t->deleter(t);"}));
  EXPECT_EQ(eventsIn(Code, "once_on_each_path"), Events{});
}

TEST(OwnershipJudgement, AnUncheckedCapsulePointerIsReportedOnce) {
  const char *Code = R"cpp(
int unchecked(PyObject *capsule) {
  auto *mt =
      static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule, "dltensor"));
  int n = mt->dl_tensor.ndim;
  return n + mt->dl_tensor.ndim;
}
int checked(PyObject *capsule) {
  auto *mt =
      static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule, "dltensor"));
  if (!mt)
    return -1;
  return mt->dl_tensor.ndim;
}
)cpp";
  EXPECT_EQ(eventsIn(Code, "unchecked"),
            (Events{"capsule-unchecked: int n = mt->dl_tensor.ndim; after: "
                    "static_cast<DLManagedTensor *>(PyCapsule_GetPointer("
                    "capsule, \"dltensor\"));"}));
  EXPECT_EQ(eventsIn(Code, "checked"), Events{});
}

const char *const Destructors = R"cpp(
void raises(PyObject *capsule) {
  if (!PyCapsule_IsValid(capsule, "dltensor")) {
    PyErr_SetString(PyExc_RuntimeError, "consumed");
    return;
  }
}
void saves(PyObject *capsule) {
  PyObject *saved = PyErr_GetRaisedException();
  if (!PyCapsule_IsValid(capsule, "dltensor"))
    PyErr_SetString(PyExc_RuntimeError, "consumed");
  PyErr_SetRaisedException(saved);
}
)cpp";

TEST(OwnershipJudgement, DestructorThatRaises) {
  EXPECT_EQ(eventsIn(Destructors, "raises", /*IsDestructor=*/true),
            (Events{"dtor-raises: PyErr_SetString(PyExc_RuntimeError, "
                    "\"consumed\");"}));
  // The exception in flight saved first.
  EXPECT_EQ(eventsIn(Destructors, "saves", /*IsDestructor=*/true), Events{});
  // Not a capsule destructor: a function may raise as it likes.
  EXPECT_EQ(eventsIn(Destructors, "raises"), Events{});
}

} // namespace

namespace {

TEST(OwnershipJudgement, ACallThatThrowsIsAnExit) {
  const char *Code = R"cpp(
void reject(int code) {
  if (code < 0)
    throw runtime_error("negative");
}
int declared(int code);
void throws_visibly(const at::Tensor &x, int code) {
  DLManagedTensor *t = at::toDLPack(x);
  reject(code);
  t->deleter(t);
}
void declared_only(const at::Tensor &x, int code) {
  DLManagedTensor *t = at::toDLPack(x);
  declared(code);
  t->deleter(t);
}
void owned_parameter(DLManagedTensor *t, int code) {
  reject(code);
  if (t->deleter)
    t->deleter(t);
}
)cpp";
  EXPECT_EQ(eventsIn(Code, "throws_visibly"),
            Events{"leak if this throws: reject(code);"});
  // A callee that is only declared is given the benefit of the doubt; the
  // caller of an importer still owns its tensor when it throws.
  EXPECT_EQ(eventsIn(Code, "declared_only"), Events{});
  EXPECT_EQ(eventsIn(Code, "owned_parameter"), Events{});
}

TEST(OwnershipJudgement, FreedWithoutItsDeleter) {
  const char *Code = R"cpp(
void deleted(const at::Tensor &x) {
  DLManagedTensor *t = at::toDLPack(x);
  delete t;
}
void own_struct() {
  DLManagedTensor *t = new DLManagedTensor{};
  delete t;
}
)cpp";
  EXPECT_EQ(eventsIn(Code, "deleted"),
            Events{"freed-without-deleter: delete t; after: "
                   "DLManagedTensor *t = at::toDLPack(x);"});
  EXPECT_EQ(eventsIn(Code, "own_struct"), Events{});
}

} // namespace
