// Unit tests of lib/abi/ProducerExports.h: which calls ask a producer for a
// capsule, whose method they call, and how the body uses each capsule.

#include "lib/abi/ProducerExports.h"

#include "ast_search.h"
#include "snippet_annotations.h"

#include "clang/AST/Expr.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace clang::interop;
using namespace interop_test;

namespace {

TEST(ProducerExports, SpellingsOfAnExport) {
  auto AST = parseWithInputs(R"cpp(
#include <pybind11/pybind11.h>
namespace py = pybind11;
constexpr const char *kName = "__dlpack__";
py::object use(const py::object &);
void f(py::object obj, py::object other, PyObject *raw) {
  py::object a = obj.attr("__dlpack__")();
  py::object m = other.attr(kName);
  use(m(1, 2));
  PyObject *b = PyObject_CallMethod(raw, "__dlpack__", nullptr);
  PyObject *bound = PyObject_GetAttrString(raw, "__dlpack__");
  Py_DECREF(PyObject_CallNoArgs(bound));
  py::getattr(obj, "__dlpack_device__")();
  obj.attr("other")();
  if (PyCapsule_IsValid(a.ptr(), "dltensor"))
    use(a);
}
)cpp");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  const FunctionDecl *F = functionNamed(Ctx, "f");
  ASSERT_TRUE(mentionsProducerExport(F->getBody()));
  ExportUses U = findExportCalls(F->getBody(), Ctx);
  ASSERT_EQ(U.Calls.size(), 4u);
  auto Name = [](const ExportCall &C) {
    return C.Producer->getNameAsString();
  };
  EXPECT_EQ(Name(U.Calls[0]), "obj");
  EXPECT_FALSE(U.Calls[0].MayFail) << "pybind11 throws";
  ASSERT_TRUE(U.Calls[0].Holder);
  EXPECT_EQ(U.Calls[0].Holder->getName(), "a");
  EXPECT_EQ(Name(U.Calls[1]), "other") << "a bound method, a constant name";
  EXPECT_TRUE(U.Calls[1].UsedAtOnce);
  EXPECT_EQ(Name(U.Calls[2]), "raw");
  EXPECT_TRUE(U.Calls[2].MayFail);
  EXPECT_EQ(U.Calls[2].Holder->getName(), "b");
  EXPECT_EQ(Name(U.Calls[3]), "raw") << "PyObject_CallNoArgs(bound)";
  EXPECT_FALSE(U.Calls[3].UsedAtOnce) << "Py_DECREF drops it";
  EXPECT_FALSE(U.Calls[3].Holder);
  // `a` is tested by name (not a use), then passed on (a use).
  ASSERT_EQ(U.UsingReferences.size(), 1u);
  EXPECT_EQ(U.UsingReferences.begin()->second->getName(), "a");
}

TEST(ProducerExports, NoExportNoWork) {
  auto AST = parseWithInputs(R"cpp(
#include <pybind11/pybind11.h>
namespace py = pybind11;
void g(py::object obj) { obj.attr("__dlpack_device__")(); }
)cpp");
  ASSERT_TRUE(AST);
  const FunctionDecl *G = functionNamed(AST->getASTContext(), "g");
  EXPECT_FALSE(mentionsProducerExport(G->getBody()));
  EXPECT_TRUE(findExportCalls(G->getBody(), AST->getASTContext())
                  .Calls.empty());
}

} // namespace
