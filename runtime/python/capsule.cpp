// The DLPack PyCapsule protocol: exported capsules, consumed capsules, the
// negotiation with producers, and the buffer-protocol fallback for arrays
// that older producers refuse to export.
//
// Ownership rules this file implements (dlpack.md, "Python protocol"):
// - an exported capsule owns its tensor while it is named "dltensor" /
//   "dltensor_versioned"; its destructor calls the deleter only then,
//   tolerates a NULL deleter and preserves an exception in flight;
// - a consumer renames the capsule to "used_..." only once its import
//   succeeded; until then the capsule, not the consumer, owns the tensor;
// - a deleter that touches Python objects takes the GIL, because the last
//   reference to a zero-copy import may go away on any thread.
#include "shim_python.h"

#include <cstdlib>
#include <cstring>
#include <new>
#include <vector>

namespace interop {
namespace python {

namespace {
// Other Python threads run while an export or import copies.
void *release_gil() { return PyEval_SaveThread(); }
void reacquire_gil(void *state) {
  PyEval_RestoreThread(static_cast<PyThreadState *>(state));
}
} // namespace

const detail::CopyUnlock kUnlockGil{kReleaseGilBytes, &release_gil,
                                    &reacquire_gil};

CapsuleStats &capsule_stats() {
  static CapsuleStats stats;
  return stats;
}

namespace {

// ---- producer side ------------------------------------------------------

template <typename Managed, const char *Name>
void release_unconsumed(PyObject *capsule) {
  // A consumer renamed the capsule when it took ownership: nothing to do.
  // The name is still the very pointer it was created with unless a
  // consumer renamed it; the string compare covers a rename to an equal
  // string.
  const char *name = PyCapsule_GetName(capsule);
  if (name != Name && (!name || std::strcmp(name, Name) != 0)) {
    ++capsule_stats().released_consumed;
    return;
  }
  ++capsule_stats().released_unconsumed;
  // The context holds the same pointer (new_owning_capsule); reading it
  // skips the name comparison PyCapsule_GetPointer makes, which cost a
  // twentieth of an export's round trip.
  auto *managed = static_cast<Managed *>(PyCapsule_GetContext(capsule));
  if (!managed) // not one of ours after all: the checked read
    managed = static_cast<Managed *>(PyCapsule_GetPointer(capsule, name));
  if (!managed || !managed->deleter)
    return;
  if (!PyErr_Occurred()) {
    managed->deleter(managed);
    return;
  }
  // The deleter may drop the last reference to Python objects (a zero-copy
  // import of a NumPy array, say), whose finalisers would clobber an
  // exception that is propagating while this capsule dies.
  PyObject *type, *value, *traceback;
  PyErr_Fetch(&type, &value, &traceback);
  managed->deleter(managed);
  PyErr_Restore(type, value, traceback);
}

// The capsule's context is the tensor too: its destructor reads it without a
// name comparison.
PyObject *with_context(PyObject *capsule, void *managed) {
  if (capsule && PyCapsule_SetContext(capsule, managed) != 0)
    PyErr_Clear(); // cannot fail on a capsule just made; GetPointer remains
  return capsule;
}
PyObject *new_owning_capsule(DLManagedTensorVersioned *managed) {
  return with_context(
      PyCapsule_New(
          managed, kVersionedName,
          &release_unconsumed<DLManagedTensorVersioned, kVersionedName>),
      managed);
}
PyObject *new_owning_capsule(DLManagedTensor *managed) {
  return with_context(
      PyCapsule_New(managed, kLegacyName,
                    &release_unconsumed<DLManagedTensor, kLegacyName>),
      managed);
}

// ---- consumer side ------------------------------------------------------

// The import itself. The runtime's public from_dlpack() takes ownership on
// every path and calls the deleter at once when the import fails, but a
// failed import must leave the producer's tensor with its capsule
// (unrenamed, as the protocol requires). import_keep_on_failure() is
// from_dlpack() with exactly that difference: on failure the capsule still
// owns the tensor, and on success ownership has passed to the runtime (which
// has already called the deleter if it copied), so the capsule is renamed.
// The capsule is renamed before the import, not after: a large copy runs
// without the GIL, and another thread importing the same capsule meanwhile
// must find it taken ("already consumed"), not import it a second time. A
// failed import gives the capsule its own name back.
template <typename Managed>
PyObject *import_as(PyObject *capsule, const char *name, const char *used_name,
                    const std::optional<Device> &target,
                    const ImportOptions &options) {
  auto *managed = static_cast<Managed *>(PyCapsule_GetPointer(capsule, name));
  if (!managed)
    return nullptr; // unreachable: the name matched and capsules hold non-NULL
  if (PyCapsule_SetName(capsule, used_name) != 0)
    return nullptr;
  Result<Array> result =
      detail::import_keep_on_failure(managed, target, options, kUnlockGil);
  if (!result.ok()) {
    // The capsule still owns the tensor: its destructor must release it.
    if (PyCapsule_SetName(capsule, name) != 0)
      return nullptr;
    return raise_status(result.status());
  }
  ++capsule_stats().imported;
  return wrap_array(std::move(*result));
}

// ---- buffer-protocol fallback -------------------------------------------

// A Py_buffer presented as a DLPack tensor. Shape and strides follow the
// struct in the same allocation.
struct BufferTensor {
  DLManagedTensorVersioned managed;
  Py_buffer view;
};

void buffer_tensor_deleter(DLManagedTensorVersioned *self) {
  auto *tensor = reinterpret_cast<BufferTensor *>(self);
  // Releasing the view drops a reference to the exporting object, which
  // needs the GIL; the runtime may drop the last reference on any thread.
  // During interpreter teardown the object is leaked instead of touched.
  if (Py_IsInitialized()) {
    PyGILState_STATE gil = PyGILState_Ensure();
    PyObject *type, *value, *traceback;
    PyErr_Fetch(&type, &value, &traceback);
    PyBuffer_Release(&tensor->view);
    PyErr_Restore(type, value, traceback);
    PyGILState_Release(gil);
  }
  std::free(tensor);
}

// The DLDataType of a native-order struct-module format, or false.
bool dtype_from_format(const char *format, Py_ssize_t itemsize,
                       DLDataType *out) {
  if (!format)
    format = "B";
  if (*format == '@' || *format == '=' ||
      *format == (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? '<' : '>'))
    ++format;
  if (itemsize <= 0 || itemsize > 16)
    return false;
  uint8_t bits = static_cast<uint8_t>(itemsize * 8);
  if (format[0] == 'Z' &&
      (format[1] == 'e' || format[1] == 'f' || format[1] == 'd') &&
      format[2] == '\0') {
    *out = DLDataType{dl::kComplex, bits, 1};
    return true;
  }
  if (format[0] == '\0' || format[1] != '\0')
    return false;
  switch (format[0]) {
  case '?':
    *out = DLDataType{dl::kBool, bits, 1};
    return itemsize == 1;
  case 'b':
  case 'h':
  case 'i':
  case 'l':
  case 'q':
  case 'n':
    *out = DLDataType{dl::kInt, bits, 1};
    return true;
  case 'B':
  case 'H':
  case 'I':
  case 'L':
  case 'Q':
  case 'N':
    *out = DLDataType{dl::kUInt, bits, 1};
    return true;
  case 'e':
  case 'f':
  case 'd':
    *out = DLDataType{dl::kFloat, bits, 1};
    return true;
  default:
    return false;
  }
}

// Presents `obj`'s buffer as an owning "dltensor_versioned" capsule (READ_ONLY
// when the buffer is), or returns nullptr with an exception naming what
// cannot be represented.
PyObject *capsule_from_buffer(PyObject *obj) {
  Py_buffer view;
  if (PyObject_GetBuffer(obj, &view, PyBUF_RECORDS_RO) != 0)
    return nullptr;
  DLDataType dtype;
  if (!dtype_from_format(view.format, view.itemsize, &dtype)) {
    PyErr_Format(PyExc_BufferError,
                 "cannot import a buffer of format '%s' (itemsize %zd): "
                 "only native-order bool, integer, float and complex "
                 "elements map to DLPack",
                 view.format ? view.format : "B", view.itemsize);
    PyBuffer_Release(&view);
    return nullptr;
  }
  size_t ndim = static_cast<size_t>(view.ndim);
  auto *tensor = static_cast<BufferTensor *>(
      std::malloc(sizeof(BufferTensor) + 2 * ndim * sizeof(int64_t)));
  if (!tensor) {
    PyBuffer_Release(&view);
    return PyErr_NoMemory();
  }
  auto *shape = reinterpret_cast<int64_t *>(tensor + 1);
  int64_t *strides = shape + ndim;
  for (size_t d = 0; d < ndim; ++d) {
    shape[d] = view.shape[d];
    if (view.strides[d] % view.itemsize != 0) {
      PyErr_Format(PyExc_BufferError,
                   "cannot import a buffer whose stride %zd (dimension %zu) "
                   "is not a multiple of its itemsize %zd",
                   view.strides[d], d, view.itemsize);
      std::free(tensor);
      PyBuffer_Release(&view);
      return nullptr;
    }
    strides[d] = view.strides[d] / view.itemsize;
  }
  tensor->view = view; // the struct now owns the view
  DLManagedTensorVersioned &managed = tensor->managed;
  managed.version = kDLPackVersion;
  managed.manager_ctx = nullptr;
  managed.deleter = &buffer_tensor_deleter;
  managed.flags = view.readonly ? dl::kFlagReadOnly : 0;
  managed.dl_tensor.data = view.buf;
  managed.dl_tensor.device = DLDevice{kDLCPU, 0};
  managed.dl_tensor.ndim = static_cast<int32_t>(ndim);
  managed.dl_tensor.dtype = dtype;
  managed.dl_tensor.shape = ndim ? shape : nullptr;
  managed.dl_tensor.strides = ndim ? strides : nullptr;
  managed.dl_tensor.byte_offset = 0;
  PyObject *capsule = new_owning_capsule(&managed);
  if (!capsule)
    buffer_tensor_deleter(&managed);
  return capsule;
}

// ---- negotiation --------------------------------------------------------

PyObject *g_max_version_kw;        // ("max_version",)
PyObject *g_max_version_stream_kw; // ("max_version", "stream")
PyObject *g_stream_kw;             // ("stream",)
PyObject *g_max_version_value;     // (1, 1)

bool init_negotiation() {
  if (g_max_version_value)
    return true;
  // Interned, so that a producer's argument parser matches it by pointer.
  g_max_version_kw = PyTuple_Pack(1, interned("max_version"));
  g_max_version_stream_kw =
      PyTuple_Pack(2, interned("max_version"), interned("stream"));
  g_stream_kw = PyTuple_Pack(1, interned("stream"));
  g_max_version_value =
      Py_BuildValue("(II)", kDLPackVersion.major, kDLPackVersion.minor);
  return g_max_version_kw && g_max_version_stream_kw && g_stream_kw &&
         g_max_version_value;
}

// ---- where a producer's tensor is, before asking for it ---------------------

// How the device of a producer type's tensors is learnt. The answer decides
// the `stream` argument, which matters only for GPU memory, so the cheap
// answers come first; a type that can hold tensors of several devices is
// asked per object.
enum class DeviceRule : uint8_t {
  kAsk,   // call __dlpack_device__
  kHost,  // numpy.ndarray's own __dlpack_device__: always CPU memory
  kTorch, // torch.Tensor's own: the C-level is_cuda attribute, then ask
  kNone,  // no __dlpack_device__ at all (device_put accepts such producers)
};

// What the module knows of a producer type: the methods it has and how the
// device of its tensors is learnt, found once and valid while the type's
// version tag is the one it was found under (CPython gives a type a new tag
// whenever an attribute of it or of a base is set, so a patched method is
// read again, and an unchanged type costs a pointer compare instead of three
// method lookups per import). `legacy` outlives a change: the type's
// __dlpack__ rejected max_version once. Few producer types exist in a
// process, so a short array beats a dict; its references keep the type
// pointers meaningful.
struct ProducerType {
  PyTypeObject *type = nullptr;
  unsigned int version = 0;
  // __dlpack__ as found on the type (borrowed: the type's dict holds it
  // while the version tag stands); nullptr when the type has none.
  PyObject *dlpack = nullptr;
  DeviceRule rule = DeviceRule::kNone;
  bool legacy = false;
};
constexpr size_t kProducerTypeCapacity = 16;
ProducerType g_producer_types[kProducerTypeCapacity];
size_t g_producer_type_count;

PyObject *dlpack_method_name() {
  static PyObject *name = interned("__dlpack__");
  return name;
}

PyObject *device_method_name() {
  static PyObject *name = interned("__dlpack_device__");
  return name;
}

// `module_name`.`attr` if that module is already imported (no import is
// triggered: an object of the type exists only if its module was loaded).
// New reference or nullptr, never an exception.
PyObject *loaded_type(const char *module_name, const char *attr) {
  PyObject *name = PyUnicode_FromString(module_name);
  PyObject *module = name ? PyImport_GetModule(name) : nullptr;
  Py_XDECREF(name);
  PyObject *type = module ? PyObject_GetAttrString(module, attr) : nullptr;
  Py_XDECREF(module);
  if (type && !PyType_Check(type))
    Py_CLEAR(type);
  PyErr_Clear();
  return type;
}

// True when `type` inherits `owner_module`.`owner`'s own __dlpack_device__
// (`descr`, found on `type`).
bool inherits_device_method(PyTypeObject *type, PyObject *descr,
                            const char *owner_module, const char *owner) {
  PyObject *base = loaded_type(owner_module, owner);
  if (!base)
    return false;
  bool same = PyType_IsSubtype(type, reinterpret_cast<PyTypeObject *>(base)) &&
              _PyType_Lookup(reinterpret_cast<PyTypeObject *>(base),
                             device_method_name()) == descr;
  Py_DECREF(base);
  return same;
}

bool has_version_tag(PyTypeObject *type) {
  return PyType_HasFeature(type, Py_TPFLAGS_VALID_VERSION_TAG) &&
         type->tp_version_tag != 0;
}

ProducerType *memo_slot(PyTypeObject *type) {
  for (size_t i = 0; i < g_producer_type_count; ++i)
    if (g_producer_types[i].type == type)
      return &g_producer_types[i];
  return nullptr;
}

// A copy of what is known of `type`, found again when the type changed. No
// Python code runs here once the type is known; the first time it reads
// numpy.ndarray and torch.Tensor from the loaded modules.
ProducerType producer_type(PyTypeObject *type) {
  ProducerType *slot = memo_slot(type);
  if (slot && has_version_tag(type) && slot->version == type->tp_version_tag)
    return *slot;
  // The lookups also give the type a version tag if it had none.
  PyObject *device = _PyType_Lookup(type, device_method_name());
  ProducerType found;
  found.type = type;
  found.dlpack = _PyType_Lookup(type, dlpack_method_name());
  found.rule = device ? DeviceRule::kAsk : DeviceRule::kNone;
  if (!found.dlpack)
    return found; // no producer: not worth a place in the memo
  if (device && inherits_device_method(type, device, "numpy", "ndarray"))
    found.rule = DeviceRule::kHost;
  else if (device && inherits_device_method(type, device, "torch", "Tensor"))
    found.rule = DeviceRule::kTorch;
  found.legacy = slot && slot->legacy;
  if (!has_version_tag(type))
    return found; // nothing would tell a later change: found again next time
  found.version = type->tp_version_tag;
  if (!slot && g_producer_type_count < kProducerTypeCapacity) {
    Py_INCREF(type);
    slot = &g_producer_types[g_producer_type_count++];
  }
  if (slot)
    *slot = found;
  return found;
}

// Remembers that `type`'s __dlpack__ predates max_version.
void remember_legacy(PyTypeObject *type) {
  if (ProducerType *slot = memo_slot(type))
    slot->legacy = true;
}

// For a torch tensor: false when it is not CUDA (or ROCm) memory, read from
// the is_cuda attribute (a C getter), which is far cheaper than torch's
// Python __dlpack_device__. -1 with an exception on failure.
int torch_is_gpu(PyObject *obj) {
  static PyObject *name = interned("is_cuda");
  PyObject *value = PyObject_GetAttr(obj, name);
  if (!value)
    return -1;
  int gpu = PyObject_IsTrue(value);
  Py_DECREF(value);
  return gpu;
}

// The device `obj`'s tensor will be on, from its __dlpack_device__; nullopt
// when the rule says host memory (no call is made then). `*ran_python` says
// whether Python code may have run (which could have changed the type).
bool producer_device(PyObject *obj, const ProducerType &known,
                     std::optional<DLDevice> *out, bool *ran_python) {
  *ran_python = false;
  switch (known.rule) {
  case DeviceRule::kHost:
  case DeviceRule::kNone:
    return true;
  case DeviceRule::kTorch: {
    *ran_python = true; // a subclass may make is_cuda a Python property
    int gpu = torch_is_gpu(obj);
    if (gpu <= 0)
      return gpu == 0;
    break;
  }
  case DeviceRule::kAsk:
    break;
  }
  ++capsule_stats().device_queries;
  *ran_python = true;
  PyObject *args[1] = {obj};
  PyObject *answer = call_special(obj, device_method_name(), args, 1, nullptr);
  if (!answer)
    return false;
  DLDevice device;
  bool ok = parse_dl_device("__dlpack_device__()", answer, &device);
  Py_DECREF(answer);
  if (ok)
    *out = device;
  return ok;
}

} // namespace

PyObject *interned(const char *name) {
  PyObject *s = PyUnicode_InternFromString(name);
  if (!s)
    Py_FatalError("interop_shim: cannot intern a method name");
  return s;
}

PyObject *call_special(PyObject *obj, PyObject *name, PyObject *const *args,
                       size_t nargs, PyObject *kwnames) {
  return call_special_found(_PyType_Lookup(Py_TYPE(obj), name), name, args,
                            nargs, kwnames);
}

PyObject *call_special_found(PyObject *descr, PyObject *name,
                             PyObject *const *args, size_t nargs,
                             PyObject *kwnames) {
  // args[0] is obj. A function or method descriptor found on the type is
  // called unbound, which is what a method call does minus the lookup.
  if (descr && PyType_HasFeature(Py_TYPE(descr), Py_TPFLAGS_METHOD_DESCRIPTOR))
    return PyObject_Vectorcall(descr, args, nargs, kwnames);
  return PyObject_VectorcallMethod(name, const_cast<PyObject **>(args), nargs,
                                   kwnames);
}

namespace {

// obj.__dlpack__(stream=...) and obj.__dlpack__(max_version=(1, 1),
// stream=...), through `descr` (__dlpack__ as just found on obj's type, or
// nullptr to look it up); `stream` nullptr: the argument is left out, as a
// host-memory producer (NumPy) may refuse it.
PyObject *call_legacy(PyObject *obj, PyObject *descr, PyObject *stream) {
  PyObject *args[2] = {obj, stream};
  return call_special_found(descr, dlpack_method_name(), args, 1,
                            stream ? g_stream_kw : nullptr);
}

PyObject *call_versioned(PyObject *obj, PyObject *descr, PyObject *stream) {
  PyObject *args[3] = {obj, g_max_version_value, stream};
  return call_special_found(descr, dlpack_method_name(), args, 1,
                            stream ? g_max_version_stream_kw
                                   : g_max_version_kw);
}

} // namespace

PyObject *export_capsule(ManagedTensor &tensor) {
  PyObject *capsule =
      tensor.is_versioned()
          ? new_owning_capsule(tensor.versioned())
          : (tensor.legacy() ? new_owning_capsule(tensor.legacy()) : nullptr);
  if (!capsule) {
    if (!PyErr_Occurred())
      PyErr_SetString(PyExc_RuntimeError,
                      "to_dlpack returned an empty ManagedTensor");
    return nullptr; // the caller's ManagedTensor runs the deleter
  }
  (void)tensor.release(); // the capsule owns it now
  ++capsule_stats().exported;
  return capsule;
}

namespace {
// strcmp(name, Literal) == 0 for a literal known here, unrolled inline: it
// runs on every import, where the library calls showed in profiles.
template <size_t N> bool name_is(const char *name, const char (&literal)[N]) {
  for (size_t i = 0; i < N; ++i) // compares the terminator too
    if (name[i] != literal[i])
      return false;
  return true;
}
} // namespace

PyObject *import_capsule(PyObject *capsule, const std::optional<Device> &target,
                         const ImportOptions &options) {
  const char *name = PyCapsule_GetName(capsule);
  if (!name && PyErr_Occurred())
    return nullptr;
  if (name && name_is(name, kVersionedName))
    return import_as<DLManagedTensorVersioned>(
        capsule, kVersionedName, kUsedVersionedName, target, options);
  if (name && name_is(name, kLegacyName))
    return import_as<DLManagedTensor>(capsule, kLegacyName, kUsedLegacyName,
                                      target, options);
  if (name && (std::strcmp(name, kUsedVersionedName) == 0 ||
               std::strcmp(name, kUsedLegacyName) == 0))
    PyErr_Format(PyExc_ValueError,
                 "from_dlpack: the DLPack capsule is named \"%s\": it was "
                 "already consumed, and a capsule can be consumed only once",
                 name);
  else
    PyErr_Format(PyExc_ValueError,
                 "from_dlpack: expected a PyCapsule named \"dltensor\" or "
                 "\"dltensor_versioned\", got one named %s%s%s",
                 name ? "\"" : "", name ? name : "NULL", name ? "\"" : "");
  return nullptr;
}

std::optional<DLDevice> capsule_device(PyObject *capsule) {
  const char *name = PyCapsule_GetName(capsule);
  if (!name) {
    PyErr_Clear();
    return std::nullopt;
  }
  if (name_is(name, kVersionedName)) {
    auto *m = static_cast<DLManagedTensorVersioned *>(
        PyCapsule_GetPointer(capsule, name));
    if (m && m->version.major == DLPACK_MAJOR_VERSION)
      return m->dl_tensor.device;
  } else if (name_is(name, kLegacyName)) {
    if (auto *m =
            static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule, name)))
      return m->dl_tensor.device;
  }
  PyErr_Clear();
  return std::nullopt;
}

