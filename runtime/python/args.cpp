// Status-to-exception translation and the small argument parsers the
// binding's functions share.
#include "shim_python.h"

#include <cstring>

namespace interop {
namespace python {

PyObject *raise_status(const Status &status) {
  // The runtime decides the class; this table only turns its name into the
  // builtin, so the C++ and Python sides cannot disagree.
  static const struct {
    const char *name;
    PyObject **type;
  } kExceptions[] = {
      {"BufferError", &PyExc_BufferError},
      {"ValueError", &PyExc_ValueError},
      {"TypeError", &PyExc_TypeError},
      {"RuntimeError", &PyExc_RuntimeError},
      {"AttributeError", &PyExc_AttributeError},
      {"MemoryError", &PyExc_MemoryError},
  };
  PyObject *type = PyExc_RuntimeError;
  if (const char *name = python_exception_name(status.code())) {
    for (const auto &entry : kExceptions)
      if (std::strcmp(entry.name, name) == 0)
        type = *entry.type;
  }
  PyErr_SetString(type, status.message().c_str());
  return nullptr;
}

static bool intern_names(Signature &sig) {
  if (sig.interned)
    return true;
  auto **interned = new PyObject *[sig.count];
  for (Py_ssize_t i = 0; i < sig.count; ++i) {
    interned[i] = PyUnicode_InternFromString(sig.names[i]);
    if (!interned[i]) {
      for (Py_ssize_t j = 0; j < i; ++j)
        Py_DECREF(interned[j]);
      delete[] interned;
      return false;
    }
  }
  sig.interned = interned;
  return true;
}

bool bind_arguments(Signature &sig, PyObject *const *args, Py_ssize_t nargs,
                    PyObject *kwnames, PyObject **out) {
  for (Py_ssize_t i = 0; i < sig.count; ++i)
    out[i] = nullptr;
  if (nargs > sig.max_positional) {
    if (sig.max_positional == 0)
      PyErr_Format(PyExc_TypeError,
                   "%s() takes no positional arguments (%zd given)",
                   sig.function, nargs);
    else
      PyErr_Format(PyExc_TypeError,
                   "%s() takes at most %zd positional arguments (%zd given)",
                   sig.function, sig.max_positional, nargs);
    return false;
  }
  for (Py_ssize_t i = 0; i < nargs; ++i)
    out[i] = args[i];
  Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  if (nkw > 0 && !intern_names(sig))
    return false;
  for (Py_ssize_t k = 0; k < nkw; ++k) {
    PyObject *key = PyTuple_GET_ITEM(kwnames, k);
    Py_ssize_t slot = -1;
    // Keyword names from call sites are interned, so the pointer compare
    // almost always decides; the string compare covers the rest.
    for (Py_ssize_t i = 0; i < sig.count && slot < 0; ++i)
      if (key == sig.interned[i])
        slot = i;
    for (Py_ssize_t i = 0; i < sig.count && slot < 0; ++i)
      if (PyUnicode_Compare(key, sig.interned[i]) == 0)
        slot = i;
    if (slot < 0) {
      if (PyErr_Occurred())
        return false;
      PyErr_Format(PyExc_TypeError,
                   "%s() got an unexpected keyword argument '%U'", sig.function,
                   key);
      return false;
    }
    if (out[slot]) {
      PyErr_Format(PyExc_TypeError,
                   "%s() got multiple values for argument '%s'", sig.function,
                   sig.names[slot]);
      return false;
    }
    out[slot] = args[nargs + k];
  }
  for (Py_ssize_t i = 0; i < sig.required; ++i) {
    if (!out[i]) {
      PyErr_Format(PyExc_TypeError, "%s() missing required argument '%s'",
                   sig.function, sig.names[i]);
      return false;
    }
  }
  return true;
}

bool parse_copy(const char *function, PyObject *value, CopyMode *out) {
  if (!value || value == Py_None) {
    *out = CopyMode::kIfNeeded;
  } else if (value == Py_True) {
    *out = CopyMode::kAlways;
  } else if (value == Py_False) {
    *out = CopyMode::kNever;
  } else {
    PyErr_Format(PyExc_TypeError,
                 "%s(): copy must be None, True or False, got %R", function,
                 value);
    return false;
  }
  return true;
}

// An int that fits in int32_t, else an error naming `what` and the value.
static bool int32_item(const char *what, PyObject *whole, PyObject *item,
                       int32_t *out) {
  if (!PyLong_Check(item)) {
    PyErr_Format(PyExc_TypeError,
                 "%s must be a (device_type, device_id) tuple of ints, got %R",
                 what, whole);
    return false;
  }
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(item, &overflow);
  if (v == -1 && PyErr_Occurred())
    return false;
  if (overflow || v < INT32_MIN || v > INT32_MAX) {
    PyErr_Format(PyExc_ValueError,
                 "%s: %R does not fit a DLPack device field (int32)", what,
                 whole);
    return false;
  }
  *out = static_cast<int32_t>(v);
  return true;
}

bool parse_dl_device(const char *what, PyObject *value, DLDevice *out) {
  if (!PyTuple_Check(value) || PyTuple_GET_SIZE(value) != 2) {
    PyErr_Format(PyExc_TypeError,
                 "%s must be a (device_type, device_id) tuple of ints, got %R",
                 what, value);
    return false;
  }
  int32_t type = 0, id = 0;
  if (!int32_item(what, value, PyTuple_GET_ITEM(value, 0), &type) ||
      !int32_item(what, value, PyTuple_GET_ITEM(value, 1), &id))
    return false;
  // Written raw: 0.6's DLDeviceType cannot hold 20 (kDLTPUHost) lawfully.
  // Built in a local and stored whole, so that callers reading the struct
  // as one 8-byte value do not stall on two 4-byte stores.
  DLDevice device;
  dl::set_device_type(device, type);
  device.device_id = id;
  *out = device;
  return true;
}

PyObject *dl_device_tuple(const DLDevice &device) {
  // Built directly: Py_BuildValue's format parsing cost more than the rest
  // of __dlpack_device__, which every consumer calls before __dlpack__.
  PyObject *type = PyLong_FromLong(dl::device_type_of(device));
  PyObject *id = PyLong_FromLong(device.device_id);
  PyObject *tuple = type && id ? PyTuple_New(2) : nullptr;
  if (!tuple) {
    Py_XDECREF(type);
    Py_XDECREF(id);
    return nullptr;
  }
  PyTuple_SET_ITEM(tuple, 0, type);
  PyTuple_SET_ITEM(tuple, 1, id);
  return tuple;
}

} // namespace python
} // namespace interop
