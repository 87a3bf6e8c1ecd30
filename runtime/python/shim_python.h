// shim_python.h - declarations shared by the interop_shim extension module.
//
// The module is a thin CPython binding over the runtime (<interop/interop.h>):
// every validation and every error message comes from the runtime, the
// binding only translates arguments, Status codes and the PyCapsule protocol.
// See docs/python.md.
#ifndef INTEROP_PYTHON_SHIM_PYTHON_H
#define INTEROP_PYTHON_SHIM_PYTHON_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "exchange_internal.h" // runtime/src: the GIL around copies
#include "interop/interop.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace interop {
namespace python {

// ---- errors and arguments (args.cpp) -------------------------------------

// Raises the Python exception that `status.code()` names (through
// python_exception_name()) with the runtime's message; returns nullptr so
// callers can `return raise_status(...)`.
PyObject *raise_status(const Status &status);

// The parameters of one Python-visible function, for bind_arguments(). The
// names are interned once so that keyword lookups are pointer compares.
struct Signature {
  const char *function;          // "from_dlpack", used in TypeErrors
  const char *const *names;      // every parameter, in positional order
  Py_ssize_t count;              // number of names
  Py_ssize_t max_positional;     // leading names that may be positional
  Py_ssize_t required;           // leading names that must be present
  PyObject **interned = nullptr; // filled on first use
};

// Binds METH_FASTCALL|METH_KEYWORDS arguments to `sig`'s names: out[i] is a
// borrowed reference or nullptr when absent. False with a TypeError naming
// the function and the argument on too many positionals, an unknown or
// repeated keyword, or a missing required argument.
bool bind_arguments(Signature &sig, PyObject *const *args, Py_ssize_t nargs,
                    PyObject *kwnames, PyObject **out);

// Python's copy=None/True/False as a CopyMode (nullptr means None). False
// with a TypeError naming the value for anything else.
bool parse_copy(const char *function, PyObject *value, CopyMode *out);
// A (device_type, device_id) pair of ints, as __dlpack_device__ returns and
// dl_device takes. False with a TypeError or ValueError naming the value.
bool parse_dl_device(const char *what, PyObject *value, DLDevice *out);
// The (device_type, device_id) tuple for `device` (device_type read raw).
PyObject *dl_device_tuple(const DLDevice &device);

// A METH_FASTCALL|METH_KEYWORDS function for a PyMethodDef slot, which is
// typed PyCFunction; CPython calls it with the right signature (the cast
// through void(*)() is the documented idiom).
using FastcallFunction = PyObject *(*)(PyObject *, PyObject *const *,
                                       Py_ssize_t, PyObject *);
inline PyCFunction as_method(FastcallFunction f) noexcept {
  return reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(f));
}

// ---- the GIL around long work ----------------------------------------------

// Copies and gathers of at least this many bytes run without the GIL, so
// that other Python threads run meanwhile. Below it the GIL is kept:
// releasing and retaking it costs more than copying that much.
inline constexpr size_t kReleaseGilBytes = size_t(1) << 20;

// The GIL as the runtime's export and import let it go around their copies
// of at least kReleaseGilBytes (the producer's deleter runs with it held).
extern const detail::CopyUnlock kUnlockGil;

// f(), with the GIL released while it runs when `nbytes` (what f copies)
// reaches kReleaseGilBytes. f must not touch Python objects.
template <typename F> auto maybe_without_gil(size_t nbytes, F &&f) {
  if (nbytes < kReleaseGilBytes)
    return f();
  PyThreadState *state = PyEval_SaveThread();
  auto result = f();
  PyEval_RestoreThread(state);
  return result;
}

// ---- Device (device_object.cpp) ------------------------------------------

extern PyTypeObject DeviceType;
PyObject *wrap_device(const Device &device);
inline bool is_device(PyObject *obj) {
  return PyObject_TypeCheck(obj, &DeviceType);
}
const Device &unwrap_device(PyObject *obj); // precondition: is_device(obj)
// A list of Device objects.
PyObject *device_list(const std::vector<Device> &devices);

// ---- Array (array_object.cpp) --------------------------------------------

struct ArrayObject {
  PyObject_HEAD Array array;
};
extern PyTypeObject ArrayType;
// Wraps `array` in a new Python Array (nullptr with MemoryError on failure).
PyObject *wrap_array(Array array);
inline bool is_array(PyObject *obj) {
  return PyObject_TypeCheck(obj, &ArrayType);
}
inline const Array &unwrap_array(PyObject *obj) {
  return reinterpret_cast<ArrayObject *>(obj)->array;
}
// What Array.__dlpack_device__() answers, as a DLDevice: JAX's BufferError
// for a sharded or TPU-device array.
Result<DLDevice> array_dl_device(const Array &array);

// ---- the capsule protocol (capsule.cpp) ----------------------------------

