// RUN: %check_interop %s interop-dlpack-capsule-protocol %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// A consumer asks a producer for its data once per import: every
// `__dlpack__` call exports again (a new capsule and managed tensor, for
// some producers a copy or a stream synchronisation). A second call on the
// same producer while the capsule of the first may still be unused (only
// its name or type tested, or its reference dropped) asks twice for one
// import and drops the first capsule. A call that failed returned no
// capsule: a retry after a NULL result or in a catch handler is fine, and
// so are two imports that each use their capsule.

#include <dlpack/dlpack.h>
#include <pybind11/pybind11.h>

#include <stdexcept>

namespace py = pybind11;
py::object consume(const py::object &capsule);

// The name tested on one capsule, the import made from another.
py::object tested_then_asked_again(py::object obj) {
  if (!PyCapsule_IsValid(obj.attr("__dlpack__")().ptr(), "dltensor"))
    throw std::runtime_error("not a DLPack producer");
  py::object cap = obj.attr("__dlpack__")();
  // CHECK-MESSAGES: :[[@LINE-1]]:20: warning: '__dlpack__' of 'obj' called again while the capsule of an earlier call may be unused; that capsule is dropped, and the producer exports its data twice for one import [interop-dlpack-capsule-protocol]
  // CHECK-MESSAGES: :[[@LINE-4]]:26: note: the earlier call; use its capsule, or ask once
  return consume(cap);
}

// A versioned capsule asked for, a legacy one received: asking again drops
// a capsule the consumer could have imported.
py::object asked_again_for_another_name(py::object obj) {
  py::object cap = obj.attr("__dlpack__")(1);
  if (!PyCapsule_IsValid(cap.ptr(), "dltensor_versioned"))
    cap = obj.attr("__dlpack__")();
  // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: '__dlpack__' of 'obj' called again while the capsule of an earlier call may be unused; {{.*}}
  // CHECK-MESSAGES: :[[@LINE-4]]:20: note: the earlier call; use its capsule, or ask once
  return consume(cap);
}

// The same through the C API, the reference dropped before the retry.
PyObject *c_api_retry_after_test(PyObject *obj) {
  PyObject *cap = PyObject_CallMethod(obj, "__dlpack__", "(ii)", 1, 0);
  if (!cap)
    return NULL;
  if (!PyCapsule_IsValid(cap, "dltensor_versioned")) {
    Py_DECREF(cap);
    cap = PyObject_CallMethod(obj, "__dlpack__", NULL);
    // CHECK-MESSAGES: :[[@LINE-1]]:11: warning: '__dlpack__' of 'obj' called again while the capsule of an earlier call may be unused; {{.*}}
    // CHECK-MESSAGES: :[[@LINE-7]]:19: note: the earlier call; use its capsule, or ask once
  }
  return cap;
}

// A bound method held in a local, a name held in a constant.
constexpr const char *kExport = "__dlpack__";
py::object through_variables(py::object obj) {
  py::object method = obj.attr(kExport);
  py::object first = method();
  if (first.is_none())
    return first;
  py::object second = method();
  // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: '__dlpack__' of 'obj' called again while the capsule of an earlier call may be unused; {{.*}}
  // CHECK-MESSAGES: :[[@LINE-5]]:22: note: the earlier call; use its capsule, or ask once
  return consume(second);
}

// In a loop on one producer: each iteration asks again.
int counted_in_a_loop(py::object obj) {
  int n = 0;
  for (int i = 0; i < 3; ++i)
    if (PyCapsule_IsValid(py::getattr(obj, "__dlpack__")().ptr(), "dltensor"))
      // CHECK-MESSAGES: :[[@LINE-1]]:27: warning: '__dlpack__' of 'obj' called again while the capsule of an earlier call may be unused; {{.*}}
      // CHECK-MESSAGES: :[[@LINE-2]]:27: note: in a loop: the capsule of the previous iteration
      ++n;
  return n;
}

// Correct: the retry runs only when the first call failed (NULL).
PyObject *c_api_retry_after_failure(PyObject *obj) {
  PyObject *cap = PyObject_CallMethod(obj, "__dlpack__", "(ii)", 1, 0);
  if (cap == NULL) {
    if (!PyErr_ExceptionMatches(PyExc_TypeError))
      return NULL;
    PyErr_Clear();
    cap = PyObject_CallMethod(obj, "__dlpack__", NULL);
  }
  return cap;
}

// Correct: the retry runs only when the first call threw.
py::object retry_in_handler(py::object obj) {
  py::object cap;
  try {
    cap = obj.attr("__dlpack__")(1);
  } catch (const std::exception &) {
    cap = obj.attr("__dlpack__")();
  }
  return consume(cap);
}

// Correct: two imports, each of its own capsule.
void two_imports(py::object obj, py::object &a, py::object &b) {
  a = consume(obj.attr("__dlpack__")());
  py::object cap = obj.attr("__dlpack__")();
  b = consume(cap);
}

// Correct: one call on each path.
py::object one_per_path(py::object obj, bool stream) {
  if (stream)
    return consume(obj.attr("__dlpack__")(7));
  return consume(obj.attr("__dlpack__")());
}

