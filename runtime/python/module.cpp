// The interop_shim module: topology (configure, devices, local_devices),
// placement (device_put) and DLPack import (from_dlpack), named after JAX's.
#include "shim_python.h"

#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <vector>

namespace interop {
namespace python {
namespace {

// ---- topology -----------------------------------------------------------

// A non-negative/positive int keyword for configure(); absent keeps `value`.
bool int_option(PyObject *obj, const char *name, int *value) {
  if (!obj)
    return true;
  if (!PyLong_Check(obj) || PyBool_Check(obj)) {
    PyErr_Format(PyExc_TypeError, "configure(): %s must be an int, got %R",
                 name, obj);
    return false;
  }
  int overflow = 0;
  long v = PyLong_AsLongAndOverflow(obj, &overflow);
  if (v == -1 && PyErr_Occurred())
    return false;
  if (overflow || v < INT32_MIN || v > INT32_MAX) {
    PyErr_Format(PyExc_ValueError, "configure(): %s=%R is out of range", name,
                 obj);
    return false;
  }
  *value = static_cast<int>(v);
  return true;
}

const char *const kConfigureNames[] = {"cpu_devices", "tpu_devices",
                                       "process_count", "process_index",
                                       "cuda_devices"};
Signature configure_signature{"configure", kConfigureNames, 5, 0, 0};

PyObject *py_configure(PyObject *, PyObject *const *args, Py_ssize_t nargs,
                       PyObject *kwnames) {
  PyObject *a[5];
  if (!bind_arguments(configure_signature, args, nargs, kwnames, a))
    return nullptr;
  TopologyConfig config;
  if (!int_option(a[0], "cpu_devices", &config.cpu_devices_per_process) ||
      !int_option(a[1], "tpu_devices", &config.tpu_devices_per_process) ||
      !int_option(a[2], "process_count", &config.process_count) ||
      !int_option(a[3], "process_index", &config.process_index) ||
      !int_option(a[4], "cuda_devices", &config.cuda_devices_per_process))
    return nullptr;
  Status status = configure(config);
  if (!status.ok())
    return raise_status(status);
  Py_RETURN_NONE;
}

PyObject *py_reset_for_testing(PyObject *, PyObject *) {
  reset_for_testing();
  Py_RETURN_NONE;
}

// nullptr/None: every platform; else "cpu", "cuda" or "tpu".
bool parse_platform(const char *function, PyObject *obj,
                    std::optional<Platform> *out) {
  if (!obj || obj == Py_None)
    return true;
  for (Platform p : {Platform::kCpu, Platform::kCuda, Platform::kTpu}) {
    if (PyUnicode_Check(obj) &&
        PyUnicode_CompareWithASCIIString(obj, platform_name(p)) == 0) {
      *out = p;
      return true;
    }
  }
  PyErr_Format(PyExc_ValueError,
               "%s(): platform must be None, 'cpu', 'cuda' or 'tpu', got %R",
               function, obj);
  return false;
}

const char *const kPlatformNames[] = {"platform"};
Signature devices_signature{"devices", kPlatformNames, 1, 1, 0};
Signature local_devices_signature{"local_devices", kPlatformNames, 1, 1, 0};

PyObject *py_devices(PyObject *, PyObject *const *args, Py_ssize_t nargs,
                     PyObject *kwnames) {
  PyObject *a[1];
  std::optional<Platform> platform;
  if (!bind_arguments(devices_signature, args, nargs, kwnames, a) ||
      !parse_platform("devices", a[0], &platform))
    return nullptr;
  return device_list(platform ? devices(*platform) : devices());
}

PyObject *py_local_devices(PyObject *, PyObject *const *args, Py_ssize_t nargs,
                           PyObject *kwnames) {
  PyObject *a[1];
  std::optional<Platform> platform;
  if (!bind_arguments(local_devices_signature, args, nargs, kwnames, a) ||
      !parse_platform("local_devices", a[0], &platform))
    return nullptr;
  return device_list(platform ? local_devices(*platform) : local_devices());
}

// ---- devices and memory kinds as arguments --------------------------------

// None -> this process's first device; a Device; or a list/tuple of
// Devices.
bool parse_devices(const char *function, PyObject *obj,
                   std::vector<Device> *out) {
  if (!obj || obj == Py_None) {
    std::vector<Device> local = local_devices();
    if (local.empty()) {
      PyErr_Format(PyExc_RuntimeError,
                   "%s(): this process has no devices to default to", function);
      return false;
    }
    out->push_back(local.front());
    return true;
  }
  if (is_device(obj)) {
    out->push_back(unwrap_device(obj));
    return true;
  }
  if (!PyList_Check(obj) && !PyTuple_Check(obj)) {
    PyErr_Format(PyExc_TypeError,
                 "%s(): expected a Device or a list of Devices, got %.200s",
                 function, Py_TYPE(obj)->tp_name);
    return false;
  }
  PyObject *seq = PySequence_Fast(obj, "");
  if (!seq)
    return false;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
    if (!is_device(item)) {
      PyErr_Format(PyExc_TypeError,
                   "%s(): item %zd of the device list is a %.200s, not a "
                   "Device",
                   function, i, Py_TYPE(item)->tp_name);
      Py_DECREF(seq);
      return false;
    }
    out->push_back(unwrap_device(item));
  }
  Py_DECREF(seq);
  return true; // an empty list is the runtime's device_put() error
}

bool parse_memory_kind(PyObject *obj, MemoryKind *out) {
  *out = MemoryKind::kDevice;
  if (!obj)
    return true;
  if (PyUnicode_Check(obj)) {
    for (MemoryKind kind : {MemoryKind::kDevice, MemoryKind::kPinnedHost,
                            MemoryKind::kUnpinnedHost}) {
      if (PyUnicode_CompareWithASCIIString(obj, memory_kind_name(kind)) == 0) {
        *out = kind;
        return true;
      }
    }
  }
  PyErr_Format(PyExc_ValueError,
               "device_put(): memory_kind must be 'device', 'pinned_host' or "
               "'unpinned_host', got %R",
               obj);
  return false;
}

// ---- device_put -----------------------------------------------------------

// device_put's axis: an int (negative counts from the end) or None
// (replicate); absent means 0. The runtime checks its range.
bool parse_axis(PyObject *obj, std::optional<int64_t> *out) {
  *out = 0;
  if (!obj)
    return true;
  if (obj == Py_None) {
    *out = std::nullopt;
    return true;
  }
  if (!PyLong_Check(obj) || PyBool_Check(obj)) {
    PyErr_Format(PyExc_TypeError,
                 "device_put(): axis must be an int or None, got %R", obj);
    return false;
  }
  long long axis = PyLong_AsLongLong(obj);
  if (axis == -1 && PyErr_Occurred())
    return false;
  *out = axis;
  return true;
}

// The runtime's device_put (validation, sharding, staging), without the GIL
// when it copies enough bytes.
PyObject *put(const Array &src, std::vector<Device> devices, MemoryKind kind,
              const std::optional<int64_t> &axis) {
  Result<Array> placed = maybe_without_gil(src.nbytes(), [&] {
    return device_put(src, std::move(devices), kind, axis);
  });
  if (!placed.ok())
    return raise_status(placed.status());
  return wrap_array(std::move(*placed));
}

// A capsule for anything device_put accepts that is not a shim Array nor a
// __cuda_array_interface__-only object: a raw capsule, a DLPack producer, or
// (through numpy.asarray) anything NumPy turns into an array. `*stream` is
// what the producer was asked to order its work on.
PyObject *capsule_for_put(PyObject *x, std::optional<intptr_t> *stream) {
  if (PyCapsule_CheckExact(x)) {
    Py_INCREF(x);
    return x;
  }
  if (producer_methods(x).dlpack)
    return capsule_from_producer(x, stream);
  PyObject *numpy = PyImport_ImportModule("numpy");
  if (!numpy) {
    PyErr_Format(PyExc_TypeError,
                 "device_put(): cannot place a %.200s: it has no __dlpack__ "
                 "method and NumPy is not available to convert it",
                 Py_TYPE(x)->tp_name);
    return nullptr;
  }
  PyObject *converted = PyObject_CallMethod(numpy, "asarray", "O", x);
  Py_DECREF(numpy);
  if (!converted)
    return nullptr;
  PyObject *capsule = capsule_from_producer(converted, stream);
  Py_DECREF(converted);
  return capsule;
}

// device_put's import of anything but a shim Array, onto `target` (nullopt:
// where the data is): through __cuda_array_interface__ for an object that
// has it and no __dlpack__ (DLPack is preferred when there are both), else
// through a capsule.
PyObject *import_for_put(PyObject *x, const std::optional<Device> &target,
                         ImportOptions options) {
  if (!PyCapsule_CheckExact(x) && !producer_methods(x).dlpack) {
    PyObject *cai = cuda_array_interface_of(x);
    if (cai || PyErr_Occurred()) {
      PyObject *result =
          cai ? import_cuda_array_interface(x, cai, target, options) : nullptr;
      Py_XDECREF(cai);
      return result;
    }
  }
  PyObject *capsule = capsule_for_put(x, &options.stream);
  if (!capsule)
    return nullptr;
  PyObject *result = import_capsule(capsule, target, options);
  Py_DECREF(capsule); // releases the producer's tensor if still unconsumed
  return result;
}

const char *const kDevicePutNames[] = {"x", "device_or_devices", "memory_kind",
                                       "axis"};
Signature device_put_signature{"device_put", kDevicePutNames, 4, 4, 1};

PyObject *py_device_put(PyObject *, PyObject *const *args, Py_ssize_t nargs,
                        PyObject *kwnames) {
  PyObject *a[4];
  if (!bind_arguments(device_put_signature, args, nargs, kwnames, a))
    return nullptr;
  PyObject *x = a[0];
  std::vector<Device> devices;
  MemoryKind kind;
  std::optional<int64_t> axis;
  if (!parse_memory_kind(a[2], &kind) ||
      !parse_devices("device_put", a[1], &devices) || !parse_axis(a[3], &axis))
    return nullptr;
  if (is_array(x))
    return put(unwrap_array(x), std::move(devices), kind, axis);

  if (devices.size() == 1 && devices[0].is_addressable()) {
    // One copy straight onto the device: the result must not alias the
    // producer's (mutable) memory.
    ImportOptions options;
    options.copy = CopyMode::kAlways;
    options.memory_kind = kind;
    return import_for_put(x, devices[0], options);
  }
  // A zero-copy view where the data is, then the runtime's device_put.
  PyObject *view = import_for_put(x, std::nullopt, ImportOptions());
  PyObject *result =
      view ? put(unwrap_array(view), std::move(devices), kind, axis) : nullptr;
  Py_XDECREF(view);
  return result;
}

// ---- from_dlpack ----------------------------------------------------------

// None, a Device, or a list/tuple holding exactly one Device (JAX accepts a
// Sharding, which must span one device).
bool parse_target(PyObject *obj, std::optional<Device> *out) {
  if (!obj || obj == Py_None)
    return true;
  if (is_device(obj)) {
    *out = unwrap_device(obj);
    return true;
  }
  if (PyList_Check(obj) || PyTuple_Check(obj)) {
    Py_ssize_t n = PySequence_Size(obj);
    if (n > 1) {
      PyErr_Format(PyExc_ValueError,
                   "from_dlpack can only unpack a dlpack tensor onto a "
                   "singular device, but a Sharding with %zd devices was "
                   "provided.",
                   n);
      return false;
    }
    if (n == 1) {
      PyObject *item = PySequence_GetItem(obj, 0);
      if (!item)
        return false;
      bool ok = is_device(item);
      if (ok)
        *out = unwrap_device(item);
      Py_DECREF(item);
      if (ok)
        return true;
    }
  }
  PyErr_Format(PyExc_TypeError,
               "from_dlpack(): device must be None, a Device or a list of one "
               "Device, got %R",
               obj);
  return false;
}

// True when `x`'s type has both protocol methods (looked up on the type, as
// for every special method), else false with JAX's TypeError.
bool has_protocol_methods(PyObject *x) {
  ProducerMethods methods = producer_methods(x);
  if (methods.dlpack && methods.dlpack_device)
    return true;
  PyErr_SetString(PyExc_TypeError,
                  "The array passed to from_dlpack must have __dlpack__ and "
                  "__dlpack_device__ methods.");
  return false;
}

// A shim Array, imported without a capsule: JAX's order (its
// __dlpack_device__ refusal of a sharded or TPU-device array first), then
// the runtime's export handed straight to its import.
PyObject *import_shim_array(const Array &array,
                            const std::optional<Device> &target,
                            const ImportOptions &options) {
  Result<DLDevice> device = array_dl_device(array);
  if (!device.ok())
    return raise_status(device.status());
  // Single-device and addressable: array_dl_device() refused anything else.
  // NOLINTBEGIN(interop-sharded-dlpack-export)
  Result<ManagedTensor> tensor = to_dlpack(array);
  // NOLINTEND(interop-sharded-dlpack-export)
  if (!tensor.ok())
    return raise_status(tensor.status());
  Result<Array> imported = detail::import_keep_on_failure(
      tensor->versioned(), target, options, kUnlockGil);
  if (!imported.ok())
    return raise_status(imported.status()); // `tensor` runs the deleter
  (void)tensor->release();                  // the import owns the export now
  return wrap_array(std::move(*imported));
}

// Imports the capsule x.__dlpack__() returned (a new reference, which this
// consumes). On failure the capsule, unconsumed, is released first, so that
// the producer's deleter has run exactly once by the time the error is
// raised (and the producer's capsule destructor never runs with an
// exception set).
PyObject *import_from_producer(PyObject *x, PyObject *capsule,
                               const std::optional<Device> &target,
                               const ImportOptions &options) {
  PyObject *result = import_capsule(capsule, target, options);
  if (result) {
    Py_DECREF(capsule); // renamed: its destructor leaves the tensor alone
    return result;
  }
  std::optional<DLDevice> device;
  if (PyErr_ExceptionMatches(PyExc_TypeError))
    device = capsule_device(capsule);
  bool unsupported_type = device && local_device_for(*device).status().code() ==
                                        StatusCode::kTypeError;
  PyObject *type, *value, *traceback;
  PyErr_Fetch(&type, &value, &traceback);
  Py_DECREF(capsule); // unconsumed: its destructor calls the deleter
  if (!unsupported_type) {
    PyErr_Restore(type, value, traceback);
    return nullptr;
  }
  Py_XDECREF(type);
  Py_XDECREF(value);
  Py_XDECREF(traceback);
  return raise_unsupported_device_type(x, dl::device_type_of(*device));
}

const char *const kFromDlpackNames[] = {"x", "device", "copy"};
Signature from_dlpack_signature{"from_dlpack", kFromDlpackNames, 3, 3, 1};

PyObject *py_from_dlpack(PyObject *, PyObject *const *args, Py_ssize_t nargs,
                         PyObject *kwnames) {
  PyObject *x;
  std::optional<Device> target;
  ImportOptions options;
  if (nargs == 1 && !kwnames) {
    x = args[0]; // from_dlpack(x), the common call: nothing else to parse
  } else {
    PyObject *a[3];
    if (!bind_arguments(from_dlpack_signature, args, nargs, kwnames, a) ||
        !parse_target(a[1], &target) ||
        !parse_copy("from_dlpack", a[2], &options.copy))
      return nullptr;
    x = a[0];
  }
  if (PyCapsule_CheckExact(x))
    return import_capsule(x, target, options);
  if (Py_IS_TYPE(x, &ArrayType))
    return import_shim_array(unwrap_array(x), target, options);
  if (!has_protocol_methods(x))
    return nullptr;
  // The tensor's own device decides the placement; __dlpack_device__ is
  // called only where the producer's type does not tell (see
  // capsule_from_producer), as it costs more than the rest of an import for
  // producers whose method is Python code (torch's is).
  PyObject *capsule = capsule_from_producer(x, &options.stream);
  if (!capsule)
    return nullptr;
  return import_from_producer(x, capsule, target, options);
}

// ---- test hooks -------------------------------------------------------------

PyObject *py_capsule_stats(PyObject *, PyObject *) {
  const CapsuleStats &s = capsule_stats();
  return Py_BuildValue("{s:K,s:K,s:K,s:K,s:K}", "exported", s.exported,
                       "imported", s.imported, "released_unconsumed",
                       s.released_unconsumed, "released_consumed",
                       s.released_consumed, "device_queries", s.device_queries);
}

PyMethodDef module_methods[] = {
    {"configure", as_method(py_configure), METH_FASTCALL | METH_KEYWORDS,
     "configure(*, cpu_devices=1, tpu_devices=0, process_count=1, "
     "process_index=0, cuda_devices=-1)\n--\n\nSets the simulated topology "
     "(device counts per process) before first use."},
    {"devices", as_method(py_devices), METH_FASTCALL | METH_KEYWORDS,
     "devices(platform=None)\n--\n\nEvery process's devices."},
    {"local_devices", as_method(py_local_devices),
     METH_FASTCALL | METH_KEYWORDS,
     "local_devices(platform=None)\n--\n\nThis process's devices."},
    {"device_put", as_method(py_device_put), METH_FASTCALL | METH_KEYWORDS,
     "device_put(x, device_or_devices=None, memory_kind='device', "
     "axis=0)\n--\n\nCopies x (a NumPy array, a DLPack producer or capsule, "
     "or an Array) onto one device, or onto several split along axis "
     "(axis=None replicates)."},
    {"from_dlpack", as_method(py_from_dlpack), METH_FASTCALL | METH_KEYWORDS,
     "from_dlpack(x, device=None, copy=None)\n--\n\nImports an object with "
     "__dlpack__/__dlpack_device__, or a DLPack capsule; zero-copy where "
     "possible."},
    {"_reset_for_testing", py_reset_for_testing, METH_NOARGS,
     "Forgets the topology so that tests can configure() again."},
    {"_capsule_stats", py_capsule_stats, METH_NOARGS,
     "Counters of capsules exported, imported and released (for tests)."},
    {nullptr, nullptr, 0, nullptr},
};

PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    "interop_shim",
    "JAX-style arrays over the interop_shim runtime, exchanged through "
    "DLPack. See docs/python.md.",
    -1,
    module_methods,
    nullptr,
    nullptr,
    nullptr,
    nullptr,
};

} // namespace
} // namespace python
} // namespace interop

PyMODINIT_FUNC PyInit_interop_shim(void) {
  using namespace interop::python;
  if (PyType_Ready(&DeviceType) < 0 || PyType_Ready(&ArrayType) < 0)
    return nullptr;
  PyObject *module = PyModule_Create(&module_def);
  if (!module)
    return nullptr;
  // The newest DLPack ABI this module produces and consumes.
  PyObject *version = Py_BuildValue("(II)", interop::kDLPackVersion.major,
                                    interop::kDLPackVersion.minor);
  if (PyModule_AddObjectRef(module, "Device",
                            reinterpret_cast<PyObject *>(&DeviceType)) < 0 ||
      PyModule_AddObjectRef(module, "Array",
                            reinterpret_cast<PyObject *>(&ArrayType)) < 0 ||
      !version ||
      PyModule_AddObjectRef(module, "DLPACK_VERSION", version) < 0 ||
      PyModule_AddStringConstant(module, "__version__", INTEROP_SHIM_VERSION) <
          0) {
    Py_XDECREF(version);
    Py_DECREF(module);
    return nullptr;
  }
  Py_DECREF(version);
  return module;
}
