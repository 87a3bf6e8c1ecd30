// RUN: %check_interop %s interop-dlpack-capsule-protocol %t -- -- -std=c++17 -I%S/Inputs -I%S/Inputs/dlpack/v1

// A producer's __dlpack__ given the consumer's max_version must answer it:
// no request, or a major version below 1, means a DLManagedTensor in a
// "dltensor" capsule. One that never reads the request and always makes a
// "dltensor_versioned" capsule is reported at the name.

#include <dlpack/dlpack.h>
#include <pybind11/pybind11.h>

namespace py = pybind11;

void destroy_versioned(PyObject *capsule);
void destroy_legacy(PyObject *capsule);
DLManagedTensorVersioned *export_versioned(int id);
DLManagedTensor *export_legacy(int id);

// Parsed through its address, then cast to void: never read.
PyObject *parsed_and_ignored(PyObject *args, PyObject *kw) {
  static char *kws[] = {(char *)"stream", (char *)"max_version", nullptr};
  PyObject *stream = Py_None;
  PyObject *max_version = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "|OO", kws, &stream,
                                   &max_version))
    return nullptr;
  (void)max_version;
  (void)stream;
  return PyCapsule_New(export_versioned(0), "dltensor_versioned",
                       destroy_versioned);
  // CHECK-MESSAGES: :[[@LINE-2]]:45: warning: capsule named 'dltensor_versioned' whatever max_version the consumer passed; a consumer passing none, or a major version below 1, reads only a DLManagedTensor in a 'dltensor' capsule [interop-dlpack-capsule-protocol]
  // CHECK-MESSAGES: :[[@LINE-9]]:13: note: the consumer's max_version, never read
}

// A binding lambda's parameter nobody reads, and a pybind11 capsule.
py::capsule (*unread_parameter)(int, py::object,
                                py::object) = [](int id, py::object stream,
                                                 py::object max_version) {
  return py::capsule(export_versioned(id), "dltensor_versioned",
                     destroy_versioned);
  // CHECK-MESSAGES: :[[@LINE-2]]:44: warning: capsule named 'dltensor_versioned' whatever max_version the consumer passed; a consumer passing none, or a major version below 1, reads only a DLManagedTensor in a 'dltensor' capsule [interop-dlpack-capsule-protocol]
  // CHECK-MESSAGES: :[[@LINE-4]]:61: note: the consumer's max_version, never read
};

// The request read: the producer chooses the struct.
PyObject *answered(PyObject *max_version) {
  if (max_version != Py_None &&
      PyLong_AsLong(PyTuple_GetItem(max_version, 0)) >= 1)
    return PyCapsule_New(export_versioned(0), "dltensor_versioned",
                         destroy_versioned);
  return PyCapsule_New(export_legacy(0), "dltensor", destroy_legacy);
}

// Read through a helper that parses it: answered too.
static int major_of(PyObject *request) {
  return request == Py_None ? 0 : (int)PyLong_AsLong(PyTuple_GetItem(request, 0));
}
PyObject *answered_by_helper(PyObject *maxVersion) {
  int major = major_of(maxVersion);
  if (major < 1)
    return nullptr; // raises BufferError in the real producer
  return PyCapsule_New(export_versioned(0), "dltensor_versioned",
                       destroy_versioned);
}

// A legacy capsule made beside the versioned one: the choice between them is
// the answer, wherever it is made.
PyObject *chosen(PyObject *max_version, bool versioned) {
  (void)max_version;
  return versioned ? PyCapsule_New(export_versioned(0), "dltensor_versioned",
                                   destroy_versioned)
                   : PyCapsule_New(export_legacy(0), "dltensor",
                                   destroy_legacy);
}

// Without a request there is nothing to answer (a helper that makes the
// versioned capsule for a caller that chose it).
PyObject *versioned_capsule(int id) {
  return PyCapsule_New(export_versioned(id), "dltensor_versioned",
                       destroy_versioned);
}

// Only legacy capsules: every consumer reads them.
PyObject *legacy_only(PyObject *max_version) {
  (void)max_version;
  return PyCapsule_New(export_legacy(0), "dltensor", destroy_legacy);
}
