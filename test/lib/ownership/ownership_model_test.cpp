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

#include "ownership/ownership_snippets.h"
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
/// Parses Prelude + Snippet, runs the model over every function of the main
/// file (those in Destructors as capsule destructors) and checks the
/// annotations. Returns a description of every mismatch. The annotations
/// describe the flow analysis's events, so the syntactic proof is off for
/// them; wherever the proof applies, the flow analysis must find nothing.
std::string runSnippet(llvm::StringRef Snippet,
                       const std::set<std::string> &Destructors = {}) {
  // A fresh ASTContext may reuse the address of the previous snippet's.
  resetFactCache();
  ParsedSnippet P = parseSnippet(OwnershipPrelude, Snippet, OwnershipArgs);
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

TEST(OwnershipExports, AskedTwiceForOneImport) {
  // The retry after a NULL result asks a producer whose first call
  // failed; a capsule passed on is used; a new object in the variable is
  // another producer.
  EXPECT_SNIPPET(R"cpp(
PyObject *import_capsule(PyObject *capsule);
PyObject *dropped(PyObject *obj) {
  PyObject *cap = PyObject_CallMethod(obj, "__dlpack__", NULL);
  if (cap && !PyCapsule_IsValid(cap, "dltensor_versioned")) {
    Py_DECREF(cap);
    cap = PyObject_CallMethod(obj, "__dlpack__", NULL); // [[repeated-export related=-3]]
  }
  return cap;
}
PyObject *retried_after_failure(PyObject *obj) {
  PyObject *cap = PyObject_CallMethod(obj, "__dlpack__", "(ii)", 1, 0);
  if (!cap)
    cap = PyObject_CallMethod(obj, "__dlpack__", NULL);
  return cap;
}
PyObject *two_imports(PyObject *obj, PyObject *other) {
  PyObject *first = import_capsule(PyObject_CallMethod(obj, "__dlpack__", NULL));
  PyObject *cap = PyObject_CallMethod(obj, "__dlpack__", NULL);
  PyObject *second = import_capsule(cap);
  obj = other;
  PyObject *tested = PyObject_CallMethod(obj, "__dlpack__", NULL);
  if (PyCapsule_IsValid(tested, "dltensor"))
    return PyObject_CallMethod(obj, "__dlpack__", NULL); // [[repeated-export related=-2]]
  return second;
}
)cpp");
}

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

TEST(OwnershipCapsule, DeletedWhileTheCapsuleOwnsIt) {
  // Deleting the tensor of a capsule left unrenamed on the way out: its
  // destructor deletes it again. Renaming on that path, before or after,
  // makes the tensor this function's. One event per exit it is unclaimed
  // at.
  EXPECT_SNIPPET(R"cpp(
int rejects(PyObject *capsule, bool ok) {
  auto *mt =
      static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule, "dltensor"));
  if (mt == nullptr || mt->deleter == nullptr)
    return -1;
  if (!ok) {
    mt->deleter(mt); // [[deleted-unclaimed related=-4]]
    return -1;
  }
  PyCapsule_SetName(capsule, "used_dltensor");
  mt->deleter(mt);
  return 0;
}
int renames_after(PyObject *capsule) {
  auto *mt =
      static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule, "dltensor"));
  if (mt == nullptr || mt->deleter == nullptr)
    return -1;
  mt->deleter(mt);
  PyCapsule_SetName(capsule, "used_dltensor");
  return 0;
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
      static_cast<DLManagedTensor *>(
          PyCapsule_GetPointer(capsule, "dltensor")); // [[dtor-read-raises]]
  if (t)
    handle_dec_ref(static_cast<Handle *>(t->manager_ctx));
}
void reads_only(PyObject *capsule) {
  auto *t =
      static_cast<DLManagedTensor *>(
          PyCapsule_GetPointer(capsule, "dltensor")); // [[dtor-read-raises]]
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

} // namespace
