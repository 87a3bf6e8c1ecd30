// Unit tests of the ownership model (lib/ownership/OwnershipModel.h) on
// annotated snippets.
//
// A snippet marks every line where the model must produce an event with the
// event's kind and, optionally, keys to compare, e.g.
// `// [[double-delete related=-1]]`. Several events on one line are
// separated by `;`. Every event must be annotated and every annotation must
// match an event, so a snippet cannot pass by being ignored.
//
// Events that judge an exit (leak, not-claimed) sit on the exit's line (the
// closing brace when the function falls off its end); the others on the line
// of the call or use they are about. Keys:
//
//   exit: return|throw|end (leak, not-claimed)
//   site: where the leaked tensor was obtained or the import happened
//   param: the leaked parameter's name, or none
//   related: the earlier delete, the hand-off, the rename, where the capsule
//     pointer was taken
//
// Locations are the line's offset from the event's line ("-2") or "none".
// Functions listed as capsule destructors run with IsCapsuleDestructor.

#include "lib/ownership/OwnershipFacts.h"

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringExtras.h"

#include "snippet_annotations.h"
#include "syntax_vs_flow.h"
#include "gtest/gtest.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

using namespace clang;
using namespace clang::interop;
using namespace clang::ast_matchers;
using namespace interop_test;

namespace {

const char *kindName(OwnershipEvent::Kind K) {
  switch (K) {
  case OwnershipEvent::Leak:
    return "leak";
  case OwnershipEvent::DoubleDelete:
    return "double-delete";
  case OwnershipEvent::DeleteAfterHandOff:
    return "delete-after-handoff";
  case OwnershipEvent::CapsulePointerUnchecked:
    return "capsule-unchecked";
  case OwnershipEvent::RenameBeforeImport:
    return "rename-before-import";
  case OwnershipEvent::NotClaimedAfterImport:
    return "not-claimed";
  case OwnershipEvent::DestructorUncheckedDelete:
    return "dtor-unchecked-delete";
  case OwnershipEvent::DestructorClearsError:
    return "dtor-clears-error";
  }
  return "?";
}

bool judgesAnExit(const OwnershipEvent &E) {
  return E.K == OwnershipEvent::Leak ||
         E.K == OwnershipEvent::NotClaimedAfterImport;
}

SourceLocation siteOf(const OwnershipEvent &E) {
  if (E.At)
    return E.At->getBeginLoc();
  return E.Param ? E.Param->getLocation() : SourceLocation();
}

unsigned eventLine(const OwnershipEvent &E, const SourceManager &SM) {
  return lineOf(SM, judgesAnExit(E) ? E.ExitLoc : siteOf(E));
}

std::map<std::string, std::string> describe(const OwnershipEvent &E,
                                            const SourceManager &SM) {
  unsigned Line = eventLine(E, SM);
  auto Offset = [&](SourceLocation L) -> std::string {
    if (L.isInvalid())
      return "none";
    return std::to_string(int(lineOf(SM, L)) - int(Line));
  };
  std::map<std::string, std::string> D;
  D["site"] = Offset(siteOf(E));
  D["param"] = E.Param ? E.Param->getNameAsString() : "none";
  D["related"] =
      Offset(E.Related ? E.Related->getBeginLoc() : SourceLocation());
  if (judgesAnExit(E))
    D["exit"] = E.Exit == OwnershipEvent::Return  ? "return"
                : E.Exit == OwnershipEvent::Throw ? "throw"
                                                  : "end";
  return D;
}

/// The mock CPython capsule API, the 1.x dlpack.h, malloc, and a few
/// stand-ins for the frameworks the lit tests quote.
const char *Prelude = R"cpp(#include <Python.h>
#include <dlpack/dlpack.h>
#include <stdlib.h>
struct python_error {};
struct runtime_error {
  explicit runtime_error(const char *what);
};
namespace at {
struct Tensor {};
Tensor fromDLPack(DLManagedTensor *src);
DLManagedTensor *toDLPack(const Tensor &t);
} // namespace at
namespace interop {
struct Device {};
struct Array {};
template <class T> struct Result {
  bool ok() const;
};
Result<Array> from_dlpack(DLManagedTensor *tensor, const Device &target);
} // namespace interop
struct Buffer {
  static Buffer Empty();
  static Buffer Wrap(DLManagedTensor *owner);
};
PyObject *wrap(const at::Tensor &t);
)cpp";

