// interop_shim.Array: a Python handle on an immutable interop::Array, with the
// DLPack producer protocol (__dlpack__, __dlpack_device__),
// __cuda_array_interface__ and __array__.
#include "shim_python.h"

#include <memory>
#include <new>
#include <string>
#include <vector>

namespace interop {
namespace python {

namespace {

const Array &array_of(PyObject *self) { return unwrap_array(self); }

void array_dealloc(PyObject *self) {
  // May release an imported producer's tensor; its deleter runs here, with
  // the GIL held.
  reinterpret_cast<ArrayObject *>(self)->array.~Array();
  Py_TYPE(self)->tp_free(self);
}

PyObject *array_repr(PyObject *self) {
  return PyUnicode_FromString(array_of(self).to_string().c_str());
}

PyObject *int64_tuple(const std::vector<int64_t> &values) {
  PyObject *tuple = PyTuple_New(static_cast<Py_ssize_t>(values.size()));
  if (!tuple)
    return nullptr;
  for (size_t i = 0; i < values.size(); ++i) {
    PyObject *v = PyLong_FromLongLong(values[i]);
    if (!v) {
      Py_DECREF(tuple);
      return nullptr;
    }
    PyTuple_SET_ITEM(tuple, static_cast<Py_ssize_t>(i), v);
  }
  return tuple;
}

// ---- __dlpack__ ---------------------------------------------------------

// An int for `stream`, rejecting bools (a likely mistake for a stream).
bool parse_stream(PyObject *value, ExportOptions &options) {
  if (!value || value == Py_None)
    return true;
  if (!PyLong_Check(value) || PyBool_Check(value)) {
    PyErr_Format(PyExc_TypeError,
                 "__dlpack__(): stream must be None or an int, got %R", value);
    return false;
  }
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
  if (v == -1 && PyErr_Occurred())
    return false;
  if (overflow || v < INTPTR_MIN || v > INTPTR_MAX) {
    PyErr_Format(PyExc_ValueError,
                 "__dlpack__(): stream %R does not fit a pointer", value);
    return false;
  }
  options.stream = static_cast<intptr_t>(v);
  return true;
}

bool parse_max_version(PyObject *value, ExportOptions &options) {
  // None: a consumer from before DLPack 1.0, which only reads the legacy
  // struct.
  options.max_version = DLPackVersion{0, 0};
  if (!value || value == Py_None)
    return true;
  if (!PyTuple_Check(value) || PyTuple_GET_SIZE(value) != 2 ||
      !PyLong_Check(PyTuple_GET_ITEM(value, 0)) ||
      !PyLong_Check(PyTuple_GET_ITEM(value, 1))) {
    PyErr_Format(PyExc_TypeError,
                 "__dlpack__(): max_version must be None or a (major, minor) "
                 "tuple of ints, got %R",
                 value);
    return false;
  }
  unsigned long long parts[2];
  for (Py_ssize_t i = 0; i < 2; ++i) {
    PyObject *item = PyTuple_GET_ITEM(value, i);
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(item, &overflow);
    if (v == -1 && PyErr_Occurred())
      return false;
    if (overflow || v < 0 || v > UINT32_MAX) {
      PyErr_Format(PyExc_ValueError,
                   "__dlpack__(): max_version %R must hold two integers in "
                   "[0, 2**32)",
                   value);
      return false;
    }
    parts[i] = static_cast<unsigned long long>(v);
  }
  options.max_version = DLPackVersion{static_cast<uint32_t>(parts[0]),
                                      static_cast<uint32_t>(parts[1])};
  return true;
}

const char *const kDlpackNames[] = {"stream", "max_version", "dl_device",
                                    "copy"};
Signature dlpack_signature{"__dlpack__", kDlpackNames, 4, 0, 0};

PyObject *array_dlpack(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                       PyObject *kwnames) {
  ExportOptions options;
  options.max_version = DLPackVersion{0, 0};
  if (nargs != 0 || kwnames) {
    PyObject *a[4];
    if (!bind_arguments(dlpack_signature, args, nargs, kwnames, a) ||
        !parse_stream(a[0], options) || !parse_max_version(a[1], options))
      return nullptr;
    if (a[2] && a[2] != Py_None) {
      DLDevice device;
      if (!parse_dl_device("__dlpack__(): dl_device", a[2], &device))
        return nullptr;
      options.dl_device = device;
    }
    if (!parse_copy("__dlpack__", a[3], &options.copy))
      return nullptr;
  }
  // The binding is the boundary: the runtime itself raises JAX's BufferError
  // for a sharded or TPU-device array and raise_status() surfaces it.
  // NOLINTBEGIN(interop-sharded-dlpack-export)
  Result<ManagedTensor> tensor =
      detail::export_unlocked(array_of(self), options, kUnlockGil);
  // NOLINTEND(interop-sharded-dlpack-export)
  if (!tensor.ok())
    return raise_status(tensor.status());
  return export_capsule(*tensor);
}

PyObject *array_dlpack_device(PyObject *self, PyObject *) {
  Result<DLDevice> device = array_dl_device(array_of(self));
  if (!device.ok())
    return raise_status(device.status());
  return dl_device_tuple(*device);
}

// ---- host views ---------------------------------------------------------

PyObject *numpy_module() {
  return PyImport_ImportModule("numpy"); // a dict lookup after the first
}

const char *const kArrayNames[] = {"dtype", "copy"};
Signature array_signature{"__array__", kArrayNames, 2, 2, 0};

PyObject *array_array(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                      PyObject *kwnames) {
  PyObject *a[2];
  if (!bind_arguments(array_signature, args, nargs, kwnames, a))
    return nullptr;
  if (a[1] == Py_False) {
    PyErr_SetString(PyExc_ValueError,
                    "__array__(copy=False): an interop_shim.Array is "
                    "immutable, so NumPy always receives a copy");
    return nullptr;
  }
  const Array &array = array_of(self);
  PyObject *numpy = numpy_module();
  if (!numpy)
    return nullptr;
  std::string name = dtype_name(array.dtype());
  PyObject *shape = int64_tuple(array.shape());
  PyObject *out =
      shape ? PyObject_CallMethod(numpy, "empty", "Os", shape, name.c_str())
            : nullptr;
  Py_XDECREF(shape);
  Py_DECREF(numpy);
  if (!out) {
    if (PyErr_ExceptionMatches(PyExc_TypeError)) {
      PyErr_Clear();
      PyErr_Format(PyExc_TypeError,
                   "__array__(): NumPy has no dtype for %s elements",
                   name.c_str());
    }
    return nullptr;
  }
  Py_buffer view;
  if (PyObject_GetBuffer(out, &view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) !=
      0) {
    Py_DECREF(out);
    return nullptr;
  }
  size_t nbytes = static_cast<size_t>(view.len);
  Status status = maybe_without_gil(
      nbytes, [&] { return array.copy_to_host(view.buf, nbytes); });
  PyBuffer_Release(&view);
  if (!status.ok()) {
    Py_DECREF(out);
    return raise_status(status);
  }
  if (a[0] && a[0] != Py_None) {
    PyObject *cast = PyObject_CallMethod(out, "astype", "O", a[0]);
    Py_DECREF(out);
    return cast;
  }
  return out;
}

PyObject *array_devices(PyObject *self, PyObject *) {
  PyObject *set = PySet_New(nullptr);
  if (!set)
    return nullptr;
  for (const Device &device : array_of(self).sharding().devices()) {
    PyObject *d = wrap_device(device);
    if (!d || PySet_Add(set, d) != 0) {
      Py_XDECREF(d);
      Py_DECREF(set);
      return nullptr;
    }
    Py_DECREF(d);
  }
  return set;
}

PyObject *array_sharding_devices(PyObject *self, PyObject *) {
  return device_list(array_of(self).sharding().devices());
}

PyObject *array_unsafe_buffer_pointer(PyObject *self, PyObject *) {
  // The runtime itself raises JAX's ValueError for a multi-shard array and
  // raise_status() surfaces it.
  // NOLINTBEGIN(interop-sharded-cuda-array-interface)
  Result<uintptr_t> pointer = array_of(self).unsafe_buffer_pointer();
  // NOLINTEND(interop-sharded-cuda-array-interface)
  if (!pointer.ok())
    return raise_status(pointer.status());
  return PyLong_FromUnsignedLongLong(*pointer);
}

PyObject *array_addressable_data(PyObject *self, PyObject *index) {
  Py_ssize_t i = PyNumber_AsSsize_t(index, PyExc_IndexError);
  if (i == -1 && PyErr_Occurred())
    return nullptr;
  if (i < 0) {
    PyErr_Format(PyExc_IndexError, "addressable_data(): index %zd is negative",
                 i);
    return nullptr;
  }
  Result<Array> shard = array_of(self).addressable_data(static_cast<size_t>(i));
  if (!shard.ok())
    return raise_status(shard.status());
  return wrap_array(std::move(*shard));
}

PyMethodDef array_methods[] = {
    {"__dlpack__", as_method(array_dlpack), METH_FASTCALL | METH_KEYWORDS,
     "__dlpack__(*, stream=None, max_version=None, dl_device=None, "
     "copy=None)\n--\n\nExports the array as a DLPack PyCapsule: "
     "\"dltensor_versioned\" when max_version's major is >= 1, else the "
     "legacy \"dltensor\"."},
    {"__dlpack_device__", array_dlpack_device, METH_NOARGS,
     "__dlpack_device__()\n--\n\n(device_type, device_id) of a DLPack "
     "export."},
    {"__array__", as_method(array_array), METH_FASTCALL | METH_KEYWORDS,
     "__array__(dtype=None, copy=None)\n--\n\nA NumPy copy of the global "
     "array."},
    {"devices", array_devices, METH_NOARGS,
     "devices()\n--\n\nThe set of devices the array's sharding spans."},
    {"sharding_devices", array_sharding_devices, METH_NOARGS,
     "sharding_devices()\n--\n\nThe sharding's devices, in shard order."},
    {"unsafe_buffer_pointer", array_unsafe_buffer_pointer, METH_NOARGS,
     "unsafe_buffer_pointer()\n--\n\nAddress of the only shard's first "
     "element."},
    {"addressable_data", array_addressable_data, METH_O,
     "addressable_data(index)\n--\n\nThe index-th addressable shard as a "
     "single-device Array sharing its memory."},
    {nullptr, nullptr, 0, nullptr},
};

// ---- properties ---------------------------------------------------------

PyObject *get_shape(PyObject *self, void *) {
  return int64_tuple(array_of(self).shape());
}

PyObject *get_dtype(PyObject *self, void *) {
  std::string name = dtype_name(array_of(self).dtype());
  // A numpy.dtype, like jax.Array.dtype, where NumPy has the type; the name
  // otherwise (bfloat16 and float8 need ml_dtypes, which Debian lacks).
  if (PyObject *numpy = numpy_module()) {
    PyObject *dtype = PyObject_CallMethod(numpy, "dtype", "s", name.c_str());
    Py_DECREF(numpy);
    if (dtype)
      return dtype;
    if (!PyErr_ExceptionMatches(PyExc_TypeError))
      return nullptr;
  } else if (!PyErr_ExceptionMatches(PyExc_ImportError)) {
    return nullptr;
  }
  PyErr_Clear();
  return PyUnicode_FromString(name.c_str());
}

PyObject *get_ndim(PyObject *self, void *) {
  return PyLong_FromLong(array_of(self).ndim());
}
PyObject *get_size(PyObject *self, void *) {
  return PyLong_FromLongLong(array_of(self).size());
}
PyObject *get_nbytes(PyObject *self, void *) {
  return PyLong_FromSize_t(array_of(self).nbytes());
}
PyObject *get_is_single_device(PyObject *self, void *) {
  return PyBool_FromLong(array_of(self).is_single_device());
}
PyObject *get_is_fully_addressable(PyObject *self, void *) {
  return PyBool_FromLong(array_of(self).is_fully_addressable());
}
PyObject *get_is_fully_replicated(PyObject *self, void *) {
  return PyBool_FromLong(array_of(self).is_fully_replicated());
}
PyObject *get_read_only(PyObject *self, void *) {
  return PyBool_FromLong(array_of(self).read_only());
}
PyObject *get_memory_kind(PyObject *self, void *) {
  return PyUnicode_FromString(memory_kind_name(array_of(self).memory_kind()));
}
PyObject *get_platform(PyObject *self, void *) {
  return PyUnicode_FromString(platform_name(array_of(self).platform()));
}

PyObject *get_cuda_array_interface(PyObject *self, void *) {
  // The runtime itself raises JAX's ValueError for a multi-shard array and
  // raise_status() surfaces it.
  // NOLINTBEGIN(interop-sharded-cuda-array-interface)
  Result<CudaArrayInterface> cai = cuda_array_interface(array_of(self));
  // NOLINTEND(interop-sharded-cuda-array-interface)
  if (!cai.ok())
    return raise_status(cai.status());
  PyObject *shape = int64_tuple(cai->shape);
  PyObject *strides = nullptr;
  if (cai->strides.empty()) {
    strides = Py_None;
    Py_INCREF(strides);
  } else {
    strides = int64_tuple(cai->strides);
  }
  PyObject *stream = nullptr;
  if (cai->stream) {
    stream = PyLong_FromLongLong(*cai->stream);
  } else {
    stream = Py_None;
    Py_INCREF(stream);
  }
  PyObject *result = nullptr;
  if (shape && strides && stream)
    result =
        Py_BuildValue("{s:O,s:s,s:(K,O),s:i,s:O,s:[(s,s)],s:O,s:O}", "shape",
                      shape, "typestr", cai->typestr.c_str(), "data",
                      static_cast<unsigned long long>(cai->data),
                      cai->read_only ? Py_True : Py_False, "version",
                      cai->version, "strides", strides, "descr", "",
                      cai->typestr.c_str(), "mask", Py_None, "stream", stream);
  Py_XDECREF(shape);
  Py_XDECREF(strides);
  Py_XDECREF(stream);
  return result;
}

PyGetSetDef array_getset[] = {
    {"shape", get_shape, nullptr, "Global shape.", nullptr},
    {"dtype", get_dtype, nullptr,
     "numpy.dtype of the elements (the name as a str where NumPy has none).",
     nullptr},
    {"ndim", get_ndim, nullptr, "Number of dimensions.", nullptr},
    {"size", get_size, nullptr, "Number of elements.", nullptr},
    {"nbytes", get_nbytes, nullptr, "Bytes of the global array.", nullptr},
    {"is_single_device", get_is_single_device, nullptr,
     "True when the sharding spans one device.", nullptr},
    {"is_fully_addressable", get_is_fully_addressable, nullptr,
     "True when every device belongs to this process.", nullptr},
    {"is_fully_replicated", get_is_fully_replicated, nullptr,
     "True when every device holds every element.", nullptr},
    {"read_only", get_read_only, nullptr,
     "True when the array views memory its producer marked read-only.",
     nullptr},
    {"memory_kind", get_memory_kind, nullptr,
     "'device', 'pinned_host' or 'unpinned_host'.", nullptr},
    {"platform", get_platform, nullptr, "'cpu', 'cuda' or 'tpu'.", nullptr},
    {"__cuda_array_interface__", get_cuda_array_interface, nullptr,
     "The CUDA array interface (version 3) of a single-device CUDA array.",
     nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

} // namespace

PyTypeObject ArrayType = []() noexcept {
  PyTypeObject t{PyVarObject_HEAD_INIT(nullptr, 0)};
  t.tp_name = "interop_shim.Array";
  t.tp_basicsize = sizeof(ArrayObject);
  t.tp_dealloc = array_dealloc;
  t.tp_repr = array_repr;
  t.tp_flags = Py_TPFLAGS_DEFAULT;
  t.tp_doc = "An immutable, possibly sharded array (device_put(), "
             "from_dlpack()); not constructible directly.";
  t.tp_methods = array_methods;
  t.tp_getset = array_getset;
  return t;
}();

Result<DLDevice> array_dl_device(const Array &array) {
  // The binding is the boundary: the runtime itself raises JAX's BufferError
  // for a sharded or TPU-device array and raise_status() surfaces it.
  // NOLINTBEGIN(interop-sharded-dlpack-export)
  return dlpack_device(array);
  // NOLINTEND(interop-sharded-dlpack-export)
}

PyObject *wrap_array(Array array) {
  auto *self = PyObject_New(ArrayObject, &ArrayType);
  if (!self)
    return nullptr;
  new (&self->array) Array(std::move(array));
  return reinterpret_cast<PyObject *>(self);
}

} // namespace python
} // namespace interop