ProducerMethods producer_methods(PyObject *obj) {
  ProducerType known = producer_type(Py_TYPE(obj));
  return {known.dlpack != nullptr, known.rule != DeviceRule::kNone};
}

PyObject *raise_unsupported_device_type(PyObject *x, int32_t type) {
  PyErr_Format(PyExc_TypeError,
               "Array passed to from_dlpack is on unsupported device type "
               "(DLDeviceType: %d, array: %S",
               static_cast<int>(type), x);
  return nullptr;
}

PyObject *capsule_from_producer(PyObject *obj,
                                std::optional<intptr_t> *stream) {
  if (!init_negotiation())
    return nullptr;
  // Where the tensor will be decides the stream the producer orders its
  // work on; a device this process cannot import from fails here, before
  // the producer is asked for anything.
  ProducerType known = producer_type(Py_TYPE(obj));
  std::optional<DLDevice> device;
  bool ran_python;
  if (!producer_device(obj, known, &device, &ran_python))
    return nullptr;
  // The __dlpack__ found with the type stands unless Python code ran since.
  PyObject *dlpack = ran_python ? nullptr : known.dlpack;
  stream->reset();
  if (device) {
    Result<std::optional<intptr_t>> consumer = dlpack_consumer_stream(*device);
    if (!consumer.ok()) {
      if (consumer.status().code() == StatusCode::kTypeError)
        return raise_unsupported_device_type(obj, dl::device_type_of(*device));
      return raise_status(consumer.status());
    }
    *stream = *consumer;
  }
  PyObject *stream_value = nullptr;
  if (*stream) {
    stream_value = PyLong_FromSsize_t(**stream);
    if (!stream_value)
      return nullptr;
  }
  PyObject *capsule = nullptr;
  if (known.legacy) {
    capsule = call_legacy(obj, dlpack, stream_value);
  } else {
    capsule = call_versioned(obj, dlpack, stream_value);
    if (!capsule && PyErr_ExceptionMatches(PyExc_TypeError)) {
      // Producers written before max_version existed reject the keyword;
      // the standard's fallback is the plain call, which yields the legacy
      // struct. Remembered per type so the TypeError is paid once. Should
      // the plain call fail too, its complaint (about the array) stands.
      PyErr_Clear();
      capsule = call_legacy(obj, nullptr, stream_value);
      if (capsule)
        remember_legacy(Py_TYPE(obj));
    }
  }
  Py_XDECREF(stream_value);
  if (!capsule && PyErr_ExceptionMatches(PyExc_BufferError) &&
      PyObject_CheckBuffer(obj)) {
    // NumPy < 2 refuses read-only and bool arrays ("signalling readonly is
    // unsupported by DLPack"); its buffer protocol describes them exactly,
    // READ_ONLY included, so they are imported through it instead.
    PyObject *et, *ev, *tb;
    PyErr_Fetch(&et, &ev, &tb);
    capsule = capsule_from_buffer(obj);
    if (capsule) {
      Py_XDECREF(et);
      Py_XDECREF(ev);
      Py_XDECREF(tb);
    } else {
      PyErr_Clear();
      PyErr_Restore(et, ev, tb);
    }
  }
  if (capsule && !PyCapsule_CheckExact(capsule)) {
    PyErr_Format(PyExc_TypeError,
                 "%.200s.__dlpack__() returned %.200s, not a PyCapsule",
                 Py_TYPE(obj)->tp_name, Py_TYPE(capsule)->tp_name);
    Py_DECREF(capsule);
    return nullptr;
  }
  return capsule;
}

} // namespace python
} // namespace interop