/// The compiler arguments of every snippet.
const std::vector<std::string> Args = {"-std=c++17", "-I" INTEROP_TEST_INPUTS,
                                       "-I" INTEROP_TEST_INPUTS "/dlpack/v1"};

std::unique_ptr<ASTUnit> parseCpp(llvm::StringRef Code) {
  return tooling::buildASTFromCodeWithArgs(Code, Args, "snippet.cpp");
}

/// Parses Prelude + Snippet, runs the model over every function of the main
/// file (those in Destructors as capsule destructors) and checks the
/// annotations. Returns a description of every mismatch. The annotations
/// describe the flow analysis's events, so the syntactic proof is off for
/// them; wherever the proof applies, the flow analysis must find nothing.
std::string runSnippet(llvm::StringRef Snippet,
                       const std::set<std::string> &Destructors = {}) {
  // A fresh ASTContext may reuse the address of the previous snippet's.
  resetFactCache();
  ParsedSnippet P = parseSnippet(Prelude, Snippet, Args);
  if (!P.Error.empty())
    return P.Error;
  ASTContext &Ctx = P.AST->getASTContext();
  const SourceManager &SM = Ctx.getSourceManager();

  std::string Errors;
  std::map<unsigned, std::vector<ReportedEvent>> Got;
  std::set<std::string> DestructorsSeen;
  for (const FunctionDecl *FD : P.Functions) {
    bool IsDestructor =
        FD->getIdentifier() && Destructors.count(FD->getName().str());
    if (IsDestructor)
      DestructorsSeen.insert(FD->getName().str());
    OwnershipConfig FlowOnly;
    FlowOnly.SyntacticProofs = false;
    const OwnershipFacts &F =
        getOwnershipFacts(*FD, Ctx, IsDestructor, FlowOnly);
    Errors += syntaxFlowDisagreement(
        *FD, getOwnershipFacts(*FD, Ctx, IsDestructor), F);
    if (F.Skipped == SkipReason::Dependent || F.Skipped == SkipReason::NoBody)
      continue;
    if (F.Skipped != SkipReason::None) {
      Errors += "function " + FD->getNameAsString() +
                " skipped: " + describeSkip(F.Skipped, F.Detail) + "\n";
      continue;
    }
    for (const OwnershipEvent &E : F.Events)
      Got[eventLine(E, SM)].push_back({kindName(E.K), describe(E, SM)});
  }
  for (const std::string &D : Destructors)
    if (!DestructorsSeen.count(D))
      Errors += "no function " + D + "\n";

  return Errors +
         compareEvents(std::move(Got), std::move(P.Expected), P.PreludeLines);
}

#define EXPECT_SNIPPET(...) EXPECT_EQ(runSnippet(__VA_ARGS__), "")

//===----------------------------------------------------------------------===//
// Deleter ownership
//===----------------------------------------------------------------------===//

TEST(OwnershipDeleter, LeakOnAnEarlyReturn) {
  // The fixed form deletes on the early path and stays silent.
  EXPECT_SNIPPET(R"cpp(
Buffer leaks(const at::Tensor &source) {
  DLManagedTensor *mt = at::toDLPack(source);
  if (mt->dl_tensor.data == nullptr)
    return Buffer::Empty(); // [[leak exit=return site=-2 param=none]]
  return Buffer::Wrap(mt);
}
Buffer fixed(const at::Tensor &source) {
  DLManagedTensor *mt = at::toDLPack(source);
  if (mt->dl_tensor.data == nullptr) {
    mt->deleter(mt);
    return Buffer::Empty();
  }
  return Buffer::Wrap(mt);
}
)cpp");
}

