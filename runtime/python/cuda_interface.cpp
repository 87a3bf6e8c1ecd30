// __cuda_array_interface__ as a consumer: device_put of an object that
// offers only the CUDA array interface (Numba device arrays, PyCUDA, CuPy
// before DLPack). The dictionary is read into the runtime's
// CudaArrayInterface and imported by from_cuda_array_interface(), which
// honours the producer's `stream` (version 3) and keeps the object alive
// while the result views its memory.
#include "shim_python.h"

#include <memory>

namespace interop {
namespace python {

namespace {

// A required key of the interface dictionary (borrowed), or nullptr with a
// KeyError naming it.
PyObject *required(PyObject *dict, const char *key) {
  PyObject *value = PyDict_GetItemString(dict, key);
  if (!value)
    PyErr_Format(PyExc_KeyError, "__cuda_array_interface__ has no '%s' entry",
                 key);
  return value;
}

// An int entry (a bool is refused: it is never a count, size or pointer).
bool int_value(const char *what, PyObject *value, long long *out) {
  if (!PyLong_Check(value) || PyBool_Check(value)) {
    PyErr_Format(PyExc_TypeError,
                 "__cuda_array_interface__ %s must be an int, got %R", what,
                 value);
    return false;
  }
  *out = PyLong_AsLongLong(value);
  return !(*out == -1 && PyErr_Occurred());
}

// A tuple of ints ("shape", "strides").
bool int_tuple(const char *key, PyObject *value, std::vector<int64_t> *out) {
  if (!PyTuple_Check(value)) {
    PyErr_Format(PyExc_TypeError,
                 "__cuda_array_interface__ %s must be a tuple of ints, got %R",
                 key, value);
    return false;
  }
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(value); ++i) {
    long long v;
    if (!int_value(key, PyTuple_GET_ITEM(value, i), &v))
      return false;
    out->push_back(v);
  }
  return true;
}

bool parse_interface(PyObject *dict, CudaArrayInterface *cai) {
  if (!PyDict_Check(dict)) {
    PyErr_Format(PyExc_TypeError,
                 "__cuda_array_interface__ must be a dict, got %.200s",
                 Py_TYPE(dict)->tp_name);
    return false;
  }
  PyObject *version = required(dict, "version");
  PyObject *shape = version ? required(dict, "shape") : nullptr;
  PyObject *typestr = shape ? required(dict, "typestr") : nullptr;
  PyObject *data = typestr ? required(dict, "data") : nullptr;
  if (!data)
    return false;
  long long v;
  if (!int_value("version", version, &v))
    return false;
  cai->version = static_cast<int>(v);
  cai->shape.clear();
  if (!int_tuple("shape", shape, &cai->shape))
    return false;
  if (!PyUnicode_Check(typestr)) {
    PyErr_Format(PyExc_TypeError,
                 "__cuda_array_interface__ typestr must be a str, got %R",
                 typestr);
    return false;
  }
  const char *text = PyUnicode_AsUTF8(typestr);
  if (!text)
    return false;
  cai->typestr = text;
  if (!PyTuple_Check(data) || PyTuple_GET_SIZE(data) != 2) {
    PyErr_Format(PyExc_TypeError,
                 "__cuda_array_interface__ data must be a (pointer, "
                 "read_only) tuple, got %R",
                 data);
    return false;
  }
  PyObject *pointer = PyTuple_GET_ITEM(data, 0);
  if (!PyLong_Check(pointer) || PyBool_Check(pointer)) {
    PyErr_Format(PyExc_TypeError,
                 "__cuda_array_interface__ data pointer must be an int, got %R",
                 pointer);
    return false;
  }
  cai->data = static_cast<uintptr_t>(PyLong_AsUnsignedLongLong(pointer));
  if (PyErr_Occurred())
    return false;
  int read_only = PyObject_IsTrue(PyTuple_GET_ITEM(data, 1));
  if (read_only < 0)
    return false;
  cai->read_only = read_only != 0;
  cai->strides.clear();
  PyObject *strides = PyDict_GetItemString(dict, "strides");
  if (strides && strides != Py_None &&
      !int_tuple("strides", strides, &cai->strides))
    return false;
  PyObject *mask = PyDict_GetItemString(dict, "mask");
  if (mask && mask != Py_None) {
    PyErr_SetString(PyExc_ValueError,
                    "__cuda_array_interface__ with a mask is not supported: "
                    "masked arrays cannot be imported");
    return false;
  }
  cai->stream.reset();
  PyObject *stream = PyDict_GetItemString(dict, "stream");
  if (stream && stream != Py_None) {
    long long value;
    if (!int_value("stream", stream, &value))
      return false;
    cai->stream = static_cast<intptr_t>(value);
  }
  return true;
}

// Drops the keep-alive reference to the producer; the last Array viewing
// its memory may go away on any thread, without the GIL.
void release_producer(const void *obj) {
  PyGILState_STATE gil = PyGILState_Ensure();
  Py_DECREF(const_cast<PyObject *>(static_cast<const PyObject *>(obj)));
  PyGILState_Release(gil);
}

} // namespace

PyObject *cuda_array_interface_of(PyObject *x) {
  static PyObject *name = interned("__cuda_array_interface__");
  PyObject *cai = PyObject_GetAttr(x, name);
  if (!cai && PyErr_ExceptionMatches(PyExc_AttributeError))
    PyErr_Clear();
  return cai;
}

PyObject *import_cuda_array_interface(PyObject *x, PyObject *interface,
                                      const std::optional<Device> &target,
                                      const ImportOptions &options) {
  CudaArrayInterface cai;
  if (!parse_interface(interface, &cai))
    return nullptr;
  // Taken here, released by `owner`'s deleter: when the import failed, when
  // a copy is done, or when the last Array viewing the memory goes away (and
  // by shared_ptr itself should allocating its control block fail).
  Py_INCREF(x);
  std::shared_ptr<const void> owner;
  try {
    owner = std::shared_ptr<const void>(x, &release_producer);
  } catch (const std::bad_alloc &) {
    return PyErr_NoMemory();
  }
  Result<Array> imported =
      from_cuda_array_interface(cai, std::move(owner), target, options);
  if (!imported.ok())
    return raise_status(imported.status());
  return wrap_array(std::move(*imported));
}

} // namespace python
} // namespace interop
