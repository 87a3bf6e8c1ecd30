// Unit tests of lib/abi/VersionRequests.h: a producer that receives the
// consumer's max_version and never answers it.

#include "lib/abi/VersionRequests.h"

#include "ast_search.h"
#include "snippet_annotations.h"

#include "clang/AST/Expr.h"
#include "gtest/gtest.h"

#include <string>

using namespace clang;
using namespace clang::interop;
using namespace interop_test;

namespace {

TEST(VersionRequests, ARequestNeverRead) {
  auto AST = parseWithInputs(R"cpp(
#include <dlpack/dlpack.h>
#include <pybind11/pybind11.h>
namespace py = pybind11;
void dtor(PyObject *);
DLManagedTensorVersioned *v();
DLManagedTensor *l();
PyObject *parsed(PyObject *args, PyObject *kw, char **kws) {
  PyObject *max_version = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "|O", kws, &max_version))
    return nullptr;
  (void)max_version;
  return PyCapsule_New(v(), "dltensor_versioned", dtor);
}
py::capsule unnamed_use(py::object maxVersion) {
  return py::capsule(v(), "dltensor_versioned", dtor);
}
PyObject *read(PyObject *max_version) {
  if (max_version == Py_None)
    return PyCapsule_New(l(), "dltensor", dtor);
  return PyCapsule_New(v(), "dltensor_versioned", dtor);
}
PyObject *passed(PyObject *max_version, int (*major)(PyObject *)) {
  return major(max_version) >= 1 ? PyCapsule_New(v(), "dltensor_versioned", dtor)
                                 : nullptr;
}
PyObject *both(PyObject *max_version, bool b) {
  return b ? PyCapsule_New(v(), "dltensor_versioned", dtor)
           : PyCapsule_New(l(), "dltensor", dtor);
}
PyObject *no_request() { return PyCapsule_New(v(), "dltensor_versioned", dtor); }
PyObject *legacy(PyObject *max_version) {
  return PyCapsule_New(l(), "dltensor", dtor);
}
PyObject *no_capsule(PyObject *max_version) { return nullptr; }
)cpp");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  auto Ask = [&](const char *Name) -> std::string {
    auto R = ignoredVersionRequest(*functionNamed(Ctx, Name), Ctx);
    if (!R)
      return "answered";
    return R->Request->getNameAsString();
  };
  EXPECT_EQ(Ask("parsed"), "max_version");
  EXPECT_EQ(Ask("unnamed_use"), "maxVersion");
  EXPECT_EQ(Ask("read"), "answered");
  EXPECT_EQ(Ask("passed"), "answered") << "handed to a call";
  EXPECT_EQ(Ask("both"), "answered") << "a legacy capsule too";
  EXPECT_EQ(Ask("no_request"), "answered") << "nothing asked";
  EXPECT_EQ(Ask("legacy"), "answered");
  EXPECT_EQ(Ask("no_capsule"), "answered");
}

} // namespace