TEST(OwnershipDeleter, OwnedParameterLeaksOnAThrow) {
  // The parameter is owned: deleted on one path (the lambda), handed on
  // (to the lambda) on the other.
  EXPECT_SNIPPET(R"cpp(
struct Deleter {
  template <class F> Deleter(F f) {}
};
at::Tensor from_blob(void *data, const Deleter &deleter);
at::Tensor leaks(DLManagedTensor *src) {
  if (src->dl_tensor.device.device_type == kDLOpenCL)
    throw runtime_error("unsupported device"); // [[leak exit=throw param=src site=-2]]
  auto deleter = [src](void *) { src->deleter(src); };
  return from_blob(src->dl_tensor.data, deleter);
}
at::Tensor fixed(DLManagedTensor *src) {
  auto deleter = [src](void *) { src->deleter(src); };
  if (src->dl_tensor.device.device_type == kDLOpenCL) {
    deleter(nullptr);
    throw runtime_error("unsupported device");
  }
  return from_blob(src->dl_tensor.data, deleter);
}
)cpp");
}

TEST(OwnershipDeleter, LeakWhenFallingOffTheEnd) {
  // A capsule destructor that takes the tensor and forgets it.
  EXPECT_SNIPPET(R"cpp(
void forgets(PyObject *capsule) {
  if (!PyCapsule_IsValid(capsule, "dltensor"))
    return;
  DLManagedTensor *mt =
      static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule, "dltensor"));
  (void)mt;
} // [[leak exit=end site=-2]]
)cpp",
                 {"forgets"});
}

TEST(OwnershipDeleter, DoubleDelete) {
  // Deleted on the error path, then again by the common cleanup; a pointer
  // the function did not obtain is tracked for double deletion too.
  EXPECT_SNIPPET(R"cpp(
int validate(const DLTensor &t);
void twice(const at::Tensor &source) {
  DLManagedTensor *mt = at::toDLPack(source);
  if (validate(mt->dl_tensor) != 0)
    mt->deleter(mt);
  mt->deleter(mt); // [[double-delete related=-1]]
}
void on_release(void *opaque) {
  DLManagedTensor *mt = static_cast<DLManagedTensor *>(opaque);
  mt->deleter(mt);
  mt->deleter(mt); // [[double-delete related=-1]]
}
void once(const at::Tensor &source) {
  DLManagedTensor *mt = at::toDLPack(source);
  if (validate(mt->dl_tensor) != 0) {
    mt->deleter(mt);
    return;
  }
  mt->deleter(mt);
}
)cpp");
}

TEST(OwnershipDeleter, DeleteAfterHandOff) {
  // Handing the tensor to a capsule gives it away; deleting it only when
  // the capsule could not be made is right.
  EXPECT_SNIPPET(R"cpp(
void destructor(PyObject *capsule);
PyObject *wrong(const at::Tensor &source, bool log) {
  DLManagedTensor *mt = at::toDLPack(source);
  PyObject *capsule = PyCapsule_New(mt, "dltensor", destructor);
  if (log)
    mt->deleter(mt); // [[delete-after-handoff related=-2]]
  return capsule;
}
PyObject *fixed(const at::Tensor &source) {
  DLManagedTensor *mt = at::toDLPack(source);
  PyObject *capsule = PyCapsule_New(mt, "dltensor", destructor);
  if (capsule != nullptr)
    return capsule;
  mt->deleter(mt);
  return nullptr;
}
)cpp");
}

TEST(OwnershipDeleter, CorrelatedConditionsAndNullChecks) {
  // Ownership decided once and relied on later; a NULL tensor or deleter
  // means there is nothing to free.
  EXPECT_SNIPPET(R"cpp(
bool try_import(DLManagedTensor *t);
void import_or_release(const at::Tensor &source) {
  DLManagedTensor *mt = at::toDLPack(source);
  bool handed = false;
  if (mt->dl_tensor.ndim > 0)
    handed = try_import(mt);
  if (!handed)
    mt->deleter(mt);
}
void release(DLManagedTensor *t) {
  if (t && t->deleter)
    t->deleter(t);
}
)cpp");
}

//===----------------------------------------------------------------------===//
// The capsule protocol, consumer side
//===----------------------------------------------------------------------===//