// The capsule names of the DLPack Python protocol.
inline constexpr const char kLegacyName[] = "dltensor";
inline constexpr const char kVersionedName[] = "dltensor_versioned";
inline constexpr const char kUsedLegacyName[] = "used_dltensor";
inline constexpr const char kUsedVersionedName[] = "used_dltensor_versioned";

// Wraps an export in a PyCapsule named for its kind, whose destructor calls
// the deleter only while the capsule is unconsumed; `tensor` is left empty.
// On failure `tensor` still owns the export (its destructor runs the
// deleter) and nullptr is returned.
PyObject *export_capsule(ManagedTensor &tensor);

// Consumes a "dltensor" or "dltensor_versioned" capsule into an Array on
// `target` (nullopt: the local device the tensor names). The capsule is
// renamed to its used_ name only when the import succeeded; on failure it
// keeps ownership and its own destructor releases the tensor. A used or
// foreign capsule is refused with a ValueError naming it. Returns nullptr
// with an exception set on failure.
PyObject *import_capsule(PyObject *capsule, const std::optional<Device> &target,
                         const ImportOptions &options);

// The device the tensor in an unconsumed "dltensor" or "dltensor_versioned"
// capsule reports; nullopt for any other capsule and for a versioned tensor
// of another major version (whose other fields must not be read).
std::optional<DLDevice> capsule_device(PyObject *capsule);

// Asks `obj` for a capsule: `obj.__dlpack__(max_version=(1, 1))`, falling
// back to the legacy `obj.__dlpack__()` for producers that predate
// max_version (NumPy < 2, PyTorch < 2.4; remembered per type), and to the
// buffer protocol for read-only buffers that such producers refuse to
// export. New reference, or nullptr with the producer's exception.
//
// The stream handshake: a tensor in GPU memory gets `stream=` the runtime's
// stream on that GPU (dlpack_consumer_stream()), so the producer orders its
// pending work before the hand-off; `*stream` is set to it (nullopt for host
// memory), for the import's ImportOptions::stream. Where the tensor is comes
// from the producer's type when that is enough (a numpy.ndarray is CPU
// memory; a torch.Tensor's is_cuda attribute), else from one
// __dlpack_device__ call. A device this process cannot import from fails
// before __dlpack__ is called (JAX's TypeError for an unsupported device
// type, a RuntimeError naming a missing device).
PyObject *capsule_from_producer(PyObject *obj, std::optional<intptr_t> *stream);

// Which protocol methods `obj`'s type has (looked up on the type, as for
// every special method), from the same per-type memo that
// capsule_from_producer() uses.
struct ProducerMethods {
  bool dlpack;        // __dlpack__
  bool dlpack_device; // __dlpack_device__
};
ProducerMethods producer_methods(PyObject *obj);

// JAX's TypeError for a producer whose tensor is on a device type with no
// platform here. JAX formats the type that __dlpack_device__ returned
// (f"{dl_device_type}": an int, or an IntEnum, which formats as its int)
// and str(x). Returns nullptr.
PyObject *raise_unsupported_device_type(PyObject *x, int32_t type);

// ---- __cuda_array_interface__ consumer (cuda_interface.cpp) --------------

// x.__cuda_array_interface__ (new reference); nullptr without an exception
// when x has none, with one when reading it failed.
PyObject *cuda_array_interface_of(PyObject *x);
// Imports the memory `interface` (x's __cuda_array_interface__ dict)
// describes through from_cuda_array_interface(), keeping x alive while the
// result views it. TypeError/KeyError/ValueError name a malformed entry.
PyObject *import_cuda_array_interface(PyObject *x, PyObject *interface,
                                      const std::optional<Device> &target,
                                      const ImportOptions &options);

// A new reference to the interned string `name`, for static caches.
PyObject *interned(const char *name);
// Calls the special method `name` of `obj` (args[0] must be obj; nargs
// counts it) with a type lookup instead of a bound-method object, as the
// interpreter does for dunder methods.
PyObject *call_special(PyObject *obj, PyObject *name, PyObject *const *args,
                       size_t nargs, PyObject *kwnames);
// The same with `descr`, what _PyType_Lookup(Py_TYPE(obj), name) returned
// (borrowed), when the caller just looked it up: valid only if no Python
// code ran since, which could have changed the type.
PyObject *call_special_found(PyObject *descr, PyObject *name,
                             PyObject *const *args, size_t nargs,
                             PyObject *kwnames);

// Counters for tests: capsules exported, consumed by this module, and
// released by their destructor with and without calling the deleter; the
// producers asked for their device.
struct CapsuleStats {
  unsigned long long exported = 0;
  unsigned long long imported = 0;
  unsigned long long released_unconsumed = 0;
  unsigned long long released_consumed = 0;
  // __dlpack_device__ calls made to learn where a producer's tensor is.
  unsigned long long device_queries = 0;
};
CapsuleStats &capsule_stats();

} // namespace python
} // namespace interop

#endif // INTEROP_PYTHON_SHIM_PYTHON_H