// Correct: another object each time (a new producer in the variable).
int one_per_object(py::object *objs, int n, py::object other) {
  int valid = 0;
  for (int i = 0; i < n; ++i) {
    py::object o = objs[i];
    if (PyCapsule_IsValid(o.attr("__dlpack__")().ptr(), "dltensor"))
      ++valid;
  }
  py::object obj = objs[0];
  if (!PyCapsule_IsValid(obj.attr("__dlpack__")().ptr(), "dltensor"))
    return valid;
  obj = other;
  if (PyCapsule_IsValid(obj.attr("__dlpack__")().ptr(), "dltensor"))
    ++valid;
  return valid;
}

// A capsule asked for and let die as the pointer taken from it is returned:
// the capsule, still named 'dltensor' when it is released, deletes the
// tensor the caller receives.
DLManagedTensor *tensor_of(py::object obj) {
  py::object capsule = obj.attr("__dlpack__")();
  // CHECK-MESSAGES: :[[@LINE-1]]:14: warning: capsule from __dlpack__ is released when the function returns, still unconsumed; its destructor deletes the tensor whose pointer the function returns [interop-dlpack-capsule-protocol]
  if (capsule.is_none())
    throw std::runtime_error("no capsule");
  auto *managed = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule.ptr(), "dltensor"));
  if (!managed)
    throw std::runtime_error("not a DLPack capsule");
  return managed;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: note: pointer returned here
}

// The same through the C API, the reference dropped before the return.
DLManagedTensor *tensor_of_c(PyObject *obj) {
  PyObject *capsule = PyObject_CallMethod(obj, "__dlpack__", nullptr);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: capsule from __dlpack__ is released when the function returns, still unconsumed; its destructor deletes the tensor whose pointer the function returns [interop-dlpack-capsule-protocol]
  if (!capsule)
    return nullptr;
  auto *managed = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule, "dltensor"));
  Py_DECREF(capsule);
  return managed;
  // CHECK-MESSAGES: :[[@LINE-1]]:3: note: pointer returned here
}

// Claimed before the return: the caller owns the tensor.
DLManagedTensor *tensor_taken(py::object obj) {
  py::object capsule = obj.attr("__dlpack__")();
  auto *managed = static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule.ptr(), "dltensor"));
  if (!managed)
    throw std::runtime_error("not a DLPack capsule");
  PyCapsule_SetName(capsule.ptr(), "used_dltensor");
  return managed;
}

// The capsule kept alive by something else (a keep-alive list), or the
// reference not dropped here: borrowed pointers.
void keep_alive(const py::object &o);
DLManagedTensor *tensor_kept(py::object obj) {
  py::object capsule = obj.attr("__dlpack__")();
  keep_alive(capsule);
  return static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule.ptr(), "dltensor"));
}
DLManagedTensor *tensor_leaked_ref(PyObject *obj) {
  PyObject *capsule = PyObject_CallMethod(obj, "__dlpack__", nullptr);
  return static_cast<DLManagedTensor *>(
      PyCapsule_GetPointer(capsule, "dltensor"));
}

// Asked in one arm of an if and asked again only when that left no capsule
// (the first call may have failed, or not run): NULL-ness survives the
// join, so the retry drops nothing.
PyObject *export_with_retry(PyObject *obj, bool with_kwargs) {
  PyObject *fn = PyObject_GetAttrString(obj, "__dlpack__");
  if (!fn)
    return nullptr;
  PyObject *capsule = nullptr;
  if (with_kwargs)
    capsule = PyObject_CallObject(fn, nullptr);
  if (!capsule) {
    PyErr_Clear();
    capsule = PyObject_CallObject(fn, nullptr);
  }
  Py_DECREF(fn);
  return capsule;
}

// Without the test, the second call drops the first capsule.
PyObject *export_twice_after_join(PyObject *obj, bool first) {
  PyObject *capsule = nullptr;
  PyObject *fn = PyObject_GetAttrString(obj, "__dlpack__");
  if (fn && first)
    capsule = PyObject_CallObject(fn, nullptr);
  if (fn)
    capsule = PyObject_CallObject(fn, nullptr);
  // CHECK-MESSAGES: :[[@LINE-1]]:15: warning: '__dlpack__' of 'obj' called again while the capsule of an earlier call may be unused
  // CHECK-MESSAGES: :[[@LINE-4]]:15: note: the earlier call; use its capsule, or ask once
  Py_XDECREF(fn);
  return capsule;
}

// A capsule chosen by a conditional operator is the capsule stored: asked
// again while it may be unused drops it; asked again only when it is NULL
// does not.
PyObject *export_chosen_then_again(PyObject *obj, bool first) {
  PyObject *fn = PyObject_GetAttrString(obj, "__dlpack__");
  PyObject *capsule = first ? PyObject_CallObject(fn, nullptr) : nullptr;
  capsule = PyObject_CallObject(fn, nullptr);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: warning: '__dlpack__' of 'obj' called again while the capsule of an earlier call may be unused
  // CHECK-MESSAGES: :[[@LINE-3]]:31: note: the earlier call; use its capsule, or ask once
  return capsule;
}

PyObject *export_chosen_or_retried(PyObject *obj, bool first) {
  PyObject *fn = PyObject_GetAttrString(obj, "__dlpack__");
  PyObject *capsule = first ? PyObject_CallObject(fn, nullptr) : nullptr;
  if (!capsule)
    capsule = PyObject_CallObject(fn, nullptr);
  return capsule;
}