TEST(OwnershipCapsule, ConsumerRenamesAfterImport) {
  // The correct consumer (rename once the import succeeded, or clear the
  // destructor) is silent; renaming first leaves nobody to delete the
  // tensor when the import throws.
  EXPECT_SNIPPET(R"cpp(
PyObject *renames_after(PyObject *data) {
  DLManagedTensor *mt =
      (DLManagedTensor *)PyCapsule_GetPointer(data, "dltensor");
  if (!mt)
    throw python_error();
  at::Tensor t = at::fromDLPack(mt);
  PyCapsule_SetName(data, "used_dltensor");
  return wrap(t);
}
PyObject *clears_destructor(PyObject *data) {
  auto *mt = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(data, "dltensor"));
  if (mt == nullptr)
    return nullptr;
  at::Tensor t = at::fromDLPack(mt);
  PyCapsule_SetDestructor(data, nullptr);
  return wrap(t);
}
PyObject *renames_before(PyObject *data) {
  DLManagedTensor *mt =
      (DLManagedTensor *)PyCapsule_GetPointer(data, "dltensor");
  if (!mt)
    throw python_error();
  PyCapsule_SetName(data, "used_dltensor");
  at::Tensor t = at::fromDLPack(mt); // [[rename-before-import related=-1]]
  return wrap(t);
}
)cpp");
}

TEST(OwnershipCapsule, PointerUsedWithoutANullCheck) {
  EXPECT_SNIPPET(R"cpp(
int64_t unchecked(PyObject *data) {
  auto *mt = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(data, "dltensor"));
  return mt->dl_tensor.ndim; // [[capsule-unchecked related=-1]]
}
int64_t checked(PyObject *data) {
  auto *mt = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(data, "dltensor"));
  if (mt == nullptr)
    return -1;
  return mt->dl_tensor.ndim;
}
)cpp");
}

TEST(OwnershipCapsule, ImporterThatAlwaysTakesOwnership) {
  // interop::from_dlpack (OwnershipTakingImporters) owns the tensor even
  // when it fails, so the capsule must be claimed on its failure path too;
  // renaming first is right for it.
  EXPECT_SNIPPET(R"cpp(
PyObject *wrap_array(const interop::Result<interop::Array> &r);
PyObject *claims_late(PyObject *capsule, const interop::Device &device) {
  auto *mt =
      static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule, "dltensor"));
  if (mt == nullptr)
    return nullptr;
  interop::Result<interop::Array> r = interop::from_dlpack(mt, device);
  if (!r.ok())
    return nullptr; // [[not-claimed exit=return site=-2]]
  PyCapsule_SetName(capsule, "used_dltensor");
  return wrap_array(r);
}
PyObject *claims_first(PyObject *capsule, const interop::Device &device) {
  auto *mt =
      static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule, "dltensor"));
  if (mt == nullptr)
    return nullptr;
  PyCapsule_SetName(capsule, "used_dltensor");
  interop::Result<interop::Array> r = interop::from_dlpack(mt, device);
  if (!r.ok())
    return nullptr;
  return wrap_array(r);
}
)cpp");
}

//===----------------------------------------------------------------------===//
// Capsule destructors
//===----------------------------------------------------------------------===//

const char *DestructorSnippet = R"cpp(
void unchecked(PyObject *capsule) {
  DLManagedTensor *mt = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule, PyCapsule_GetName(capsule)));
  if (mt != nullptr && mt->deleter != nullptr)
    mt->deleter(mt); // [[dtor-unchecked-delete]]
}
void clears_error(PyObject *capsule) {
  if (PyCapsule_IsValid(capsule, "dltensor")) {
    auto *mt = static_cast<DLManagedTensor *>(
        PyCapsule_GetPointer(capsule, "dltensor"));
    if (mt->deleter)
      mt->deleter(mt);
  } else {
    PyErr_Clear(); // [[dtor-clears-error]]
  }
}
void saves_error(PyObject *capsule) {
  PyObject *type, *value, *traceback;
  PyErr_Fetch(&type, &value, &traceback);
  if (PyCapsule_IsValid(capsule, "dltensor")) {
    auto *mt = static_cast<DLManagedTensor *>(
        PyCapsule_GetPointer(capsule, "dltensor"));
    if (mt->deleter)
      mt->deleter(mt);
  } else {
    PyErr_Clear();
  }
  PyErr_Restore(type, value, traceback);
}
void pointer_checked(PyObject *capsule) {
  PyObject *saved = PyErr_GetRaisedException();
  auto *mt =
      static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule, "dltensor"));
  if (mt == nullptr)
    PyErr_Clear();
  else if (mt->deleter)
    mt->deleter(mt);
  PyErr_SetRaisedException(saved);
}
)cpp";

TEST(OwnershipDestructor, UncheckedDeleteAndClearedError) {
  // The deleter must run only while the capsule is unconsumed
  // (PyCapsule_IsValid, or a pointer taken under the unconsumed name and
  // proven non-NULL), and an exception in flight must be saved around
  // PyErr_Clear.
  EXPECT_SNIPPET(DestructorSnippet, {"unchecked", "clears_error", "saves_error",
                                     "pointer_checked"});
}

TEST(OwnershipDestructor, TheRoleMatters) {
  // The same functions, not passed as capsule destructors: a consumer may
  // delete and clear errors as it likes. Cached facts are per role.
  std::string Plain = DestructorSnippet;
  for (const char *Marker :
       {" // [[dtor-unchecked-delete]]", " // [[dtor-clears-error]]"})
    Plain.erase(Plain.find(Marker), llvm::StringRef(Marker).size());
  EXPECT_SNIPPET(Plain);
}

TEST(OwnershipDestructor, ErrorScopeGuard) {
  // An object whose constructor saves the exception in flight and whose
  // destructor restores it saves it from where it is made.
  EXPECT_SNIPPET(R"cpp(
struct Scope {
  Scope() : e(PyErr_GetRaisedException()) {}
  ~Scope() { PyErr_SetRaisedException(e); }
  PyObject *e;
};
struct Nothing { Nothing(); ~Nothing(); };
void guarded(PyObject *capsule) {
  Scope s;
  auto *mt =
      static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule, "dltensor"));
  if (mt == nullptr)
    PyErr_Clear();
  else if (mt->deleter)
    mt->deleter(mt);
}
void unguarded(PyObject *capsule) {
  Nothing n;
  auto *mt =
      static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule, "dltensor"));
  if (mt == nullptr)
    PyErr_Clear(); // [[dtor-clears-error]]
  else if (mt->deleter)
    mt->deleter(mt);
}
)cpp",
                 {"guarded", "unguarded"});
}

TEST(OwnershipDestructor, ReleaseFunctions) {
  // A function of one managed tensor whose body releases it (its deleter,
  // delete or free of it or of its manager_ctx, manager_ctx handed on, or
  // another such function) is a deleter where it is called; manager_ctx
  // handed to a call hands the tensor to the producer's bookkeeping.
  EXPECT_SNIPPET(R"cpp(
struct Pack { DLManagedTensor tensor; };
struct Handle;
void handle_dec_ref(Handle *h);
static void pack_deleter(DLManagedTensor *t) {
  if (t)
    delete static_cast<Pack *>(t->manager_ctx);
}
static void by_helper(DLManagedTensor *t) { pack_deleter(t); }
static void reads(DLManagedTensor *t) { (void)t->dl_tensor.ndim; }
void unchecked(PyObject *capsule) {
  pack_deleter(static_cast<DLManagedTensor *>( // [[dtor-unchecked-delete]]
      PyCapsule_GetPointer(capsule, "dltensor")));
}
void checked(PyObject *capsule) {
  if (!PyCapsule_IsValid(capsule, "dltensor"))
    return;
  by_helper(static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule, "dltensor")));
}
void bookkeeping(PyObject *capsule) {
  auto *t =
      static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule, "dltensor"));
  if (t)
    handle_dec_ref(static_cast<Handle *>(t->manager_ctx));
}
void reads_only(PyObject *capsule) {
  auto *t =
      static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule, "dltensor"));
  if (t)
    reads(t);
}
void twice(Pack *p, bool fail) {
  DLManagedTensor *t = &p->tensor;
  if (fail)
    by_helper(t);
  by_helper(t); // [[double-delete related=-1]]
}
)cpp",
                 {"unchecked", "checked", "bookkeeping", "reads_only"});
}

//===----------------------------------------------------------------------===//
// The pre-filter and the cache
//===----------------------------------------------------------------------===//

TEST(OwnershipPreFilter, MentionsOwnership) {
  resetFactCache();
  auto AST = parseCpp(std::string(Prelude) + R"cpp(
int64_t reads_fields(const DLManagedTensor *t) { return t->dl_tensor.ndim; }
void deletes(DLManagedTensor *t) { t->deleter(t); }
void *capsule_api(PyObject *c) { return PyCapsule_GetPointer(c, "dltensor"); }
DLManagedTensor *creates() { return new DLManagedTensor(); }
DLManagedTensor *allocates() {
  return static_cast<DLManagedTensor *>(malloc(sizeof(DLManagedTensor)));
}
void obtains(const at::Tensor &t) { Buffer::Wrap(at::toDLPack(t)); }
struct mirror { void *tensor; void *manager_ctx; void (*deleter)(mirror *); };
void deletes_mirror(mirror *t) { t->deleter(t); }
struct callback { void *manager_ctx; void (*deleter)(void *); };
void runs_callback(callback *c) { c->deleter(c->manager_ctx); }
void release_function(DLManagedTensor *t) { delete t; }
void releases_by_name(DLManagedTensor *t) { release_function(t); }
int unrelated(int x) { return x + 1; }
)cpp");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  ASSERT_FALSE(Ctx.getDiagnostics().hasErrorOccurred());
  auto Mentions = [&](llvm::StringRef Name) {
    return mentionsOwnership(*functionNamed(Ctx, Name));
  };
  EXPECT_FALSE(Mentions("reads_fields"));
  EXPECT_TRUE(Mentions("deletes"));
  EXPECT_TRUE(Mentions("capsule_api"));
  EXPECT_TRUE(Mentions("creates"));
  EXPECT_TRUE(Mentions("allocates"));
  EXPECT_TRUE(Mentions("obtains"));
  EXPECT_TRUE(Mentions("releases_by_name"));
  // A project's own copy of the managed tensor, by its fields.
  EXPECT_TRUE(Mentions("deletes_mirror"));
  EXPECT_FALSE(Mentions("runs_callback"));
  EXPECT_FALSE(Mentions("unrelated"));
  resetFactCache();
}

TEST(OwnershipCache, OneRunPerFunctionRoleAndConfiguration) {
  resetFactCache();
  auto AST = parseCpp(std::string(Prelude) + R"cpp(
void f(PyObject *capsule) {
  auto *mt = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule, PyCapsule_GetName(capsule)));
  if (mt)
    mt->deleter(mt);
}
)cpp");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  const FunctionDecl *FD = functionNamed(Ctx, "f");
  const OwnershipFacts &Plain = getOwnershipFacts(*FD, Ctx, false);
  EXPECT_EQ(&Plain, &getOwnershipFacts(*FD, Ctx, false));
  EXPECT_TRUE(Plain.Events.empty());
  const OwnershipFacts &Dtor = getOwnershipFacts(*FD, Ctx, true);
  EXPECT_NE(&Plain, &Dtor);
  ASSERT_EQ(Dtor.Events.size(), 1u);
  EXPECT_EQ(Dtor.Events[0].K, OwnershipEvent::DestructorUncheckedDelete);
  OwnershipConfig Other;
  Other.OwnershipTakingImporters = {"::mine::import$"};
  EXPECT_NE(&Dtor, &getOwnershipFacts(*FD, Ctx, true, Other));
  resetFactCache();
}

/// The syntactic proof (OwnershipFacts::BySyntax) on functions named for
/// what it must do: `proven_*` ones have no event by their syntax, `flow_*`
/// ones must go to the flow analysis. Every proven one is checked against
/// the flow analysis run alone, which must find nothing there either.
std::string runProofSnippet(llvm::StringRef Snippet) {
  resetFactCache();
  ParsedSnippet P = parseSnippet(Prelude, Snippet, Args);
  if (!P.Error.empty())
    return P.Error;
  ASTContext &Ctx = P.AST->getASTContext();
  OwnershipConfig FlowOnly;
  FlowOnly.SyntacticProofs = false;
  std::string Errors = forEachProvenOrFlowFunction(
      P, [&](const FunctionDecl &FD, bool WantProven) -> std::string {
        const OwnershipFacts &Fast = getOwnershipFacts(FD, Ctx, false);
        if (Fast.BySyntax != WantProven)
          return FD.getNameAsString() +
                 (WantProven ? ": analysed, expected proven by the syntax\n"
                             : ": proven by the syntax, expected the flow "
                               "analysis\n");
        return syntaxFlowDisagreement(
            FD, Fast, getOwnershipFacts(FD, Ctx, false, FlowOnly));
      });
  resetFactCache();
  return Errors;
}

TEST(OwnershipSyntax, ReleasesThatEndTheFunction) {
  EXPECT_EQ(runProofSnippet(R"cpp(
[[noreturn]] void fail(const char *why);
void proven_release_on_every_exit(DLManagedTensorVersioned *mt, float v) {
  if (mt->version.major != DLPACK_MAJOR_VERSION) {
    mt->deleter(mt);
    return;
  }
  if (mt->flags & DLPACK_FLAG_BITMASK_READ_ONLY) {
    if (mt->deleter)
      mt->deleter(mt);
    fail("read-only tensor");
  }
  static_cast<float *>(mt->dl_tensor.data)[0] = v;
  mt->deleter(mt);
}
PyObject *proven_capsule_or_release(DLManagedTensor *mt) {
  PyObject *capsule = PyCapsule_New(mt, "dltensor", nullptr);
  if (capsule == nullptr) {
    mt->deleter(mt);
    return nullptr;
  }
  return capsule;
}
void proven_free(DLManagedTensor *mt, bool done) {
  if (done)
    (void)free(mt);
}
void flow_twice(DLManagedTensor *mt) {
  mt->deleter(mt);
  mt->deleter(mt);
}
void flow_release_then_more(DLManagedTensor *mt, bool early) {
  if (early)
    mt->deleter(mt);
  wrap(at::fromDLPack(mt));
}
void flow_in_a_loop(DLManagedTensor **mts, int n) {
  for (int i = 0; i < n; ++i)
    mts[i]->deleter(mts[i]);
}
void flow_throw_caught(DLManagedTensor *mt) {
  try {
    mt->deleter(mt);
    throw python_error();
  } catch (const python_error &) {
  }
  mt->deleter(mt);
}
void flow_owned(const at::Tensor &source) {
  DLManagedTensor *mt = at::toDLPack(source);
  mt->deleter(mt);
}
void flow_capsule(PyObject *capsule) {
  auto *mt = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule, "dltensor"));
  if (mt)
    mt->deleter(mt);
}
void flow_switch(DLManagedTensor *mt, int how) {
  switch (how) {
  case 0:
    mt->deleter(mt);
    return;
  default:
    return;
  }
}
)cpp"),
            "");
}

TEST(OwnershipSkips, CIsNotAnalysed) {
  resetFactCache();
  std::unique_ptr<ASTUnit> AST = tooling::buildASTFromCodeWithArgs(
      R"c(#include <Python.h>
#include <dlpack/dlpack.h>
void release(PyObject *capsule) {
  DLManagedTensor *mt =
      (DLManagedTensor *)PyCapsule_GetPointer(capsule, "dltensor");
  mt->deleter(mt);
  mt->deleter(mt);
}
)c",
      {"-I" INTEROP_TEST_INPUTS, "-I" INTEROP_TEST_INPUTS "/dlpack/v1"},
      "snippet.c");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  ASSERT_FALSE(Ctx.getDiagnostics().hasErrorOccurred());
  const FunctionDecl *FD = functionNamed(Ctx, "release");
  EXPECT_TRUE(mentionsOwnership(*FD));
  const OwnershipFacts &F = getOwnershipFacts(*FD, Ctx, false);
  EXPECT_EQ(F.Skipped, SkipReason::BuildFailed);
  EXPECT_TRUE(F.Events.empty());
  resetFactCache();
}

} // namespace
